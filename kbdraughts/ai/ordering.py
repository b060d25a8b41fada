"""Move ordering for the search: the table's move first, then two killers a ply, then history;
at the root, the moves asked for first (``root_order``).

A quiet move is known by ``start << 6 | end`` (a quiet move is its two squares), an index in
the flat history list: no tuple is built per move. Captures go largest first. The order is a
list of indices into the moves (``sorted`` with a built-in key, no Python call per move).

>>> from kbdraughts.board import START, legal_moves
>>> order = Ordering()
>>> moves = legal_moves(START)
>>> order.cutoff(moves[3], depth=4, ply=0)
>>> order.order(moves, None, 0)[0] == 3
True
"""

from __future__ import annotations

from typing import Sequence

from kbdraughts.board import Move

#: Plies a search can go below the root at most (extensions and captures included).
MAX_PLY = 256
#: Keys above any history count: the table's move, then the first and second killer.
TT_KEY, KILLER_KEYS = 1 << 62, (1 << 61, 1 << 60)


def quiet_key(m: Move) -> int:
    return m.start << 6 | m.end


def _taken(m: Move) -> int:
    return m.captured.bit_count()


class Ordering:
    """Killers (two a ply) and the history of quiet moves that caused cut-offs."""

    def __init__(self) -> None:
        self.history = [0] * (64 * 64)
        self.killers = [[-1, -1] for _ in range(MAX_PLY)]

    def new_search(self) -> None:
        """Killers are forgotten and history halved: the next search is from another root."""
        self.history = [h >> 1 for h in self.history]
        for k in self.killers:
            k[0] = k[1] = -1

    def order(self, moves: Sequence[Move], tt_move: Move | None, ply: int) -> Sequence[int]:
        """The indices of ``moves`` in the order to try them."""
        n = len(moves)
        if n == 1:
            return (0,)
        if moves[0].captured:
            keys = [_taken(m) for m in moves]
            if tt_move is not None:
                keys[moves.index(tt_move)] = TT_KEY
        else:
            idx = [m.start << 6 | m.end for m in moves]
            hist = self.history
            keys = [hist[i] for i in idx]
            k1, k2 = self.killers[ply]
            if k1 >= 0 and k1 in idx:
                keys[idx.index(k1)] = KILLER_KEYS[0]
            if k2 >= 0 and k2 in idx:
                keys[idx.index(k2)] = KILLER_KEYS[1]
            if tt_move is not None:
                keys[idx.index(tt_move.start << 6 | tt_move.end)] = TT_KEY
        return sorted(range(n), key=keys.__getitem__, reverse=True)

    def is_killer(self, m: Move, ply: int) -> bool:
        return (m.start << 6 | m.end) in self.killers[ply]

    def cutoff(self, m: Move, depth: int, ply: int) -> None:
        """A quiet move refuted the opponent's last move at ``ply``: remember it."""
        i = m.start << 6 | m.end
        self.history[i] += depth * depth
        k = self.killers[ply]
        if k[0] != i:
            k[1], k[0] = k[0], i


def root_order(moves: list[Move], prefer: Sequence[Move], best: Move | None = None
               ) -> list[Move]:
    """``best`` (the last search's move here) first, then ``prefer``'s moves in their order,
    then the rest (largest captures first); moves not in ``moves`` are left out.

    >>> from kbdraughts.board import START, legal_moves
    >>> a, b, c = legal_moves(START)[:3]
    >>> root_order([a, b, c], [c, b], best=b) == [b, c, a]
    True
    """
    first = list(dict.fromkeys(m for m in (best, *prefer) if m in moves))
    rest = sorted((m for m in moves if m not in first), key=lambda m: -m.captured.bit_count())
    return first + rest
