"""``kbdraughts annotate GAME.pdn``: the coach's notes as PDN comments; the output reads back
(pdn.py and ``play --load``) with the same moves; a person's mistakes are one line, status 2."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from kbdraughts.game import Game
from kbdraughts.notation import fen, move_text, parse_fen, parse_move
from kbdraughts.pdn import game_to_pdn, parse_pdn, pdn_game_text

CMD = [sys.executable, "-m", "kbdraughts.cli"]
#: Black walks into shot-01 of combos/motifs.txt (d6-c5), White lets it pass (g3-h4), Black
#: plays on; White is to move at the end.
START = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
MOVES = ("d6-c5", "g3-h4", "c7-d6")
IDEA = "the shot e3-d4 (e3-d4 gives a man, c5:e3 is forced, d2:f4:h6 takes two)"
ALLOWED = f"Black's d6-c5 allowed {IDEA}: Black loses a man: d6-c5 e3-d4 c5:e3 d2:f4:h6"
MISSED = f"White missed {IDEA}: it wins a man: e3-d4 c5:e3 d2:f4:h6"
#: c7-d6 leaves b6 and d6 to a5:c7:e5; the exchange after it costs Black a man.
LOSES = "loses a man: after c7-d6, a5:c7:e5 wins a man by force: c7-d6 a5:c7:e5 f6:d4 h4:f6 e7:g5"
#: The summary: the grades count the errors (a man lost: a mistake or a blunder, as the
#: evaluation weighs the position), the material notes say how.
SUMMARY = (r"summary: White: 1 (mistake|blunder) \(missed 1\); Black: (2 mistakes|2 blunders|"
           r"1 blunder, 1 mistake) \(loses 1, allowed 1\); ideas: shot 2; 1 won by force that no "
           r"rule names")
EVAL = r"[+-]\d+\.\d\d"


def graded(move: str, proof: str | None = None) -> str:
    """The regular expression of a graded move's note: the glyph, the move and its
    evaluation, the ideas it gave up (their words not checked here), the material note that
    proves the loss, the better move and its evaluation."""
    number, played = move.split()
    said = "" if proof is None else ": " + re.escape(proof)
    return (rf"\{{coach: \?\??!?: {re.escape(number)} {re.escape(played)} \({EVAL}\)"
            rf"[^:{{}}]*?{said}; "
            rf"better {re.escape(number)} \S+ \({EVAL}\)\}}")


def unmarked(text: str) -> str:
    """An annotated game without its PDN marks (the grades' glyphs, [%eval], the better
    lines: tests/test_pdn_marks.py): what these tests check is the notes."""
    return "\n".join(pdn_game_text(g, marks={}) for g in parse_pdn(text))


def flat(text: str) -> str:
    return " ".join(text.split())


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(CMD + list(args), capture_output=True, text=True, timeout=120,
                          env=os.environ.copy(), cwd=cwd)


def write_games(path: Path, *games: Game) -> None:
    path.write_text("\n".join(game_to_pdn(g, {"Event": f"game {i + 1}"})
                              for i, g in enumerate(games)), encoding="utf-8")


def the_game() -> Game:
    game = Game(parse_fen(START))
    for text in MOVES:
        game.push(parse_move(game.position, text))
    return game


def test_the_notes_are_comments_after_the_moves_and_the_game_reads_back(tmp_path: Path):
    pdn = tmp_path / "game.pdn"
    write_games(pdn, the_game())
    out = run("annotate", str(pdn))
    assert out.returncode == 0, out.stderr
    assert re.search(rf"1\.\.\. d6-c5 {graded('1... d6-c5', ALLOWED)} 2\. g3-h4 "
                     rf"{graded('2. g3-h4', MISSED)} c7-d6 {graded('2... c7-d6', LOSES)} "
                     rf"\{{coach: {SUMMARY}\}} \*", flat(unmarked(out.stdout))), out.stdout
    assert '[Event "game 1"]' in out.stdout and f'[FEN "{fen(parse_fen(START))}"]' in out.stdout
    [back] = parse_pdn(out.stdout)
    assert back.game.moves == the_game().moves and back.game.start == parse_fen(START)
    # the file's summary, the time and the peak memory: one line on stderr
    [line] = out.stderr.splitlines()
    assert re.match(rf"kbdraughts annotate: {re.escape(str(pdn))}: 1 game, 3 moves: "
                    rf"{SUMMARY[len('summary: '):]}; ", line), line
    assert "; 1 won by force that no rule names; " in line and " MB" in line
    assert "combos/" not in out.stdout  # the rule's file only with --verbose


def test_verbose_adds_the_rule_the_horizon_and_the_depth(tmp_path: Path):
    pdn = tmp_path / "game.pdn"
    write_games(pdn, the_game())
    out = run("annotate", str(pdn), "--verbose")
    assert out.returncode == 0, out.stderr
    assert f": {ALLOWED} [shot-01, combos/motifs.txt:15; proved in 2 plies, " \
        "confirmed at depth " in flat(out.stdout)


def test_unnamed_ideas_are_written_as_motif_drafts_that_load(tmp_path: Path):
    pdn, drafts = tmp_path / "game.pdn", tmp_path / "drafts.txt"
    write_games(pdn, the_game())
    out = run("annotate", str(pdn), "--unnamed", str(drafts))
    assert out.returncode == 0, out.stderr
    text = drafts.read_text(encoding="utf-8")
    assert text.startswith(f"# {pdn}, game 1, 2... c7-d6: {LOSES}\nmotif unnamed-1\n")
    assert text.count("\nmotif ") == 1  # the shot is named: no draft of it
    assert "1 unnamed idea(s) drafted" in out.stderr
    checked = run("rules", "check", str(drafts))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 motif, 0 warnings, 0 errors" in checked.stdout


def test_a_draft_names_the_games_number_in_the_file_with_game(tmp_path: Path):
    pdn, drafts = tmp_path / "two.pdn", tmp_path / "drafts.txt"
    plain = Game()
    plain.push(parse_move(plain.position, "c3-d4"))
    write_games(pdn, plain, the_game())
    out = run("annotate", str(pdn), "--game", "2", "--unnamed", str(drafts))
    assert out.returncode == 0, out.stderr
    assert drafts.read_text(encoding="utf-8").startswith(f"# {pdn}, game 2, 2... c7-d6: ")


def test_budget_is_accepted_with_a_warning_and_changes_nothing(tmp_path: Path):
    pdn = tmp_path / "game.pdn"
    write_games(pdn, the_game())
    plain = run("annotate", str(pdn))
    out = run("annotate", str(pdn), "--budget", "0")
    assert out.returncode == 0, out.stderr
    assert out.stdout == plain.stdout and "coach:" in out.stdout
    assert out.stderr.startswith("kbdraughts annotate: warning: --budget is no longer used: "
                                 "the notes depend on --nodes only")
    bad = run("annotate", str(pdn), "--nodes", "12")
    assert bad.returncode == 2 and "expected nodes from 1000" in bad.stderr


def test_side_and_game_choose_what_is_noted(tmp_path: Path):
    pdn = tmp_path / "two.pdn"
    plain = Game()
    plain.push(parse_move(plain.position, "c3-d4"))
    write_games(pdn, plain, the_game())
    out = run("annotate", str(pdn), "--side", "white", "--game", "2")
    assert out.returncode == 0, out.stderr
    assert re.search(graded("2. g3-h4", MISSED), flat(out.stdout))
    assert "allowed" not in out.stdout
    assert out.stdout.count("[Event ") == 1 and '[Event "game 2"]' in out.stdout
    assert re.search(r"\{coach: summary: White: 1 (mistake|blunder) \(missed 1\); ideas: "
                     r"shot 1\}", out.stdout)
    assert "Black" not in out.stderr.split("moves: ", 1)[1].split(";")[0]
    out = run("annotate", str(pdn), "--side", "BLACK")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("[Event ") == 2 and "missed" not in out.stdout
    assert re.search(graded("1... d6-c5", ALLOWED), flat(out.stdout))


def test_the_output_file_loads_back_with_play(tmp_path: Path):
    pdn, annotated = tmp_path / "game.pdn", tmp_path / "annotated.pdn"
    write_games(pdn, the_game())
    out = run("annotate", str(pdn), "-o", str(annotated))
    assert out.returncode == 0 and out.stdout == "", out.stderr
    assert ": White missed " in annotated.read_text(encoding="utf-8")
    assert not list(tmp_path.glob(".*.tmp"))  # written whole, through a temporary file
    played = subprocess.run(CMD + ["play", "--load", str(annotated), "--level", "1"],
                            input="fen\nquit\n", capture_output=True, text=True, timeout=120,
                            env=os.environ.copy())
    assert played.returncode == 0, played.stderr
    assert fen(the_game().position) in played.stdout.splitlines()
    assert "Loaded" not in played.stderr


def test_mistakes_are_one_line_with_the_file_and_status_2(tmp_path: Path):
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n\n1. c3-d4 c3-e5 *\n', encoding="utf-8")
    good = tmp_path / "good.pdn"
    write_games(good, the_game())
    for args, message in [
        ((str(tmp_path / "none.pdn"),), f"{tmp_path / 'none.pdn'}: cannot read"),
        ((str(bad),), f"{bad}:3: move 1... c3-e5"),
        ((str(good), "--side", "red"), "side must be white or black"),
        ((str(good), "--game", "3"), f"{good}: no game 3 (the file holds 1 game)"),
        ((str(good), "--game", "0"), "game must be 1 or more"),
        ((str(good), "-o", str(tmp_path / "no" / "dir.pdn")), "cannot write"),
    ]:
        out = run("annotate", *args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr and out.stdout == ""


def test_a_game_with_nothing_to_note_is_written_back_as_it_was(tmp_path: Path):
    pdn = tmp_path / "quiet.pdn"
    game = Game()
    for text in ("c3-d4", "f6-g5"):
        game.push(parse_move(game.position, text))
    write_games(pdn, game)
    out = run("annotate", str(pdn))
    assert out.returncode == 0, out.stderr
    assert unmarked(out.stdout) == pdn.read_text(encoding="utf-8")
    assert [move_text(m) for m in parse_pdn(out.stdout)[0].game.moves] == ["c3-d4", "f6-g5"]


def _authored(tmp_path: Path, name: str = "authored.pdn", crlf: bool = False) -> Path:
    """The game with a person's annotations: comments, a NAG, a variation, 2-point results."""
    text = (f'[Event "club"]\n[SetUp "1"]\n[FEN "{START}"]\n[Result "1-1"]\n[GameType "25"]\n\n'
            "{Вступление} 1... d6-c5 $2 {плохо} (1... c7-d6 (1... b6-a5)) 2. g3-h4 ?? "
            "c7-d6 1-1\n")
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode("utf-8"))
    return path


def test_the_authors_annotations_are_kept_and_a_second_run_replaces_the_notes(tmp_path: Path):
    pdn = _authored(tmp_path)
    once = run("annotate", str(pdn), "-o", str(tmp_path / "once.pdn"))
    assert once.returncode == 0, once.stderr
    text = (tmp_path / "once.pdn").read_text(encoding="utf-8")
    # the author's text as it was, each note after the author's comment on the move
    assert re.sub(r" ?\{coach: [^}]*\}", "", unmarked(text)) == pdn.read_text(encoding="utf-8")
    assert re.search(rf"\{{плохо\}} {graded('1... d6-c5', ALLOWED)} .* 2\. g3-h4 \?\? "
                     rf"{graded('2. g3-h4', MISSED)}.* c7-d6 {graded('2... c7-d6', LOSES)} "
                     rf"\{{coach: {SUMMARY}\}} 1-1", flat(unmarked(text))), text
    twice = run("annotate", str(tmp_path / "once.pdn"))
    assert twice.returncode == 0 and twice.stdout == text  # replaced, not added again


def test_crlf_files_keep_their_line_ends_and_numbered_writes_the_fen_in_numbers(tmp_path):
    pdn = _authored(tmp_path, crlf=True)
    out = subprocess.run(CMD + ["annotate", str(pdn), "--numbered"], capture_output=True,
                         timeout=120, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    assert out.stdout.count(b"\r\n") == out.stdout.count(b"\n")
    assert b'[FEN "B:W13,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16"]' \
        in out.stdout


def test_broken_games_are_named_and_skipped_status_1_and_2_when_none_reads(tmp_path: Path):
    good = game_to_pdn(the_game(), {"Event": "good"})
    bad = '[Event "bad"]\n\n1. c3-d4 c3-e5 *\n'
    mixed = tmp_path / "mixed.pdn"
    mixed.write_text(bad + "\n" + good, encoding="utf-8")
    out = run("annotate", str(mixed))
    assert out.returncode == 1
    assert out.stderr.startswith(f"kbdraughts annotate: {mixed}:3: move 1... c3-e5")
    assert "game skipped" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout.count("[Event ") == 1 and ": White missed" in out.stdout
    assert run("annotate", str(mixed), "--game", "2").returncode == 0
    both_bad = tmp_path / "bad.pdn"
    both_bad.write_text(bad + "\n" + bad, encoding="utf-8")
    out = run("annotate", str(both_bad))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines()[-1] == (
        f"kbdraughts annotate: {both_bad}: none of its 2 games could be read")


def test_output_to_a_fifo_is_streamed_and_dash_is_stdout(tmp_path: Path):
    pdn = _authored(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen(CMD + ["annotate", str(pdn), "-o", str(fifo)],
                            stderr=subprocess.PIPE, env=os.environ.copy())
    with open(fifo, encoding="utf-8") as f:
        streamed = f.read()
    assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    assert fifo.is_fifo() and ": White missed " in streamed
    dash = run("annotate", str(pdn), "-o", "-")
    assert dash.returncode == 0 and dash.stdout == streamed


def test_progress_line_only_for_a_terminal_and_many_games(monkeypatch, capsys):
    from kbdraughts.cli import annotate as module

    module._progress(5)(0)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(module, "BAR", 6)
    show = module._progress(3)
    for done in range(4):
        show(done)
    err = capsys.readouterr().err
    assert [line.rsplit(",", 1)[0] for line in err.split("\r")[1:]] == [
        "annotate [......] 0/3 games", "annotate [##....] 1/3 games",
        "annotate [####..] 2/3 games", "annotate [######] 3/3 games"]
    assert err.endswith(" s\n") and err.count("\n") == 1
    module._progress(1)(0)
    assert capsys.readouterr().err == ""


def test_escape_sequences_in_tags_reach_a_terminal_written_out_and_a_file_as_they_were(
        tmp_path: Path, monkeypatch):
    import io

    from kbdraughts.cli import main

    class Screen(io.StringIO):
        def isatty(self) -> bool:
            return True

    pdn = tmp_path / "evil.pdn"
    game = the_game()
    pdn.write_text(game_to_pdn(game, {"Event": "\x1b[2J\x1b]0;owned\x07", "White": "a\rb"}),
                   encoding="utf-8")
    screen = Screen()
    monkeypatch.setattr("sys.stdout", screen)
    assert main(["annotate", str(pdn)]) == 0
    shown = screen.getvalue()
    assert "\x1b" not in shown and "\x07" not in shown and "\r" not in shown
    assert '[Event "\\x1b[2J\\x1b]0;owned\\x07"]' in shown and '[White "a\\x0db"]' in shown
    out = tmp_path / "out.pdn"
    assert main(["annotate", str(pdn), "-o", str(out)]) == 0
    assert "\x1b[2J\x1b]0;owned\x07" in out.read_text(encoding="utf-8")  # the file is the data


def test_a_graded_move_no_short_proof_explains_is_hunted(tmp_path: Path):
    # Pel-Russo, 1924, 22. d8-h4 lets b2-a1 crown: past the proofs' 4 plies, found by the
    # hunt (the graded moves without a proof searched 12 plies deep)
    game = Game(parse_fen("W:Wg1,g3,d4,Kd8:Bb2,a5,h6,b8"))
    game.push(parse_move(game.position, "d8-h4"))
    pdn = tmp_path / "game.pdn"
    write_games(pdn, game)
    hunted = run("annotate", str(pdn))
    assert hunted.returncode == 0, hunted.stderr
    assert re.search(graded("1. d8-h4", "White's d8-h4 allowed the crowning b2-a1: White lets "
                                        "Black crown: d8-h4 b2-a1"), flat(hunted.stdout))
    assert "(1 by the hunt: graded moves searched deep)" in hunted.stderr


def test_the_same_file_gets_the_same_notes_byte_for_byte_under_load(tmp_path: Path):
    # issue 38: the notes depend on nodes and depths only, never on the machine's load
    from kbdraughts.pdn import load_pdn_file

    source = Path(__file__).resolve().parent.parent / "bench" / "data" / "ussr1924.pdn"
    pel_russo = load_pdn_file(str(source)).games[0].game  # its shot and its crowning
    game = Game(pel_russo.positions[30])
    for move in pel_russo.moves[30:46]:
        game.push(move)
    pdn = tmp_path / "game.pdn"
    write_games(pdn, the_game(), game)
    idle = run("annotate", str(pdn))
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        loaded = run("annotate", str(pdn))
    finally:
        burner.kill()
        burner.wait()
    assert idle.returncode == loaded.returncode == 0, loaded.stderr
    assert "{coach: ?" in idle.stdout and loaded.stdout == idle.stdout
