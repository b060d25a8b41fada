"""What a rule's board says about a position: square states, symbols, and the matcher's pattern.

A dark square's *state* is one of five: empty, white man, white king, black man, black king. A
symbol stands for a set of states, kept as a 5-bit mask; a rule's board is 32 such masks, one
per dark square in the order of :data:`kbdraughts.squares.SQUARES`.

>>> from kbdraughts.notation import parse_fen
>>> pos = parse_fen("W:Wc3:Bd4")
>>> "".join(position_cells(pos)).strip(".")
'w...b'
>>> "".join(position_cells(pos, keep={pos.white.bit_length() - 1})).strip("?")
'w'
>>> swap_colours(BUILTIN_SYMBOLS["+"]) == BUILTIN_SYMBOLS["*"]
True
"""

from __future__ import annotations

from typing import Collection, NamedTuple

from kbdraughts.board import BB_BOARD, Position
from kbdraughts.squares import SQUARES, Square

__all__ = [
    "EMPTY", "WHITE_MAN", "WHITE_KING", "BLACK_MAN", "BLACK_KING", "ALL_STATES",
    "WHITE_PIECES", "BLACK_PIECES", "BUILTIN_SYMBOLS", "EXACT_SYMBOLS", "SINGLE_STATE",
    "MAX_PIECES", "swap_colours", "position_states", "position_cells", "Pattern",
    "pattern_applies",
]

#: The five states of a dark square, as bit numbers of a state mask.
EMPTY, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = range(5)
ALL_STATES = 0b11111
WHITE_PIECES = 1 << WHITE_MAN | 1 << WHITE_KING
BLACK_PIECES = 1 << BLACK_MAN | 1 << BLACK_KING

BUILTIN_SYMBOLS: dict[str, int] = {
    ".": 1 << EMPTY,
    "w": 1 << WHITE_MAN,
    "W": 1 << WHITE_KING,
    "b": 1 << BLACK_MAN,
    "B": 1 << BLACK_KING,
    "?": ALL_STATES,
    "+": WHITE_PIECES,
    "*": BLACK_PIECES,
    "@": WHITE_PIECES | BLACK_PIECES,
}
#: The symbols that pin a square to one state: a rule using only these is *exact*.
EXACT_SYMBOLS = ".wWbB"
#: A one-state mask -> that state.
SINGLE_STATE = {1 << s: s for s in range(5)}
#: The most pieces a side can have.
MAX_PIECES = 12


def swap_colours(mask: int) -> int:
    """A state mask with white and black exchanged (empty stays empty)."""
    return (mask & 1) | (mask >> 3 & 0b11) << 1 | (mask >> 1 & 0b11) << 3


def position_states(pos: Position) -> tuple[int, int, int, int, int]:
    """The bitboards of the five square states of ``pos``: empty, white men, white kings, ..."""
    white, black, kings, _ = pos
    return (
        BB_BOARD & ~(white | black), white & ~kings, white & kings, black & ~kings, black & kings,
    )


def position_cells(pos: Position, keep: Collection[Square] | None = None,
                   filler: str = "?") -> tuple[str, ...]:
    """The exact symbol (``. w W b B``) of each dark square of ``pos``, in ``SQUARES`` order;
    with ``keep``, only on those squares and ``filler`` elsewhere (a rule tool's draft)."""
    white, black, kings, _ = pos
    occupied = white | black
    cells = tuple(
        "wWbB"[(black >> sq & 1) * 2 + (kings >> sq & 1)] if occupied >> sq & 1 else "."
        for sq in SQUARES
    )
    if keep is None:
        return cells
    return tuple(c if sq in keep else filler for sq, c in zip(SQUARES, cells))


class Pattern(NamedTuple):
    """A rule as one colour sees it: what the matcher and the move finder need.

    ``allow[t]`` is the bitboard of the squares that allow state ``t``; a position fits when no
    square holds a state its mask forbids.
    """

    side: int
    white: tuple[int, int]  # counts of white pieces allowed, inclusive
    black: tuple[int, int]
    allow: tuple[int, ...]  # one mask a state, in ALL_STATES's order (five)
    play: tuple[Square, ...]
    capture: bool


def pattern_applies(pattern: Pattern, pos: Position) -> bool:
    """The reference matcher: side, piece counts and every square (a brute-force check)."""
    if pos.side != pattern.side:
        return False
    wn, bn = pos.white.bit_count(), pos.black.bit_count()
    if not (pattern.white[0] <= wn <= pattern.white[1]
            and pattern.black[0] <= bn <= pattern.black[1]):
        return False
    for occ, allowed in zip(position_states(pos), pattern.allow):
        if occ & ~allowed:
            return False
    return True
