"""Perft suites from ``tests/data/perft.txt``: one line per (position, depth, leaf count).

A mismatch prints the divide (each root move with its count) so the wrong branch is found at
once. Lines marked ``slow`` run only with ``KBDRAUGHTS_SLOW=1`` in the environment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import pytest

from kbdraughts.board import divide, perft
from kbdraughts.notation import fen, move_text, parse_fen

PERFT_FILE = Path(__file__).parent / "data" / "perft.txt"
SLOW = os.environ.get("KBDRAUGHTS_SLOW") == "1"


class Entry(NamedTuple):
    line: int
    fen: str
    depth: int
    count: int
    slow: bool


def read_entries(path: Path = PERFT_FILE) -> list[Entry]:
    """``FEN DEPTH COUNT [slow]`` per line; ``#`` starts a comment."""
    entries = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.split("#", 1)[0].split()
        if not text:
            continue
        assert len(text) in (3, 4) and text[3:] in ([], ["slow"]), f"{path}:{number}: {raw!r}"
        entries.append(Entry(number, text[0], int(text[1]), int(text[2]), text[3:] == ["slow"]))
    return entries


ENTRIES = read_entries()


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"line{e.line}-d{e.depth}" for e in ENTRIES])
def test_perft(entry: Entry):
    if entry.slow and not SLOW:
        pytest.skip("slow perft: set KBDRAUGHTS_SLOW=1 to run it")
    pos = parse_fen(entry.fen)
    assert fen(pos) == entry.fen, "write FENs in perft.txt in canonical form"
    got = perft(pos, entry.depth)
    if got != entry.count:
        rows = sorted(f"  {move_text(m)} {n}" for m, n in divide(pos, entry.depth))
        pytest.fail(
            f"perft.txt:{entry.line}: perft {entry.depth} of {entry.fen} is {got}, expected "
            f"{entry.count}; divide:\n" + "\n".join(rows),
            pytrace=False,
        )


#: Each side has one move, a king's step to and fro behind a locked wall of men: the tree of
#: any depth has one leaf, so deep perft is cheap and shows whether the depth costs stack.
SHUTTLE = "W:WKg1,f2,a3,c3,e3,g3,b4,d4,f4,h4:BKb8,c7,a5,c5,e5,g5,b6,d6,f6,h6"


def test_deep_perft_does_not_hit_the_recursion_limit():
    # Issue 11: `perft 1100` raised RecursionError when perft recursed once per ply.
    pos = parse_fen(SHUTTLE)
    assert [perft(pos, d) for d in range(6)] == [1, 1, 1, 1, 1, 1]
    assert perft(pos, 1100) == 1
    assert perft(pos, 5000) == 1
    assert perft(parse_fen("W:Wa1:Bb2,c3"), 10**11) == 0  # no move: no leaf at any depth
