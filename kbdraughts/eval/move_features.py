"""The features of a quiet move, from the mover's side, in the order of
``kb.terms.MOVE_FEATURES``: what the heuristic file's `weight` terms weigh (level 1's weighted
move), and the geometry they need (the barriers of the ancestor's king rules, the edge).
"""

from __future__ import annotations

from typing import Callable

from kbdraughts.capture_tree import exchange
from kbdraughts.eval.evaluation import BACK_RANK, CENTRE, ENDGAME_PIECES
from kbdraughts.board import (
    SQUARE_FILE, SQUARE_RANK, SQUARES, WHITE, Move, Position, Side, captures, legal_moves, play,
)
from kbdraughts.squares import mirror_bits

__all__ = ["move_features", "barrier", "their_shot", "BARRIERS", "EDGE", "ShotFn"]


def _mask(squares) -> int:
    return sum(1 << s for s in squares)


_F, _R = SQUARE_FILE, SQUARE_RANK
#: The long diagonal a1-h8 and the double diagonal h2-b8, White's view, and the squares beyond
#: them (where an enemy man must cross them to reach White's back rank).
_MAIN = _mask(s for s in SQUARES if _F[s] == _R[s])
_DOUBLE = _mask(s for s in SQUARES if _F[s] + _R[s] == 8)
_BEYOND_MAIN = _mask(s for s in SQUARES if _R[s] > _F[s])
_BEYOND_DOUBLE = _mask(s for s in SQUARES if _F[s] + _R[s] > 8)
#: Per side: ((barrier, beyond), (barrier, beyond)).
BARRIERS = (
    ((_MAIN, _BEYOND_MAIN), (_DOUBLE, _BEYOND_DOUBLE)),
    ((mirror_bits(_MAIN), mirror_bits(_BEYOND_MAIN)),
     (mirror_bits(_DOUBLE), mirror_bits(_BEYOND_DOUBLE))),
)
EDGE = _mask(s for s in SQUARES if _F[s] in (0, 7))


def barrier(pos: Position, side: Side) -> tuple[int, int]:
    """The diagonal that bars the enemy men's way for ``side`` and how many men are beyond it:
    the one with more enemy men beyond (the ancestor counted which corner held more)."""
    enemy = pos.men(1 - side)
    best = (0, 0)
    for line, beyond in BARRIERS[side]:
        n = (enemy & beyond).bit_count()
        if n > best[1]:
            best = (line, n)
    return best


def _rank_of(square: int, side: Side) -> int:
    return _R[square] if side == WHITE else 7 - _R[square]


def their_shot(after: Position, us: Side, memo: dict | None = None) -> int:
    """The opponent's best shot after our quiet move, for ``us`` on the capture tree's scale:
    of their replies that give us a capture (captures are compulsory: a man given is taken),
    the worst capture tree that follows; 0 when none costs us. A man given to take a king, or
    two men, back is the commonest combination; the tree weighs a king as 2.5 men."""
    worst = 0
    for reply in legal_moves(after):
        then = play(after, reply)
        if captures(then):
            worst = min(worst, exchange(then, us, memo).score)
    return worst


#: ``shots(after, us)``: the capture tree's value for ``us`` of the opponent's best shot from
#: ``after`` (a man given, or a knowledge-base motif they could play there), 0 when none.
ShotFn = Callable[[Position, Side], int]


def move_features(pos: Position, move: Move, memo: dict | None = None,
                  shots: ShotFn | None = None,
                  gain: Callable[[Position], float] | None = None) -> tuple[float, ...]:
    """The values of MOVE_FEATURES for a quiet ``move`` of the side to move.

    ``exchange`` is the capture tree after the move (their captures, ours back...); when they
    have no capture, ``enemy_shot`` is what ``shots`` says their best shot would win there
    (level 1: :func:`their_shot` and their motifs' claims; 0 without a knowledge base) and
    ``eval_gain`` is ``gain(after)``: what the move gains in the evaluation's value terms,
    for the mover (0 without it).
    """
    side = pos.side
    own_kings = pos.kings_of(side)
    king_move = bool(pos.kings >> move.start & 1)
    sb, eb = 1 << move.start, 1 << move.end
    line, far = barrier(pos, side) if own_kings else (0, 0)
    after = play(pos, move)
    tree = exchange(after, side, memo)
    ex = tree.score
    quiet = not tree.moves
    shot = shots(after, side) if shots is not None and quiet else 0
    eval_gain = gain(after) if gain is not None and quiet else 0
    total = (pos.white | pos.black).bit_count()
    return (
        1 if move.crowned else 0,
        ex,
        0 if king_move else 1,
        1 if king_move else 0,
        1 if own_kings else 0,
        far,
        1 if king_move and line & eb and not line & sb else 0,
        1 if line & own_kings else 0,
        1 if king_move and line & sb and not line & eb else 0,
        0 if king_move else bool(CENTRE & eb) - bool(CENTRE & sb),
        1 if not king_move and BACK_RANK[side] & sb else 0,
        0 if king_move else _rank_of(move.end, side),
        1 if EDGE & eb else 0,
        1 if total <= ENDGAME_PIECES else 0,
        shot,
        eval_gain,
    )
