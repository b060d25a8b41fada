"""The text of PDN games cut into games, with the place of everything in them.

:func:`scan_games` cuts a text into games (:mod:`kbdraughts.pdn.split`) and reads each, or
one alone (:func:`scan_game`), as a :class:`RawGame`: its tags, the
moves of its main line with where each move's annotations end (the NAGs, marks and comments
right after it), its result token, and the offsets of the game's text, so the movetext can be
written back exactly as the file had it and the coach's notes put in beside the moves, and
every variation (nested ones too) as a :class:`RawLine` of moves read like the main line's.
Comments (``{...}``, ``; ...``, ``%`` escape lines), variations ``( ... )`` (nested), NAGs
``$n`` and marks ``!?`` are kept as text; words the reader does not know are kept too, but a
word that looks like a move (``c3-d44``, ``c9``) is an error. A problem in one game (a stray
bracket, a malformed tag, a comment never closed) is that game's :class:`PdnError`; reading
goes on with the next game.

>>> [g.moves[0].squares for g in scan_games("1. c3-d4 {ok} 1-0 [Event \\"b\\"] 1. 21-17 *")]
['c3-d4', 'a3-b4']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterator

from kbdraughts.errors import KbdraughtsError
from kbdraughts.fen import FenError, numbered_square
from kbdraughts.pdn.split import Span, split_games
from kbdraughts.squares import SQUARE_NAMES

__all__ = ["PdnError", "RawMove", "RawLine", "RawGame", "scan_game", "scan_games", "COACH",
           "is_coach_note", "results_as_comments", "comments_of", "tokens"]

#: What starts a comment the coach wrote (``{coach: missed: ...}``): such comments are replaced
#: when a game is annotated again.
COACH = "coach:"


class PdnError(KbdraughtsError, ValueError):
    """A PDN text that cannot be read; the message is ``source:line: what is wrong``."""


_TOKEN_RE = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<comment>\{[^}]*\})
    | (?P<open_comment>\{)
    | (?P<line_comment>;[^\n]*)
    | (?P<escape>(?m:^)%[^\n]*)
    | (?P<tag>\[\s*(?P<tag_name>[A-Za-z0-9_]+)\s*"(?P<tag_value>[^"\\\n]*(?:\\.[^"\\\n]*)*+)"\s*\])
    | (?P<bad_tag>\[[^\n]*)
    | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|\*)(?![\w/.-]))
    | (?P<number>\d+\s*\.(?:\.\.|…)?)
    | (?P<dots>\.\.\.|…)
    | (?P<move>[a-hA-H][1-8](?:\s*[-:xX×]\s*[a-hA-H][1-8])+(?!\w))
    | (?P<numeric_move>\d{1,2}(?:[-:xX×]\d{1,2})+(?!\w))
    | (?P<nag>\$\d+)
    | (?P<mark>[!?]+)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<stray>[}\]])
    | (?P<word>[^\s{}\[\]();]+)
    """,
    re.VERBOSE,
)
_LONE_BRACE = re.compile(r"(?P<open_comment>\{)")
#: Tokens kept as they are, in the main line or a variation: they never change the game.
_TEXT = frozenset(("space", "comment", "line_comment", "escape", "nag", "mark"))
#: Tokens that may follow a move and still belong to it (where the coach's note goes after).
_ANNOTATION = frozenset(("comment", "nag", "mark"))
#: A word that looks like a move or a square: a slip, not text to keep.
_MOVE_LIKE = re.compile(r"[a-hA-H]\d|\d+[-:xX×]")
#: A move whose file letters are not all a-h (a Cyrillic ``Ь2-c3``, ``с3-d4``): a slip too.
_FOREIGN_MOVE = re.compile(r"[^\W\d_][1-8](?:\s*[-:xX×]\s*[^\W\d_][1-8])+[!?]*")


def _foreign(token: str) -> str:
    """What is wrong with a move of :data:`_FOREIGN_MOVE`: its first letter not a file.

    >>> _foreign("Ь2-c3")
    "'Ь' is not a file a-h (a Cyrillic letter: type the Latin one)"
    """
    letter = next(c for c in token if c.isalpha() and c not in "abcdefghABCDEFGH")
    script = unicodedata.name(letter, "").split(" ")[0]
    known = {"CYRILLIC": "Cyrillic", "GREEK": "Greek"}.get(script)
    return f"{letter!r} is not a file a-h" + (
        f" (a {known} letter: type the Latin one)" if known else "")


@dataclass
class RawMove:
    """A move of a line: its text as written, the move in square names, its line, the
    offset where it starts and where its annotations (NAGs, marks, comments) end."""

    text: str
    squares: str
    line: int
    start: int
    end: int
    number: str | None = None  # the move number written just before it ("3.", "2...")
    number_at: tuple[int, int] | None = None  # where that number stands


@dataclass
class RawLine:
    """A variation as written: the line it hangs from (``parent``: -1 for the main line, else
    its index in :attr:`RawGame.lines`), the index in that line's moves of the move it is
    played instead of (``at``; -1: before the first), where its '(' starts and its ')' ends,
    the source line of its '(', its moves, and the first fault of their text."""

    parent: int
    at: int
    start: int
    line: int
    end: int = -1
    moves: list[RawMove] = field(default_factory=list)
    error: str | None = None


@dataclass
class RawGame:
    """One game's text: offsets into the whole text, tags, main-line moves, result."""

    line: int
    start: int = -1  # the game's first token (a comment before its tags included)
    tags_start: int = -1  # its first tag
    body: int = -1  # the first token after its tags
    end: int = -1  # after its last token
    tags: list[tuple[str, str, int]] = field(default_factory=list)  # name, value, line
    moves: list[RawMove] = field(default_factory=list)
    first: int = -1  # the first move number or move of the main line
    result: tuple[str, int, int, int] | None = None  # token, start, end, line
    notes: list[tuple[int, int]] = field(default_factory=list)  # the coach's, with a space
    between: list[tuple[int, int]] = field(default_factory=list)  # comments between tags
    #: The outermost variations: the main-line ply each is played instead of (-1 before the
    #: first move), where its '(' starts and its ')' ends.
    variations: list[tuple[int, int, int]] = field(default_factory=list)
    #: Every variation, nested ones too, in the order their '(' stand (a parent before its
    #: children).
    lines: list[RawLine] = field(default_factory=list)
    error: PdnError | None = None

    def empty(self) -> bool:
        return self.start < 0

    def fail(self, message: str) -> None:
        """Keep the game's first error."""
        if self.error is None:
            self.error = PdnError(message)


#: A note as kbdraughts wrote it before the ``coach:`` mark, ``{missed: RULE MOVE ...
#: (file:line)}`` (several joined by ``; ``): recognised, so a new run replaces it too.
_UNMARKED = re.compile(r"\{(?:(?:missed|allowed): [^;{}]*\([^(){}]+:\d+\)(?:; |\}$))+")


def is_coach_note(comment: str) -> bool:
    """Whether a ``{comment}`` is one the coach wrote (marked, or as earlier versions did).

    >>> is_coach_note("{coach: missed: x}")
    True
    >>> is_coach_note("{allowed: a (m.txt:3); missed: b (m.txt:4)}")
    True
    >>> is_coach_note("{missed: an easy win}")
    False
    """
    return comment[1:].lstrip().startswith(COACH) or _UNMARKED.fullmatch(comment) is not None


def tokens(text: str, start: int = 0, end: int | None = None, line: int = 1
            ) -> Iterator[tuple[str, re.Match[str], int]]:
    """Every token of ``text[start:end]`` as (kind, match, line), ``line`` the first's."""
    end = len(text) if end is None else end
    pos = start
    last_close = text.rfind("}", start, end)
    while pos < end:
        # a '{' that no '}' follows is no comment: trying it as one from every brace was a
        # search to the end each, quadratic in the braces
        lone = text[pos] == "{" and pos > last_close
        m = (_LONE_BRACE if lone else _TOKEN_RE).match(text, pos, end)
        # The last alternatives match any other character; every alternative is a named group.
        assert m is not None and m.lastgroup is not None
        kind = m.lastgroup if m.lastgroup not in ("tag_name", "tag_value") else "tag"
        yield kind, m, line
        line += m.group(0).count("\n")
        pos = m.end()


def _squares(token: str) -> tuple[str, str | None]:
    """A move's text in square names, and what is wrong when a number names no square."""
    text = re.sub(r"\s+", "", token)
    if not text[0].isdigit():
        return text, None
    parts = re.split(r"([-:xX×])", text)
    try:
        names = [SQUARE_NAMES[numbered_square(int(p))] if i % 2 == 0 else p
                 for i, p in enumerate(parts)]
    except FenError as e:
        return text, f"{token!r}: {e}"
    return "".join(names), None


@dataclass
class _Level:
    """The line being read at one depth: its moves, whether its last token was a move or
    its annotation, and a move number waiting for its move (text, start, end)."""

    moves: list[RawMove]
    index: int = -1  # the variation's index in RawGame.lines; -1: the main line
    grouping: bool = False
    number: tuple[str, int, int] | None = None


class _Scanner:
    """The state of one pass over a game's text: the game and the line being read."""

    def __init__(self, source: str, line: int):
        self.source = source
        self.game = RawGame(line=line)
        self.levels = [_Level(self.game.moves)]  # the main line, then each '(' still open
        self.opened = 0  # the line of the outermost '(' still open
        self.space_start = -1  # where the whitespace just before this token started

    @property
    def depth(self) -> int:
        """The nesting of ( variations ) here."""
        return len(self.levels) - 1

    def finish(self) -> RawGame:
        if self.depth:
            self.game.fail(f"{self.source}:{self.opened}: a variation '(' is never closed "
                           "with ')'")
        return self.game

    def token(self, kind: str, m: re.Match[str], line: int) -> None:
        g = self.game
        if kind == "space":
            self.space_start = m.start()
            return
        if g.result is not None and not self.depth and kind not in _TEXT and kind != "word":
            self.beyond_result(m.group(0), line)
        if g.empty():
            g.start, g.line = m.start(), line
        g.end = m.end()
        self.take(kind, m, line)
        self.space_start = -1

    def beyond_result(self, token: str, line: int) -> None:
        """A move or a number after the game's result: the result stands inside the game
        (:mod:`kbdraughts.pdn.split` ends a game there only before a ``1.``)."""
        assert self.game.result is not None
        result, _, _, at = self.game.result
        follows = token if len(token) <= 20 else token[:19] + "…"
        self.game.fail(f"{self.source}:{at}: the result {result} stands inside the game: "
                       f"{follows!r} follows it on line {line}; remove the result, or give the "
                       "next game its tags")

    def take(self, kind: str, m: re.Match[str], line: int) -> None:
        g, token, at = self.game, m.group(0), f"{self.source}:{line}"
        if kind == "tag":
            if g.tags_start < 0:
                g.tags_start = m.start()
            elif g.body >= 0:  # a comment between tags: kept, written before them
                g.between.append((g.body, self.space_start if self.space_start >= 0
                                  else m.start()))
            g.tags.append((m.group("tag_name"), re.sub(r"\\(.)", r"\1", m.group("tag_value")),
                           line))
            g.body = -1
            return
        if g.body < 0:
            g.body = m.start()
        if kind == "comment" and is_coach_note(token):
            # the space before it goes too, but never a line end (it may end a '; comment')
            line_start = m.string.rfind("\n", 0, m.start()) + 1
            g.notes.append((max(self.space_start, line_start, 0) if self.space_start >= 0
                            else m.start(), m.end()))
        level = self.levels[-1]
        if kind in _ANNOTATION and level.grouping:
            level.moves[-1].end = m.end()  # the move's own NAG, mark or comment
        else:
            level.grouping = False
        if kind in _TEXT:
            return
        if kind in ("open", "close"):
            self.variation(kind, at, line, m)
        elif kind in ("open_comment", "stray", "bad_tag"):
            self.problem(kind, token, at)
        elif kind in ("move", "numeric_move"):
            if g.first < 0 and not self.depth:
                g.first = m.start()
            squares, error = _squares(token)
            if error and self.depth:  # the variation stays text; the game is read
                variation = g.lines[level.index]
                variation.error = variation.error or error
            elif error:
                g.fail(f"{at}: {error}")
            text, number_at = (None, None) if level.number is None else (
                level.number[0], level.number[1:])
            level.moves.append(RawMove(token, squares, line, m.start(), m.end(), text,
                                       number_at))
            level.number = None
            level.grouping = True
        elif kind in ("number", "dots"):
            if g.first < 0 and not self.depth:
                g.first = m.start()
            if kind == "number":
                level.number = (re.sub(r"\s+", "", token).replace("…", "..."), m.start(),
                                m.end())
        elif self.depth:  # any other word in a variation is its text, kept as it is
            # but a word like a move makes the variation no line
            if kind == "word" and (_MOVE_LIKE.match(token) or _FOREIGN_MOVE.fullmatch(token)):
                variation = g.lines[level.index]
                variation.error = variation.error or f"{token!r} is not a move"
        elif kind == "result":
            g.result = (token, m.start(), m.end(), line)
        else:
            self.problem(kind, token, at)

    def variation(self, kind: str, at: str, line: int, m: re.Match[str]) -> None:
        g, parent = self.game, self.levels[-1]
        if kind == "open":
            if not self.depth:
                self.opened = line
                g.variations.append((len(g.moves) - 1, m.start(), -1))
            g.lines.append(RawLine(parent.index, len(parent.moves) - 1, m.start(), line))
            self.levels.append(_Level(g.lines[-1].moves, len(g.lines) - 1))
        elif self.depth == 0:
            g.fail(f"{at}: ')' closes no variation")
        else:
            g.lines[self.levels.pop().index].end = m.end()
            if not self.depth:  # the outermost one closes: its end is known
                ply, start, _ = g.variations[-1]
                g.variations[-1] = (ply, start, m.end())

    def problem(self, kind: str, token: str, at: str) -> None:
        """A token that is no move, number, result or text: an error, or a word to keep."""
        g = self.game
        if kind == "open_comment":
            g.fail(f"{at}: comment '{{' is never closed with '}}'")
        elif kind == "stray":
            closes = "comment '{'" if token == "}" else "tag '['"
            g.fail(f"{at}: stray {token!r} closes no {closes}")
        elif kind == "bad_tag":
            g.fail(f"{at}: malformed tag {token.strip()!r}: write it as [Name \"value\"]")
        elif _MOVE_LIKE.match(token):
            g.fail(f"{at}: {token!r} is not a move (write moves like c3-d4 or c3:e5)")
        elif _FOREIGN_MOVE.fullmatch(token):
            g.fail(f"{at}: {token!r} is not a move: {_foreign(token)}")
        # any other word is text the reader does not know: kept as it is


def comments_of(text: str) -> list[str]:
    """The comments in whole tokens of movetext ``text``, their braces or ``;`` gone.

    >>> comments_of("c3-d4 $1 {idea} (1. c3-b4 {no}) ; to the end")
    ['idea', 'no', 'to the end']
    """
    return [m.group(0)[1:-1].strip() if kind == "comment" else m.group(0)[1:].strip()
            for kind, m, _ in tokens(text) if kind in ("comment", "line_comment")]


def results_as_comments(text: str) -> str:
    """``text`` (whole tokens) with each result token made a comment: a variation may end
    with its outcome (``1-0``), which would end the game where its moves became the main
    line's.

    >>> results_as_comments("f6-g5 1-0 {1-0} ; 0-1")
    'f6-g5 {1-0} {1-0} ; 0-1'
    """
    return "".join("{" + m.group(0) + "}" if kind == "result" else m.group(0)
                   for kind, m, _ in tokens(text))


def scan_game(text: str, span: Span, source: str = "<pdn>") -> RawGame:
    """The game in ``text[span.start:span.end]``, with its first error if it has one."""
    scanner = _Scanner(source, span.line)
    for kind, m, line in tokens(text, span.start, span.end, span.line):
        scanner.token(kind, m, line)
    return scanner.finish()


def scan_games(text: str, source: str = "<pdn>") -> list[RawGame]:
    """The games of ``text``, in order, each with its first error if it has one."""
    return [scan_game(text, span, source) for span in split_games(text)]
