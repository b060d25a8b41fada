"""The shapes file's regions for the fit: their templates (regions generated in bulk, as Scan's
patterns are), their table entries as sparse columns of the fit's matrix, and the fitted
tables written back as lines of arrangements.

Templates:

- ``diamond``: a square, the two squares ahead of it and the one beyond (4 squares, 81
  arrangements): the local unit of a diagonal game, 18 of them;
- ``window``: a 4 by 4 corner of the board (8 dark squares, 6561 arrangements), 9 of them,
  overlapping by two files or ranks.

>>> [r.squares for r in template_regions("diamond")][:2]
[('c1', 'b2', 'd2', 'c3'), ('e1', 'd2', 'f2', 'e3')]
>>> len(template_regions("diamond")), len(template_regions("window"))
(18, 9)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy import sparse

from kbdraughts.eval.regions import Compiled, arrangement
from kbdraughts.board import Position
from kbdraughts.eval.shapes import Region, region_text
from kbdraughts.squares import SQUARE_NAMES, square_at

__all__ = ["TEMPLATES", "template_regions", "region_columns", "shapes_text"]

TEMPLATES = ("diamond", "window")


def _name(file: int, rank: int) -> str:
    return SQUARE_NAMES[square_at(file, rank)]


def template_regions(template: str) -> list[Region]:
    """The regions of a template, named by it and their first square."""
    out = []
    if template == "diamond":
        for r in range(6):
            for f in range(1, 7):
                if (f + r) % 2 == 0:
                    four = (_name(f, r), _name(f - 1, r + 1), _name(f + 1, r + 1), _name(f, r + 2))
                    out.append(Region(f"diamond-{four[0]}", four, (), (), 0))
    elif template == "window":
        for r0 in (0, 2, 4):
            for f0 in (0, 2, 4):
                sq = tuple(_name(f, r) for r in range(r0, r0 + 4) for f in range(f0, f0 + 4)
                           if (f + r) % 2 == 0)
                out.append(Region(f"window-{sq[0]}", sq, (), (), 0))
    else:
        raise ValueError(f"unknown template {template!r} (one of {', '.join(TEMPLATES)})")
    return out


def _indices(white: np.ndarray, black: np.ndarray, kings: np.ndarray,
             squares: Sequence[int]) -> np.ndarray:
    """regions.region_index over many positions at once (-1 where a king stands there)."""
    index = np.zeros(len(white), dtype=np.int64)
    place = 1
    king = np.zeros(len(white), dtype=bool)
    for s in squares:
        index += place * (((white >> s) & 1) + 2 * ((black >> s) & 1)).astype(np.int64)
        king |= ((kings >> s) & 1).astype(bool)
        place *= 3
    index[king] = -1
    return index


def region_columns(positions: Sequence[Position], compiled: Sequence[Compiled],
                   applies: np.ndarray
                   ) -> tuple[sparse.csr_matrix, list[tuple[int, int]], np.ndarray]:
    """The regions' part of the fit's matrix: a column per (region, arrangement) met, +1 where
    White holds it and -1 where Black does (White's view, as the evaluation adds them);
    ``applies[i, r]``: region r counts in position i. Returns the matrix, each column's
    (region, index), and the columns' present weights."""
    white = np.array([p.white for p in positions], dtype=np.uint64)
    black = np.array([p.black for p in positions], dtype=np.uint64)
    kings = np.array([p.kings for p in positions], dtype=np.uint64)
    offsets = np.cumsum([0] + [len(c.table) for c in compiled])
    rows, cols, vals = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)], [np.zeros(0)]
    for r, c in enumerate(compiled):
        for squares, ours, theirs, sign in ((c.white, white, black, 1.0),
                                            (c.black, black, white, -1.0)):
            idx = _indices(ours, theirs, kings, squares)
            keep = np.nonzero(applies[:, r] & (idx >= 0))[0]
            rows.append(keep)
            cols.append(offsets[r] + idx[keep])
            vals.append(np.full(len(keep), sign))
    every = np.concatenate(cols)
    used, col = np.unique(every, return_inverse=True)  # only the arrangements met
    matrix = sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), col)),
                               shape=(len(positions), len(used)))
    region = np.searchsorted(offsets, used, side="right") - 1
    order = [(int(r), int(u - offsets[r])) for r, u in zip(region, used)]
    start = np.array([compiled[r].table[i] for r, i in order])
    return matrix, order, start


def shapes_text(header: str, regions: Sequence[Region], tables: Sequence[Sequence[float]]) -> str:
    """A shapes file: ``header`` (its comment lines), then each region with a line for every
    arrangement whose weight is not 0 (two decimals)."""
    parts = [header.rstrip("\n") + "\n"] if header else []
    for region, table in zip(regions, tables):
        lines = [(arrangement(i, len(region.squares)), round(w, 2))
                 for i, w in enumerate(table) if round(w, 2) != 0]
        parts.append("\n" + region_text(region, lines))
    return "".join(parts)
