"""A PDN game as read: its tags, the game replayed, the result, and the file's own text.

:class:`Movetext` keeps what the file wrote (comments, NAGs, variations, the result token in
its own convention) with the places the writer needs, so a game read and written again loses
nothing (:mod:`kbdraughts.pdn.writer`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Protocol

from kbdraughts.board import Move
from kbdraughts.game import Game
from kbdraughts.pdn.lexer import PdnError
from kbdraughts.files import TextForm
from kbdraughts.variations import Variations

__all__ = ["PdnGame", "Movetext", "PdnError", "GAME_TYPE", "RESULTS", "normal_result",
           "in_convention"]

#: Russian draughts in PDN's GameType tag.
GAME_TYPE = "25"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Result tokens some programs write with 2 points a win (Russian score sheets), read as PDN's.
_RESULT_ALIASES = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}
_TWO_POINTS = {v: k for k, v in _RESULT_ALIASES.items()}


def normal_result(token: str) -> str:
    """PDN's form of a result token: ``2-0`` is ``1-0``; others as they are."""
    return _RESULT_ALIASES.get(token, token)


def in_convention(result: str, like: str | None) -> str:
    """``result`` (PDN's form) written the way ``like`` was: ``1-0`` as ``2-0`` when the file
    wrote its results with 2 points a win.

    >>> in_convention("1/2-1/2", "2-0"), in_convention("0-1", "1-0"), in_convention("*", "0-2")
    ('1-1', '0-1', '*')
    """
    if like in _RESULT_ALIASES:
        return _TWO_POINTS.get(result, result)
    return result


@dataclass
class Movetext:
    """The movetext of a game as its file wrote it, and the places in it the writer needs.

    ``text`` runs from the first token after the tags to the game's last token (the result and
    comments after it); ``lead`` is what came before the first tag (a comment). ``ends[i]`` is
    where ply ``i``'s move and its own annotations end, ``first`` where the main line's first
    number or move starts, ``result`` the result token's span, ``notes`` the spans of comments
    the coach wrote (with the space before each). ``moves`` is the main line as read,
    ``read_result`` the game's result once read. ``variations`` are the outermost variations
    as (the main-line ply each is played instead of, its start, its end). ``head`` is the
    file's text before the movetext (the comment before the tags, the tags, the line ends
    after them) and ``tags`` the tags it holds: written as it was while they are unchanged.
    """

    text: str = ""
    lead: str = ""
    ends: list[int] = field(default_factory=list)
    first: int = -1
    result: tuple[int, int] | None = None
    notes: list[tuple[int, int]] = field(default_factory=list)
    moves: tuple[Move, ...] = ()
    read_result: str = "*"  # the game's result once read (its own, or the file's recorded)
    variations: list[tuple[int, int, int]] = field(default_factory=list)
    head: str = ""
    tags: dict[str, str] = field(default_factory=dict)

    def variation_texts(self, plies: int) -> dict[int, list[str]]:
        """The file's variations of the main line's first ``plies`` moves as it wrote them,
        by the ply each is played instead of (-1: before the first move)."""
        out: dict[int, list[str]] = {}
        for ply, start, end in self.variations:
            if ply < plies and end > start:
                out.setdefault(ply, []).append(self.text[start:end])
        return out

    @property
    def token(self) -> str | None:
        """The result token as written, or None."""
        return None if self.result is None else self.text[self.result[0]:self.result[1]]


class GameFile(Protocol):
    """What a game read from a file knows of it (:class:`kbdraughts.pdn.PdnFile` is one):
    its name, its text and form, its games, and the whole file with some written anew."""

    source: str
    text: str
    form: TextForm

    def __len__(self) -> int: ...

    def with_games(self, texts: Mapping[int, str]) -> str: ...


@dataclass
class PdnGame:
    """One game read from PDN: its tags, the game with the moves replayed, the result token
    (PDN's form: ``1-0`` for a file's ``2-0``), the file's own movetext (None for a game not
    read from a file), the line the game starts on, the variations (those of the file that
    can be played, each remembering how the file wrote it, and those made in this program
    since), and the file's variations that cannot be played, each named ``file:line:
    variation (...): why`` (kept as text where the file wrote them); the file it was read
    from and its index there (its form kept when written; the file's other games kept when
    it is saved back over it)."""

    tags: dict[str, str] = field(default_factory=dict)
    game: Game = field(default_factory=Game)
    result: str = "*"
    source: Movetext | None = None
    line: int = 1
    variations: Variations = field(default_factory=Variations)
    text_only: list[str] = field(default_factory=list)
    file: GameFile | None = field(default=None, repr=False, compare=False)
    index: int = -1
