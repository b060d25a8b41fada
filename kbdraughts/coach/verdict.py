"""A move's verdict as an analysis board gives it: the evaluation before and after the move, the
best move and its line, the grade (``?!``, ``?``, ``??``) and why, in named ideas.

The grading (:mod:`kbdraughts.coach.grade`) makes them; the notes, the graph, the HTML report
and the PDN's NAGs and ``[%eval]`` read them. Scores are in men, from White's side (as an
analysis board's graph draws them), a decided ending at :data:`DECIDED` or beyond.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wc3,e3:Bd6,f6")
>>> v = MoveVerdict(0, 0, parse_move(pos, "c3-b4"), 0.2, -0.5, parse_move(pos, "e3-f4"),
...                 (), Grade.MISTAKE, (("the back guard", -0.31),))
>>> v.loss, v.grade.nag, v.grade.glyph
(0.7, 2, '?')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from kbdraughts.board import Move
from kbdraughts.squares import WHITE, Side

__all__ = ["Grade", "MoveVerdict", "DECIDED"]

#: A score at or beyond this many men (either sign) is a decided ending, won or lost.
DECIDED = 50.0


class Grade(Enum):
    """How bad a move is: the glyph a player reads and its PDN NAG (the PDN standard's
    numbers, as lidraughts writes them)."""

    INACCURACY = ("?!", 6)
    MISTAKE = ("?", 2)
    BLUNDER = ("??", 4)

    @property
    def glyph(self) -> str:
        return self.value[0]

    @property
    def nag(self) -> int:
        return self.value[1]

    @property
    def word(self) -> str:
        """The grade in words: ``inaccuracy``, ``mistake``, ``blunder``."""
        return self.name.lower()


@dataclass(frozen=True)
class MoveVerdict:
    """The verdict on the move of ply ``ply`` (an index into ``game.moves``), played by
    ``side``: ``before`` the evaluation of the position before it with the best move,
    ``after`` with the move played (both in men, White's side); ``best`` the best move
    (None where the move played is best or the only one) and ``best_line`` its line from the
    position before the move; ``grade`` None for a move within the threshold; ``why`` the
    two or three named ideas whose share moved most, in words, each with its signed value in
    men for the side that moved."""

    ply: int
    side: Side
    move: Move
    before: float
    after: float
    best: Move | None
    best_line: tuple[Move, ...]
    grade: Grade | None
    why: tuple[tuple[str, float], ...] = ()

    @property
    def loss(self) -> float:
        """What the move cost the side that played it, in men (≥ 0 but for search noise)."""
        drop = self.before - self.after
        return round(drop if self.side == WHITE else -drop, 6)
