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

from kbdraughts.ai.explain import rule_place
from kbdraughts.board import Move, Position, Side, captures, play
from kbdraughts.files import printable
from kbdraughts.notation import move_text
from kbdraughts.proof import GAME, men_amount, weigh
from kbdraughts.values import MAN_VALUE

__all__ = ["Note", "idea_of", "idea_words", "crowns", "shown", "LOSES", "ALLOWED", "MISSED",
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
    crowns: bool = False  # the line crowns a man of the side that wins

    @property
    def text(self) -> str:
        """The note as a player reads it (:meth:`words`)."""
        return self.words()

    def words(self, verbose: bool = False) -> str:
        """The note in a player's words; ``verbose`` adds the rule's file and line, the
        horizon of the proof and the depth of the confirmation."""
        me, them = SIDE_NAMES[self.side], SIDE_NAMES[1 - self.side]
        amount = men_amount(self.amount)
        line = " ".join(move_text(m) for m in self.line)
        key, first = move_text(self.key), move_text(self.line[0])
        if self.kind in (LOSES, ALLOWED):
            lost = amount + (f" ({them} crowns)" if self.crowns else "")
            text = (f"loses {lost}: after {first}, {key} wins {amount} by force: {line}"
                    if self.kind == LOSES else
                    f"{me}'s {first} allowed {idea_words(self.rule, self.key)}: {me} loses "
                    f"{lost}: {line}")
        else:
            won = amount + (" (it crowns)" if self.crowns else "")
            if self.kind == MISSED:
                text = (f"{me} missed {idea_words(self.rule, self.key)}: it wins {won}: {line}"
                        if self.rule is not None else f"missed: {key} wins {won} by force: {line}")
            else:
                idea = (idea_words(self.rule, self.key) if self.rule is not None
                        else f"a combination {key}")
                text = f"played: {idea}: {me} wins {won}: {line}"
        if verbose:
            where = f"{printable(self.rule.id)}, {rule_place(self.rule)}; " if self.rule else ""
            found = ("the game" if self.deep >= GAME // 2
                     else f"{self.deep / MAN_VALUE:.2f} men")
            text += (f" [{where}proved in {self.horizon} plies, confirmed at depth "
                     f"{self.depth}: {found} at stake]")
        return text


def idea_of(rule: Any) -> tuple[str, str]:
    """A rule's idea as its name gives it: the head before a colon, without its article
    (``shot``, ``king fork``), and the rest (``give one, take two``, or empty); a long name
    without a colon is the rest, its id the head (``king threat``: ``a king attacks ...``)."""
    name = printable(str(getattr(rule, "name", "") or rule.id))
    head, colon, tail = name.partition(": ")
    if not colon and len(name.split()) > 3:
        head, tail = printable(str(rule.id)).replace("-", " "), name
    for article in ("a ", "an ", "the "):
        if head.lower().startswith(article):
            head = head[len(article):]
    return head, tail


def idea_words(rule: Any | None, move: Move) -> str:
    """A rule's idea with its move: ``the shot e3-d4 (give one, take two)``, ``the king
    fork g1-d4``."""
    if rule is None:
        return move_text(move)
    head, tail = idea_of(rule)
    return f"the {head} {move_text(move)}" + (f" ({tail})" if tail else "")


def crowns(before: Position, line: Sequence[Move], side: Side) -> bool:
    """Whether a man of ``side`` is crowned along ``line`` played from ``before``."""
    pos = before
    for m in line:
        if m.crowned and pos.side == side:
            return True
        pos = play(pos, m)
    return False


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
