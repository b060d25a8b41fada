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

A square's *state* is one of five: empty, white man, white king, black man, black king. A
symbol stands for a set of states, kept as a 5-bit mask; a rule is 32 such masks, one per dark
square in the order of :data:`kbdraughts.board.SQUARES`.

>>> rules, warnings, errors = parse_rules(EXAMPLE, "example.txt")
>>> [r.id for r in rules], warnings, errors
(['shot-1'], [], [])
>>> rules[0].capture, rules[0].exact, rules[0].constrained
(True, False, 5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

from kbdraughts.board import BB_BOARD, BLACK, SQUARE_FILE, SQUARE_RANK, SQUARES, WHITE, Position, Square
from kbdraughts.notation import FenError, SQUARE_NAMES, parse_fen

__all__ = [
    "Rule", "Pattern", "Diagnostic", "RuleFileError", "parse_rules", "BUILTIN_SYMBOLS",
    "EMPTY", "WHITE_MAN", "WHITE_KING", "BLACK_MAN", "BLACK_KING", "ALL_STATES",
    "position_states", "pattern_applies", "MAX_PIECES",
]

# --- square states ---------------------------------------------------------------------------

#: The five states of a dark square, as bit numbers of a state mask.
EMPTY, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = range(5)
ALL_STATES = 0b11111
_WHITE_PIECES = 1 << WHITE_MAN | 1 << WHITE_KING
_BLACK_PIECES = 1 << BLACK_MAN | 1 << BLACK_KING

BUILTIN_SYMBOLS: dict[str, int] = {
    ".": 1 << EMPTY,
    "w": 1 << WHITE_MAN,
    "W": 1 << WHITE_KING,
    "b": 1 << BLACK_MAN,
    "B": 1 << BLACK_KING,
    "?": ALL_STATES,
    "+": _WHITE_PIECES,
    "*": _BLACK_PIECES,
    "@": _WHITE_PIECES | _BLACK_PIECES,
}
#: The symbols that pin a square to one state: a rule using only these is *exact*.
_EXACT_SYMBOLS = ".wWbB"
_SINGLE_STATE = {1 << s: s for s in range(5)}
#: The most pieces a side can have.
MAX_PIECES = 12

_SQUARE_BITS = tuple(1 << s for s in SQUARES)
_SQUARE_INDEX = {sq: i for i, sq in enumerate(SQUARES)}


def _reverse36(bb: int) -> int:
    """A bitboard turned 180 degrees: bit ``s`` goes to ``35 - s`` (a1 <-> h8)."""
    return int(f"{bb:036b}"[::-1], 2)


_MIRROR_SQUARE: dict[Square, Square] = {SQUARES[i]: SQUARES[31 - i] for i in range(32)}


def swap_colours(mask: int) -> int:
    """A state mask with white and black exchanged (empty stays empty)."""
    return (mask & 1) | (mask >> 3 & 0b11) << 1 | (mask >> 1 & 0b11) << 3


def mirror_square(square: Square) -> Square:
    """The square rotated 180 degrees: a1 <-> h8, c3 <-> f6."""
    return _MIRROR_SQUARE[square]


def position_states(pos: Position) -> tuple[int, int, int, int, int]:
    """The bitboards of the five square states of ``pos``: empty, white men, white kings, ..."""
    white, black, kings, _ = pos
    return (
        BB_BOARD & ~(white | black), white & ~kings, white & kings, black & ~kings, black & kings,
    )


class Pattern(NamedTuple):
    """A rule as one colour sees it: what the matcher and the move finder need.

    ``allow[t]`` is the bitboard of the squares that allow state ``t``; a position fits when no
    square holds a state its mask forbids.
    """

    side: int
    white: tuple[int, int]  # counts of white pieces allowed, inclusive
    black: tuple[int, int]
    allow: tuple[int, int, int, int, int]
    play: tuple[Square, ...]
    capture: bool


def pattern_applies(pattern: Pattern, pos: Position) -> bool:
    """The reference matcher: side, piece counts and every square (a brute-force check)."""
    if pos.side != pattern.side:
        return False
    wn, bn = pos.white.bit_count(), pos.black.bit_count()
    if not (pattern.white[0] <= wn <= pattern.white[1] and pattern.black[0] <= bn <= pattern.black[1]):
        return False
    for occ, allowed in zip(position_states(pos), pattern.allow):
        if occ & ~allowed:
            return False
    return True


# --- rules -------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Rule:
    """One rule of the knowledge base, as written (for White or Black as its ``side`` says).

    ``allowed[i]`` is the state mask of ``SQUARES[i]``; ``cells[i]`` the symbol written there.
    ``pieces`` holds the (low, high) counts of white and of black pieces it accepts.
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
    pieces: tuple[tuple[int, int], tuple[int, int]] = ((0, MAX_PIECES), (0, MAX_PIECES))
    symbols: dict[str, int] = field(default_factory=dict, repr=False)

    @cached_property
    def exact(self) -> bool:
        """Every dark square is pinned to one state (an opening position, say)."""
        return all(m in _SINGLE_STATE for m in self.allowed)

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
        # Turned 180 degrees a square's bit s goes to 35 - s; colours swap: w<->b, W<->B.
        allow = tuple(_reverse36(p.allow[t])
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
_RANGE_RE = re.compile(r"(\d+)(?:\s*\.\.\s*(\d+))?")
_FIELDS = ("name", "side", "pieces", "priority", "sacrifice", "board", "position", "play")
_FILES = "abcdefgh"

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

    def error(self, line: int, message: str) -> None:
        self.errors.append(Diagnostic(self.path, line, "error", message))

    def warning(self, line: int, message: str) -> None:
        self.warnings.append(Diagnostic(self.path, line, "warning", message))

    # -- the file ---------------------------------------------------------------------------

    def parse(self, text: str) -> None:
        draft: _Draft | None = None
        in_symbols = False
        symbols_seen = False
        seen_rule = False
        for number, line in enumerate(text.splitlines(), 1):
            if "#" in line:
                line = line.split("#", 1)[0]
            stripped = line.strip()
            if not stripped:
                continue
            indented = line[0] in " \t"
            if not indented and draft is not None:
                m = _FIELD_RE.fullmatch(stripped)
                if m and m.group(1).lower() in _FIELDS:  # a field that lost its indent
                    self.error(number, f"'{m.group(1)}:' must be indented under its 'rule ID' line")
                    self.rule_line(draft, stripped, number)
                    continue
            if not indented:
                in_symbols = False
                if draft is not None:
                    self.finish(draft)
                    draft = None
                if stripped == "symbols:":
                    if symbols_seen:
                        self.error(number, "a second 'symbols:' block; a file has at most one")
                    elif seen_rule:
                        self.error(number, "'symbols:' must come before the file's first rule")
                    symbols_seen = True
                    in_symbols = True
                    continue
                words = stripped.split()
                if words[0] == "rule":
                    seen_rule = True
                    if len(words) != 2 or not _ID_RE.fullmatch(words[1]):
                        self.error(number, "expected 'rule ID' (ID: letters, digits, '-', '_', '.')")
                        draft = _Draft("?", number)  # read its fields, then drop it
                        draft.fields["__bad__"] = ("", number)
                        continue
                    draft = _Draft(words[1], number)
                    continue
                m = _FIELD_RE.fullmatch(stripped)
                if m and m.group(1).lower() in _FIELDS:
                    self.error(number, f"'{m.group(1)}:' must be indented under its 'rule ID' line")
                else:
                    self.error(number, f"expected 'rule ID' or 'symbols:', got {stripped!r}")
                continue
            if in_symbols:
                self.symbol(stripped, number)
                continue
            if draft is None:
                self.error(number, "an indented line outside a rule (start one with 'rule ID')")
                continue
            self.rule_line(draft, stripped, number)
        if draft is not None:
            self.finish(draft)

    def symbol(self, text: str, number: int) -> None:
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or len(name) != 1:
            self.error(number, f"expected 'X = states' (one character, then symbols), got {text!r}")
            return
        if name in BUILTIN_SYMBOLS or name in "-#" or name.isdigit() or name.isspace():
            self.error(number, f"{name!r} cannot be redefined: it is built in or reserved")
            return
        if name in self.custom:
            self.error(number, f"symbol {name!r} is defined twice")
            return
        mask = 0
        parts = value.split()
        if not parts:
            self.error(number, f"symbol {name!r} allows no state: list some, like '. w'")
            return
        for part in parts:
            for ch in part:
                if ch not in BUILTIN_SYMBOLS:
                    self.error(number, f"unknown symbol {ch!r} in the definition of {name!r}; "
                               "use . w W b B ? + * @")
                    return
                mask |= BUILTIN_SYMBOLS[ch]
        self.custom[name] = mask
        self.symbols[name] = mask

    def rule_line(self, draft: _Draft, text: str, number: int) -> None:
        if draft.reading_board and len(draft.rows) < 9:
            m = _FIELD_RE.fullmatch(text) if ":" in text else None
            if m is None or m.group(1) not in _FIELDS:
                if len(draft.rows) < 8 or _is_file_letters(text):
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
        if key not in _FIELDS:
            self.error(number, f"unknown field {key!r}; fields are: {', '.join(_FIELDS)}")
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
            if value.lower() in ("white", "w"):
                side = WHITE
            elif value.lower() in ("black", "b"):
                side = BLACK
            else:
                self.error(number, f"side must be white or black, got {value!r}")
        priority = self.integer(f, "priority", allow_negative=True)
        sacrifice = self.integer(f, "sacrifice", allow_negative=False)
        pieces = self.pieces(f["pieces"]) if "pieces" in f else ((0, MAX_PIECES), (0, MAX_PIECES))
        board = None
        cells: tuple[str, ...] = ()
        if "board" in f and "position" in f:
            self.error(f["position"][1], "give either 'board:' or 'position:', not both")
        elif "board" in f:
            board, cells = self.board(draft)
        elif "position" in f:
            value, number = f["position"]
            try:
                pos = _quick_fen(value) or parse_fen(value)
            except FenError as e:
                self.error(number, f"bad position: {e}")
            else:
                if "side" in f and pos.side != side:
                    self.error(number, f"the position has {_side(pos.side)} to move but "
                               f"'side:' says {_side(side)}")
                side = pos.side
                board, cells = _position_cells(pos)
        else:
            self.error(draft.line, f"rule {draft.id} has no 'board:' or 'position:'")
        if "play" not in f:
            self.error(draft.line, f"rule {draft.id} has no 'play:' (the move to play)")
            return
        value, play_line = f["play"]
        play = _parse_play(value)
        if isinstance(play, str):
            self.error(play_line, play)
            return
        squares, capture = play
        if len(self.errors) > before or board is None:
            return
        name = f["name"][0] if "name" in f else ""
        rule = Rule(
            id=draft.id, path=self.path, line=draft.line, play=value, play_squares=squares,
            capture=capture, allowed=board, cells=cells, side=side, name=name,
            priority=priority, sacrifice=sacrifice, pieces=pieces, symbols=dict(self.custom),
        )
        self.check_play(rule, play_line)
        self.check_pieces(rule, f)
        self.rules.append(rule)

    def integer(self, f: dict, key: str, allow_negative: bool) -> int:
        if key not in f:
            return 0
        value, number = f[key]
        if not re.fullmatch(r"[+-]?\d+" if allow_negative else r"\+?\d+", value):
            what = "an integer" if allow_negative else "a whole number, 0 or more"
            self.error(number, f"{key} must be {what}, got {value!r}")
            return 0
        return int(value)

    def pieces(self, entry: tuple[str, int]) -> tuple[tuple[int, int], tuple[int, int]]:
        value, number = entry
        ranges = {"white": (0, MAX_PIECES), "black": (0, MAX_PIECES)}
        if value.lower() == "any":
            return ranges["white"], ranges["black"]
        seen = set()
        for part in value.split(","):
            words = part.split(None, 1)
            if len(words) != 2 or words[0].lower() not in ranges:
                self.error(number, f"expected 'pieces: white N..M, black N' (N, N..M or any), "
                           f"got {part.strip()!r}")
                continue
            colour, spec = words[0].lower(), words[1].strip()
            if colour in seen:
                self.error(number, f"{colour} is given twice in 'pieces:'")
                continue
            seen.add(colour)
            if spec.lower() == "any":
                continue
            m = _RANGE_RE.fullmatch(spec)
            if m is None:
                self.error(number, f"bad count {spec!r} for {colour}: write N, N..M or any")
                continue
            low = int(m.group(1))
            high = int(m.group(2)) if m.group(2) is not None else low
            if low > high:
                self.error(number, f"reversed range {spec} for {colour}: write {high}..{low}")
                continue
            if high > MAX_PIECES:
                self.error(number, f"{colour} count {high} is more than {MAX_PIECES} pieces")
                continue
            ranges[colour] = (low, high)
        return ranges["white"], ranges["black"]

    def board(self, draft: _Draft) -> tuple[tuple[int, ...] | None, tuple[str, ...]]:
        rows = draft.rows
        if rows and _is_file_letters(rows[-1][0]):
            rows = rows[:-1]
        number = draft.fields["board"][1]
        if len(rows) != 8:
            at = rows[-1][1] if rows else number
            self.error(at, f"the board has {len(rows)} row{'' if len(rows) == 1 else 's'}; it needs 8 (rank 8 first)")
            return None, ()
        symbols = self.symbols
        by_rank: list[list[str]] = [[]] * 8
        ok = True
        for r, (text, line) in enumerate(rows):
            rank = 8 - r
            cells = _row_cells(text, rank)
            if isinstance(cells, str):
                self.error(line, cells)
                ok = False
                continue
            parity = (rank - 1) % 2  # the dark squares of rank 1 are on files a, c, e, g
            dark = cells[parity::2]
            light = cells[1 - parity::2]
            if light == _LIGHT and "-" not in dark and all(c in symbols for c in dark):
                by_rank[rank - 1] = dark
                continue
            ok = False
            for file, ch in enumerate(cells):
                name = f"{_FILES[file]}{rank}"
                if file % 2 != parity:
                    if ch != "-":
                        self.error(line, f"{name} is a light square: write '-' there, not {ch!r}")
                elif ch == "-":
                    self.error(line, f"{name} is a dark square: give it a symbol "
                               "('.' empty, '?' anything)")
                elif ch not in symbols:
                    self.error(line, f"unknown symbol {ch!r} on {name}; built in: . w W b B ? + * @"
                               " (define others under 'symbols:')")
        if not ok:
            return None, ()
        cells_in_order = tuple(c for rank_cells in by_rank for c in rank_cells)
        return tuple(symbols[c] for c in cells_in_order), cells_in_order

    # -- warnings ----------------------------------------------------------------------------

    def check_play(self, rule: Rule, line: int) -> None:
        """Warn when the board makes ``play`` impossible in every position it allows."""
        mine = _WHITE_PIECES if rule.side == WHITE else _BLACK_PIECES
        theirs = _BLACK_PIECES if rule.side == WHITE else _WHITE_PIECES
        colour, other = _side(rule.side), _side(1 - rule.side)
        index = _SQUARE_INDEX
        squares = rule.play_squares
        start = squares[0]
        state = lambda sq: rule.allowed[index[sq]]  # noqa: E731 - a local shorthand
        if state(start) & ~mine:
            self.warning(line, f"play starts on {SQUARE_NAMES[start]}, which the board does not "
                         f"fix to a {colour} piece: the move can never be legal")
        for sq in squares[1:]:
            if sq != start and state(sq) & ~1:
                self.warning(line, f"play lands on {SQUARE_NAMES[sq]}, which the board does not "
                             "fix empty: the move can never be legal")
        if rule.capture:
            for a, b in zip(squares, squares[1:]):
                between = _between(a, b)
                if not any(state(s) and not state(s) & ~theirs for s in between):
                    self.warning(line, f"play takes between {SQUARE_NAMES[a]} and {SQUARE_NAMES[b]}"
                                 f", but no square there is fixed to a {other} piece: the move "
                                 "can never be legal")
        elif state(start) == 1 << (WHITE_MAN if rule.side == WHITE else BLACK_MAN):
            a, b = squares
            forward = (SQUARE_RANK[b] - SQUARE_RANK[a]) * (1 if rule.side == WHITE else -1)
            if forward != 1:
                self.warning(line, f"a man on {SQUARE_NAMES[a]} cannot move to {SQUARE_NAMES[b]} "
                             "(men step one square forward): the move can never be legal")

    def check_pieces(self, rule: Rule, f: dict) -> None:
        if "pieces" not in f:
            return
        if rule.exact:
            pos = rule.exact_position()
            assert pos is not None
            wn, bn = pos.white.bit_count(), pos.black.bit_count()
            (wl, wh), (bl, bh) = rule.pieces
            if not (wl <= wn <= wh and bl <= bn <= bh):
                self.warning(f["pieces"][1], f"the board has {wn} white and {bn} black pieces, "
                             "which 'pieces:' excludes: the rule never applies")


def _side(side: int) -> str:
    return "black" if side else "white"


_LIGHT = ["-"] * 4


def _is_file_letters(text: str) -> bool:
    return text.replace(" ", "") == _FILES


def _dark_index(file: int, rank: int) -> int:
    """Index in SQUARES of the dark square on (file, rank) counted from 0."""
    return rank * 4 + file // 2


def _row_cells(text: str, rank: int) -> list[str] | str:
    """The 8 cells of a board row, or an error message."""
    body = text
    if body[-1].isdigit():
        if body[-1] != str(rank):
            return f"this row is rank {rank} (rank 8 first) but ends with {body[-1]}"
        body = body[:-1].rstrip()
    if len(body) == 15 and body[1::2] == "       ":  # the usual layout, "- ? - ? ..."
        return list(body[::2])
    if " " in body:
        cells = body.split(" ")
        if any(len(c) != 1 for c in cells):
            return (f"row {rank}: separate cells by one space or none, got {text!r}")
    else:
        cells = list(body)
    if len(cells) != 8:
        return f"row {rank} has {len(cells)} cells; it needs 8 (light squares '-', dark a symbol)"
    return cells


_NAME_TO_SQUARE = {name: sq for sq, name in SQUARE_NAMES.items()}
_CROWN = (BB_BOARD & 0xF << 32, 0xF)  # where a white / black man would stand crowned


def _quick_fen(text: str) -> Position | None:
    """A plain well-formed FEN read fast (openings files hold hundreds); None: let
    :func:`parse_fen` read it and explain what is wrong."""
    parts = text.strip().split(":")
    if len(parts) != 3 or parts[0] not in ("W", "B") or parts[1][:1] != "W" or parts[2][:1] != "B":
        return None
    bbs = [0, 0]
    kings = 0
    for colour, body in ((0, parts[1][1:]), (1, parts[2][1:])):
        if not body:
            continue
        for item in body.split(","):
            king = item[:1] == "K"
            sq = _NAME_TO_SQUARE.get(item[1:] if king else item)
            if sq is None or (bbs[0] | bbs[1]) >> sq & 1:
                return None
            if not king and _CROWN[colour] >> sq & 1:
                return None
            bbs[colour] |= 1 << sq
            kings |= king << sq
    if bbs[0].bit_count() > 12 or bbs[1].bit_count() > 12:
        return None
    return Position(bbs[0], bbs[1], kings, 1 if parts[0] == "B" else 0)


def _position_cells(pos: Position) -> tuple[tuple[int, ...], tuple[str, ...]]:
    white, black, kings, _ = pos
    occupied = white | black
    cells = tuple(
        "wWbB"[(black >> sq & 1) * 2 + (kings >> sq & 1)] if occupied >> sq & 1 else "."
        for sq in SQUARES
    )
    return tuple(map(BUILTIN_SYMBOLS.__getitem__, cells)), cells


def _between(a: Square, b: Square) -> list[Square]:
    """The dark squares strictly between two squares on one diagonal."""
    fa, ra, fb, rb = SQUARE_FILE[a], SQUARE_RANK[a], SQUARE_FILE[b], SQUARE_RANK[b]
    n = abs(fb - fa)
    df, dr = (fb - fa) // n, (rb - ra) // n
    return [SQUARES[_dark_index(fa + k * df, ra + k * dr)] for k in range(1, n)]


@lru_cache(maxsize=4096)  # a knowledge base repeats the same few hundred moves
def _parse_play(text: str) -> tuple[tuple[Square, ...], bool] | str:
    """The squares and capture flag of a ``play:`` value, or an error message."""
    t = text.strip().lower()
    if not t:
        return "'play:' is empty: give the move, like c3-d4 or c3:e5:g7"
    capture = ":" in t or "x" in t
    parts = re.split(r"[:x]" if capture else "-", t)
    if capture and "-" in t:
        return f"bad play {text!r}: use '-' for a quiet move, ':' for a capture, not both"
    squares: list[Square] = []
    for p in parts:
        p = p.strip()
        if not re.fullmatch(r"[a-h][1-8]", p):
            return f"bad play {text!r}: {p!r} is not a square (write c3-d4 or c3:e5:g7)"
        f, r = _FILES.index(p[0]), int(p[1]) - 1
        if (f + r) % 2:
            return f"bad play {text!r}: {p} is a light square"
        squares.append(SQUARES[_dark_index(f, r)])
    if len(squares) < 2:
        return f"bad play {text!r}: a move names at least two squares"
    if not capture and len(squares) != 2:
        return f"bad play {text!r}: a quiet move has two squares; captures use ':'"
    for a, b in zip(squares, squares[1:]):
        da = abs(SQUARE_FILE[a] - SQUARE_FILE[b])
        if da == 0 or da != abs(SQUARE_RANK[a] - SQUARE_RANK[b]):
            return (f"bad play {text!r}: {SQUARE_NAMES[a]} and {SQUARE_NAMES[b]} are not on one "
                    "diagonal")
        if capture and da < 2:
            return (f"bad play {text!r}: a capture jumps over a piece, so {SQUARE_NAMES[a]} and "
                    f"{SQUARE_NAMES[b]} cannot be neighbours")
    return tuple(squares), capture


def parse_rules(text: str, path: str) -> tuple[list[Rule], list[Diagnostic], list[Diagnostic]]:
    """Parse one rule file: (rules, warnings, errors). When there are errors the file is
    rejected by the loader; the rules returned are those that parsed cleanly."""
    parser = _Parser(path)
    parser.parse(text)
    by_line = lambda d: d.line  # noqa: E731
    return parser.rules, sorted(parser.warnings, key=by_line), sorted(parser.errors, key=by_line)
