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

Lines are numbered as a person's editor numbers them: only ``\n`` ends a line (one ``\r``
before it goes with it). Any other control character outside a comment (a form feed, U+2028,
an escape sequence) is an error at its line, so nothing a file holds can reach the terminal.

The square states, symbols and the matcher's :class:`Pattern` are in
:mod:`kbdraughts.kb.rules.pattern`; the :class:`Rule` value in :mod:`kbdraughts.kb.rules.rule`; the
readers of each field's value in :mod:`kbdraughts.kb.rules.fields`; the writer,
:func:`kbdraughts.kb.writer.format_rule`, turns a :class:`Rule` back into this text.

>>> rules, warnings, errors = parse_rules(EXAMPLE, "example.txt")
>>> [r.id for r in rules], warnings, errors
(['shot-1'], [], [])
>>> rules[0].capture, rules[0].exact, rules[0].constrained
(True, False, 5)
"""

from __future__ import annotations

import re

from kbdraughts.board import WHITE
from kbdraughts.files import control_character, editor_lines
from kbdraughts.kb.rules import fields as read
from kbdraughts.kb.rules.pattern import (  # the rest re-exported: names this module's users know
    ALL_STATES, BLACK_KING, BLACK_MAN, BUILTIN_SYMBOLS, EMPTY, MAX_PIECES, WHITE_KING,
    WHITE_MAN, Pattern, pattern_applies, position_cells, position_states, swap_colours,
)
from kbdraughts.kb.motifs.motif import Motif
from kbdraughts.kb.motifs.parse import is_block_head, read_motifs
from kbdraughts.kb.rules.rule import ANY_PIECES, RULE_ID, Diagnostic, Rule, RuleFileError, make_rule
from kbdraughts.notation import FenError, parse_fen

__all__ = [
    "Rule", "Pattern", "Diagnostic", "RuleFileError", "parse_rules", "parse_combos", "make_rule",
    "BUILTIN_SYMBOLS", "EMPTY", "WHITE_MAN", "WHITE_KING", "BLACK_MAN", "BLACK_KING",
    "ALL_STATES", "position_states", "pattern_applies", "MAX_PIECES", "swap_colours",
]

# --- the parser ----------------------------------------------------------------------------

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

    def __init__(self, rule_id: str, line: int, errors_before: int):
        self.id = rule_id
        self.line = line
        self.errors_before = errors_before  # any error after this one is the rule's own
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
        self.block: list[tuple[int, str]] | None = None  # a motif or define being read
        self.blocks: list[list[tuple[int, str]]] = []
        self.in_symbols = self.symbols_seen = self.seen_rule = False

    def error(self, line: int, message: str) -> None:
        self.errors.append(Diagnostic(self.path, line, "error", message))

    def warning(self, line: int, message: str) -> None:
        self.warnings.append(Diagnostic(self.path, line, "warning", message))

    # -- the file ---------------------------------------------------------------------------

    def parse(self, text: str) -> None:
        for number, line in enumerate(editor_lines(text), 1):  # numbered as an editor does
            if "#" in line:
                line = line.split("#", 1)[0]
            bad = control_character(line)
            if bad:  # an escape sequence must not reach the terminal; a form feed is no blank
                self.error(number, f"control character {bad} in the line (only spaces and tabs)")
                continue
            stripped = line.strip()
            if not stripped:
                continue
            if line[0] not in " \t":
                if self.block is not None:
                    self.blocks.append(self.block)
                    self.block = None
                if is_block_head(stripped):
                    self.in_symbols = False
                    if self.draft is not None:
                        self.finish(self.draft)
                        self.draft = None
                    self.block = [(number, stripped)]
                else:
                    self.top_line(stripped, number)
            elif self.block is not None:
                self.block.append((number, stripped))
            elif self.in_symbols:
                self.symbol(stripped, number)
            elif self.draft is None:
                self.error(number, "an indented line outside a rule (start one with 'rule ID')")
            else:
                self.rule_line(self.draft, stripped, number)
        if self.draft is not None:
            self.finish(self.draft)
        if self.block is not None:
            self.blocks.append(self.block)
        self.motifs: list[Motif] = []
        for m in read_motifs(self.blocks, self.path, self.errors):
            if m.id in self.ids:  # rules and motifs share one space of ids
                self.error(m.line, f"duplicate rule id {m.id!r}")
            else:
                self.motifs.append(m)
            self.ids.add(m.id)

    def top_line(self, stripped: str, number: int) -> None:
        """A line that is not indented: ``rule ID``, ``symbols:``, or a misplaced field."""
        m = _FIELD_RE.fullmatch(stripped)
        field = m.group(1) if m is not None else ""
        misplaced = field.lower() in FIELDS
        if misplaced:
            self.error(number, f"'{field}:' must be indented under its 'rule ID' line")
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
            if len(words) == 2 and RULE_ID.fullmatch(words[1]):
                self.draft = _Draft(words[1], number, len(self.errors))
            else:
                self.error(number, "expected 'rule ID' (ID: letters, digits, '-', '_', '.')")
                self.draft = _Draft("?", number, 0)  # read its fields, then drop it
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
        """The rule, added when none of its lines had an error (a faulty rule is skipped alone:
        the rest of the file still loads)."""
        before = draft.errors_before
        f = draft.fields
        if "__bad__" in f:
            return
        if draft.id in self.ids:
            self.error(draft.line, f"duplicate rule id {draft.id!r}")
        self.ids.add(draft.id)  # even a faulty rule claims its id: the second one is the duplicate
        side = WHITE
        if "side" in f:
            value, number = f["side"]
            given = read.parse_side(value)
            if given is None:
                self.error(number, f"side must be white or black, got {value!r}")
            else:
                side = given
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

    def squares(self, draft: _Draft,
                side: int) -> tuple[int, tuple[int, ...] | None, tuple[str, ...]]:
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
            faults = ([cells] if isinstance(cells, str)
                      else read.board_faults(cells, rank, self.symbols))
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
    """Parse one rule file: (rules, warnings, errors). A rule with an error is left out (and
    named by the error); the rules returned are those that parsed cleanly. The file's
    motifs are read (their faults are errors here) but left out: see :func:`parse_combos`."""
    rules, _, warnings, errors = parse_combos(text, path)
    return rules, warnings, errors


def parse_combos(text: str, path: str
                 ) -> tuple[list[Rule], list[Motif], list[Diagnostic], list[Diagnostic]]:
    """Parse one rule file: (rules, motifs, warnings, errors)."""
    parser = _Parser(path)
    parser.parse(text)
    by_line = lambda d: d.line  # noqa: E731
    return (parser.rules, parser.motifs, sorted(parser.warnings, key=by_line),
            sorted(parser.errors, key=by_line))
