"""The fixed position sets of the benchmarks parse and are what they claim to be.

``bench/data/middlegames.txt`` (read by ``bench/search.py``): one FEN a line, ``#`` comments;
every position a quiet middle game of men only, so the search's figures are measured where
issue 13 says the games go wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.board import Position, captures, legal_moves
from kbdraughts.notation import fen, parse_fen

ROOT = Path(__file__).resolve().parent.parent
MIDDLEGAMES = ROOT / "bench" / "data" / "middlegames.txt"


def fen_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, FEN text) of each line that is not blank or a comment."""
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            out.append((n, text))
    return out


def check_middle_game(pos: Position) -> str:
    """What is wrong with ``pos`` as a bench middle game ("" when nothing)."""
    w, b = pos.white.bit_count(), pos.black.bit_count()
    if pos.kings:
        return "has kings"
    if not 14 <= w + b <= 22:
        return f"{w + b} pieces, not 14-22"
    if captures(pos):
        return "a capture is pending"
    if len(legal_moves(pos)) < 2:
        return "fewer than 2 legal moves"
    return ""


def test_middlegames_parse_and_are_quiet_middle_games():
    lines = fen_lines(MIDDLEGAMES)
    assert 20 <= len(lines) <= 40
    faults = []
    seen = set()
    for n, text in lines:
        pos = parse_fen(text)  # a bad FEN raises here, naming the text
        fault = check_middle_game(pos)
        if fen(pos) in seen:
            fault = "a duplicate"
        seen.add(fen(pos))
        if fault:
            faults.append(f"{MIDDLEGAMES.name}:{n}: {fault}: {text}")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("text, fault", [
    ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,d4:Be5,b6,d6,h6,a7,c7,e7,g7",
     "a capture is pending"),
    ("W:WKa1,c1,e1,g1,b2,d2,f2,h2:Bb6,d6,f6,h6,a7,c7,e7,g7,b8", "has kings"),
    ("W:Wa1,c1:Bb8,d8", "4 pieces, not 14-22"),
])
def test_the_check_finds_a_bad_position(text, fault):
    assert check_middle_game(parse_fen(text)) == fault
