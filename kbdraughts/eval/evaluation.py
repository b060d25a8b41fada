"""A position's features as a draughts player names them, computed with bitboard masks.

The evaluation runs at every leaf of the search, so each feature is a few shifts, ANDs and
popcounts of masks made once at import (:mod:`kbdraughts.eval.masks`: no strings, no loop over
squares; the only loops are over a side's kings, over advanced men when the opponent has no
king, and over the seven steps of a king's slide). Each value is ours minus theirs from the
side to move, in the order of the schema (:mod:`kbdraughts.eval.features`);
``combos/heuristic.txt`` explains each and weighs it.

Each feature is one function here, under ``@computes(NAME)``: a sum over men (MEN_SUMS) gives
its value for one man, and the evaluation weighs them for all men at once with
:func:`men_tables`; any other gives its value from White's side, and :func:`other_features`
gives them in the schema's order. The native core's twins replace :func:`men_sums` and
:func:`other_features` when it was built.

>>> from kbdraughts.board import START
>>> dict(zip(POSITION_FEATURES, position_features(START)))["blocked_men"]
0
"""

from __future__ import annotations

from typing import Callable

from kbdraughts.board import (
    BB_BOARD, BLACK, SQUARE_FILE, SQUARE_RANK, SQUARES, WHITE, Position, Side,
)
from kbdraughts.eval.features import (
    MASKS as LAYOUT_MASKS, MEN_SUMS, OTHERS, POSITION_FEATURES, SCHEMA, Kind,
)
from kbdraughts.eval.masks import (
    BACK_RANK, CENTRE, DOUBLE_CORNER, ENDGAME_PIECES, GOLDEN, GUARD, LEFT, MAIN_ROAD, OFF,
    OPENING_PIECES, OUTPOST_RANKS, RUN_FROM, RUNAWAY, SYSTEM, capturable, crown_steps,
    king_reach, opposition, passed_men, runaway_men,
)
from kbdraughts.native import core as _core

__all__ = [
    "position_features", "white_features", "men_sums", "other_features", "men_tables",
    "man_values", "MEN_SUMS", "OTHERS", "ENDGAME", "OPENING", "POSITION_FEATURES", "computes",
    # the masks, also importable from here
    "CENTRE", "BACK_RANK", "ENDGAME_PIECES",
]

_R = SQUARE_RANK

# --- the features: one function each, under @computes(NAME) --------------------------------

_FUNCTIONS: dict[str, Callable[..., int]] = {}


def computes(name: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Marks the function that computes the schema's feature ``name``: for a sum over men
    ``(square, side) -> value of one man``, for any other ``(white, black, kings, us, empty)
    -> White's value less Black's``."""
    def mark(function: Callable[..., int]) -> Callable[..., int]:
        if name in _FUNCTIONS:
            raise ValueError(f"two functions compute the feature {name!r}")
        _FUNCTIONS[name] = function
        return function
    return mark


@computes("centre_men")
def _centre_man(square: int, side: Side) -> int:
    return CENTRE >> square & 1


@computes("back_men")
def _back_man(square: int, side: Side) -> int:
    return BACK_RANK[side] >> square & 1


@computes("man_ranks")
def _man_rank(square: int, side: Side) -> int:
    return _R[square] if side == WHITE else 7 - _R[square]


@computes("back_guard")
def _back_guard(square: int, side: Side) -> int:
    return GUARD[side] >> square & 1


@computes("golden")
def _golden(square: int, side: Side) -> int:
    return GOLDEN >> square & 1


@computes("men")
def _man(square: int, side: Side) -> int:
    return 1


@computes("kings")
def _kings(white: int, black: int, kings: int, us: int, empty: int) -> int:
    return (white & kings).bit_count() - (black & kings).bit_count()


@computes("endgame")
def _endgame(white: int, black: int, kings: int, us: int, empty: int) -> int:
    return 1 if (white | black).bit_count() <= ENDGAME_PIECES else 0


@computes("opening")
def _opening(white: int, black: int, kings: int, us: int, empty: int) -> int:
    return 1 if (white | black).bit_count() >= OPENING_PIECES else 0


@computes("runaway")
def _runaway(white: int, black: int, kings: int, us: int, empty: int) -> int:
    # Only against a side without kings; the men whose two steps ahead are free are looked
    # at one by one.
    wm, bm, occupied, free = white & ~kings, black & ~kings, white | black, empty | OFF
    run = 0
    if not black & kings:
        cand = wm & RUN_FROM[WHITE] & (free >> 4) & (free >> 5)
        if cand:
            run = runaway_men(cand, WHITE, black, occupied, crown_steps(bm, BLACK) - us)
    if not white & kings:
        cand = bm & RUN_FROM[BLACK] & (free << 4) & (free << 5)
        if cand:
            run -= runaway_men(cand, BLACK, white, occupied, crown_steps(wm, WHITE) - 1 + us)
    return run


@computes("blocked_men")
def _blocked_men(white: int, black: int, kings: int, us: int, empty: int) -> int:
    # No step forward and an enemy piece ahead (a man behind its own men is not locked).
    wm, bm = white & ~kings, black & ~kings
    return ((wm & ~((empty >> 4) | (empty >> 5)) & ((black >> 4) | (black >> 5))).bit_count()
            - (bm & ~((empty << 4) | (empty << 5)) & ((white << 4) | (white << 5))).bit_count())


@computes("outposts")
def _outposts(white: int, black: int, kings: int, us: int, empty: int) -> int:
    # Men on the 4th/5th rank with both squares behind them held by their own pieces or the
    # edge.
    wf, bf = white | OFF, black | OFF
    return ((white & ~kings & OUTPOST_RANKS & (wf << 4) & (wf << 5)).bit_count()
            - (black & ~kings & OUTPOST_RANKS & (bf >> 4) & (bf >> 5)).bit_count())


@computes("king_mobility")
def _king_mobility(white: int, black: int, kings: int, us: int, empty: int) -> int:
    if not kings:
        return 0
    return (king_reach(white & kings, empty).bit_count()
            - king_reach(black & kings, empty).bit_count())


def _weaker_king_on(white: int, black: int, kings: int, where: int) -> int:
    """A king of the side with fewer pieces on ``where``: with as many pieces as theirs it
    decides nothing."""
    if not kings:
        return 0
    nw, nb = white.bit_count(), black.bit_count()
    return (nw < nb and bool(white & kings & where)) - (nb < nw and bool(black & kings & where))


@computes("main_road")
def _main_road(white: int, black: int, kings: int, us: int, empty: int) -> int:
    # A king there holds a draw against three kings.
    return _weaker_king_on(white, black, kings, MAIN_ROAD)


@computes("double_corner")
def _double_corner(white: int, black: int, kings: int, us: int, empty: int) -> int:
    return _weaker_king_on(white, black, kings, DOUBLE_CORNER)


@computes("flank_imbalance")
def _flank_imbalance(white: int, black: int, kings: int, us: int, empty: int) -> int:
    wm, bm = white & ~kings, black & ~kings
    return (abs(2 * (wm & LEFT).bit_count() - wm.bit_count())
            - abs(2 * (bm & LEFT).bit_count() - bm.bit_count()))


@computes("hanging")
def _hanging(white: int, black: int, kings: int, us: int, empty: int) -> int:
    return (capturable(white & ~kings, black, empty).bit_count()
            - capturable(black & ~kings, white, empty).bit_count())


@computes("opposition")
def _opposition(white: int, black: int, kings: int, us: int, empty: int) -> int:
    # It decides endings of men alone with as many on each side.
    if kings or white.bit_count() != black.bit_count():
        return 0
    return opposition(white, black, us)


@computes("passed_men")
def _passed_men(white: int, black: int, kings: int, us: int, empty: int) -> int:
    return passed_men(white & ~kings, WHITE, black) - passed_men(black & ~kings, BLACK, white)


def _functions() -> tuple[tuple[Callable[..., int], ...], tuple[Callable[..., int], ...]]:
    """The functions of MEN_SUMS and of OTHERS in the schema's order; an ImportError names a
    feature without one (or a function of no feature)."""
    missing = [f.name for f in SCHEMA if f.name not in _FUNCTIONS]
    extra = sorted(set(_FUNCTIONS) - set(POSITION_FEATURES))
    if missing or extra:
        raise ImportError(f"eval/evaluation.py: no @computes function for {missing} "
                          f"(the schema, eval/features.py), or one for no feature: {extra}")
    return tuple(_FUNCTIONS[n] for n in MEN_SUMS), tuple(_FUNCTIONS[n] for n in OTHERS)


_MAN_FUNCTIONS, _OTHER_FUNCTIONS = _functions()


def man_values(square: int, side: Side) -> tuple[int, ...]:
    """The values of MEN_SUMS one man of ``side`` on ``square`` adds for that side."""
    return tuple(f(square, side) for f in _MAN_FUNCTIONS)


def _slice_tables(side: Side) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per 9-bit slice of a bitboard, the MEN_SUMS of ``side``'s men on it added up."""
    zero = (0,) * len(MEN_SUMS)
    per_square = [man_values(s, side) if s in SQUARE_FILE else zero for s in range(36)]
    tables = []
    for i in range(4):
        table = [zero] * 512
        for bits in range(1, 512):
            low = bits & -bits
            sq = 9 * i + low.bit_length() - 1
            add = per_square[sq] if sq < 36 else zero
            table[bits] = tuple(map(int.__add__, table[bits ^ low], add))
        tables.append(tuple(table))
    return tuple(tables)


_MEN_SUM_TABLES = (_slice_tables(WHITE), _slice_tables(BLACK))


def men_tables(weights: tuple[int, ...], side: Side) -> tuple[tuple[int, ...], ...]:
    """Per 9-bit slice of a bitboard, the weighted MEN_SUMS of ``side``'s men on it added up
    (``weights`` in MEN_SUMS' order, whole numbers: the evaluation's hundredths): four
    look-ups weigh them all.

    >>> from kbdraughts.board import START
    >>> t = men_tables((0, 0, 1, 0, 0, 0), WHITE)  # man_ranks alone: the tempo
    >>> men = START.white
    >>> t[0][men & 511] + t[1][men >> 9 & 511] + t[2][men >> 18 & 511] + t[3][men >> 27]
    12
    """
    per_square = [0] * 36
    for s in SQUARES:
        per_square[s] = sum(w * v for w, v in zip(weights, man_values(s, side)) if w)
    tables = []
    for i in range(4):
        table = [0] * 512
        for bits in range(1, 512):
            low = bits & -bits
            sq = 9 * i + low.bit_length() - 1
            table[bits] = table[bits ^ low] + (per_square[sq] if sq < 36 else 0)
        tables.append(tuple(table))
    return tuple(tables)


def _difference(a: int, b: int, c: int, d: int, e: int, f: int, g: int, h: int) -> int:
    return a + b + c + d - e - f - g - h


def men_sums(pos: Position) -> tuple[int, ...]:
    """The values of MEN_SUMS from White's side (White's less Black's)."""
    white, black, kings, _ = pos
    wm, bm = white & ~kings, black & ~kings
    (w0, w1, w2, w3), (b0, b1, b2, b3) = _MEN_SUM_TABLES
    return tuple(map(_difference, w0[wm & 511], w1[wm >> 9 & 511], w2[wm >> 18 & 511],
                     w3[wm >> 27], b0[bm & 511], b1[bm >> 9 & 511], b2[bm >> 18 & 511],
                     b3[bm >> 27]))


def other_features(pos: Position) -> tuple[int, ...]:
    """The values of OTHERS from White's side (White's less Black's; a phase is the same for
    both)."""
    white, black, kings, us = pos
    empty = BB_BOARD & ~(white | black)
    return tuple([f(white, black, kings, us, empty) for f in _OTHER_FUNCTIONS])


def _native_masks() -> dict[str, object]:
    """The masks above as the native core takes them (``_core.set_masks``), by the names of
    the schema's MASKS: the features' geometry stays written once, here."""
    paths, dangers = (tuple(tuple(RUNAWAY[side].get(s, (0, 0))[k] for s in range(36))
                            for side in (WHITE, BLACK)) for k in (0, 1))
    zero = (0,) * len(MEN_SUMS)
    values = tuple(tuple(man_values(s, side) if s in SQUARE_FILE else zero for s in range(36))
                   for side in (WHITE, BLACK))
    masks: dict[str, object] = {
        "main_road": MAIN_ROAD, "outposts": OUTPOST_RANKS, "left": LEFT, "off": OFF,
        "double_corner": DOUBLE_CORNER, "system": SYSTEM, "run_from": RUN_FROM,
        "run_path": paths, "run_danger": dangers, "man_values": values}
    assert list(masks) == [m.name for m in LAYOUT_MASKS], "eval/features.py's MASKS"
    return masks


# The native core's features replace the two functions above when it was built: the same
# numbers in the same order (tests compare them on random positions), many times faster.
if _core is not None:
    _core.set_masks(_native_masks())
    men_sums = _core.men_sums  # noqa: F811
    other_features = _core.other_features  # noqa: F811

#: Where each feature of POSITION_FEATURES comes from: (0, i) the i-th of MEN_SUMS, (1, i)
#: the i-th of OTHERS.
_SOURCE = tuple((0, MEN_SUMS.index(f)) if f in MEN_SUMS else (1, OTHERS.index(f))
                for f in POSITION_FEATURES)


def white_features(pos: Position) -> tuple[int, ...]:
    """The values of POSITION_FEATURES from White's side (White's less Black's; a phase is
    the same for both): the evaluation turns the sum, not each value."""
    parts = (men_sums(pos), other_features(pos))
    return tuple(parts[k][i] for k, i in _SOURCE)


#: Where ``endgame`` and ``opening`` stand in POSITION_FEATURES.
ENDGAME = POSITION_FEATURES.index("endgame")
OPENING = POSITION_FEATURES.index("opening")
#: The features not turned for Black: the phases and conditions, the same for both sides.
_SAME_FOR_BOTH = frozenset(i for i, f in enumerate(SCHEMA)
                           if f.kind in (Kind.PHASE, Kind.CONDITION))


def position_features(pos: Position) -> tuple[int, ...]:
    """The values of POSITION_FEATURES: ours minus theirs, from the side to move."""
    values = white_features(pos)
    if pos.side == WHITE:
        return values
    return tuple(v if i in _SAME_FOR_BOTH else -v for i, v in enumerate(values))
