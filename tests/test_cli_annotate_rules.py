"""``kbdraughts annotate --rules``: a faulty block of a rule file costs that block, named with
its ``file:line`` on stderr, never the rest (``--strict`` refuses instead), as the other commands
do."""

from __future__ import annotations

import shutil
from pathlib import Path

from kbdraughts.cli import main
from kbdraughts.game import Game
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.pdn import game_to_pdn
from kbdraughts.resources import combos_dir

#: Black walks into shot-01 of combos/motifs.txt (d6-c5), White lets it pass (g3-h4).
START = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
MOVES = ("d6-c5", "g3-h4", "c7-d6")


def setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A game, and a rules folder: the shipped motifs and a file with one faulty block between
    two good ones."""
    game = Game(parse_fen(START))
    for text in MOVES:
        game.push(parse_move(game.position, text))
    pdn = tmp_path / "game.pdn"
    pdn.write_text(game_to_pdn(game, {"Event": "x"}), encoding="utf-8")
    rules = tmp_path / "rules"
    rules.mkdir()
    shutil.copy(combos_dir() / "motifs.txt", rules / "motifs.txt")
    broken = rules / "mine.txt"
    broken.write_text("rule fine-1\n  position: W:Wc3:Bd4\n  play: c3:e5\n\n"
                      "rule broken\n  play: c3-d4\n\n"
                      "rule fine-2\n  position: W:Wc3:Bb4\n  play: c3:a5\n", encoding="utf-8")
    return pdn, rules, broken


def test_a_faulty_block_is_skipped_and_named_the_rest_coaches(tmp_path: Path, capsys):
    pdn, rules, broken = setup(tmp_path)
    assert main(["annotate", str(pdn), "--rules", str(rules)]) == 0
    out = capsys.readouterr()
    assert ": White missed the shot e3-d4 (" in out.out  # motifs.txt still coaches
    assert out.err.splitlines()[:2] == [
        f"{broken}:5: error: rule broken has no 'board:' or 'position:'",
        "kbdraughts annotate: 1 error in the rule files: the rules with them were skipped, the "
        "rest of the knowledge base loaded (see 'kbdraughts rules check')"]
    assert out.err.splitlines()[2].startswith(f"kbdraughts annotate: {pdn}: 1 game, 3 moves")


def test_strict_refuses_a_faulty_file(tmp_path: Path, capsys):
    pdn, rules, broken = setup(tmp_path)
    assert main(["annotate", str(pdn), "--rules", str(rules), "--strict"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    first = f"{broken}:5: error: rule broken has no 'board:' or 'position:'"
    assert out.err.splitlines()[0] == first
    assert out.err.splitlines()[-1].startswith("kbdraughts annotate: 1 error in the rule files "
                                               "(--strict: nothing was run")


def test_a_missing_rules_path_is_still_refused(tmp_path: Path, capsys):
    pdn, _, _ = setup(tmp_path)
    assert main(["annotate", str(pdn), "--rules", str(tmp_path / "none.txt")]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1
    assert "none.txt" in out.err and "no such file or directory" in out.err
