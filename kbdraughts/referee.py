"""The referee: an exhaustive material minimax on the move generator alone.

The tests prove rules with it and the rule tools draft rules by it, so a rule drafted by a tool
is found by the same count it is later checked by. It uses none of the AI's layers on purpose
(no capture tree, no heuristic, no search): it is the independent judge of what they claim.

Pieces are counted, men and kings alike (a shot counts pieces). A side without a legal move
has lost: ``-LOST`` for us, ``LOST`` for the opponent.

>>> from kbdraughts.notation import parse_fen, move_text
>>> pos = parse_fen("W:Wc3,g3:Bd4,f6,h8")
>>> balance(pos, 0), resolve(pos, 0, 0)
(-1, 0)
>>> value, line = principal_line(pos, 0, 0)
>>> value, [move_text(m) for m in line]
(0, ['c3:e5:g7', 'h8:f6'])
"""

from __future__ import annotations

from typing import Callable

from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.errors import KbdraughtsError
from kbdraughts.native import core as _core
from kbdraughts.squares import SQUARES, Side, Square

__all__ = ["LOST", "balance", "resolve", "principal_line", "nets", "forces", "move_squares",
           "Nodes", "OutOfNodes"]

#: The value of a position whose side to move has no move (beyond any piece count).
LOST = 99


class OutOfNodes(KbdraughtsError):
    """A judgement asked with :class:`Nodes` that needed more positions than they allow."""


class Nodes:
    """Positions a caller lets the referee visit (its judgements are exhaustive, so with many
    kings one capture resolution alone can take millions); ``spend`` raises OutOfNodes past
    them. Shared by several judgements, it bounds them all."""

    def __init__(self, limit: int):
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes


def balance(pos: Position, us: Side) -> int:
    """Our pieces minus theirs."""
    w, b = pos.white.bit_count(), pos.black.bit_count()
    return b - w if us else w - b


def resolve(pos: Position, us: Side, plies: int, nodes: Nodes | None = None) -> int:
    """Minimax of the balance over ``plies`` plies, then every forced capture to its end
    (``nodes``: at most so many positions, else OutOfNodes)."""
    if _native is None:
        return _resolve(pos, us, plies, nodes)
    if nodes is None:
        return _native(pos, us, plies)
    if nodes.left <= 0:
        nodes.spend()  # raises, as the first position visited would
    value, nodes.left = _native(pos, us, plies, nodes.left)
    if nodes.left < 0:
        raise OutOfNodes
    return value


def _resolve(pos: Position, us: Side, plies: int, nodes: Nodes | None) -> int:
    if nodes is not None:
        nodes.spend()
    moves = legal_moves(pos)
    if not moves:
        return -LOST if pos.side == us else LOST
    if plies <= 0 and not moves[0].captured:
        return balance(pos, us)
    values = [_resolve(play(pos, m), us, plies - 1, nodes) for m in moves]
    return max(values) if pos.side == us else min(values)


# The native core's resolve answers in place of the one above when it was built (tests hold
# them equal, budget included): the claims, the coach and the motifs' checks count with it.
_native = _core.resolve if _core is not None else None


def principal_line(pos: Position, us: Side, plies: int) -> tuple[int, list[Move]]:
    """:func:`resolve` with the line it found (the first best move at each ply)."""
    moves = legal_moves(pos)
    if not moves:
        return (-LOST if pos.side == us else LOST), []
    if plies <= 0 and not moves[0].captured:
        return balance(pos, us), []
    best: tuple[int, list[Move]] | None = None
    for m in moves:
        v, rest = principal_line(play(pos, m), us, plies - 1)
        if best is None or (v > best[0] if pos.side == us else v < best[0]):
            best = (v, [m, *rest])
    assert best is not None
    return best


def nets(before: Position, after: Position, us: Side, plies: int = 2,
         nodes: Nodes | None = None) -> int:
    """How many pieces the move from ``before`` to ``after`` wins against the best defence."""
    return resolve(after, us, plies, nodes) - balance(before, us)


def forces(pos: Position, us: Side, plies: int, goal: Callable[[Position], bool],
           nodes: Nodes | None = None) -> bool:
    """Whether ``us`` reaches ``goal(position)`` within ``plies`` plies against any defence."""
    if goal(pos):
        return True
    if plies == 0:
        return False
    if nodes is not None:
        nodes.spend()
    moves = legal_moves(pos)
    if not moves:
        return pos.side != us
    results = (forces(play(pos, m), us, plies - 1, goal, nodes) for m in moves)
    return any(results) if pos.side == us else all(results)


def move_squares(move: Move) -> set[Square]:
    """The squares a move uses: its start, every landing, and the pieces it takes."""
    squares = {move.start, *move.path}
    squares.update(s for s in SQUARES if move.captured >> s & 1)
    return squares
