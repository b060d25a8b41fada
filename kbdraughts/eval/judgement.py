"""Why the search preferred its move, in the evaluation's own words: the terms, patterns and
regions whose weight made the difference between the end of the line it chose and the end of
the next best line.

The search scores a move by the evaluation at the end of its principal line, so what decided is
what differs there: each named share of the evaluation (:meth:`Heuristic.shares`) at the one
line's end less the other's, from the mover's side, the largest first.

>>> from kbdraughts.eval.heuristic import Heuristic
>>> from kbdraughts.eval.terms import parse_terms
>>> from kbdraughts.notation import parse_fen, parse_move
>>> h = Heuristic(parse_terms("value centre 6 per centre_men\\nvalue back-rank 8 per back_men\\n"))
>>> pos = parse_fen("W:Wc1,g3:Bb8,h8")
>>> deciding(h, pos, [parse_move(pos, "g3-f4")], [parse_move(pos, "c1-d2")])
[('back-rank', 8.0), ('centre', 6.0)]
>>> deciding_text([("centre", 6.0), ("back-rank", -8.0)])
'centre +0.06, back-rank -0.08'
"""

from __future__ import annotations

from typing import Sequence

from kbdraughts.eval.heuristic import Heuristic
from kbdraughts.board import Move, Position, play
from kbdraughts.values import MAN_VALUE

__all__ = ["deciding", "deciding_text", "line_end"]

#: Shares that differ by less than this (a hundredth of a man) decide nothing.
SMALLEST = 1.0


def line_end(pos: Position, line: Sequence[Move]) -> Position:
    """The position at the end of ``line`` played from ``pos``."""
    for move in line:
        pos = play(pos, move)
    return pos


def _mover_shares(h: Heuristic, root: Position, line: Sequence[Move]) -> dict[str, float]:
    end = line_end(root, line)
    sign = 1.0 if end.side == root.side else -1.0
    return {name: sign * v for name, v in h.shares(end).items()}


def deciding(h: Heuristic, pos: Position, best: Sequence[Move], other: Sequence[Move],
             most: int = 3) -> list[tuple[str, float]]:
    """The ``most`` largest shares by which the end of ``best`` beats the end of ``other`` for
    the side to move in ``pos``; each share's difference, in hundredths of a man. Shares that
    pull the other way are kept too: they say what the move gives up. The material is the
    search's score to tell (a line may end in the middle of an exchange)."""
    a, b = _mover_shares(h, pos, best), _mover_shares(h, pos, other)
    diff = {n: a.get(n, 0.0) - b.get(n, 0.0) for n in a.keys() | b.keys() if n != "material"}
    return sorted(((n, d) for n, d in diff.items() if abs(d) >= SMALLEST),
                  key=lambda nd: (-abs(nd[1]), nd[0]))[:most]


def deciding_text(shares: Sequence[tuple[str, float]]) -> str:
    """``passed +0.22, hanging -0.18``: each share in men, signed."""
    return ", ".join(f"{name} {d / MAN_VALUE:+.2f}" for name, d in shares)
