"""``kbdraughts bestmove`` through a pipe, and ``kbdraughts match`` end to end."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from kbdraughts.eval.heuristic import MOVE_FEATURES
from kbdraughts.board import legal_moves
from kbdraughts.egdb.build import native_solves
from kbdraughts.notation import move_text, parse_fen

CMD = [sys.executable, "-m", "kbdraughts.cli"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(CMD + list(args), input=stdin, capture_output=True, text=True,
                          timeout=120, env=os.environ.copy())


def test_bestmove_answers_each_line_as_it_is_read():
    p = subprocess.Popen(CMD + ["bestmove", "--level", "1", "--explain"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                         env=os.environ.copy())
    try:
        for fen in ("W:Wc3,e3,g1:Bd4,f6,g7", "W:Wa1:Bb2,c3", "B:W:Bc7"):
            p.stdin.write(fen + "\n")
            p.stdin.flush()
            line = p.stdout.readline().rstrip("\n")  # blocks unless flushed per line
            pos = parse_fen(fen)
            moves = {move_text(m) for m in legal_moves(pos)}
            if not moves:
                assert line == "none  # no legal move"
            else:
                move, reason = line.split("  # ", 1)
                assert move in moves and reason
        p.stdin.close()
        assert p.wait(60) == 0
    finally:
        p.kill()


def test_bestmove_arguments_one_line_each_and_none():
    r = run("bestmove", "--level", "1", "W:Wc3,e3,g1:Bd4,f6,g7", "W:Wa1:Bb2,c3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["e3:c5", "none"]


def test_bestmove_explain_format():
    r = run("bestmove", "--level", "1", "--explain", "--no-kb", "W:Wc3,e3,g1:Bd4,f6,g7")
    assert r.stdout.startswith("e3:c5  # capture tree +105: e3:c5 (best of 2 captures")


def test_bestmove_search_level():
    # Six pieces: beyond the endgame tables of the first need, so the search answers.
    fen_text = "W:Wa1,c3,e3:Bf6,h6,h8"
    r = run("bestmove", "--level", "2", "--movetime", "100", "--explain", "--no-kb", fen_text)
    move, reason = r.stdout.strip().split("  # ")
    assert move in {move_text(m) for m in legal_moves(parse_fen(fen_text))}
    assert reason.startswith("search depth ")


@pytest.mark.skipif(not native_solves(), reason="4-piece tables need the native core")
def test_bestmove_explains_an_endgame_by_the_tables(endgame_tables):
    r = run("bestmove", "--level", "2", "--movetime", "100", "--explain", "--no-kb",
            "W:WKa1,Kc1,Ke1:BKd8")
    assert r.returncode == 0, r.stderr
    move, reason = r.stdout.strip().split("  # ")
    assert reason == ("endgame database: White wins in 7 moves, by the board: 14 plies to the "
                      f"next capture or crowning; {move}")


def test_bestmove_bad_fen_is_one_line_and_status_2():
    r = run("bestmove", "--no-kb", "W:Wz9")
    assert r.returncode == 2 and r.stdout == "error\n" and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("args", [["--level", "9"], ["--movetime", "0"], ["--level", "x"]])
def test_bestmove_bad_options(args):
    r = run("bestmove", *args, "W:Wc3:Bf6")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_bestmove_names_a_broken_user_rule_and_plays_with_the_rest(tmp_path):
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "mine.txt").write_text("rule broken\n  board:\n    - ? -\n", encoding="utf-8")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    r = subprocess.run(CMD + ["bestmove", "--level", "1", "--explain", "W:Wc3:Bf6",
                              "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,"
                              "b8,d8,f8,h8"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines() == [
        f"{combos / 'mine.txt'}:1: error: rule broken has no 'play:' (the move to play)",
        f"{combos / 'mine.txt'}:3: error: the board has 1 row; it needs 8 (rank 8 first)",
        "kbdraughts bestmove: 2 errors in the rule files: the rules with them were skipped, the "
        "rest of the knowledge base loaded (see 'kbdraughts rules check')"]
    assert "combos/openings.txt:" in r.stdout.splitlines()[1]  # the book still answers c3-d4
    r = subprocess.run(CMD + ["bestmove", "--strict", "W:Wc3:Bf6"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and "--strict" in r.stderr.splitlines()[-1]


def test_match_end_to_end_with_pdn(tmp_path):
    pdn = tmp_path / "games.pdn"
    r = run("match", "kb:1:nokb", "random", "--games", "4", "--seed", "7", "--pdn", str(pdn))
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"kb:1:nokb vs random: \+(\d+) =(\d+) -(\d+), score (\d+\.\d)%", last)
    assert m and sum(map(int, m.groups()[:3])) == 4
    w, d, l = map(int, m.groups()[:3])
    assert float(m[4]) == pytest.approx(100 * (w + d / 2) / 4, abs=0.05)
    from kbdraughts.pdn import parse_pdn

    games = parse_pdn(pdn.read_text(encoding="utf-8"), str(pdn))
    assert len(games) == 4
    assert [g.tags["White"] for g in games] == ["kb:1:nokb", "random", "kb:1:nokb", "random"]
    for g in games:
        assert g.result in ("1-0", "0-1", "1/2-1/2")
    # Both games of a pair open the same way; the pairs differ.
    assert games[0].game.moves[:4] == games[1].game.moves[:4]
    assert games[0].game.moves[:4] != games[2].game.moves[:4]


def test_match_with_two_jobs_gives_the_same_tally():
    one = run("match", "greedy", "random", "--games", "4", "--seed", "3")
    two = run("match", "greedy", "random", "--games", "4", "--seed", "3", "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout


def test_match_no_progress_bar_off_a_terminal():
    r = run("match", "random", "random", "--games", "2")
    assert r.stderr == ""


@pytest.mark.parametrize("spec", ["kb:9", "search", "search:x", "alphazero", "kb:1:fast"])
def test_match_bad_player_is_one_line(spec):
    r = run("match", spec, "random", "--games", "1")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_bestmove_reports_a_broken_heuristic_file(tmp_path):
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "heuristic.txt").write_text("# mine\nweight crowning lots\n", encoding="utf-8")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    r = subprocess.run(CMD + ["bestmove", "--no-kb", "W:Wc3:Bf6"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{combos / 'heuristic.txt'}:2: error: " in r.stderr


def test_match_names_a_broken_rule_once_and_plays_on(tmp_path):
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "mine.txt").write_text("rule broken\n  board:\n    - ? -\n", encoding="utf-8")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    r = subprocess.run(CMD + ["match", "kb:1", "random", "--games", "2", "--jobs", "2"],
                       capture_output=True, text=True, env=env, timeout=120)
    # Named once (not by every game or process); the match is played with the rest.
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.count("mine.txt:3: error: the board has 1 row") == 1
    assert r.stdout.splitlines()[-1].startswith("kb:1 vs random: +")
    r = subprocess.run(CMD + ["match", "kb:1", "random", "--games", "2", "--strict"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and "--strict" in r.stderr


def test_match_shows_a_progress_bar_on_a_terminal():
    import pty

    master, slave = pty.openpty()
    try:
        r = subprocess.run(CMD + ["match", "greedy", "random", "--games", "3"], stdout=subprocess.PIPE,
                           stderr=slave, text=True, timeout=120, env=os.environ.copy())
        os.close(slave)
        shown = b""
        try:
            while chunk := os.read(master, 4096):
                shown += chunk
        except OSError:  # the terminal closed: everything was read
            pass
    finally:
        os.close(master)
    assert r.returncode == 0 and r.stdout.startswith("greedy vs random: +")
    assert b"] 3/3  +" in shown and b"\r" in shown


def test_bestmove_with_rules_of_ones_own(tmp_path):
    rules = tmp_path / "mine.txt"
    rules.write_text(
        "rule push-d4\n  board:\n" + "".join(f"    {row}\n" for row in (
            "- ? - ? - ? - ?", "? - ? - ? - ? -", "- ? - ? - ? - ?", "? - ? - ? - ? -",
            "- ? - . - ? - ?", "? - w - ? - ? -", "- ? - ? - ? - ?", "? - ? - ? - ? -"))
        + "  play: c3-d4\n", encoding="utf-8")
    r = run("bestmove", "--level", "1", "--explain", "--rules", str(rules), "--", "W:Wc3,g3:Bh8")
    assert r.stdout == f"c3-d4  # pattern rule push-d4 at {rules}:1\n", r.stderr
    r = run("bestmove", "--level", "1", "--rules", str(rules), "W:Wc3,g3:Bh8", "W:Wc3:Bd4,f6")
    assert r.stdout == "c3-d4\nc3:e5:g7\n", r.stderr  # --rules takes one PATH: FENs follow
    r = run("bestmove", "--rules", str(tmp_path / "none.txt"), "--", "W:Wc3:Bh8")
    assert r.returncode == 2 and "none.txt" in r.stderr and "Traceback" not in r.stderr


def test_match_reports_a_broken_heuristic_file(tmp_path):
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "heuristic.txt").write_text("weight a 1 when nothing\n", encoding="utf-8")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    r = subprocess.run(CMD + ["match", "kb:1:nokb", "random", "--games", "2"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    known = ", ".join(MOVE_FEATURES)
    assert r.stderr.strip().endswith(
        f"heuristic.txt:1: error: unknown weight feature 'nothing' (known: {known})")


def test_movetime_help_gives_the_engine_default():
    from kbdraughts.ai.spec import MOVETIME_MS
    from kbdraughts.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    movetime = next(a for a in sub.choices["bestmove"]._actions if a.dest == "movetime")
    assert movetime.help.endswith(f"(default {MOVETIME_MS})")


# -- the game so far: 'FEN moves M1 M2 ...' (issue 13) ------------------------------------------

#: Two kings against one: White is well ahead and its search plays d2-e3 here.
AHEAD = "W:WKd2,Kf2:BKa7"


def test_bestmove_knows_the_game_and_avoids_a_repetition_when_ahead():
    from kbdraughts.match.line_protocol import read_game_line
    from kbdraughts.board import play
    from kbdraughts.notation import fen, parse_move

    # The move it plays in the position alone; then a game in which that move would repeat
    # the position after it a third time (a draw by the rules): there it plays another.
    r = run("bestmove", "--level", "2", "--movetime", "60000", "--no-kb", AHEAD)
    assert r.returncode == 0, r.stderr
    plain = r.stdout.strip()
    start, end = plain.split("-")
    after = parse_move(parse_fen(AHEAD), plain)
    line = (f"{fen(play(parse_fen(AHEAD), after))} moves a7-b8 {end}-{start} b8-a7 "
            f"{start}-{end} a7-b8 {end}-{start} b8-a7")
    game = read_game_line(line)
    assert game.position == parse_fen(AHEAD)
    game.push(parse_move(game.position, plain))
    assert game.result is not None and game.result.winner is None  # it would draw
    r = run("bestmove", "--level", "2", "--movetime", "60000", "--no-kb", line)
    knowing = r.stdout.strip()
    assert knowing != plain and knowing in {move_text(m) for m in legal_moves(parse_fen(AHEAD))}


def test_bestmove_game_lines_from_stdin_and_a_bad_move_is_an_error():
    lines = ["W:WKc1:BKh8 moves c1-d2 h8-g7", "W:WKc1:BKh8 moves c1-d2 g7-h8",
             "W:WKc1:BKh8 moves", "W:WKc1:BKh8 moves c1-d2 h8-g7 zz"]
    r = run("bestmove", "--level", "1", "--no-kb", stdin="\n".join(lines) + "\n")
    out = r.stdout.splitlines()
    assert r.returncode == 2 and len(out) == 4 and out[1] == out[3] == "error"
    assert out[0] in {move_text(m) for m in legal_moves(parse_fen("W:WKd2:BKg7"))}
    assert out[2] in {move_text(m) for m in legal_moves(parse_fen("W:WKc1:BKh8"))}
    err = r.stderr.splitlines()
    assert err[0].startswith("kbdraughts: bad move: line 2: move 2 'g7-h8': there is no piece")
    assert err[1].startswith("kbdraughts: bad move: line 4: move 3 'zz': ") and len(err) == 2


def test_bestmove_help_tells_of_game_lines():
    r = run("bestmove", "--help")
    assert "FEN moves M1 M2" in " ".join(r.stdout.split())


# -- external engines in a match: cmd:PROGRAM ARGS (issue 13) -----------------------------------


def test_match_against_an_external_engine_reports_the_time_each_side_took():
    engine = f"cmd:{sys.executable} -m kbdraughts.cli bestmove --level 1 --no-kb"
    r = run("match", "kb:1:nokb", engine, "--games", "2")
    assert r.returncode == 0 and "illegal" not in r.stderr, r.stderr
    *_, times, last = r.stdout.splitlines()
    assert re.fullmatch(rf"kb:1:nokb vs {re.escape(engine)}: \+\d+ =\d+ -\d+, score \d+\.\d%",
                        last)
    assert re.fullmatch(rf"time: kb:1:nokb \d+\.\d s \(\d+ ms a move\), {re.escape(engine)} "
                        r"\d+\.\d s \(\d+ ms a move\)", times)


def test_match_times_on_request_only_for_our_own_players():
    r = run("match", "random", "random", "--games", "2", "--times")
    times, last = r.stdout.splitlines()
    assert times.startswith("time: random ") and last.startswith("random vs random: +")


def test_match_with_an_engine_that_answers_garbage_reports_illegal_moves(tmp_path):
    garbage = tmp_path / "garbage.py"
    garbage.write_text("import sys\nfor line in sys.stdin:\n    print('e2-e4', flush=True)\n",
                       encoding="utf-8")
    r = run("match", "random", f"cmd:{sys.executable} {garbage}", "--games", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].endswith(": +2 =0 -0, score 100.0%")
    notes = r.stderr.splitlines()
    assert len(notes) == 2 and all("illegal move" in n and "answered 'e2-e4'" in n for n in notes)


def test_match_with_an_engine_that_ends_is_reported_not_a_hang(tmp_path):
    quits = tmp_path / "quits.py"
    quits.write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    r = run("match", f"cmd:{sys.executable} {quits}", "greedy", "--games", "2")
    assert r.returncode == 0 and r.stdout.splitlines()[-1].endswith("+0 =0 -2, score 0.0%")
    assert r.stderr.count("ended with status 0 without an answer") == 2


@pytest.mark.parametrize("spec, message", [
    ("cmd:", "names no program"), ("cmd:'open", "cannot read the command"),
    ("cmd:/no/such/engine --level 1", "no program '/no/such/engine' found"),
])
def test_match_bad_external_engine_is_one_line(spec, message):
    r = run("match", spec, "random", "--games", "1")
    assert r.returncode == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_play_refuses_an_external_engine():
    r = run("play", "--white", "cmd:kbdraughts bestmove", stdin="quit\n")
    assert r.returncode == 2 and "play in 'kbdraughts match' only" in r.stderr


def test_match_from_a_file_of_positions_plays_each_twice(tmp_path):
    suite = tmp_path / "suite.txt"
    suite.write_text("# endings\nW:WKa1,c3:Bh8,f6\nB:Wc3,e3,g3:Bf6,h6 moves h6-g5  # a line\n",
                     encoding="utf-8")
    pdn = tmp_path / "games.pdn"
    r = run("match", "greedy", "random", "--fens", str(suite), "--pdn", str(pdn))
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"greedy vs random: \+\d+ =\d+ -\d+, score \d+\.\d%",
                        r.stdout.strip().splitlines()[-1])
    from kbdraughts.pdn import parse_pdn

    games = parse_pdn(pdn.read_text(encoding="utf-8"), str(pdn))
    assert [g.tags["White"] for g in games] == ["greedy", "random", "greedy", "random"]
    assert [g.tags["FEN"] for g in games] == ["W:WKa1,c3:Bf6,h8"] * 2 + ["B:Wc3,e3,g3:Bf6,h6"] * 2
    assert all(move_text(g.game.moves[0]) == "h6-g5" for g in games[2:])


def test_match_fens_names_each_bad_line_and_plays_nothing(tmp_path):
    suite = tmp_path / "suite.txt"
    suite.write_text("W:Wc3:Bf6\nW:Wc3:Bf6,z9\n\nW:Wc3:Bf6 moves c3-b5\n", encoding="utf-8")
    r = run("match", "greedy", "random", "--fens", str(suite))
    assert r.returncode == 2 and r.stdout == ""
    err = r.stderr.splitlines()
    assert err[0].startswith(f"{suite}:2: error: bad FEN: 'z9'")
    assert err[1].startswith(f"{suite}:4: error: move 1 'c3-b5'")
    assert err[2] == f"kbdraughts match: 2 errors in {suite}: no game was played"
    for bad in (["--fens", str(tmp_path / "none.txt")], ["--fens", str(suite), "--games", "2"],
                ["--fens", str(suite), "--balanced"]):
        r = run("match", "greedy", "random", *bad)
        assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count("\n") == 1


def test_match_fens_reads_a_file_with_a_byte_order_mark(tmp_path):
    # issue 28, item 19: a file saved by a Windows editor starts with a BOM
    suite = tmp_path / "suite.txt"
    suite.write_bytes(b"\xef\xbb\xbfW:WKa1,c3:Bh8,f6\r\n")
    r = run("match", "greedy", "random", "--fens", str(suite))
    assert r.returncode == 0, r.stderr
    suite.write_bytes(b"W:WKa1,c3:Bh8,f6\n\xff\n")
    r = run("match", "greedy", "random", "--fens", str(suite))
    assert r.returncode == 2 and f"{suite}:2: error: not UTF-8" in r.stderr
