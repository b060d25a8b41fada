"""The capture tree: every sequence of mutual captures, scored by material, minimax over it.

From the side that starts (``us``): each of our captures, each of their capture replies, ours
again, until the side to move has none. A capture gains ``MAN_TAKEN`` per man (``KING_TAKEN``
per king, ``CROWN_GAIN`` for a crowning); one of theirs costs ``MAN_LOST``/``KING_LOST``/
``CROWN_GAIN``. We take the best branch for us, they the worst; the line is the principal one.
"""

from __future__ import annotations

from typing import NamedTuple

from kbdraughts.ai.values import (
    CROWN_GAIN, KING_LOST, KING_TAKEN, MAN_LOST, MAN_TAKEN,
)
from kbdraughts.board import Move, Position, Side, captures, play

#: Plies after which a capture tree stops looking (king exchanges can go on for long; each
#: ply of a real game can only take pieces, so 24 plies covers any board).
MAX_PLIES = 24


class Line(NamedTuple):
    """A scored capture line: ``score`` for ``us``, ``moves`` the principal sequence."""

    score: int
    moves: tuple[Move, ...]


def gain(pos: Position, move: Move, us: Side) -> int:
    """What ``move`` (played in ``pos``) is worth to ``us`` in the tree's numbers."""
    taken = move.captured
    kings = (taken & pos.kings).bit_count()
    men = taken.bit_count() - kings
    ours = pos.side == us
    if ours:
        v = men * MAN_TAKEN + kings * KING_TAKEN + (CROWN_GAIN if move.crowned else 0)
    else:
        v = -(men * MAN_LOST + kings * KING_LOST + (CROWN_GAIN if move.crowned else 0))
    return v


def exchange(pos: Position, us: Side, memo: dict | None = None, plies: int = 0) -> Line:
    """The capture tree from ``pos`` (either side to move) scored for ``us``.

    Zero with an empty line when the side to move has no capture.
    """
    if memo is None:
        memo = {}
    key = (pos, us)
    hit = memo.get(key)
    if hit is not None:
        return hit
    caps = captures(pos)
    if not caps or plies >= MAX_PLIES:
        line = Line(0, ())
    else:
        maximise = pos.side == us
        best: Line | None = None
        for m in caps:
            sub = exchange(play(pos, m), us, memo, plies + 1)
            score = gain(pos, m, us) + sub.score
            if best is None or (score > best.score if maximise else score < best.score):
                best = Line(score, (m,) + sub.moves)
        line = best  # type: ignore[assignment]
    memo[key] = line
    return line


def score_captures(pos: Position, moves: list[Move] | None = None) -> list[tuple[Move, Line]]:
    """Each capture of the side to move with its tree (score for the mover, line from it)."""
    us = pos.side
    memo: dict = {}
    out = []
    for m in (captures(pos) if moves is None else moves):
        sub = exchange(play(pos, m), us, memo, 1)
        out.append((m, Line(gain(pos, m, us) + sub.score, (m,) + sub.moves)))
    return out
