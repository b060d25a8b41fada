"""The capture tree: every sequence of mutual captures, scored by material, minimax over it.

From the side that starts (``us``): each of our captures, each of their capture replies, ours
again, until the side to move has none. A capture gains ``MAN_TAKEN`` per man (``KING_TAKEN``
per king, ``CROWN_GAIN`` for a crowning); one of theirs costs ``MAN_LOST``/``KING_LOST``/
``CROWN_GAIN``. We take the best branch for us, they the worst; the line is the principal one.
"""

from __future__ import annotations

from typing import NamedTuple

from kbdraughts.board import Move, Position, Side, captures, play
from kbdraughts.values import CROWN_GAIN, KING_LOST, KING_TAKEN, MAN_LOST, MAN_TAKEN

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


class TreeMemo(dict):
    """Capture-tree results by (position, side scored for), shared by the trees of one move
    choice, with the count of positions they visited (see MAX_NODES)."""

    nodes: int = 0
    truncated: bool = False


#: Positions the trees sharing one memo may visit. Real games stay far below (a few hundred);
#: king-heavy positions with mutual captures can branch without end, and then the tree stops
#: branching: deeper captures count as none.
MAX_NODES = 10_000
_INF = 10**9
_EXACT, _LOWER, _UPPER = 0, 1, 2


def exchange(pos: Position, us: Side, memo: dict | None = None, plies: int = 0) -> Line:
    """The capture tree from ``pos`` (either side to move) scored for ``us``.

    Zero with an empty line when the side to move has no capture. Minimax with alpha-beta
    pruning (the value is the same as the whole tree's; cut branches are not looked at).
    """
    if not isinstance(memo, TreeMemo):
        memo = TreeMemo()
    return _value(pos, us, -_INF, _INF, plies, memo)


def _value(pos: Position, us: Side, alpha: int, beta: int, plies: int, memo: TreeMemo) -> Line:
    key = (pos, us)
    hit = memo.get(key)
    if hit is not None:
        line, flag = hit
        if flag == _EXACT or (flag == _LOWER and line.score >= beta) or (
                flag == _UPPER and line.score <= alpha):
            return line
    if plies >= MAX_PLIES or memo.truncated:
        return Line(0, ())
    if memo.nodes >= MAX_NODES:
        memo.truncated = True
        return Line(0, ())
    memo.nodes += 1
    caps = captures(pos)
    if not caps:
        return Line(0, ())
    maximise = pos.side == us
    scored = sorted(((gain(pos, m, us), m) for m in caps), key=lambda gm: gm[0],
                    reverse=maximise)  # the biggest takes first: they cut the most
    best: Line | None = None
    a, b = alpha, beta
    for g, m in scored:
        sub = _value(play(pos, m), us, a - g, b - g, plies + 1, memo)
        score = g + sub.score
        if best is None or (score > best.score if maximise else score < best.score):
            best = Line(score, (m,) + sub.moves)
        if maximise:
            a = max(a, score)
        else:
            b = min(b, score)
        if a >= b:
            break
    assert best is not None
    if not memo.truncated:
        flag = _EXACT if alpha < best.score < beta else _LOWER if best.score >= beta else _UPPER
        memo[key] = (best, flag)
    return best


def score_captures(pos: Position, moves: list[Move] | None = None) -> list[tuple[Move, Line]]:
    """Each capture of the side to move with its tree (score for the mover, line from it)."""
    us = pos.side
    memo = TreeMemo()
    out = []
    for m in (captures(pos) if moves is None else moves):
        sub = exchange(play(pos, m), us, memo, 1)
        out.append((m, Line(gain(pos, m, us) + sub.score, (m,) + sub.moves)))
    return out
