"""What a line wins, as it happens on the board: men and kings taken, men crowned.

A player reads "wins two men and crowns", not "wins three and a half men": the half is the
proof's weighing of a crowning (a king 2.5 men, :mod:`kbdraughts.proof`), not something on
the board. A man crowned along the line and taken later is a man lost, not a crowning.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wg7,a1:Bh2,b8")
>>> g = gain(pos, [parse_move(pos, "g7-h8")], 0)
>>> g, g.wins("Black"), g.loses("White"), g.weight
(Gain(men=0, kings=0, crowns=1), 'crowns', 'lets White crown', 150)
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from kbdraughts.board import Move, Position, Side, play
from kbdraughts.values import KING_VALUE, MAN_VALUE

__all__ = ["Gain", "gain"]

_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


class Gain(NamedTuple):
    """The winner's gain over a line: ``men`` and ``kings`` (of those on the board before it)
    taken from the other side less those given, and ``crowns``: the winner's men crowned
    along it that still stand at its end less the other side's (a crowning each is even)."""

    men: int
    kings: int
    crowns: int

    @property
    def weight(self) -> int:
        """The gain as the proof weighs it (a man 100, a king 250, a crowning 150)."""
        crowning = KING_VALUE - MAN_VALUE
        return (self.men * MAN_VALUE + self.kings * KING_VALUE
                + self.crowns * crowning)

    def wins(self, them: str) -> str:
        """The winner's verb phrase: ``wins two men and crowns``, ``crowns``, ``wins a king
        for a man``, ``wins four men while Black crowns`` (``them``: the loser's name)."""
        ours = _crowns(self.crowns) if self.crowns > 0 else ""
        theirs = f" while {them} {_crowns(-self.crowns)}" if self.crowns < 0 else ""
        return self._said("wins", "gives", ours, theirs)

    def loses(self, them: str) -> str:
        """The loser's verb phrase: ``loses a man and lets White crown``, ``lets White
        crown`` (``them``: the winner's name)."""
        ours = f"lets {them} crown" + (" twice" if self.crowns > 1 else "") \
            if self.crowns > 0 else ""
        theirs = f" and {_crowns(-self.crowns)}" if self.crowns < 0 else ""
        return self._said("loses", "wins", ours, theirs)

    def _said(self, take: str, give: str, crowning: str, crowned: str) -> str:
        """The pieces taken (``take`` them, ``for`` those given) or given alone (``give``),
        then the winner's ``crowning`` joined by ``and``, then the loser's ``crowned``."""
        won, given = self._items()
        said = (f"{take} {won}" + (f" for {given}" if given else "") if won
                else f"{give} {given}" if given else "")
        if crowning:
            said = f"{said} and {crowning}" if said else crowning
        return said + crowned

    def _items(self) -> tuple[str, str]:
        """What the winner takes and what it gives, in words (``a man and a king``)."""
        won: list[str] = []
        given: list[str] = []
        for n, one in ((self.men, "man"), (self.kings, "king")):
            if n:
                (won if n > 0 else given).append(_count(abs(n), one))
        return " and ".join(won), " and ".join(given)


def _count(n: int, one: str) -> str:
    many = "men" if one == "man" else one + "s"
    return f"a {one}" if n == 1 else f"{_WORDS[n] if n < len(_WORDS) else n} {many}"


def _crowns(n: int) -> str:
    return "crowns" if n == 1 else f"crowns {_count(n, 'man')}"


def gain(before: Position, line: Sequence[Move], winner: Side) -> Gain:
    """What ``line``, played from ``before``, wins for ``winner``."""
    new = [0, 0]  # the squares of the kings crowned along the line, by side
    pos = before
    for m in line:
        us = pos.side
        new[1 - us] &= ~m.captured
        if new[us] >> m.start & 1:
            new[us] ^= (1 << m.start) | (1 << m.end)
        elif m.crowned:
            new[us] |= 1 << m.end
        pos = play(pos, m)
    lost = [_lost(before, pos, side, new[side].bit_count()) for side in (0, 1)]
    (men_w, kings_w), (men_l, kings_l) = lost[winner], lost[1 - winner]
    return Gain(men_l - men_w, kings_l - kings_w,
                new[winner].bit_count() - new[1 - winner].bit_count())


def _lost(before: Position, after: Position, side: Side, crowned: int) -> tuple[int, int]:
    """The men and the kings of ``side`` in ``before`` that are gone in ``after``; a man
    crowned (``crowned`` of its kings are new) is not gone."""
    def count(pos: Position) -> tuple[int, int]:
        mine = pos.black if side else pos.white
        return (mine & ~pos.kings).bit_count(), (mine & pos.kings).bit_count()

    (men0, kings0), (men1, kings1) = count(before), count(after)
    return men0 - men1 - crowned, kings0 - (kings1 - crowned)
