"""The endgame tables a search reads at its nodes: those a root can reach, loaded before it starts.

A search below a root with few pieces meets positions the tables know (a capture turns a middle
game of six pieces into an ending of four). Both searches read them there: the pure one through
:meth:`Leaves.probe`, the native one from the same bytes (:meth:`Leaves.buffers`), handed over
before the search starts, since the C search cannot stop to read a file. So the set is fixed
at the root: the tables of every material the root's can become (men taken, men crowned), of
at most :data:`LEAF_PIECES` pieces, that the database has.

>>> from kbdraughts.egdb.index import Material
>>> sorted(m.name for m in reachable(Material(1, 0, 0, 2), 3))
['w0m1k-b0m1k', 'w0m1k-b0m2k', 'w1m0k-b0m1k', 'w1m0k-b0m2k']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kbdraughts.board import Position
from kbdraughts.egdb.index import Material, covers, material_of
from kbdraughts.egdb.store import Table

if TYPE_CHECKING:
    from kbdraughts.egdb.probe import Database

#: Tables of at most this many pieces are read inside a search: those built at first need
#: (16 MB for all of them, read once a process). The five-piece ones (365 MB) stay with the
#: root's own layer, which reads one table at a time.
LEAF_PIECES = 4
#: A root with more pieces than this does not load tables for its search: its lines seldom
#: reach an ending within a move's horizon, and a process that only plays middle games reads
#: no file.
ROOT_PIECES = 10


def reachable(m: Material, pieces: int) -> list[Material]:
    """The materials of at most ``pieces`` pieces that ``m`` can become: each side keeps at
    most its men, and at most its pieces, and at least one piece."""
    def side(men: int, kings: int) -> list[tuple[int, int]]:
        return [(wm, wk) for wm in range(men + 1) for wk in range(men + kings - wm + 1)
                if wm + wk >= 1]
    return [Material(wm, wk, bm, bk) for wm, wk in side(m.wm, m.wk) for bm, bk in side(m.bm, m.bk)
            if wm + wk + bm + bk <= pieces]


class Leaves:
    """Tables by material, read at a search's nodes."""

    def __init__(self, tables: dict[Material, Table]) -> None:
        self.tables = tables
        #: The most pieces a table here holds (0: none, the search reads nothing).
        self.pieces = max((m.pieces for m in tables), default=0)

    def probe(self, pos: Position) -> tuple[int, int] | None:
        """(value for the side to move, plies to conversion), or None where no table here
        covers ``pos`` (as :meth:`kbdraughts.egdb.probe.Database.probe`)."""
        if not covers(pos):
            return None
        table = self.tables.get(material_of(pos))
        return None if table is None else table.answer(pos)

    def buffers(self) -> dict[tuple[int, int, int, int], tuple[bytes | bytearray,
                                                               bytes | bytearray]]:
        """{(wm, wk, bm, bk): (packed values, distances)}: what the native search reads."""
        return {(m.wm, m.wk, m.bm, m.bk): (t.values, t.distances) for m, t in self.tables.items()}


def for_root(db: Database, pos: Position, wait: bool = False) -> Leaves | None:
    """The tables a search from ``pos`` may read, or None when it reads none (too many pieces
    at the root, or none of them read yet). Without ``wait`` only the tables already read are
    used and the others are read in the background for the next move (reading them all takes
    half a second: more than a short move has)."""
    if (pos.white | pos.black).bit_count() > ROOT_PIECES or not pos.white or not pos.black:
        return None
    wanted = reachable(material_of(pos), LEAF_PIECES)
    if not wait:
        db.read_later(wanted)
    tables = {}
    for m in wanted:
        table = db.table(m) if wait else db.loaded(m)
        if table is not None:
            tables[m] = table
    return Leaves(tables) if tables else None
