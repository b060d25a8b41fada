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
from kbdraughts.files import printable
from kbdraughts.notation import move_text
from kbdraughts.proof import GAME, men_amount, weigh
from kbdraughts.values import MAN_VALUE

__all__ = ["Note", "idea_of", "idea_words", "gain", "shown", "LOSES", "ALLOWED", "MISSED",
           "PLAYED", "ERRORS", "SIDE_NAMES", "PROVED"]

LOSES, ALLOWED, MISSED, PLAYED = "loses", "allowed", "missed", "played"
#: The errors a side makes (PLAYED is a deed, not an error).
ERRORS = (LOSES, ALLOWED, MISSED)
SIDE_NAMES = ("White", "Black")
#: Material a note proves at least: a man.
PROVED = MAN_VALUE


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
