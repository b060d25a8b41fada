"""``kbdraughts play`` with standard input a pipe: plain lines, no escape codes, scriptable;
and its command-line errors. These run the real engine (level 1) in a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from kbdraughts.pdn import read_pdn_file
from kbdraughts.ui.autosave import games_dir


def play(*args: str, keys: str = "quit\n", encoding: str = "utf-8") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kbdraughts.cli", *args], input=keys, capture_output=True,
        text=True, timeout=120, env={**os.environ, "PYTHONIOENCODING": encoding},
    )


def test_a_scripted_game_in_plain_text():
    out = play("play", "--level", "1", keys="c3-d4\nfen\nxyz\nc3-e5\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout
    assert "1. White to move: c3-d4" in out.stdout
    assert "Black plays " in out.stdout
    assert "[○]" in out.stdout or "[●]" in out.stdout  # the last move marked without colour
    lines = out.stdout.splitlines()
    fen_line = lines[lines.index(next(l for l in lines if l.endswith("to move: fen"))) + 1]
    assert fen_line.startswith("W:W") and ":B" in fen_line
    assert "'xyz' is not a move or a command." in out.stdout
    assert "There is no piece on c3" in out.stdout
    assert out.stderr == ""


def test_bare_kbdraughts_plays_and_eof_quits_and_resume_continues():
    out = play(keys="c3-d4\n")  # no command: play; the input ends (EOF) after one move
    assert out.returncode == 0, out.stderr
    assert "1. White to move: c3-d4" in out.stdout
    assert "'kbdraughts --resume' continues it" in out.stdout
    saved = sorted(games_dir().glob("*.pdn"))
    assert len(saved) == 1 and read_pdn_file(saved[0])[0].game.ply == 2
    out = play("play", "--resume", "--ascii", keys="moves\nquit\n")
    assert out.returncode == 0, out.stderr
    assert f"Resumed {saved[0]} (2 plies)." in out.stdout
    assert "2. White to move: moves" in out.stdout
    assert "○" not in out.stdout and " w " in out.stdout


def test_king_duel_draw_offer_in_a_pipe():
    out = play("play", "--fen", "W:WKc1:BKh8", "--level", "1", keys="y\nn\nquit\n")
    assert out.returncode == 0, out.stderr
    # With its reason: the tables' where they are built by then (at first need), else the
    # short search's.
    assert re.search(r"Black offers a draw \((the endgame database says drawn with best play|"
                     r"it judges the position even)\)\. Accept\? \[y/n\] y", out.stdout)
    assert "Game over: Draw (draw agreed), ½–½." in out.stdout
    saved = sorted(games_dir().glob("*.pdn"))
    assert read_pdn_file(saved[-1])[0].result == "1/2-1/2"


def test_ascii_only_output_when_the_encoding_cannot_show_unicode():
    out = play("play", "--fen", "W:WKc1:BKh8", "--level", "1", keys="y\nn\nquit\n",
               encoding="ascii")
    assert out.returncode == 0, out.stderr
    assert out.stdout.isascii()
    assert " W " in out.stdout and " B " in out.stdout  # kings in ASCII letters
    assert "Game over: Draw (draw agreed), 1/2-1/2." in out.stdout


def test_two_ais_play_visibly():
    out = play("play", "--white", "random", "--black", "kb:1", keys="n\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("White plays") >= 3 and "Game over:" in out.stdout


def test_command_line_mistakes_are_one_line_and_status_2():
    for args, message in [
        (("play", "--fen", "W:Wz9:B"), "bad FEN"),
        (("play", "--load", "/nonexistent/x.pdn"), "cannot read"),
        (("play", "--level", "0"), "level must be"),
        (("play", "--level", "99"), "level must be from 1 to"),
        (("play", "--white", "wizard"), "unknown player"),
        (("play", "--fen", "W:WKa1:BKh8", "--resume"), "choose one of"),
    ]:
        out = play(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr, out.stderr


def _my_rules(text: str) -> Path:
    """The person's own rule file, ``mine.txt`` in the data folder's combos, holding ``text``."""
    from kbdraughts.resources import data_dir

    mine = data_dir() / "combos" / "mine.txt"
    mine.parent.mkdir(parents=True)
    mine.write_text(text)
    return mine


def test_a_broken_rule_of_the_person_is_named_and_the_rest_of_the_kb_plays():
    _my_rules("rule broken\n  play: c3-d4\n")
    out = play("play", "--level", "1", keys="c3-d4\nquit\n")
    assert out.returncode == 0, out.stderr
    # One line at the start names the faulty block; the rest of the knowledge base (the
    # openings) still plays; 'help kb' says what is wrong with it, its path whole.
    lines = out.stdout.splitlines()
    note = ("Note: the knowledge base skipped the blocks with errors (mine.txt:1); the rest "
            "loaded. 'help kb' says what is wrong.")
    assert lines.index(note) < next(i for i, l in enumerate(lines) if "to move:" in l)
    assert out.stdout.count("skipped") == 1  # not said again at the AI's move
    assert "without its knowledge base" not in out.stdout
    assert "Black plays " in out.stdout and "search:" not in out.stdout


def _full_disk() -> None:
    """In the child: files stop growing at 120 bytes (EFBIG), as on a full disk."""
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (120, 120))


def test_save_on_a_full_disk_keeps_the_file_it_would_write_over(tmp_path):
    mine = tmp_path / "mine.pdn"
    kept = '[Event "kept"]\n\n1. c3-d4 *\n'
    mine.write_text(kept)
    keys = "c3-d4\ne3-f4\ng3-h4\na3-b4\n" + f"save {mine}\ny\nfen\nquit\n"
    out = subprocess.run(
        [sys.executable, "-m", "kbdraughts.cli", "play", "--black", "random"], input=keys,
        capture_output=True, text=True, timeout=120, preexec_fn=_full_disk,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 0, out.stderr
    assert f"Cannot write {mine}: File too large." in out.stdout
    assert "to move: fen" in out.stdout  # the game went on
    assert mine.read_text() == kept  # written whole or not at all, never cut
    assert [p.name for p in tmp_path.iterdir()] == ["mine.pdn"]  # no temporary file left


def test_a_second_kbdraughts_does_not_resume_the_game_the_first_is_playing():
    first = subprocess.Popen(
        [sys.executable, "-m", "kbdraughts.cli", "play", "--black", "random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    try:
        first.stdin.write("c3-d4\n")
        first.stdin.flush()
        deadline = time.monotonic() + 60
        while not list(games_dir().glob("*.pdn")) and time.monotonic() < deadline:
            time.sleep(0.05)
        saved = list(games_dir().glob("*.pdn"))
        assert len(saved) == 1, "the first game was not autosaved"
        second = play("play", "--resume", keys="quit\n")
        assert second.returncode == 0, second.stderr
        assert (f"{saved[0]}: that game is open in another kbdraughts (pid {first.pid})"
                in second.stdout)
        assert "No other unfinished game to resume; a new game starts." in second.stdout
        first.stdin.write("quit\n")
        first.stdin.flush()
        assert first.wait(timeout=60) == 0
        third = play("play", "--resume", keys="quit\n")  # the first has ended: resumed now
        assert f"Resumed {saved[0]} (2 plies)." in third.stdout
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate()


def test_help_kb_names_each_faulty_block_whole():
    mine = _my_rules("rule broken\n  play: c3-d4\n\nrule \x1b[31mred\n  play: c3-d4\n")
    out = play("play", "--level", "1", keys="help kb\nquit\n")
    assert out.returncode == 0, out.stderr
    assert ("Note: the knowledge base skipped the blocks with errors (mine.txt:1, mine.txt:4, "
            "mine.txt:5); the rest loaded.") in out.stdout
    shown = out.stdout.split("to move: help kb", 1)[1]
    assert "Skipped, 3 errors (" in shown
    for line in (1, 4, 5):
        assert f"\n  {mine}:{line}: error: " in shown
    assert "\x1b" not in out.stdout  # the escape in the file is written out, not sent
