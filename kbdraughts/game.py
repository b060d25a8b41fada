"""A game: the moves played, undo, and how it ends (FMJD-64 rules for Russian draughts).

A side with no legal move loses, and so does a side with no pieces, even in a set-up position
where it is the other side's turn. Draws (FMJD-64 rules 7.2.3-7.2.6), checked after every move:

- threefold repetition: the same position with the same side to move for the third time;
- three or more kings against a lone king: the strong side has not taken it by its 15th move
  counted from when that balance arose;
- 15 moves by each side (30 plies) in which only kings moved and nothing was taken;
- with kings on both sides and no change of balance (no capture, no crowning): 30 moves in 4- and
  5-piece endings, 60 moves in 6- and 7-piece endings.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> g = Game(parse_fen("W:WKa1:BKh8"))
>>> g.result is None
True
>>> g.push(parse_move(g.position, "a1-b2"))
>>> g.undo() and g.position == parse_fen("W:WKa1:BKh8")
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Iterator

from kbdraughts.board import BLACK, START, WHITE, Move, Position, Side, legal_moves, play
from kbdraughts.squares import side_name

#: Plies of the draw counters (a "move" in the rules is one by each side: 2 plies).
KING_MOVES_ONLY_PLIES = 30
LONE_KING_MOVES = 15
ENDING_PLIES = {4: 60, 5: 60, 6: 120, 7: 120}


class Reason(str, Enum):
    """Why a game ended."""

    NO_PIECES = "no pieces left"
    BLOCKED = "no legal move"
    REPETITION = "threefold repetition"
    KING_MOVES_ONLY = "15 moves of kings only without a capture"
    LONE_KING = "three kings against a lone king for 15 moves"
    ENDING_LIMIT = "no change of balance in a king ending"
    AGREEMENT = "draw agreed"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"  # a side's flag fell (a game with a clock)
    RECORDED = "as recorded"  # a file's result the rules did not produce: 2-0, 1/2-1/2 ...


@dataclass(frozen=True)
class Result:
    """The end of a game: ``winner`` is a side, or None for a draw."""

    winner: Side | None
    reason: Reason

    @property
    def pdn(self) -> str:
        """The PDN result tag: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"

    def __str__(self) -> str:
        if self.winner is None:
            return f"Draw ({self.reason.value})"
        return f"{side_name(self.winner)} wins ({self.reason.value})"


@dataclass(frozen=True)
class DrawCount:
    """How far a draw rule has gone: ``count`` of ``limit`` (moves, or occurrences for
    repetition); the game is drawn when the count reaches the limit."""

    reason: Reason
    count: int
    limit: int

    def __str__(self) -> str:
        return f"{_COUNT_NAMES[self.reason]} {self.count}/{self.limit}"


_COUNT_NAMES = {
    Reason.REPETITION: "repetition",
    Reason.LONE_KING: "3 kings v 1:",
    Reason.KING_MOVES_ONLY: "kings only",
    Reason.ENDING_LIMIT: "king ending",
}


@dataclass(frozen=True)
class DrawAhead:
    """A draw rule about to end the game: drawn after ``plies`` more plies if its count runs
    on (only kings move, nothing is taken or crowned; for the lone king, it is not taken);
    for repetition, ``moves`` are the moves that repeat a position a third time (``plies`` 1).
    ``side`` makes the last of those plies."""

    reason: Reason
    plies: int
    side: Side
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True)
class _Counters:
    """Draw-rule state after a ply; cheap to keep one per ply so undo is a pop."""

    kings_only: int = 0  # plies in a row of king moves without a capture
    since_balance: int = 0  # plies since the last capture or crowning
    lone_king_moves: int = 0  # moves the strong side made against a lone king


def _balance_kind(pos: Position) -> Side | None:
    """The strong side if it has 3+ kings and the other side only one king, else None."""
    wm, wk, bm, bk = pos.counts()
    if bm == 0 and bk == 1 and wk >= 3:
        return WHITE
    if wm == 0 and wk == 1 and bk >= 3:
        return BLACK
    return None


class Game:
    """Moves from a start position, with undo and the result.

    ``position`` is the current position; ``moves`` the moves played; ``result`` the end (None
    while the game goes on). ``agree_draw()`` and ``resign()`` end it by the players' word.
    """

    def __init__(self, start: Position = START):
        self.start = start
        self.positions: list[Position] = [start]
        self.moves: list[Move] = []
        self._counters: list[_Counters] = [_Counters()]
        self._seen: Counter[Position] = Counter([start])
        self._ended_by_word: Result | None = None
        self._legal: list[Move] | None = None

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def side(self) -> Side:
        return self.positions[-1].side

    def legal_moves(self) -> list[Move]:
        """The legal moves now (cached until the position changes)."""
        if self._legal is None:
            self._legal = legal_moves(self.position)
        return self._legal

    @property
    def ply(self) -> int:
        return len(self.moves)

    def push(self, move: Move) -> None:
        """Play ``move``; it must be legal (checked)."""
        if self.result is not None:
            raise ValueError("the game is over")
        if move not in self.legal_moves():
            raise ValueError("illegal move")
        before = self.position
        after = play(before, move)
        c = self._counters[-1]
        man_moved = not (before.kings >> move.start & 1)
        balance_changed = bool(move.captured) or move.crowned
        kings_only = 0 if (man_moved or move.captured) else c.kings_only + 1
        since_balance = 0 if balance_changed else c.since_balance + 1
        strong = _balance_kind(after)
        if strong is None:
            lone = 0
        elif balance_changed or _balance_kind(before) != strong:
            lone = 0  # the balance just arose; counting starts now
        else:
            lone = c.lone_king_moves + (1 if before.side == strong else 0)
        self._counters.append(_Counters(kings_only, since_balance, lone))
        self.positions.append(after)
        self.moves.append(move)
        self._seen[after] += 1
        self._legal = None

    def pop(self) -> Move:
        """Take back the last move."""
        move = self.moves.pop()
        self._seen[self.positions.pop()] -= 1
        self._counters.pop()
        self._legal = None
        self._ended_by_word = None
        return move

    def undo(self) -> bool:
        """Take back a resignation or an agreed draw if the game ended so, else the last move;
        says whether there was anything to take back."""
        if self._ended_by_word is not None:
            self._ended_by_word = None
            return True
        if not self.moves:
            return False
        self.pop()
        return True

    def agree_draw(self) -> None:
        self._ended_by_word = Result(None, Reason.AGREEMENT)

    def resign(self, side: Side) -> None:
        self._ended_by_word = Result(1 - side, Reason.RESIGNATION)

    def record_result(self, winner: Side | None) -> None:
        """End the game as its record says (a file's ``1-0`` where the rules go on): how it
        ended there (resigned, agreed, adjudicated) the record does not say.

        >>> g = Game()
        >>> g.record_result(WHITE)
        >>> str(g.result)
        'White wins (as recorded)'
        """
        self._ended_by_word = Result(winner, Reason.RECORDED)

    def lose_on_time(self, side: Side) -> None:
        """``side``'s flag fell: it loses (the clock is the players', not the board's)."""
        self._ended_by_word = Result(1 - side, Reason.TIME_FORFEIT)

    @property
    def result(self) -> Result | None:
        """How the game ended, or None while it goes on."""
        if self._ended_by_word is not None:
            return self._ended_by_word
        pos = self.position
        if not self.legal_moves():
            reason = Reason.BLOCKED if pos.pieces(pos.side) else Reason.NO_PIECES
            return Result(1 - pos.side, reason)
        if not pos.pieces(1 - pos.side):  # a set-up position where the other side has none
            return Result(pos.side, Reason.NO_PIECES)
        return self.draw_reason()

    def draw_reason(self) -> Result | None:
        """A draw by the rules in the current position, or None."""
        pos = self.position
        c = self._counters[-1]
        if self._seen[pos] >= 3:
            return Result(None, Reason.REPETITION)
        if c.lone_king_moves >= LONE_KING_MOVES:
            return Result(None, Reason.LONE_KING)
        if c.kings_only >= KING_MOVES_ONLY_PLIES:
            return Result(None, Reason.KING_MOVES_ONLY)
        wm, wk, bm, bk = pos.counts()
        limit = ENDING_PLIES.get(wm + wk + bm + bk)
        if limit and wk and bk and c.since_balance >= limit:
            return Result(None, Reason.ENDING_LIMIT)
        return None

    def draw_counts(self) -> list[DrawCount]:
        """The draw rules under way in the current position, each with its count and limit
        in moves (occurrences for repetition), for showing before they end the game.

        >>> from kbdraughts.notation import parse_fen, parse_move
        >>> g = Game(parse_fen("W:WKc1:BKh8"))
        >>> for text in ("c1-d2", "h8-g7", "d2-c1", "g7-h8"):
        ...     g.push(parse_move(g.position, text))
        >>> [str(c) for c in g.draw_counts()]
        ['repetition 2/3', 'kings only 2/15']
        """
        pos = self.position
        c = self._counters[-1]
        counts = []
        if self._seen[pos] >= 2:
            counts.append(DrawCount(Reason.REPETITION, self._seen[pos], 3))
        if _balance_kind(pos) is not None:
            counts.append(DrawCount(Reason.LONE_KING, c.lone_king_moves, LONE_KING_MOVES))
        if c.kings_only:
            counts.append(
                DrawCount(Reason.KING_MOVES_ONLY, c.kings_only // 2, KING_MOVES_ONLY_PLIES // 2)
            )
        wm, wk, bm, bk = pos.counts()
        limit = ENDING_PLIES.get(wm + wk + bm + bk)
        if limit and wk and bk:
            counts.append(DrawCount(Reason.ENDING_LIMIT, c.since_balance // 2, limit // 2))
        return counts

    def draws_ahead(self, within: int = 2) -> list[DrawAhead]:
        """The draw rules that end the game within ``within`` plies if their count runs on
        (a move by each side: 2), soonest first, each once; a third repetition counts when a
        legal move now repeats a position already seen twice.

        >>> from kbdraughts.notation import move_text, parse_fen, parse_move
        >>> g = Game(parse_fen("W:WKc1:BKh8"))
        >>> for text in ("c1-d2", "h8-g7", "d2-c1", "g7-h8", "c1-d2", "h8-g7", "d2-c1"):
        ...     g.push(parse_move(g.position, text))
        >>> [(d.reason.name, d.plies, move_text(*d.moves)) for d in g.draws_ahead()]
        [('REPETITION', 1, 'g7-h8')]
        """
        if self.result is not None:
            return []
        pos, c = self.position, self._counters[-1]
        ahead = []
        repeating = tuple(m for m in self.legal_moves() if self._seen[play(pos, m)] >= 2)
        if repeating:
            ahead.append(DrawAhead(Reason.REPETITION, 1, pos.side, repeating))

        def runs(reason: Reason, plies: int) -> None:
            if plies <= within:  # the last of the plies is the side to move's when odd
                ahead.append(DrawAhead(reason, plies, pos.side ^ ((plies - 1) & 1)))

        strong = _balance_kind(pos)
        if strong is not None:  # the strong side's moves still allowed, the last one its own
            runs(Reason.LONE_KING, 2 * (LONE_KING_MOVES - c.lone_king_moves) - (pos.side == strong))
        runs(Reason.KING_MOVES_ONLY, KING_MOVES_ONLY_PLIES - c.kings_only)
        wm, wk, bm, bk = pos.counts()
        limit = ENDING_PLIES.get(wm + wk + bm + bk)
        if limit and wk and bk:
            runs(Reason.ENDING_LIMIT, limit - c.since_balance)
        return sorted(ahead, key=lambda d: d.plies)

    def repetitions(self, pos: Position | None = None) -> int:
        """How many times ``pos`` (default: the current position) has occurred."""
        return self._seen[self.position if pos is None else pos]


def random_walk(rng: random.Random, plies: int, start: Position = START) -> Iterator[Position]:
    """The positions of a game of random moves from ``start``, one after each ply, for up to
    ``plies`` plies (fewer when a side has no move): positions like those of real play, for
    benchmarks, tests and the rule-mining tools.

    >>> walk = list(random_walk(random.Random(1), 10))
    >>> len(walk), all(legal_moves(p) for p in walk[:-1])
    (10, True)
    """
    pos = start
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            return
        pos = play(pos, rng.choice(moves))
        yield pos
