"""The board's geometry, once: squares, sides, names, rays, the 180-degree mirror, betweens.

A square is an int: the index of its bit in a 36-bit board where the four "ghost" bits 4, 13,
22 and 31 are never used. With that padding every diagonal step is one constant shift (+4
up-left, +5 up-right, -4 down-right, -5 down-left). Rank 1 is bits 0..3 (a1, c1, e1, g1), rank 8
is bits 32..35 (b8, d8, f8, h8). Everything else (the move generator, the notation, the
knowledge base, the AI) asks this module rather than working geometry out again.

>>> SQUARE_NAMES[mirror_square(square_at(2, 2))]
'f6'
>>> [SQUARE_NAMES[s] for s in between(square_at(0, 0), square_at(3, 3))]
['b2', 'c3']
>>> mirror_bits(1 << square_at(0, 0)) == 1 << square_at(7, 7)
True
"""

from __future__ import annotations

Square = int
Bitboard = int
Side = int

WHITE: Side = 0
BLACK: Side = 1


def square_at(file: int, rank: int) -> Square:
    """The square on ``file`` 0..7 (a..h) and ``rank`` 0..7 (1..8); it must be dark."""
    assert (file + rank) % 2 == 0, "light square"
    return (9 * rank + file) // 2


#: The 32 dark squares in reading order of a1, c1, e1, g1, b2, ... h8.
SQUARES: tuple[Square, ...] = tuple(
    square_at(f, r) for r in range(8) for f in range(8) if (f + r) % 2 == 0
)
BB_BOARD: Bitboard = sum(1 << s for s in SQUARES)
SQUARE_FILE: dict[Square, int] = {}
SQUARE_RANK: dict[Square, int] = {}
for _r in range(8):
    for _f in range(8):
        if (_f + _r) % 2 == 0:
            SQUARE_FILE[square_at(_f, _r)] = _f
            SQUARE_RANK[square_at(_f, _r)] = _r

BB_RANK: tuple[Bitboard, ...] = tuple(
    sum(1 << s for s in SQUARES if SQUARE_RANK[s] == r) for r in range(8)
)
#: Where each side's men are crowned.
BB_CROWN: tuple[Bitboard, Bitboard] = (BB_RANK[7], BB_RANK[0])

#: Steps in (file, rank) and their bit shifts: up-left, up-right, down-right, down-left.
_STEPS = ((-1, 1), (1, 1), (1, -1), (-1, -1))
DIRECTIONS: tuple[int, ...] = (4, 5, -4, -5)


def _ray(square: Square, step: tuple[int, int]) -> tuple[Square, ...]:
    f, r = SQUARE_FILE[square], SQUARE_RANK[square]
    out: list[Square] = []
    while True:
        f, r = f + step[0], r + step[1]
        if not (0 <= f < 8 and 0 <= r < 8):
            return tuple(out)
        out.append(square_at(f, r))


#: RAYS[square] is a tuple of four rays, one per direction, each the squares along it in order.
RAYS: dict[Square, tuple[tuple[Square, ...], ...]] = {
    s: tuple(_ray(s, st) for st in _STEPS) for s in SQUARES
}
#: JUMPS[square]: (over, landing) pairs for a man's capture, one per direction that fits.
JUMPS: dict[Square, tuple[tuple[Square, Square], ...]] = {
    s: tuple((r[0], r[1]) for r in rays if len(r) >= 2) for s, rays in RAYS.items()
}


#: Square names in the usual a1..h8 form.
SQUARE_NAMES: dict[Square, str] = {
    s: "abcdefgh"[SQUARE_FILE[s]] + str(SQUARE_RANK[s] + 1) for s in SQUARES
}
#: Index of each square in SQUARES (0 = a1 .. 31 = h8), as rule boards and tables count them.
SQUARE_INDEX: dict[Square, int] = {s: i for i, s in enumerate(SQUARES)}
SIDE_NAMES: tuple[str, str] = ("White", "Black")


def square_name(square: Square) -> str:
    return SQUARE_NAMES[square]


def side_name(side: Side) -> str:
    return SIDE_NAMES[side]


def dark_index(file: int, rank: int) -> int:
    """Index in SQUARES of the dark square on ``file``, ``rank`` (both counted from 0)."""
    return rank * 4 + file // 2


_MIRROR_SQUARE: dict[Square, Square] = {SQUARES[i]: SQUARES[31 - i] for i in range(32)}


def mirror_square(square: Square) -> Square:
    """The square turned 180 degrees: a1 <-> h8, c3 <-> f6 (bit ``s`` <-> bit ``35 - s``)."""
    return _MIRROR_SQUARE[square]


def mirror_bits(bb: Bitboard) -> Bitboard:
    """A bitboard turned 180 degrees: bit ``s`` goes to ``35 - s`` (ghost bits stay ghosts)."""
    return int(f"{bb:036b}"[::-1], 2)


def between(a: Square, b: Square) -> list[Square]:
    """The dark squares strictly between two squares on one diagonal, from ``a`` towards ``b``."""
    fa, ra, fb, rb = SQUARE_FILE[a], SQUARE_RANK[a], SQUARE_FILE[b], SQUARE_RANK[b]
    n = abs(fb - fa)
    df, dr = (fb - fa) // n, (rb - ra) // n
    return [SQUARES[dark_index(fa + k * df, ra + k * dr)] for k in range(1, n)]
