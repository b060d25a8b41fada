"""The shapes file's regions compiled for the evaluation: per region a table of weights, one
per arrangement of men on its squares, indexed in base 3 (0 empty, 1 a man of the side whose
view it is, 2 a man of the other), for White's view as written and Black's on the board turned
round. The weights are held in hundredths, whole numbers (``EVAL_SCALE``), the evaluation's
exact unit. The native evaluation reads the same tables (``csrc/eval.c``); tests hold the two
equal.

>>> from kbdraughts.eval.shapes import parse_shapes
>>> from kbdraughts.notation import parse_fen
>>> (r,) = compile_regions(parse_shapes("region r a1 c1\\n  w. 5\\n  ?b -2\\n"))
>>> region_value(parse_fen("W:Wa1:Bb8"), r)  # White's a1 with c1 empty: 5
5.0
>>> region_value(parse_fen("W:Wa1:Bh8"), r)  # Black holds the same, turned round: h8, f8
0.0
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple, Sequence

from kbdraughts.board import Position
from kbdraughts.eval.shapes import MEN_SYMBOLS, Region
from kbdraughts.eval.terms import EVAL_SCALE, HeuristicFileError, hundredths
from kbdraughts.squares import SQUARE_NAMES, mirror_square

__all__ = ["Compiled", "compile_regions", "region_index", "region_value", "region_hundredths",
           "arrangement", "MAX_EXPANSION"]

#: The most table entries all wildcard lines of a file may fill together.
MAX_EXPANSION = 4_000_000
_SQUARE_OF = {name: s for s, name in SQUARE_NAMES.items()}


class Compiled(NamedTuple):
    """A region ready to weigh: its squares per view and its table."""

    name: str
    white: tuple[int, ...]  # its squares, White's view
    black: tuple[int, ...]  # the same turned round, Black's view
    table: tuple[float, ...]  # 3 ** len(squares) weights
    hundredths: tuple[int, ...]  # the same in hundredths: the evaluation's exact sums


def compile_regions(regions: Sequence[Region], path: str = "<shapes>") -> list[Compiled]:
    """Each region's table: every line's weight added to each arrangement it matches."""
    budget = MAX_EXPANSION
    out = []
    for r in regions:
        table = [0] * 3 ** len(r.squares)
        for symbols, weight, line in r.lines:
            choices = [MEN_SYMBOLS[c] for c in symbols]
            size = 1
            for c in choices:
                size *= len(c)
            budget -= size
            if budget < 0:
                raise HeuristicFileError(f"{path}:{line}: error: the wildcards fill more than "
                                         f"{MAX_EXPANSION} table entries in all")
            cents = hundredths(weight)
            for digits in product(*choices):
                table[sum(d * 3 ** i for i, d in enumerate(digits))] += cents
        white = tuple(_SQUARE_OF[s] for s in r.squares)
        out.append(Compiled(r.name, white, tuple(mirror_square(s) for s in white),
                            tuple(c / EVAL_SCALE for c in table), tuple(table)))
    return out


def region_index(pos: Position, squares: Sequence[int], view_white: bool) -> int | None:
    """The arrangement's index on ``squares`` from one side's view, or None when a king
    stands there (a region weighs men only)."""
    white, black, kings, _ = pos
    if view_white:
        ours, theirs = white, black
    else:
        ours, theirs = black, white
    index, place = 0, 1
    for s in squares:
        if kings >> s & 1:
            return None
        index += place * ((ours >> s & 1) + 2 * (theirs >> s & 1))
        place *= 3
    return index


def region_hundredths(pos: Position, r: Compiled) -> int:
    """White's weight on the region less Black's (on the board turned round), in hundredths."""
    iw, ib = region_index(pos, r.white, True), region_index(pos, r.black, False)
    t = r.hundredths
    return (t[iw] if iw is not None else 0) - (t[ib] if ib is not None else 0)


def region_value(pos: Position, r: Compiled) -> float:
    """White's weight on the region less Black's, as a number of men's hundredths."""
    return region_hundredths(pos, r) / EVAL_SCALE


def arrangement(index: int, size: int) -> str:
    """The symbols of a table index, as the shapes file writes them.

    >>> arrangement(1 + 2 * 3, 3)
    'wb.'
    """
    return "".join(".wb"[index // 3 ** i % 3] for i in range(size))
