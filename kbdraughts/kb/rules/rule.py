"""A rule of the knowledge base as a value: :class:`Rule`, built by the parser
(:mod:`kbdraughts.kb.combos`) or in code by :func:`make_rule`, and written back by
:func:`kbdraughts.kb.writer.format_rule`; :class:`Diagnostic`, what a rule file earns.

>>> r = make_rule("t-1", "c3-d4", cells=("?",) * 9 + ("w",) + ("?",) * 22, priority=2)
>>> r.constrained, r.exact, r.play_text(mirrored=True)
(1, False, 'f6-e5')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from kbdraughts.board import WHITE, Position
from kbdraughts.errors import KbdraughtsError
from kbdraughts.files import printable
from kbdraughts.kb.rules.fields import parse_play
from kbdraughts.kb.rules.pattern import (
    ALL_STATES, BLACK_KING, BLACK_MAN, BUILTIN_SYMBOLS, EMPTY, MAX_PIECES, SINGLE_STATE,
    WHITE_KING, WHITE_MAN, Pattern, position_cells,
)
from kbdraughts.squares import SQUARE_NAMES, SQUARES, Square, mirror_bits, mirror_square

__all__ = ["Rule", "RuleLayer", "make_rule", "Diagnostic", "RuleFileError", "RULE_ID",
           "ANY_PIECES"]

class RuleLayer(StrEnum):
    """Where a rule's move stands in the AI's order: captures, then exact positions (the
    openings), then patterns; a motif's (a rule with variables) after them. The value is the
    word ``rules show`` prints and the reasons say."""

    CAPTURE = "capture"
    EXACT = "exact"
    PATTERN = "pattern"
    MOTIF = "motif"


#: What a rule id may be made of.
RULE_ID = re.compile(r"[A-Za-z0-9_.\-]+")
_SQUARE_BITS = tuple(1 << s for s in SQUARES)
ANY_PIECES = ((0, MAX_PIECES), (0, MAX_PIECES))


@dataclass(frozen=True, eq=False)
class Rule:
    """One rule of the knowledge base, as written (for White or Black as its ``side`` says).

    ``allowed[i]`` is the state mask of ``SQUARES[i]``; ``cells[i]`` the symbol written there.
    ``pieces`` holds the (low, high) counts of white and of black pieces it accepts;
    ``symbols`` the custom symbols of its file. Compared by identity (the index keys on it).
    """

    id: str
    path: str
    line: int
    play: str
    play_squares: tuple[Square, ...]
    capture: bool
    allowed: tuple[int, ...]
    cells: tuple[str, ...]
    side: int = WHITE
    name: str = ""
    priority: int = 0
    sacrifice: int = 0
    pieces: tuple[tuple[int, int], tuple[int, int]] = ANY_PIECES
    symbols: dict[str, int] = field(default_factory=dict, repr=False)

    @cached_property
    def exact(self) -> bool:
        """Every dark square is pinned to one state (an opening position, say)."""
        return all(m in SINGLE_STATE for m in self.allowed)

    @cached_property
    def constrained(self) -> int:
        """How many dark squares the board constrains at all (not ``?``)."""
        return sum(1 for m in self.allowed if m != ALL_STATES)

    @property
    def where(self) -> str:
        """``path:line``, safe to show (a control character in the path is escaped)."""
        return printable(f"{self.path}:{self.line}")

    @cached_property
    def pattern(self) -> Pattern:
        """The rule as written, as the matcher reads it."""
        by_mask: dict[int, int] = {}
        for bit, m in zip(_SQUARE_BITS, self.allowed):  # few distinct masks: '?' and a handful
            by_mask[m] = by_mask.get(m, 0) | bit
        allow = [0] * 5
        for m, squares in by_mask.items():
            for t in range(5):
                if m >> t & 1:
                    allow[t] |= squares
        white, black = self.pieces
        return Pattern(self.side, white, black, tuple(allow), self.play_squares, self.capture)

    @cached_property
    def patterns(self) -> tuple[Pattern, Pattern]:
        """The rule as written and its mirror (board turned 180 degrees, colours swapped)."""
        p = self.pattern
        allow = tuple(mirror_bits(p.allow[t])
                      for t in (EMPTY, BLACK_MAN, BLACK_KING, WHITE_MAN, WHITE_KING))
        return p, Pattern(1 - p.side, p.black, p.white, allow,
                          tuple(mirror_square(s) for s in p.play), p.capture)

    def exact_position(self, mirrored: bool = False) -> Position | None:
        """The one position an exact rule describes (None for a pattern)."""
        if not self.exact:
            return None
        p = self.patterns[1] if mirrored else self.pattern
        _, wm, wk, bm, bk = p.allow
        return Position(wm | wk, bm | bk, wk | bk, p.side)

    def play_text(self, mirrored: bool = False) -> str:
        """The move as text, for the rule's own colour or its mirror."""
        squares = self.patterns[mirrored].play
        sep = ":" if self.capture else "-"
        return sep.join(SQUARE_NAMES[s] for s in squares)


def make_rule(rule_id: str, play: str, *, cells: tuple[str, ...] | None = None,
              position: Position | None = None, side: int | None = None, name: str = "",
              priority: int = 0, sacrifice: int = 0,
              pieces: tuple[tuple[int, int], tuple[int, int]] = ANY_PIECES,
              symbols: dict[str, int] | None = None, path: str = "", line: int = 0) -> Rule:
    """A :class:`Rule` built in code (by ``teach``, the rule tools, tests) from a board's 32
    ``cells`` (symbols in ``SQUARES`` order) or an exact ``position``, checked as the parser
    checks a file; ValueError says what the format cannot hold.
    """
    if not RULE_ID.fullmatch(rule_id):
        raise ValueError(f"bad rule id {rule_id!r}: letters, digits, '-', '_', '.'")
    moved = parse_play(play)
    if isinstance(moved, str):
        raise ValueError(moved)
    symbols = dict(symbols or {})
    if (cells is None) == (position is None):
        raise ValueError("give a rule either cells or a position")
    if position is not None:
        if side is not None and side != position.side:
            raise ValueError("the position's side to move is not the rule's side")
        side, cells = position.side, position_cells(position)
    assert cells is not None  # given, or the position's (one of the two, checked above)
    known = {**BUILTIN_SYMBOLS, **symbols}
    if len(cells) != 32 or not all(c in known for c in cells):
        raise ValueError(f"a board is 32 known symbols, got {cells!r}")
    return Rule(
        id=rule_id, path=path, line=line, play=play.strip(), play_squares=moved[0],
        capture=moved[1], allowed=tuple(known[c] for c in cells),
        cells=tuple(cells), side=WHITE if side is None else side,
        name=name, priority=priority, sacrifice=sacrifice, pieces=pieces, symbols=symbols)


#: The longest message a diagnostic shows; the rest is cut (it quoted a huge input).
MAX_MESSAGE = 300


@dataclass(frozen=True)
class Diagnostic:
    """An error or a warning about a rule file, printed as ``path:line: error: message``."""

    path: str
    line: int
    level: str  # "error" or "warning"
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        message = self.message
        if len(message) > MAX_MESSAGE:  # a message quoting a huge token stays readable
            message = f"{message[:MAX_MESSAGE]}... ({len(message):,} characters)"
        return printable(f"{where}: {self.level}: {message}")  # one line, no escapes


class RuleFileError(KbdraughtsError, ValueError):
    """A rule file that cannot be loaded. ``str()`` is the first error, ``path:line: error: ...``;
    ``errors`` lists all of them."""

    def __init__(self, errors: list[Diagnostic]):
        super().__init__(str(errors[0]))
        self.errors = errors
