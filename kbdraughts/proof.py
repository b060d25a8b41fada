"""Material won by force, a king counted as a king: the proof behind every note of the coach.

The referee (:mod:`kbdraughts.referee`) counts pieces, men and kings alike: a shot counts
pieces. A player counts material, and a line that wins a man while the opponent crowns
does not win (the two false notes of issue 20 came from that count). Here a man is
``MAN_VALUE`` (100) and a king ``KING_VALUE`` (250, ~2.5 men), as the search counts them
(:func:`kbdraughts.eval.heuristic.material`), so a deep search can confirm what is proved here.

:func:`weigh` is our material minus theirs; :func:`prove` is its exact minimax over
``plies`` plies and then every forced capture to its end (alpha-beta: exact, the pruning
skips only what cannot change the value), with the line that shows it. A side without a
legal move has lost (``GAME`` beyond any material). ``nodes`` bounds the work
(:class:`kbdraughts.referee.Nodes`, OutOfNodes past it): many kings make it explode.

>>> from kbdraughts.notation import parse_fen, move_text
>>> pos = parse_fen("W:Wc3,g3:Bd4,f6,h8")  # c3:e5:g7 takes two men, then h8:f6 one
>>> weigh(pos, 0), prove(pos, 0, 0).value
(-100, 0)
>>> [move_text(m) for m in prove(pos, 0, 0).line]
['c3:e5:g7', 'h8:f6']
>>> at_least(pos, 0, 0, 0), at_least(pos, 0, 0, 1)
(True, False)
"""

from __future__ import annotations

from typing import NamedTuple

from kbdraughts.board import Move, Position, Side, legal_moves, play
from kbdraughts.referee import Nodes
from kbdraughts.values import KING_VALUE, MAN_VALUE

__all__ = ["GAME", "Proof", "weigh", "prove", "at_least", "men_amount"]

#: The value of a won game: beyond any material (twelve kings are 3000).
GAME = 10_000


class Proof(NamedTuple):
    """The exact value (for ``us``) of a position within a horizon, and the line that shows
    it: the best move of the side to move at each ply, to the end of the captures."""

    value: int
    line: tuple[Move, ...]


def weigh(pos: Position, us: Side) -> int:
    """Our material minus theirs: a man 100, a king 250."""
    k = pos.kings
    w = (pos.white & ~k).bit_count() * MAN_VALUE + (pos.white & k).bit_count() * KING_VALUE
    b = (pos.black & ~k).bit_count() * MAN_VALUE + (pos.black & k).bit_count() * KING_VALUE
    return b - w if us else w - b


def prove(pos: Position, us: Side, plies: int, nodes: Nodes | None = None) -> Proof:
    """The minimax of :func:`weigh` over ``plies`` plies and every forced capture after them,
    with its line; exact (a full window at the root)."""
    value, line = _search(pos, us, plies, -GAME - 1, GAME + 1, nodes)
    return Proof(value, tuple(line))


def at_least(pos: Position, us: Side, plies: int, value: int, nodes: Nodes | None = None
             ) -> bool:
    """Whether :func:`prove`'s value is ``value`` or more: the same minimax, asked only for
    that (a null window: far fewer positions than the exact value)."""
    return _bound(pos, us, plies, value - 1, value, nodes) >= value


def _bound(pos: Position, us: Side, plies: int, alpha: int, beta: int,
           nodes: Nodes | None) -> int:
    """:func:`_search` without its line: the null windows of :func:`at_least` visit many
    positions and need no line (the same value, a third less time)."""
    if nodes is not None:
        nodes.spend()
    moves = legal_moves(pos)
    if not moves:
        return -GAME if pos.side == us else GAME
    if plies <= 0 and not moves[0].captured:
        return weigh(pos, us)
    if moves[0].captured and len(moves) > 1:
        moves = sorted(moves, key=lambda m: -m.captured.bit_count())
    if pos.side == us:
        best = -GAME - 1
        for m in moves:
            v = _bound(play(pos, m), us, plies - 1, alpha, beta, nodes)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
    else:
        best = GAME + 1
        for m in moves:
            v = _bound(play(pos, m), us, plies - 1, alpha, beta, nodes)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
    return best


def _search(pos: Position, us: Side, plies: int, alpha: int, beta: int,
            nodes: Nodes | None) -> tuple[int, list[Move]]:
    """Fail-soft alpha-beta from ``us``'s point of view (max at our turn, min at theirs)."""
    if nodes is not None:
        nodes.spend()
    moves = legal_moves(pos)
    if not moves:
        return (-GAME if pos.side == us else GAME), []
    if plies <= 0 and not moves[0].captured:
        return weigh(pos, us), []
    ours = pos.side == us
    best, best_line = (-GAME - 1 if ours else GAME + 1), []
    if moves[0].captured and len(moves) > 1:  # the longest capture first: sooner cut-offs
        moves = sorted(moves, key=lambda m: -m.captured.bit_count())
    for m in moves:
        v, rest = _search(play(pos, m), us, plies - 1, alpha, beta, nodes)
        if (v > best) if ours else (v < best):
            best, best_line = v, [m, *rest]
            if ours:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:
                break
    return best, best_line


_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def men_amount(value: int) -> str:
    """Material in a player's words: ``a man``, ``two men``, ``a man and a half``, ``two and
    a half men`` (a king), ``the game`` past any material; rounded down to a half man."""
    if value >= GAME // 2:
        return "the game"
    halves = value * 2 // MAN_VALUE
    whole, half = divmod(halves, 2)
    if not half:
        word = _WORDS[whole] if whole < len(_WORDS) else str(whole)
        return f"{word} {'man' if whole == 1 else 'men'}"
    if whole == 0:
        return "half a man"
    if whole == 1:
        return "a man and a half"
    word = _WORDS[whole] if whole < len(_WORDS) else str(whole)
    return f"{word} and a half men"
