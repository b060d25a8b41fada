"""The geometry of the evaluation's features: bitboard masks made once at import, and the
few helpers that walk them (a runaway man's path, a capturable man, a king's reach).

:mod:`kbdraughts.eval.evaluation` computes the features with them, and hands the masks the C
features read to the native core by name (the layout is the schema's,
:data:`kbdraughts.eval.features.MASKS`). Black's masks are White's turned 180 degrees
(:func:`kbdraughts.squares.mirror_bits`), so a position and its colour-mirrored copy have the
same features for the side to move.

>>> bin(GOLDEN).count("1"), bin(CENTRE).count("1")
(2, 8)
"""

from __future__ import annotations

from typing import Iterable

from kbdraughts.board import (
    BB_BOARD, BB_RANK, SQUARE_FILE, SQUARE_RANK, SQUARES, WHITE, Side,
)
from kbdraughts.squares import mirror_bits, mirror_square, square_at

__all__ = [
    "ENDGAME_PIECES", "OPENING_PIECES", "CENTRE", "BACK_RANK", "GUARD", "GOLDEN", "MAIN_ROAD",
    "OUTPOST_RANKS", "LEFT", "DOUBLE_CORNER", "SYSTEM", "OFF", "RUNAWAY", "RUN_FROM",
    "runaway_men", "capturable", "passed_men", "opposition", "crown_steps", "king_reach",
]


#: At most this many pieces on the board: an endgame (men run, the centre matters less).
ENDGAME_PIECES = 8
#: At least this many pieces on the board: the opening (two exchanges at most from the start),
#: where a tempo spent is a tempo the opponent will have to answer.
OPENING_PIECES = 20


def _mask(squares: Iterable[int]) -> int:
    return sum(1 << s for s in squares)


_F, _R = SQUARE_FILE, SQUARE_RANK
#: c3-f6, the sixteen central squares (the same for both sides).
CENTRE = _mask(s for s in SQUARES if 2 <= _F[s] <= 5 and 2 <= _R[s] <= 5)
BACK_RANK = (BB_RANK[0], BB_RANK[7])
#: The back-rank guard: c1 and e1 for White (f8 and d8 for Black), the two men that keep an
#: enemy man from crowning on the middle squares of the back rank.
GUARD = (_mask([square_at(2, 0), square_at(4, 0)]),
         mirror_bits(_mask([square_at(2, 0), square_at(4, 0)])))
#: The golden squares, our choice: c5 and f4. For White c5 is a man wedged into Black's half
#: (a "stake", kolyshek) and f4 the strong square of its own; Black's mirror is f4 and c5,
#: the same two squares.
GOLDEN = _mask([square_at(2, 4), square_at(5, 3)])
#: The main road, the long diagonal a1-h8.
MAIN_ROAD = _mask(s for s in SQUARES if _F[s] == _R[s])
#: The 4th and 5th ranks (the same squares from either side), where a man is an outpost.
OUTPOST_RANKS = BB_RANK[3] | BB_RANK[4]
#: The two flanks, files a-d and e-h.
LEFT = _mask(s for s in SQUARES if _F[s] < 4)
#: The double corners, a7-b8 and g1-h2: a lone king there is hard to catch.
DOUBLE_CORNER = _mask([square_at(0, 6), square_at(1, 7), square_at(6, 0), square_at(7, 1)])
#: White's system for the opposition: the files a, c, e, g, whose dark squares start on
#: White's back rank (Black's are b, d, f, h).
SYSTEM = _mask(s for s in SQUARES if _F[s] % 2 == 0)
#: Bits outside the board (the ghost bits and beyond): an edge counts as a support.
OFF = ((1 << 45) - 1) & ~BB_BOARD
_SHIFTS = (4, 5)


def _path(square: int) -> int:
    """White's view: the forward cone of ``square`` up to the crown, every square a man
    starting there may pass."""
    f, r = _F[square], _R[square]
    return _mask(s for s in SQUARES if _R[s] > r and abs(_F[s] - f) <= _R[s] - r)


def _danger(square: int) -> int:
    """White's view: where an enemy man must stand to ever be next to a man running from
    ``square`` (enemy men only come down: the cone from one rank under, two files wider)."""
    f, r = _F[square], _R[square]
    return _mask(s for s in SQUARES
                 if s != square and _R[s] >= r - 1 and abs(_F[s] - f) <= _R[s] - r + 2)


def _runaway_masks() -> tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]]:
    """Per side and square: (the path to the crown, the danger zone)."""
    white = {s: (_path(s), _danger(s)) for s in SQUARES if 0 < _R[s] < 7}
    black = {mirror_square(s): (mirror_bits(p), mirror_bits(d)) for s, (p, d) in white.items()}
    return white, black


#: A man's path (its forward cone up to the crown) and its danger zone (where an enemy piece
#: could ever stand next to it on its way: rank r-1 up, files within rank distance + 2).
RUNAWAY = _runaway_masks()
#: The ranks a man of each side may run from: its 4th to 7th.
RUN_FROM = (BB_RANK[3] | BB_RANK[4] | BB_RANK[5] | BB_RANK[6],
             BB_RANK[1] | BB_RANK[2] | BB_RANK[3] | BB_RANK[4])


def runaway_men(men: int, side: Side, theirs: int, occupied: int, their_lead: int) -> int:
    """Men of ``side`` sure to crown: nothing on the path, no enemy piece in the danger zone
    and crowning before the opponent's fastest man (``their_lead``: steps it needs, less one
    when the opponent moves first). The opponent must have no king (the caller checks)."""
    n = 0
    zones = RUNAWAY[side]
    run = men & RUN_FROM[side]
    while run:
        b = run & -run
        run ^= b
        s = b.bit_length() - 1
        path, danger = zones[s]
        if not path & occupied and not danger & theirs:
            steps = 7 - _R[s] if side == WHITE else _R[s]
            if steps <= their_lead:
                n += 1
    return n


def capturable(targets: int, by: int, empty: int) -> int:
    """The ``targets`` a piece of ``by`` next to them could jump now (the square beyond
    empty), in any of the four directions: men take backwards too. A flying king's longer
    reach is the search's to see."""
    return targets & (((by >> 4) & (empty << 4)) | ((by >> 5) & (empty << 5))
                      | ((by << 4) & (empty >> 4)) | ((by << 5) & (empty >> 5)))


def passed_men(men: int, side: Side, theirs: int) -> int:
    """Men of ``side`` on its 4th rank or beyond with no enemy piece anywhere in their forward
    cone: nothing can ever stand in front of them (the defenders can only come from the
    side)."""
    zones = RUNAWAY[side]
    return sum(1 for s in range(36) if (men & RUN_FROM[side]) >> s & 1
               and not zones[s][0] & theirs)


def opposition(white: int, black: int, side: Side) -> int:
    """Who has the opposition ("the move") in an ending of men alone, as a player counts it:
    the side to move has it when the pieces on its own system (the files its back rank's
    squares stand on) are odd in number. 1 for White, -1 for Black."""
    system = SYSTEM if side == WHITE else BB_BOARD & ~SYSTEM
    mover_has = ((white | black) & system).bit_count() % 2 == 1
    return 1 if mover_has == (side == WHITE) else -1


def crown_steps(men: int, side: Side) -> int:
    """The fewest steps any man of ``side`` needs to crown (99 without men)."""
    if not men:
        return 99
    if side == WHITE:
        return 7 - _R[men.bit_length() - 1]
    return _R[(men & -men).bit_length() - 1]


def king_reach(kings: int, empty: int) -> int:
    """The empty squares the ``kings`` can slide to in one move, as a bitboard."""
    reach = 0
    for d in _SHIFTS:
        f = kings
        while f:
            f = (f << d) & empty
            reach |= f
        f = kings
        while f:
            f = (f >> d) & empty
            reach |= f
    return reach

