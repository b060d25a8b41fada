"""Why the search preferred its move, in a player's words: the ideas (terms, patterns, the
areas the regions lie in: :mod:`kbdraughts.eval.ideas`) whose share made the difference between
the end of the line it chose and the end of the next best line.

The search scores a move by the evaluation at the end of its principal line, so what decided is
what differs there: each idea's share at the one line's end less the other's, for the mover,
the largest first, said as it stands at the chosen line's end, by the sides' names (a reason is
read by either player).

>>> from kbdraughts.eval.heuristic import Heuristic
>>> from kbdraughts.eval.terms import parse_terms
>>> from kbdraughts.notation import parse_fen, parse_move
>>> h = Heuristic(parse_terms("value centre 6 per centre_men\\nvalue back-rank 8 per back_men\\n"))
>>> pos = parse_fen("W:Wc1,g3:Bb8,h8")
>>> for words, d in deciding(h, pos, [parse_move(pos, "g3-f4")], [parse_move(pos, "c1-d2")]):
...     print(words, d)
men on the back rank (White's man c1 against b8, h8) 8.0
men in the centre (White's man f4) 6.0
>>> deciding_text([("the tempo", 6.0), ("the back guard", -8.0)])
'the tempo +0.06, the back guard -0.08'
"""

from __future__ import annotations

from typing import Callable, Sequence

from kbdraughts.eval.heuristic import Heuristic
from kbdraughts.eval.ideas import differences
from kbdraughts.board import Move, Position, play
from kbdraughts.notation import move_text
from kbdraughts.values import MAN_VALUE

__all__ = ["deciding", "deciding_text", "line_end", "against_next_best", "TRANSPOSES"]

#: Shares that differ by less than this (a hundredth of a man) decide nothing.
SMALLEST = 1.0
#: Said of a next best move whose line ends where the search's does (the two transpose): no
#: idea decides between them, so the move after it is the one compared.
TRANSPOSES = "transposes"


def line_end(pos: Position, line: Sequence[Move]) -> Position:
    """The position at the end of ``line`` played from ``pos``."""
    for move in line:
        pos = play(pos, move)
    return pos


def deciding(h: Heuristic, pos: Position, best: Sequence[Move], other: Sequence[Move],
             most: int = 3) -> list[tuple[str, float]]:
    """The ``most`` ideas whose shares differ most between the end of ``best`` and the end of
    ``other``, for the side to move in ``pos``; each difference in hundredths of a man. Shares
    that pull the other way are kept too: they say what the move gives up. The material is the
    search's score to tell (a line may end in the middle of an exchange)."""
    said = differences(line_end(pos, best), line_end(pos, other), pos.side, most, h,
                       you=False, smallest=SMALLEST / MAN_VALUE)
    return [(words, d * MAN_VALUE) for words, d in said]


def deciding_text(shares: Sequence[tuple[str, float]]) -> str:
    """``passed men +0.22, men left hanging -0.18``: each share in men, signed."""
    return ", ".join(f"{name} {d / MAN_VALUE:+.2f}" for name, d in shares)


def against_next_best(h: Heuristic, pos: Position, line: Sequence[Move], others: list[Move],
                      next_best: Callable[[list[Move]], tuple[Move | None, Sequence[Move]]]
                      ) -> tuple[Move, str] | None:
    """The next best of ``others`` (``next_best`` searches them: its move and line) and the
    ideas by which ``line`` beats its line, as text; past one next best whose line ends where
    ``line`` does (it transposes: nothing decides; the text names it first: ``b2-c3
    transposes, the tempo +0.21``). None when nothing the evaluation names decided."""
    passed: Move | None = None
    while others:
        move, other = next_best(others)
        if move is None:
            return None
        other = other or [move]
        if shares := deciding(h, pos, line, other):
            said = f"{move_text(passed)} {TRANSPOSES}, " if passed is not None else ""
            return move, said + deciding_text(shares)
        if passed is not None or line_end(pos, line) != line_end(pos, other):
            return None
        passed = move
        others = [m for m in others if m != move]
    return None
