"""The endgame tables in pure Python: the reference the C is tested against, and the fallback
for the smallest material where the native core is not built.

It solves a table by the other road from the C's (``csrc/egdb.c``, retrograde analysis by
un-moves): forward, from each position's legal moves (board.py's generator), level by level
of distance to conversion, as a least fixed point. A position is won at ``d`` plies when a move
converts (a capture or a crowning) into a position lost for the opponent (``d = 1``) or leads
quietly to one lost at ``d - 1``; lost at ``d`` when it has no move (``d = 0``) or every move
converts into a win for the opponent or leads to one won at most ``d - 1`` plies on, the
longest being ``d - 1``; drawn when neither ever holds. Slow (some seconds for a 3-piece
table), which is why it is kept to the smallest material.

>>> from kbdraughts.egdb.index import Material
>>> t = solve(Material(0, 1, 0, 1), {})
>>> t.counts()
(388, 4, 1592)
>>> verify(t, {})
(0, -1)
"""

from __future__ import annotations

from typing import Mapping

from kbdraughts.board import Position, legal_moves, play
from kbdraughts.egdb.index import Material, material_of, rank, size, unrank
from kbdraughts.egdb.store import DRAW, LOSS, WIN, Table

#: The most pieces the pure-Python generator is used for.
MAX_PIECES = 3


def converted(pos: Position, tables: Mapping[Material, Table]) -> int:
    """The value of ``pos`` (reached by a conversion) for its side to move; KeyError when its
    table is not among ``tables``."""
    if not pos.pieces(pos.side):
        return LOSS  # everything taken
    table = tables[material_of(pos)]
    return table.value(rank(pos))


def _edges(m: Material, tables: Mapping[Material, Table]
           ) -> tuple[list[list[int]], list[int], list[bool]]:
    """Per position: the indices its quiet moves lead to, the best its conversions give
    (WIN, DRAW or LOSS for it; 0 when it has none), and whether it has a move at all."""
    kids, conversion, moves = [], [], []
    for i in range(size(m)):
        pos = unrank(m, i)
        quiet, best = [], 0
        legal = legal_moves(pos)
        for move in legal:
            child = play(pos, move)
            if move.captured or move.crowned:
                v = converted(child, tables)
                mine = WIN if v == LOSS else LOSS if v == WIN else DRAW
                best = mine if not best else _better(best, mine)
            else:
                quiet.append(rank(child))
        kids.append(quiet)
        conversion.append(best)
        moves.append(bool(legal))
    return kids, conversion, moves


def _better(a: int, b: int) -> int:
    order = {LOSS: 0, DRAW: 1, WIN: 2}
    return a if order[a] >= order[b] else b


def solve(m: Material, tables: Mapping[Material, Table]) -> Table:
    """``m``'s table; ``tables`` holds those its conversions lead to."""
    n = size(m)
    kids, conversion, moves = _edges(m, tables)
    parents: list[list[int]] = [[] for _ in range(n)]
    for i, quiet in enumerate(kids):
        for k in quiet:
            parents[k].append(i)
    value, dist = bytearray(n), bytearray(n)
    fresh = [i for i in range(n) if not moves[i]]  # lost at 0
    for i in fresh:
        value[i] = LOSS
    d = 0
    while fresh or d == 0:
        d += 1
        candidates = {p for i in fresh for p in parents[i]}
        if d == 1:
            candidates.update(i for i in range(n) if conversion[i])
        fresh = [i for i in sorted(candidates) if not value[i]
                 and _decide(i, d, kids[i], conversion[i], value, dist)]
    values = bytearray((n + 3) // 4)
    for i in range(n):
        values[i >> 2] |= (value[i] or DRAW) << ((i & 3) << 1)
    return Table(m, values, dist)


def _decide(i: int, d: int, quiet: list[int], conversion: int, value: bytearray,
            dist: bytearray) -> bool:
    """Whether position i is decided at distance ``d``; sets its value and distance when it is
    (a position decided earlier in the same level is seen with its distance, ``d``, so it
    decides nothing more at this level)."""
    if (d == 1 and conversion == WIN) or any(value[k] == LOSS and dist[k] == d - 1
                                             for k in quiet):
        value[i], dist[i] = WIN, d
        return True
    if conversion in (WIN, DRAW) or any(value[k] != WIN for k in quiet):
        return False
    if max((dist[k] + 1 for k in quiet), default=1) == d:
        value[i], dist[i] = LOSS, d
        return True
    return False


def verify(table: Table, tables: Mapping[Material, Table]) -> tuple[int, int]:
    """The consistency pass: (how many positions' value or distance does not follow from their
    successors', the first of them or -1)."""
    m = table.material
    faults, first = 0, -1
    for i in range(size(m)):
        pos = unrank(m, i)
        want = _expected(pos, table, tables)
        got = (table.value(i), table.distance(i))
        if want != got:
            faults += 1
            first = i if first < 0 else first
    return faults, first


def _expected(pos: Position, table: Table, tables: Mapping[Material, Table]) -> tuple[int, int]:
    wins, losses, draw = [], [], False
    for move in legal_moves(pos):
        child = play(pos, move)
        if move.captured or move.crowned:
            v, d = converted(child, tables), 0
        else:
            k = rank(child)
            v, d = table.value(k), table.distance(k)
        if v == LOSS:
            wins.append(d + 1)
        elif v == WIN:
            losses.append(d + 1)
        else:
            draw = True
    if wins:
        return WIN, min(wins)
    return (DRAW, 0) if draw else (LOSS, max(losses, default=0))
