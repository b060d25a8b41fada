"""Opening names in the book: each named rule of combos/openings.txt stands on a line that
really begins with its opening's moves, and the explanations say the name."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts.board import START, Move, Position, legal_moves, play
from kbdraughts.kb.openings import OPENINGS, opening_of
from kbdraughts.kb.rules import parse_rules
from kbdraughts.notation import SQUARE_NAMES, fen, move_text
from kbdraughts.resources import combos_dir

ROOT = Path(__file__).resolve().parent.parent
_NAME = re.compile(r"^(?:(.+) \((.+)\), )?ballot \S+ \([^)]*\), after (.+) -> (\S+)$")


def short(pos: Position, token: str) -> Move:
    """The one legal move a short-notation token (``cd4``: the c-file man to d4) names."""
    fits = [m for m in legal_moves(pos)
            if SQUARE_NAMES[m.start][0] == token[0] and SQUARE_NAMES[m.end] == token[1:]]
    assert len(fits) == 1, (fen(pos), token)
    return fits[0]


def replay(tokens: list[str]) -> list[tuple[Position, Move]]:
    pos, out = START, []
    for t in tokens:
        move = short(pos, t)
        out.append((pos, move))
        pos = play(pos, move)
    return out


def test_each_opening_replays_and_names_some_rules():
    text = (combos_dir() / "openings.txt").read_text(encoding="utf-8")
    for o in OPENINGS:
        replay(list(o.moves))  # every move legal, one move per token
        assert f"name: {o.words()}, ballot " in text, o
        assert o.source in text  # cited in the file's header


def test_a_named_rule_stands_on_its_openings_line():
    rules = parse_rules((combos_dir() / "openings.txt").read_text(encoding="utf-8"),
                        "openings.txt")[0]
    named = 0
    for rule in rules:
        m = _NAME.fullmatch(rule.name)
        assert m is not None, rule.name
        before = [] if m.group(3) == "the start" else m.group(3).split()
        path = before + [m.group(4)]
        pos, move = replay(path)[-1]  # the rule's position is where the line's moves lead
        assert (pos, move_text(move)) == (rule.exact_position(), rule.play_text()), rule.id
        opening = opening_of(path)
        if opening is None:
            assert m.group(1) is None, rule.id
        else:
            named += 1
            assert (m.group(1), m.group(2)) == (opening.russian, opening.english), rule.id
            assert path[:len(opening.moves)] == list(opening.moves)
    assert named >= 50
    assert opening_of(["cd4"]) is None and opening_of(["cd4", "ba5", "bc3"]).english == "Kol"


def test_why_names_the_opening():
    """After 1.c3-d4 the AI answers from the book with Kol (1...b6-a5), and says so."""
    after = fen(play(START, short(START, "cd4")))
    out = subprocess.run([sys.executable, "-m", "kbdraughts.cli", "bestmove", "--level", "1",
                          "--explain", after], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("b6-a5  # exact rule ballot-IX-20.2 \"Кол (Kol), ballot")


def test_the_generator_writes_the_shipped_file(tmp_path: Path):
    pytest.importorskip("draughts")  # pydraughts: needed only to regenerate
    spec = importlib.util.spec_from_file_location("gen_openings", ROOT / "tools" /
                                                  "gen_openings.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.generate()[0] == (combos_dir() / "openings.txt").read_text(encoding="utf-8")
