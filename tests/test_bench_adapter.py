"""bench/pydraughts_engine.py's square conversion: py-draughts numbers the dark squares 1..32
from b8 to g1 (the PDN numbering of Russian draughts seen from White), we name them a1..h8.
The adapter imports nothing of kbdraughts, so it is checked here against our own notation."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from kbdraughts.notation import parse_fen
from kbdraughts.squares import SQUARE_FILE, SQUARE_RANK, SQUARES

ADAPTER = Path(__file__).resolve().parents[1] / "bench" / "pydraughts_engine.py"


def _adapter():
    spec = importlib.util.spec_from_file_location("pydraughts_engine", ADAPTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_32_numbers_are_the_32_dark_squares_in_reading_order():
    a = _adapter()
    names = [a.square_name(i) for i in range(32)]
    ours = sorted(SQUARES, key=lambda s: (-SQUARE_RANK[s], SQUARE_FILE[s]))  # b8 d8 .. g1
    assert [parse_fen(f"W:WK{n}:B").white.bit_length() - 1 for n in names] == ours
    assert names[0] == "b8" and names[4] == "a7" and names[21] == "c3" and names[31] == "g1"
    assert all(a.square_number(n) == i + 1 for i, n in enumerate(names))


def test_a_fen_is_renumbered_with_its_kings():
    a = _adapter()
    assert a.their_fen("W:Wc3,Kd4:Bb6,Kh8") == "W:W22,K18:B9,K4"
    assert a.their_fen("B:W:Bg1") == "B:W:B32"
