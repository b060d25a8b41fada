"""A PDN text cut into its games cheaply, none of them read: where each starts and ends.

A file of 50 MB holds some 70,000 games; reading one (``--game N``) must not read them all.
:func:`split_games` looks only at what ends a game, in pieces as large as it can: comments and
tags whole, the movetext between them searched by regular expressions, never token by token.
A game ends where

- a tag follows movetext (a move, a result or a variation seen since its tags), or
- a move number ``1.`` follows its result (a game of the initial position, without tags), or
  a malformed tag does.

Anything else after a result (``1-0 3. a3-b4``) is no new game: the game goes on, and reading
it names the result that stands inside its movetext (:mod:`kbdraughts.pdn.lexer`). The spans
cover the whole text, one after another, so a file written back from them loses nothing.

>>> [text[s.start:s.end] for text in ["1. c3-d4 1-0 1. c3-b4 *"] for s in split_games(text)]
['1. c3-d4 1-0 ', '1. c3-b4 *']
>>> [s.line for s in split_games('[A "1"]\\n1. c3-d4 *\\n\\n[A "2"]\\n{x} 1. c3-b4 *\\n')]
[1, 4]
>>> len(split_games("{only a comment}")), len(split_games("1. c3-d4 1-0 3. a3-b4 *"))
(0, 1)
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Iterator, NamedTuple

__all__ = ["Span", "split_games"]


class Span(NamedTuple):
    """A game's text: ``text[start:end]`` (what follows it up to the next game included),
    and the line it starts on."""

    start: int
    end: int
    line: int


_COARSE = re.compile(
    r"""
      (?P<comment>\{[^}]*\})
    | (?P<line_comment>;[^\n]*)
    | (?P<escape>(?m:^)%[^\n]*)
    | (?P<tag>\[\s*[A-Za-z0-9_]+\s*"[^"\\\n]*(?:\\.[^"\\\n]*)*+"\s*\]\s*)
    | (?P<bad_tag>\[[^\n]*)
    | (?P<text>[^{;\[%]+|[{%])
    """,
    re.VERBOSE,
)
#: A result token where a token may start (checked where one of :data:`_NEEDLES` stands).
_RESULT = re.compile(r"(?<![^\s(){}\]])(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|\*)(?![\w/.-])")
#: What changes where a game ends: parentheses and results, found by ``str.find`` (a regular
#: expression over 50 MB of movetext takes seconds; ``find`` a tenth of that).
_NEEDLES = ("(", ")", "*", "1-0", "0-1", "2-0", "0-2", "1-1", "1/2")
#: A move of either notation: the movetext has begun.
_MOVE = re.compile(r"(?<![\w-])(?:[a-hA-H][1-8](?:\s*[-:xX×]\s*[a-hA-H][1-8])+"
                   r"|\d{1,2}(?:[-:xX×]\d{1,2})+)(?!\w)")
#: What may stand after a result and still end nothing: spaces, NAGs, marks, words.
_QUIET = re.compile(r"(?:\s+|\$\d+|[!?]+|[^\s{}\[\]();\d][^\s{}\[\]();]*)+")
_FIRST_MOVE = re.compile(r"1\s*\.(?!\.|…)")


class _Splitter:
    """One pass over a text: the spans so far and the state of the game being cut."""

    def __init__(self, text: str):
        self.text = text
        self.spans: list[Span] = []
        self.start, self.line = 0, 1  # the game being cut
        self.moved = False  # a move, a result or a variation since its tags
        self.tagged = False  # a tag of its own
        self.depth = 0  # the variations open
        self.after = False  # a result at depth 0 was the last thing that counts
        # The last search for a move: where it found one (-1: none), from where, to where;
        # games without moves cost no rescan to the piece's end each (was quadratic).
        self._move, self._from, self._end = -1, -1, -1

    def cut(self, at: int, line: int) -> None:
        """A new game starts at ``at`` (on ``line``); the one before ends there."""
        self.spans.append(Span(self.start, at, self.line))
        self.start, self.line = at, line
        self.moved = self.tagged = self.after = False
        self.depth = 0

    def end(self) -> list[Span]:
        """The spans, the last game's to the end of the text; what follows the last game
        that is none (a ``1.`` alone) joins it."""
        end = len(self.text)
        if self.moved or self.tagged:
            self.spans.append(Span(self.start, end, self.line))
        elif self.spans:
            self.spans[-1] = self.spans[-1]._replace(end=end)
        return self.spans

    def movetext(self, pos: int, end: int, line: int) -> None:
        """The text between comments and tags, from ``pos`` to ``end`` (``line``: pos's).

        Its parentheses and results are found once (:func:`_marks`) and walked in order:
        finding them again after each result made a text of many games quadratic."""
        text = self.text
        marks = _marks(text, pos, end)
        i = 0
        while pos < end:
            if self.after:
                quiet = _QUIET.match(text, pos, end)
                at = quiet.end() if quiet else pos
                if at == end:
                    return  # what counts comes in a later piece
                self.after = False
                if _FIRST_MOVE.match(text, at, end):
                    line += text.count("\n", pos, at)
                    self.cut(at, line)
                pos = at
                i = bisect_left(marks, pos, i)
            if not self.moved and self._has_move(pos, end):
                self.moved = True
            while i < len(marks):
                at = marks[i]
                i += 1
                token = text[at]
                if token == "(":
                    self.depth += 1
                    self.moved = True
                elif token == ")":
                    self.depth = max(self.depth - 1, 0)
                elif not self.depth and (m := _RESULT.match(text, at, end)) is not None:
                    self.moved = self.after = True
                    line += text.count("\n", pos, m.end())
                    pos = m.end()
                    break
            else:
                return

    def _has_move(self, pos: int, end: int) -> bool:
        """Whether a move stands in ``text[pos:end]``. The last search is kept, and made
        again only when ``pos`` passed the move it found or the piece changed."""
        if not (end == self._end and self._from <= pos
                and (self._move < 0 or pos <= self._move)):
            m = _MOVE.search(self.text, pos, end)
            self._move, self._from, self._end = (m.start() if m else -1), pos, end
        return self._move >= 0


def _marks(text: str, pos: int, end: int) -> list[int]:
    """Where a parenthesis or what may be a result stands in ``text[pos:end]``, in order."""
    found = []
    for needle in _NEEDLES:
        at = text.find(needle, pos, end)
        while at >= 0:
            found.append(at)
            at = text.find(needle, at + 1, end)
    return sorted(found)


#: A '{' that no '}' follows: text, one at a time.
_LONE_BRACE = re.compile(r"(?P<text>\{)")


def _pieces(text: str) -> Iterator[tuple[str | None, re.Match[str]]]:
    """:data:`_COARSE`'s pieces of ``text``; a '{' after the last '}' is not tried as a
    comment, whose search to the end of the text from every brace was quadratic."""
    last_close, pos = text.rfind("}"), 0
    while pos < len(text):
        if text[pos] == "{" and pos > last_close:
            m = _LONE_BRACE.match(text, pos)
        else:
            m = _COARSE.match(text, pos)
        assert m is not None  # 'text' matches any character the others do not
        yield m.lastgroup, m
        pos = m.end()


def split_games(text: str) -> list[Span]:
    """The games of ``text`` in order; a text of comments alone holds none."""
    s = _Splitter(text)
    line = 1
    for kind, m in _pieces(text):
        if kind == "tag":
            if s.moved:
                s.cut(m.start(), line)
            s.tagged = True
        elif kind == "bad_tag":  # after a result, the next game's: a game to name its fault
            if s.after:
                s.cut(m.start(), line)
            s.tagged = True
        elif kind == "text":
            s.movetext(m.start(), m.end(), line)
        line += text.count("\n", m.start(), m.end())
    return s.end()
