"""A position's features as a draughts player names them, computed with bitboard masks.

The evaluation runs at every leaf of the search, so each feature is a few shifts, ANDs and
popcounts of masks made once at import (no strings, no loop over squares; the only loops are
over a side's kings, over advanced men when the opponent has no king, and over the seven steps
of a king's slide). Each value is ours minus theirs from the side to move, in the order of
``kb.terms.POSITION_FEATURES``; ``combos/heuristic.txt`` explains each and weighs it. The
features that are sums over men (MEN_SUMS) the evaluation does not count one by one: it weighs
them together with :func:`men_tables` and asks :func:`other_features` for the rest.

Black's masks are White's turned 180 degrees (:func:`kbdraughts.squares.mirror_bits`), so a
position and its colour-mirrored copy have the same features for the side to move.

>>> from kbdraughts.board import START
>>> dict(zip(POSITION_FEATURES, position_features(START)))["blocked_men"]
0
"""

from __future__ import annotations

from kbdraughts.board import (
    BB_BOARD, BB_RANK, BLACK, SQUARE_FILE, SQUARE_RANK, SQUARES, WHITE, Position, Side,
)
from kbdraughts.eval.terms import POSITION_FEATURES
from kbdraughts.native import core as _core
from kbdraughts.squares import mirror_bits, mirror_square, square_at

__all__ = [
    "position_features", "white_features", "men_sums", "other_features", "men_tables",
    "man_values", "MEN_SUMS", "OTHERS", "ENDGAME", "runaway_men", "king_reach", "CENTRE",
    "BACK_RANK", "GUARD", "GOLDEN", "MAIN_ROAD", "OUTPOST_RANKS", "ENDGAME_PIECES",
    "OPENING_PIECES", "DOUBLE_CORNER", "SYSTEM", "POSITION_FEATURES", "capturable",
    "passed_men", "opposition", "OPENING",
]

#: At most this many pieces on the board: an endgame (men run, the centre matters less).
ENDGAME_PIECES = 8
#: At least this many pieces on the board: the opening (two exchanges at most from the start),
#: where a tempo spent is a tempo the opponent will have to answer.
OPENING_PIECES = 20


def _mask(squares) -> int:
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
_LEFT = _mask(s for s in SQUARES if _F[s] < 4)
#: The double corners, a7-b8 and g1-h2: a lone king there is hard to catch.
DOUBLE_CORNER = _mask([square_at(0, 6), square_at(1, 7), square_at(6, 0), square_at(7, 1)])
#: White's system for the opposition: the files a, c, e, g, whose dark squares start on
#: White's back rank (Black's are b, d, f, h).
SYSTEM = _mask(s for s in SQUARES if _F[s] % 2 == 0)
#: Bits outside the board (the ghost bits and beyond): an edge counts as a support.
_OFF = ((1 << 45) - 1) & ~BB_BOARD
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
_RUN_FROM = (BB_RANK[3] | BB_RANK[4] | BB_RANK[5] | BB_RANK[6],
             BB_RANK[1] | BB_RANK[2] | BB_RANK[3] | BB_RANK[4])


def runaway_men(men: int, side: Side, theirs: int, occupied: int, their_lead: int) -> int:
    """Men of ``side`` sure to crown: nothing on the path, no enemy piece in the danger zone
    and crowning before the opponent's fastest man (``their_lead``: steps it needs, less one
    when the opponent moves first). The opponent must have no king (the caller checks)."""
    n = 0
    zones = RUNAWAY[side]
    run = men & _RUN_FROM[side]
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
    return sum(1 for s in range(36) if (men & _RUN_FROM[side]) >> s & 1
               and not zones[s][0] & theirs)


def opposition(white: int, black: int, side: Side) -> int:
    """Who has the opposition ("the move") in an ending of men alone, as a player counts it:
    the side to move has it when the pieces on its own system (the files its back rank's
    squares stand on) are odd in number. 1 for White, -1 for Black."""
    system = SYSTEM if side == WHITE else BB_BOARD & ~SYSTEM
    mover_has = ((white | black) & system).bit_count() % 2 == 1
    return 1 if mover_has == (side == WHITE) else -1


def _crown_steps(men: int, side: Side) -> int:
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


def _tempo_tables(side: Side) -> tuple[tuple[int, ...], ...]:
    """Per 9-bit slice of a bitboard, the ranks (from ``side``'s back rank) of its men added
    up: four look-ups give a side's tempo."""
    tables = []
    for i in range(4):
        weight = [0] * 9  # each bit's rank; ghost bits weigh nothing
        for s in SQUARES:
            if 9 * i <= s < 9 * i + 9:
                weight[s - 9 * i] = _R[s] if side == WHITE else 7 - _R[s]
        table = [0] * 512
        for b in range(1, 512):
            low = b & -b
            table[b] = table[b ^ low] + weight[low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)

_TEMPO = (_tempo_tables(WHITE), _tempo_tables(BLACK))


def tempo(men: int, side: Side) -> int:
    """The ranks of ``side``'s ``men`` added up, from its own back rank (rank 1 counts 0)."""
    t0, t1, t2, t3 = _TEMPO[side]
    return t0[men & 511] + t1[men >> 9 & 511] + t2[men >> 18 & 511] + t3[men >> 27]

#: The features that are a sum over a side's men of a value per square (ours less theirs):
#: the evaluation weighs them all at once with tables per 9-bit slice (:func:`men_tables`).
MEN_SUMS: tuple[str, ...] = ("centre_men", "back_men", "man_ranks", "back_guard", "golden",
                             "men")
#: The others, in the order :func:`other_features` gives them.
OTHERS: tuple[str, ...] = tuple(f for f in POSITION_FEATURES if f not in MEN_SUMS)


def man_values(square: int, side: Side) -> tuple[int, ...]:
    """The values of MEN_SUMS one man of ``side`` on ``square`` adds for that side."""
    b = 1 << square
    return (
        1 if CENTRE & b else 0,
        1 if BACK_RANK[side] & b else 0,
        _R[square] if side == WHITE else 7 - _R[square],
        1 if GUARD[side] & b else 0,
        1 if GOLDEN & b else 0,
        1,
    )


def men_tables(weights: tuple[float, ...], side: Side) -> tuple[tuple[float, ...], ...]:
    """Per 9-bit slice of a bitboard, the weighted MEN_SUMS of ``side``'s men on it added up
    (``weights`` in MEN_SUMS' order): four look-ups weigh them all.

    >>> from kbdraughts.board import START
    >>> t = men_tables((0, 0, 1, 0, 0, 0), WHITE)  # man_ranks alone: the tempo
    >>> men = START.white
    >>> t[0][men & 511] + t[1][men >> 9 & 511] + t[2][men >> 18 & 511] + t[3][men >> 27]
    12.0
    >>> tempo(men, WHITE)
    12
    """
    per_square = [0.0] * 36
    for s in SQUARES:
        per_square[s] = sum(w * v for w, v in zip(weights, man_values(s, side)) if w)
    tables = []
    for i in range(4):
        table = [0.0] * 512
        for bits in range(1, 512):
            low = bits & -bits
            sq = 9 * i + low.bit_length() - 1
            table[bits] = table[bits ^ low] + (per_square[sq] if sq < 36 else 0.0)
        tables.append(tuple(table))
    return tuple(tables)


def men_sums(pos: Position) -> tuple[int, ...]:
    """The values of MEN_SUMS from White's side (White's less Black's)."""
    white, black, kings, _ = pos
    wm, bm = white & ~kings, black & ~kings
    return (
        (wm & CENTRE).bit_count() - (bm & CENTRE).bit_count(),
        (wm & BACK_RANK[WHITE]).bit_count() - (bm & BACK_RANK[BLACK]).bit_count(),
        tempo(wm, WHITE) - tempo(bm, BLACK),
        (wm & GUARD[WHITE]).bit_count() - (bm & GUARD[BLACK]).bit_count(),
        (wm & GOLDEN).bit_count() - (bm & GOLDEN).bit_count(),
        wm.bit_count() - bm.bit_count(),
    )


def other_features(pos: Position) -> tuple[int, ...]:
    """The values of OTHERS from White's side (White's less Black's; ``endgame`` is the same
    for both)."""
    white, black, kings, us = pos
    wm, bm = white & ~kings, black & ~kings
    occupied = white | black
    empty = BB_BOARD & ~occupied
    free = empty | _OFF
    # Runaway men (only against a side without kings): those whose two steps ahead are free
    # are looked at one by one.
    run = 0
    if not black & kings:
        cand = wm & _RUN_FROM[WHITE] & (free >> 4) & (free >> 5)
        if cand:
            lead = _crown_steps(bm, BLACK) - us
            run = runaway_men(cand, WHITE, black, occupied, lead)
    if not white & kings:
        cand = bm & _RUN_FROM[BLACK] & (free << 4) & (free << 5)
        if cand:
            lead = _crown_steps(wm, WHITE) - 1 + us
            run -= runaway_men(cand, BLACK, white, occupied, lead)
    # Men held by the opponent: no step forward and an enemy piece ahead (a man behind its
    # own men is not locked). Outposts: men on the 4th/5th rank with both squares behind them
    # held by their own pieces or the edge.
    blocked = ((wm & ~((empty >> 4) | (empty >> 5)) & ((black >> 4) | (black >> 5))).bit_count()
               - (bm & ~((empty << 4) | (empty << 5)) & ((white << 4) | (white << 5))
                  ).bit_count())
    wf, bf = white | _OFF, black | _OFF
    outposts = ((wm & OUTPOST_RANKS & (wf << 4) & (wf << 5)).bit_count()
                - (bm & OUTPOST_RANKS & (bf >> 4) & (bf >> 5)).bit_count())
    nk = mobility = road = 0
    if kings:
        wk, bk = white & kings, black & kings
        nk = wk.bit_count() - bk.bit_count()
        mobility = king_reach(wk, empty).bit_count() - king_reach(bk, empty).bit_count()
        # The main road counts for the side with fewer pieces: a king there holds a draw
        # against three kings (with as many pieces as theirs, it decides nothing).
        nw, nb = white.bit_count(), black.bit_count()
        road = (nw < nb and bool(wk & MAIN_ROAD)) - (nb < nw and bool(bk & MAIN_ROAD))
    flanks = (abs(2 * (wm & _LEFT).bit_count() - wm.bit_count())
              - abs(2 * (bm & _LEFT).bit_count() - bm.bit_count()))
    pieces = occupied.bit_count()
    endgame = 1 if pieces <= ENDGAME_PIECES else 0
    opening = 1 if pieces >= OPENING_PIECES else 0
    hanging = capturable(wm, black, empty).bit_count() - capturable(bm, white, empty).bit_count()
    passed = passed_men(wm, WHITE, black) - passed_men(bm, BLACK, white)
    # The opposition decides endings of men alone with as many on each side.
    opp = (opposition(white, black, us)
           if not kings and wm.bit_count() == bm.bit_count() else 0)
    corner = 0
    if kings:
        nw, nb = white.bit_count(), black.bit_count()
        corner = ((nw < nb and bool(white & kings & DOUBLE_CORNER))
                  - (nb < nw and bool(black & kings & DOUBLE_CORNER)))
    return (nk, endgame, run, blocked, outposts, mobility, road, flanks, opening, hanging, opp,
            passed, corner)


def _native_masks() -> tuple:
    """The masks above as the native core takes them (``_core.set_masks``): the features'
    geometry stays written once, here."""
    paths, dangers = (tuple(tuple(RUNAWAY[side].get(s, (0, 0))[k] for s in range(36))
                            for side in (WHITE, BLACK)) for k in (0, 1))
    return (CENTRE, BACK_RANK, GUARD, GOLDEN, MAIN_ROAD, OUTPOST_RANKS, _LEFT, _OFF, _RUN_FROM,
            paths, dangers, DOUBLE_CORNER, SYSTEM)


# The native core's features replace the two functions above when it was built: the same
# numbers in the same order (tests compare them on random positions), many times faster.
if _core is not None:
    _core.set_masks(*_native_masks())
    men_sums = _core.men_sums  # noqa: F811
    other_features = _core.other_features  # noqa: F811

#: Where each feature of POSITION_FEATURES comes from: (0, i) the i-th of MEN_SUMS, (1, i)
#: the i-th of OTHERS.
_SOURCE = tuple((0, MEN_SUMS.index(f)) if f in MEN_SUMS else (1, OTHERS.index(f))
                for f in POSITION_FEATURES)


def white_features(pos: Position) -> tuple[int, ...]:
    """The values of POSITION_FEATURES from White's side (White's less Black's; ``endgame``
    is the same for both): the evaluation turns the sum, not each value."""
    parts = (men_sums(pos), other_features(pos))
    return tuple(parts[k][i] for k, i in _SOURCE)


#: Where ``endgame`` and ``opening`` (the phases: not differences, the same for both sides)
#: stand in POSITION_FEATURES.
ENDGAME = POSITION_FEATURES.index("endgame")
OPENING = POSITION_FEATURES.index("opening")


def position_features(pos: Position) -> tuple[int, ...]:
    """The values of POSITION_FEATURES: ours minus theirs, from the side to move."""
    values = white_features(pos)
    if pos.side == WHITE:
        return values
    return tuple(v if i in (ENDGAME, OPENING) else -v for i, v in enumerate(values))
