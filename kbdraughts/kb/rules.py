"""The combos format: rule files parsed into :class:`Rule` values, with ``path:line`` diagnostics.

A rule file is data. It is read line by line; nothing in it is ever evaluated. The format is
documented for rule authors in ``combos/README.md``; in short::

    symbols:                      # optional, once per file, before its rules
      Z = . w                     # a custom symbol: the square states it allows
    rule petrov-triangle-1        # id, unique in the whole knowledge base
      name: Petrov's triangle     # optional free text
      side: white                 # side to move (default white)
      pieces: white 3..4, black 1 # optional filter on counts of all pieces
      priority: 5                 # optional integer, higher first (default 0)
      sacrifice: 1                # optional: men this rule gives away on purpose (default 0)
      board:                      # 8 rows, rank 8 first ('-' light squares)
        - ? - ? - ? - ?
        ...
      play: c3:e5:g7              # the move, full-path notation

The square states, symbols and the matcher's :class:`Pattern` are in :mod:`kbdraughts.kb.pattern`;
the readers of each field's value in :mod:`kbdraughts.kb.fields`; the writer of the format,
:func:`kbdraughts.kb.writer.format_rule`, turns a :class:`Rule` back into this text.

>>> rules, warnings, errors = parse_rules(EXAMPLE, "example.txt")
>>> [r.id for r in rules], warnings, errors
(['shot-1'], [], [])
>>> rules[0].capture, rules[0].exact, rules[0].constrained
(True, False, 5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from kbdraughts.board import WHITE, Position
from kbdraughts.kb import fields as read
from kbdraughts.kb.pattern import (  # the rest re-exported: the names users of this module know
    ALL_STATES, BLACK_KING, BLACK_MAN, BUILTIN_SYMBOLS, EMPTY, MAX_PIECES, SINGLE_STATE,
    WHITE_KING, WHITE_MAN, Pattern, pattern_applies, position_cells, position_states,
    swap_colours,
)
from kbdraughts.notation import FenError, parse_fen
from kbdraughts.squares import SQUARE_NAMES, SQUARES, Square, between, mirror_bits, mirror_square

__all__ = [
    "Rule", "Pattern", "Diagnostic", "RuleFileError", "parse_rules", "make_rule",
    "BUILTIN_SYMBOLS", "EMPTY", "WHITE_MAN", "WHITE_KING", "BLACK_MAN", "BLACK_KING",
    "ALL_STATES", "position_states", "pattern_applies", "MAX_PIECES", "swap_colours",
]

# Old private names kept importable only for kb/encoding.py and kb/knowledge.py (other rooms
# switch them to kbdraughts.squares): remove once they do.
_reverse36 = mirror_bits
_between = between

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
        return f"{self.path}:{self.line}"

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
        return p, Pattern(1 - p.side, p.black, p.white, allow,  # type: ignore[arg-type]
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

    >>> r = make_rule("t-1", "c3-d4", cells=("?",) * 9 + ("w",) + ("?",) * 22, priority=2)
    >>> r.constrained, r.play_squares == read.parse_play("c3-d4")[0]
    (1, True)
    """
    if not _ID_RE.fullmatch(rule_id):
        raise ValueError(f"bad rule id {rule_id!r}: letters, digits, '-', '_', '.'")
    moved = read.parse_play(play)
    if isinstance(moved, str):
        raise ValueError(moved)
    symbols = dict(symbols or {})
    if (cells is None) == (position is None):
        raise ValueError("give a rule either cells or a position")
    if position is not None:
        if side is not None and side != position.side:
            raise ValueError("the position's side to move is not the rule's side")
        side, cells = position.side, position_cells(position)
    known = {**BUILTIN_SYMBOLS, **symbols}
    if len(cells) != 32 or not all(c in known for c in cells):  # type: ignore[arg-type]
        raise ValueError(f"a board is 32 known symbols, got {cells!r}")
    return Rule(
        id=rule_id, path=path, line=line, play=play.strip(), play_squares=moved[0],
        capture=moved[1], allowed=tuple(known[c] for c in cells),  # type: ignore[union-attr]
        cells=tuple(cells), side=WHITE if side is None else side,  # type: ignore[arg-type]
        name=name, priority=priority, sacrifice=sacrifice, pieces=pieces, symbols=symbols)


@dataclass(frozen=True)
class Diagnostic:
    """An error or a warning about a rule file, printed as ``path:line: error: message``."""

    path: str
    line: int
    level: str  # "error" or "warning"
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.level}: {self.message}"


class RuleFileError(ValueError):
    """A rule file that cannot be loaded. ``str()`` is the first error, ``path:line: error: ...``;
    ``errors`` lists all of them."""

    def __init__(self, errors: list[Diagnostic]):
        super().__init__(str(errors[0]))
        self.errors = errors


# --- the parser ----------------------------------------------------------------------------

_ID_RE = re.compile(r"[A-Za-z0-9_.\-]+")
_FIELD_RE = re.compile(r"([A-Za-z_]+)\s*:\s*(.*)")
#: The fields of a rule, in the order the writer puts them.
FIELDS = ("name", "side", "pieces", "priority", "sacrifice", "board", "position", "play")

EXAMPLE = """\
# A shot for White: the man on c3 takes d4 and f6, landing on g7.
rule shot-1
  board:
    - ? - ? - ? - ?  8
    ? - ? - ? - . -  7
    - ? - ? - b - ?  6
    ? - ? - . - ? -  5
    - ? - b - ? - ?  4
    ? - w - ? - ? -  3
    - ? - ? - ? - ?  2
    ? - ? - ? - ? -  1
    a b c d e f g h
  play: c3:e5:g7
"""


class _Draft:
    """A rule being read: its fields as they come, with the line of each."""

    def __init__(self, rule_id: str, line: int):
        self.id = rule_id
        self.line = line
        self.fields: dict[str, tuple[str, int]] = {}
        self.rows: list[tuple[str, int]] = []
        self.reading_board = False


class _Parser:
    def __init__(self, path: str):
        self.path = path
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.symbols: dict[str, int] = dict(BUILTIN_SYMBOLS)
        self.custom: dict[str, int] = {}
        self.rules: list[Rule] = []
        self.ids: set[str] = set()
        self.draft: _Draft | None = None
        self.in_symbols = self.symbols_seen = self.seen_rule = False

    def error(self, line: int, message: str) -> None:
        self.errors.append(Diagnostic(self.path, line, "error", message))

    def warning(self, line: int, message: str) -> None:
        self.warnings.append(Diagnostic(self.path, line, "warning", message))

    # -- the file ---------------------------------------------------------------------------

    def parse(self, text: str) -> None:
        for number, line in enumerate(text.splitlines(), 1):
            if "#" in line:
                line = line.split("#", 1)[0]
            stripped = line.strip()
            if not stripped:
                continue
            if line[0] not in " \t":
                self.top_line(stripped, number)
            elif self.in_symbols:
                self.symbol(stripped, number)
            elif self.draft is None:
                self.error(number, "an indented line outside a rule (start one with 'rule ID')")
            else:
                self.rule_line(self.draft, stripped, number)
        if self.draft is not None:
            self.finish(self.draft)

    def top_line(self, stripped: str, number: int) -> None:
        """A line that is not indented: ``rule ID``, ``symbols:``, or a misplaced field."""
        m = _FIELD_RE.fullmatch(stripped)
        misplaced = m is not None and m.group(1).lower() in FIELDS
        if misplaced:
            self.error(number, f"'{m.group(1)}:' must be indented under its 'rule ID' line")
            if self.draft is not None:  # a field that lost its indent: still read it
                self.rule_line(self.draft, stripped, number)
                return
        self.in_symbols = False
        if self.draft is not None:
            self.finish(self.draft)
            self.draft = None
        if misplaced:
            return
        words = stripped.split()
        if stripped == "symbols:":
            if self.symbols_seen:
                self.error(number, "a second 'symbols:' block; a file has at most one")
            elif self.seen_rule:
                self.error(number, "'symbols:' must come before the file's first rule")
            self.symbols_seen = self.in_symbols = True
        elif words[0] == "rule":
            self.seen_rule = True
            if len(words) == 2 and _ID_RE.fullmatch(words[1]):
                self.draft = _Draft(words[1], number)
            else:
                self.error(number, "expected 'rule ID' (ID: letters, digits, '-', '_', '.')")
                self.draft = _Draft("?", number)  # read its fields, then drop it
                self.draft.fields["__bad__"] = ("", number)
        else:
            self.error(number, f"expected 'rule ID' or 'symbols:', got {stripped!r}")

    def symbol(self, text: str, number: int) -> None:
        got = read.parse_symbol(text, self.custom)
        if isinstance(got, str):
            self.error(number, got)
            return
        name, mask = got
        self.custom[name] = mask
        self.symbols[name] = mask

    def rule_line(self, draft: _Draft, text: str, number: int) -> None:
        if draft.reading_board and len(draft.rows) < 9:
            m = _FIELD_RE.fullmatch(text) if ":" in text else None
            if m is None or m.group(1) not in FIELDS:
                if len(draft.rows) < 8 or read.is_file_letters(text):
                    draft.rows.append((text, number))
                    return
                self.error(number, "the board has more than 8 rows (rank 8 first, then down to 1)")
                draft.reading_board = False
                return
            draft.reading_board = False
        m = _FIELD_RE.fullmatch(text)
        if m is None:
            self.error(number, f"expected 'field: value' in rule {draft.id}, got {text!r}")
            return
        key, value = m.group(1).lower(), m.group(2).strip()
        if key not in FIELDS:
            self.error(number, f"unknown field {key!r}; fields are: {', '.join(FIELDS)}")
            return
        if key in draft.fields:
            self.error(number, f"field {key!r} given twice in rule {draft.id}")
            return
        draft.fields[key] = (value, number)
        if key == "board":
            if value:
                self.error(number, "the board's rows go on the lines after 'board:'")
            draft.reading_board = True

    # -- one rule ----------------------------------------------------------------------------

    def finish(self, draft: _Draft) -> None:
        before = len(self.errors)
        f = draft.fields
        if "__bad__" in f:
            return
        if draft.id in self.ids:
            self.error(draft.line, f"duplicate rule id {draft.id!r}")
        self.ids.add(draft.id)  # even a faulty rule claims its id: the second one is the duplicate
        side = WHITE
        if "side" in f:
            value, number = f["side"]
            side = read.parse_side(value)
            if side is None:
                self.error(number, f"side must be white or black, got {value!r}")
                side = WHITE
        priority = self.integer(f, "priority", allow_negative=True)
        sacrifice = self.integer(f, "sacrifice", allow_negative=False)
        pieces = ANY_PIECES
        if "pieces" in f:
            value, number = f["pieces"]
            pieces = read.parse_pieces(value, lambda message: self.error(number, message))
        side, board, cells = self.squares(draft, side)
        if "play" not in f:
            self.error(draft.line, f"rule {draft.id} has no 'play:' (the move to play)")
            return
        value, play_line = f["play"]
        play = read.parse_play(value)
        if isinstance(play, str):
            self.error(play_line, play)
            return
        if len(self.errors) > before or board is None:
            return
        rule = Rule(
            id=draft.id, path=self.path, line=draft.line, play=value, play_squares=play[0],
            capture=play[1], allowed=board, cells=cells, side=side,
            name=f["name"][0] if "name" in f else "", priority=priority, sacrifice=sacrifice,
            pieces=pieces, symbols=dict(self.custom),
        )
        for message in read.play_warnings(board, side, play[0], play[1]):
            self.warning(play_line, message)
        self.check_pieces(rule, f)
        self.rules.append(rule)

    def integer(self, f: dict, key: str, allow_negative: bool) -> int:
        if key not in f:
            return 0
        value, number = f[key]
        got = read.parse_integer(key, value, allow_negative)
        if isinstance(got, str):
            self.error(number, got)
            return 0
        return got

    def squares(self, draft: _Draft, side: int) -> tuple[int, tuple[int, ...] | None, tuple[str, ...]]:
        """The rule's side, square masks and cells, from ``board:`` or ``position:``."""
        f = draft.fields
        if "board" in f and "position" in f:
            self.error(f["position"][1], "give either 'board:' or 'position:', not both")
        elif "board" in f:
            return side, *self.board(draft)
        elif "position" in f:
            value, number = f["position"]
            try:
                pos = parse_fen(value)
            except FenError as e:
                self.error(number, f"bad position: {e}")
                return side, None, ()
            if "side" in f and pos.side != side:
                self.error(number, f"the position has {read.side_word(pos.side)} to move but "
                           f"'side:' says {read.side_word(side)}")
            cells = position_cells(pos)
            return pos.side, tuple(map(BUILTIN_SYMBOLS.__getitem__, cells)), cells
        else:
            self.error(draft.line, f"rule {draft.id} has no 'board:' or 'position:'")
        return side, None, ()

    def board(self, draft: _Draft) -> tuple[tuple[int, ...] | None, tuple[str, ...]]:
        rows = draft.rows
        if rows and read.is_file_letters(rows[-1][0]):
            rows = rows[:-1]
        if len(rows) != 8:
            at = rows[-1][1] if rows else draft.fields["board"][1]
            self.error(at, f"the board has {len(rows)} row{'' if len(rows) == 1 else 's'}; "
                       "it needs 8 (rank 8 first)")
            return None, ()
        by_rank: list[list[str]] = [[]] * 8
        ok = True
        for r, (text, line) in enumerate(rows):
            rank = 8 - r
            cells = read.row_cells(text, rank)
            dark = None if isinstance(cells, str) else read.dark_cells(cells, rank, self.symbols)
            if dark is not None:
                by_rank[rank - 1] = dark
                continue
            ok = False
            faults = [cells] if isinstance(cells, str) else read.board_faults(cells, rank, self.symbols)
            for message in faults:
                self.error(line, message)
        if not ok:
            return None, ()
        in_order = tuple(c for rank_cells in by_rank for c in rank_cells)
        return tuple(self.symbols[c] for c in in_order), in_order

    def check_pieces(self, rule: Rule, f: dict) -> None:
        if "pieces" not in f or not rule.exact:
            return
        pos = rule.exact_position()
        assert pos is not None
        wn, bn = pos.white.bit_count(), pos.black.bit_count()
        (wl, wh), (bl, bh) = rule.pieces
        if not (wl <= wn <= wh and bl <= bn <= bh):
            self.warning(f["pieces"][1], f"the board has {wn} white and {bn} black pieces, "
                         "which 'pieces:' excludes: the rule never applies")


def parse_rules(text: str, path: str) -> tuple[list[Rule], list[Diagnostic], list[Diagnostic]]:
    """Parse one rule file: (rules, warnings, errors). When there are errors the file is
    rejected by the loader; the rules returned are those that parsed cleanly."""
    parser = _Parser(path)
    parser.parse(text)
    by_line = lambda d: d.line  # noqa: E731
    return parser.rules, sorted(parser.warnings, key=by_line), sorted(parser.errors, key=by_line)
