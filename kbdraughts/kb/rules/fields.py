"""The values of a rule's fields read one by one: ``side``, counts, ``pieces``, a board's rows,
a ``symbols:`` line, the ``play`` path, and the warnings a finished rule earns.

Each reader returns its value, or an error message (a ``str``) that the parser puts at the
field's line; readers of values that can hold several faults take a ``report`` callback.

>>> squares, capture = parse_play("c3:e5:g7")
>>> [SQUARE_NAMES[s] for s in squares], capture
(['c3', 'e5', 'g7'], True)
>>> parse_play("c3-e4")
"bad play 'c3-e4': e4 is a light square"
>>> parse_side("Black"), parse_count("4..2", "white")
(1, 'reversed range 4..2 for white: write 2..4')
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from kbdraughts.board import BLACK, WHITE
from kbdraughts.kb.rules.pattern import (
    BLACK_MAN, BLACK_PIECES, BUILTIN_SYMBOLS, MAX_PIECES, WHITE_MAN, WHITE_PIECES,
)
from kbdraughts.notation import parse_square
from kbdraughts.squares import SQUARE_FILE, SQUARE_INDEX, SQUARE_NAMES, SQUARE_RANK, Square, between

__all__ = [
    "FILES", "side_word", "parse_side", "parse_integer", "parse_count", "parse_pieces",
    "parse_symbol", "is_file_letters", "row_cells", "dark_cells", "board_faults", "parse_play",
    "play_warnings", "MAX_DIGITS",
]

FILES = "abcdefgh"
_RANGE_RE = re.compile(r"(\d+)(?:\s*\.\.\s*(\d+))?")
ANY = (0, MAX_PIECES)
_LIGHT = ["-"] * 4

Report = Callable[[str], None]


def side_word(side: int) -> str:
    return "black" if side else "white"


def parse_side(value: str) -> int | None:
    """``white``/``w`` or ``black``/``b`` (any case); None for anything else."""
    word = value.lower()
    return WHITE if word in ("white", "w") else BLACK if word in ("black", "b") else None


def parse_integer(key: str, value: str, allow_negative: bool) -> int | str:
    if not re.fullmatch(r"[+-]?\d+" if allow_negative else r"\+?\d+", value):
        what = "an integer" if allow_negative else "a whole number, 0 or more"
        return f"{key} must be {what}, got {value!r}"
    number = _whole(value.lstrip("+-"))
    if number is None:
        return f"{key} {_brief(value)} is too large (at most {MAX_DIGITS} digits)"
    return -number if value.startswith("-") else number


#: The most digits a number in a rule file may have (Python refuses over 4,300 in int()).
MAX_DIGITS = 18


def _whole(digits: str) -> int | None:
    """The value of a string of digits, None when it has more than MAX_DIGITS."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= MAX_DIGITS else None


def _brief(text: str) -> str:
    """A number as a message shows it: a long one cut, with its length."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def parse_count(spec: str, colour: str) -> tuple[int, int] | str:
    """``N``, ``N..M`` or ``any``: the inclusive range of a side's piece count."""
    if spec.lower() == "any":
        return ANY
    m = _RANGE_RE.fullmatch(spec)
    if m is None:
        return f"bad count {spec!r} for {colour}: write N, N..M or any"
    low, high = _whole(m.group(1)), _whole(m.group(2) or m.group(1))
    if low is None or high is None:
        return f"{colour} count {_brief(spec)} is more than {MAX_PIECES} pieces"
    if low > high:
        return f"reversed range {spec} for {colour}: write {high}..{low}"
    if high > MAX_PIECES:
        return f"{colour} count {high} is more than {MAX_PIECES} pieces"
    return low, high


def parse_pieces(value: str, report: Report) -> tuple[tuple[int, int], tuple[int, int]]:
    """``white N..M, black N`` (either part may go, or ``any``): the white and black ranges."""
    ranges = {"white": ANY, "black": ANY}
    if value.lower() == "any":
        return ANY, ANY
    seen = set()
    for part in value.split(","):
        words = part.split(None, 1)
        if len(words) != 2 or words[0].lower() not in ranges:
            report(f"expected 'pieces: white N..M, black N' (N, N..M or any), got {part.strip()!r}")
            continue
        colour = words[0].lower()
        if colour in seen:
            report(f"{colour} is given twice in 'pieces:'")
            continue
        seen.add(colour)
        count = parse_count(words[1].strip(), colour)
        if isinstance(count, str):
            report(count)
        else:
            ranges[colour] = count
    return ranges["white"], ranges["black"]


def parse_symbol(text: str, custom: dict[str, int]) -> tuple[str, int] | str:
    """A ``symbols:`` line, ``Z = . w``: the symbol and its state mask."""
    name, eq, value = text.partition("=")
    name = name.strip()
    if not eq or len(name) != 1:
        return f"expected 'X = states' (one character, then symbols), got {text!r}"
    if name in BUILTIN_SYMBOLS or name in "-#" or name.isdigit() or name.isspace():
        return f"{name!r} cannot be redefined: it is built in or reserved"
    if name in custom:
        return f"symbol {name!r} is defined twice"
    parts = value.split()
    if not parts:
        return f"symbol {name!r} allows no state: list some, like '. w'"
    mask = 0
    for ch in "".join(parts):
        if ch not in BUILTIN_SYMBOLS:
            return f"unknown symbol {ch!r} in the definition of {name!r}; use . w W b B ? + * @"
        mask |= BUILTIN_SYMBOLS[ch]
    return name, mask


def is_file_letters(text: str) -> bool:
    return text.replace(" ", "") == FILES


def row_cells(text: str, rank: int) -> list[str] | str:
    """The 8 cells of a board row (rank 1..8), or an error message."""
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


def dark_cells(cells: list[str], rank: int, symbols: dict[str, int]) -> list[str] | None:
    """The 4 dark cells of a row when the row is well formed, else None."""
    parity = (rank - 1) % 2  # the dark squares of rank 1 are on files a, c, e, g
    dark = cells[parity::2]
    if cells[1 - parity::2] == _LIGHT and "-" not in dark and all(c in symbols for c in dark):
        return dark
    return None


def board_faults(cells: list[str], rank: int, symbols: dict[str, int]) -> list[str]:
    """What is wrong with each cell of a row that :func:`dark_cells` refused."""
    parity = (rank - 1) % 2
    out = []
    for file, ch in enumerate(cells):
        name = f"{FILES[file]}{rank}"
        if file % 2 != parity:
            if ch != "-":
                out.append(f"{name} is a light square: write '-' there, not {ch!r}")
        elif ch == "-":
            out.append(f"{name} is a dark square: give it a symbol ('.' empty, '?' anything)")
        elif ch not in symbols:
            out.append(f"unknown symbol {ch!r} on {name}; built in: . w W b B ? + * @"
                       " (define others under 'symbols:')")
    return out


def _square(text: str, part: str) -> Square | str:
    try:
        return parse_square(part)
    except ValueError:
        if re.fullmatch(r"[a-h][1-8]", part):
            return f"bad play {text!r}: {part} is a light square"
        return f"bad play {text!r}: {part!r} is not a square (write c3-d4 or c3:e5:g7)"


@lru_cache(maxsize=4096)  # a knowledge base repeats the same few hundred moves
def parse_play(text: str) -> tuple[tuple[Square, ...], bool] | str:
    """The squares and capture flag of a ``play:`` path, or an error message. A pattern has no
    position to check the move in: only the path's shape is checked here."""
    t = text.strip().lower()
    if not t:
        return "'play:' is empty: give the move, like c3-d4 or c3:e5:g7"
    capture = ":" in t or "x" in t
    if capture and "-" in t:
        return f"bad play {text!r}: use '-' for a quiet move, ':' for a capture, not both"
    squares: list[Square] = []
    for part in re.split(r"[:x]" if capture else "-", t):
        sq = _square(text, part.strip())
        if isinstance(sq, str):
            return sq
        squares.append(sq)
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


def play_warnings(allowed: tuple[int, ...], side: int, squares: tuple[Square, ...],
                  capture: bool) -> list[str]:
    """Why ``play`` is impossible in every position the board allows (empty: it may fire)."""
    mine, theirs = (WHITE_PIECES, BLACK_PIECES) if side == WHITE else (BLACK_PIECES, WHITE_PIECES)
    state = lambda sq: allowed[SQUARE_INDEX[sq]]  # noqa: E731 - a local shorthand
    start = squares[0]
    out = []
    if state(start) & ~mine:
        out.append(f"play starts on {SQUARE_NAMES[start]}, which the board does not fix to a "
                   f"{side_word(side)} piece: the move can never be legal")
    for sq in squares[1:]:
        if sq != start and state(sq) & ~1:
            out.append(f"play lands on {SQUARE_NAMES[sq]}, which the board does not fix empty: "
                       "the move can never be legal")
    if capture:
        for a, b in zip(squares, squares[1:]):
            if not any(state(s) and not state(s) & ~theirs for s in between(a, b)):
                out.append(f"play takes between {SQUARE_NAMES[a]} and {SQUARE_NAMES[b]}, but no "
                           f"square there is fixed to a {side_word(1 - side)} piece: the move "
                           "can never be legal")
    elif state(start) == 1 << (WHITE_MAN if side == WHITE else BLACK_MAN):
        a, b = squares
        forward = (SQUARE_RANK[b] - SQUARE_RANK[a]) * (1 if side == WHITE else -1)
        if forward != 1:
            out.append(f"a man on {SQUARE_NAMES[a]} cannot move to {SQUARE_NAMES[b]} (men step "
                       "one square forward): the move can never be legal")
    return out
