"""A note of the coach (:mod:`kbdraughts.coach.annotator`), its words (what a player reads) and the
line it shows.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wc3:Bd4,f6")
>>> take = parse_move(pos, "c3:e5:g7")
>>> Note(0, 0, PLAYED, 200, (take,), take, None, 2, 10, 200).text
'played: a combination c3:e5:g7: White wins two men: c3:e5:g7'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from kbdraughts.ai.explain import idea_of, idea_words, rule_place
from kbdraughts.coach.gain import Gain, gain
from kbdraughts.board import Move, Position, Side, captures, play
from kbdraughts.coach.verdict import DECIDED, MoveVerdict
from kbdraughts.files import printable
from kbdraughts.game import Game
from kbdraughts.notation import move_text
from kbdraughts.proof import GAME, men_amount, weigh
from kbdraughts.values import MAN_VALUE
from kbdraughts.variations import move_label

__all__ = ["Note", "idea_of", "idea_words", "gain", "shown", "once", "graded_words",
           "move_number", "evaluation", "LOSES", "ALLOWED",
           "MISSED", "PLAYED", "ERRORS", "SIDE_NAMES", "PROVED", "OCCASION"]

LOSES, ALLOWED, MISSED, PLAYED = "loses", "allowed", "missed", "played"
#: The errors a side makes (PLAYED is a deed, not an error).
ERRORS = (LOSES, ALLOWED, MISSED)
SIDE_NAMES = ("White", "Black")
#: Material a note proves at least: a man.
PROVED = MAN_VALUE
#: Plies an idea stays one occasion: noted again on the same side's next move with the same
#: winning move, it is the same threat still standing.
OCCASION = 2


@dataclass(frozen=True)
class Note:
    """What the coach says about the move of ply ``ply`` (an index into ``game.moves``),
    played by ``side``. ``amount``: the material proved (centi-men) within ``horizon``
    plies after the move; ``line``: the line that shows it, from the position before the
    move (the move played first, or the better move for MISSED); ``key``: the move the note
    is about (the opponent's winning reply, the better move, the move played); ``rule``: the
    rule naming the idea, or None; ``depth``/``deep``: the confirming search's depth and the
    material it found at stake."""

    ply: int
    side: Side
    kind: str
    amount: int
    line: tuple[Move, ...]
    key: Move
    rule: Any | None
    horizon: int
    depth: int
    deep: int
    gain: Gain | None = None  # what the line wins, as it happens on the board

    @property
    def text(self) -> str:
        """The note as a player reads it (:meth:`words`)."""
        return self.words()

    def words(self, verbose: bool = False) -> str:
        """The note in a player's words; ``verbose`` adds the rule's file and line, the
        horizon of the proof and the depth of the confirmation."""
        me, them = SIDE_NAMES[self.side], SIDE_NAMES[1 - self.side]
        line = " ".join(move_text(m) for m in self.line)
        key, first = move_text(self.key), move_text(self.line[0])
        if self.kind in (LOSES, ALLOWED):
            wins, loses = self._gain(me, them)
            text = (f"{loses}: after {first}, {key} {wins} by force: {line}"
                    if self.kind == LOSES else
                    f"{me}'s {first} allowed {idea_words(self.rule, self.key)}: {me} {loses}: "
                    f"{line}")
        else:
            wins, _ = self._gain(them, me)
            if self.kind == MISSED:
                text = (f"{me} missed {idea_words(self.rule, self.key)}: it {wins}: {line}"
                        if self.rule is not None else f"missed: {key} {wins} by force: {line}")
            else:
                idea = (idea_words(self.rule, self.key) if self.rule is not None
                        else f"a combination {key}")
                text = f"played: {idea}: {me} {wins}: {line}"
        if verbose:
            where = f"{printable(self.rule.id)}, {rule_place(self.rule)}; " if self.rule else ""
            found = ("the game" if self.deep >= GAME // 2
                     else f"{self.deep / MAN_VALUE:.2f} men")
            text += (f" [{where}proved in {self.horizon} plies, confirmed at depth "
                     f"{self.depth}: {found} at stake]")
        return text

    @property
    def crowns(self) -> bool:
        """Whether the line crowns a man of the side that wins (and the king stands)."""
        return self.gain is not None and self.gain.crowns > 0

    def _gain(self, loser: str, winner: str) -> tuple[str, str]:
        """The winner's and the loser's verb phrases: what the line shows happening ("wins a
        man and crowns") when it is what the note claims, to within a man; else the men
        claimed, whole (a half is the proof's weighing of a crowning, nothing on the board)."""
        if self.amount >= GAME // 2:
            return "wins the game", "loses the game"
        if self.gain is not None and self.gain.weight > 0 \
                and abs(self.gain.weight - self.amount) < MAN_VALUE:
            return self.gain.wins(loser), self.gain.loses(winner)
        amount = men_amount(self.amount - self.amount % MAN_VALUE)
        return f"wins {amount}", f"loses {amount}"


def shown(before: Position, line: Sequence[Move], winner: Side, base: int) -> tuple[Move, ...]:
    """``line`` (played from ``before``) cut where it shows ``winner`` a man up on ``base``
    (its material before, captures resolved) with no capture to come; whole when it never
    does within the moves the search's table gave."""
    pos = before
    for i, m in enumerate(line):
        pos = play(pos, m)
        if not captures(pos) and weigh(pos, winner) - base >= PROVED:
            return tuple(line[:i + 1])
    return tuple(line)


def once(game: Game, notes: list[Note]) -> list[Note]:
    """``notes`` (in the order of the moves) with each idea noted once per occasion: a PLAYED
    note on a move the game played along an earlier PLAYED note's line is that combination
    again; an error note whose winning move (the reply allowed, the move missed) was the key
    of the same side's error note at most OCCASION plies before is the same threat still
    standing (a crowning allowed, missed, allowed again, missed again: noted where it was
    first allowed and first missed; each side's error is its own)."""
    def along(first: Note, ply: int) -> bool:
        k = ply - first.ply
        return (first.kind == PLAYED and 0 < k < len(first.line)
                and tuple(game.moves[first.ply:ply]) == first.line[:k])

    out: list[Note] = []
    standing: dict[tuple[Side, Move], int] = {}  # a side's error's winning move -> last ply
    for note in notes:
        if note.kind in ERRORS:
            last = standing.get((note.side, note.key))
            standing[note.side, note.key] = note.ply
            if last is not None and 0 < note.ply - last <= OCCASION:
                continue
        elif any(along(first, note.ply) for first in out if first.side == note.side):
            continue
        out.append(note)
    return out


def move_number(game: Game, ply: int) -> str:
    """``19.`` before White's move of ply ``ply``, ``19...`` before Black's, as the game
    numbers its moves."""
    return move_label(ply, game.start.side)


def evaluation(men: float) -> str:
    """An evaluation from White's side as a graph labels it: ``+0.15``, ``-1.20``, or
    ``White wins`` / ``Black wins`` for a decided game (``0.00`` a drawn one)."""
    if abs(men) >= DECIDED:
        return f"{SIDE_NAMES[men < 0]} wins"
    return f"{men:+.2f}"


def graded_words(game: Game, verdict: MoveVerdict, proofs: Sequence[str] = ()) -> str:
    """A graded move's note: the glyph, the move and its evaluation, the ideas it gave up
    (each with its value in men for the mover, played line against best line) and what it
    has in return, the material notes that prove what it lost (``proofs``, their words),
    then the better move and its evaluation: ``?: 19. e3-f4 (-0.45) gives up the back guard
    (-0.31); better 19. g3-h4 (+0.15)``.

    >>> from kbdraughts.notation import parse_fen, parse_move
    >>> from kbdraughts.coach.verdict import Grade
    >>> game = Game(parse_fen("W:Wc3,e3:Bd6,f6"))
    >>> bad, good = parse_move(game.position, "c3-b4"), parse_move(game.position, "e3-f4")
    >>> game.push(bad)
    >>> v = MoveVerdict(0, 0, bad, 0.15, -0.45, good, (good,), Grade.MISTAKE,
    ...                 (("the back guard", -0.31), ("a man on b4", 0.05)))
    >>> graded_words(game, v)
    '?: 1. c3-b4 (-0.45) gives up the back guard (-0.31); in return a man on b4 (+0.05); better 1. e3-f4 (+0.15)'
    """  # noqa: E501 (the doctest's output is one line)
    assert verdict.grade is not None
    number = move_number(game, verdict.ply)
    text = (f"{verdict.grade.glyph}: {number} {move_text(verdict.move)} "
            f"({evaluation(verdict.after)})")
    lost = [f"{idea} ({value:+.2f})" for idea, value in verdict.why if value < 0]
    won = [f"{idea} ({value:+.2f})" for idea, value in verdict.why if value >= 0]
    if lost:
        text += " gives up " + " and ".join(lost)
    if won:  # what the move has for it: less than it gave up, all told
        text += ("; in return " if lost else " has ") + " and ".join(won)
    for proof in proofs:
        text += f": {proof}"
    if verdict.best is not None:
        text += f"; better {number} {move_text(verdict.best)} ({evaluation(verdict.before)})"
    return text
