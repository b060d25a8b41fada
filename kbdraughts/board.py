"""The rules core of Russian draughts: bitboards, positions, moves and the move generator.

Squares are ints on a padded 36-bit board (see :mod:`kbdraughts.squares`, which owns the
geometry): every diagonal step is one constant shift, so whole sets of men move with one shift
and no edge masks. Nothing here works with strings, and nothing here prints.

>>> pos = START
>>> len(legal_moves(pos))
7
>>> perft(pos, 3)
302
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

from kbdraughts.squares import (  # noqa: F401 (re-exported: the core's vocabulary)
    BB_BOARD, BB_CROWN, BB_RANK, BLACK, DIRECTIONS, JUMPS, RAYS, SQUARE_FILE, SQUARE_RANK,
    SQUARES, WHITE, Bitboard, Side, Square, mirror_bits, square_at,
)

#: The squares a king's capture can be tried along: rays with room for a piece and a landing.
_CAPTURE_RAYS: dict[Square, tuple[tuple[Square, ...], ...]] = {
    s: tuple(r for r in rays if len(r) >= 2) for s, rays in RAYS.items()
}


class Position(NamedTuple):
    """A position: three bitboards and the side to move. Immutable and hashable."""

    white: Bitboard
    black: Bitboard
    kings: Bitboard
    side: Side

    def pieces(self, side: Side) -> Bitboard:
        return self.black if side else self.white

    def men(self, side: Side) -> Bitboard:
        return (self.black if side else self.white) & ~self.kings

    def kings_of(self, side: Side) -> Bitboard:
        return (self.black if side else self.white) & self.kings

    @property
    def occupied(self) -> Bitboard:
        return self.white | self.black

    def piece_at(self, square: Square) -> tuple[Side, bool] | None:
        """``(side, is_king)`` of the piece on ``square``, or None when it is empty."""
        b = 1 << square
        if self.white & b:
            return WHITE, bool(self.kings & b)
        if self.black & b:
            return BLACK, bool(self.kings & b)
        return None

    def counts(self) -> tuple[int, int, int, int]:
        """(white men, white kings, black men, black kings)."""
        k = self.kings
        return (
            (self.white & ~k).bit_count(),
            (self.white & k).bit_count(),
            (self.black & ~k).bit_count(),
            (self.black & k).bit_count(),
        )


class Move(NamedTuple):
    """A move: where it starts and ends, every landing square, what it takes, and a crowning.

    ``path`` lists the squares landed on after ``start``; its last one is ``end``. Two capture
    paths with the same start, end and taken set are the same move (only one is generated).
    """

    start: Square
    end: Square
    captured: Bitboard
    path: tuple[Square, ...]
    crowned: bool

    @property
    def is_capture(self) -> bool:
        return self.captured != 0


_new = tuple.__new__  # builds Move/Position without NamedTuple's slower __new__


def _position(white: int, black: int, kings: int, side: int) -> Position:
    return _new(Position, (white, black, kings, side))


START: Position = _position(
    BB_RANK[0] | BB_RANK[1] | BB_RANK[2], BB_RANK[5] | BB_RANK[6] | BB_RANK[7], 0, WHITE
)


def mirror_position(pos: Position) -> Position:
    """The position turned 180 degrees with colours (and the side to move) swapped: a rule or
    a term written for White reads Black's view of the board this way."""
    return Position(mirror_bits(pos.black), mirror_bits(pos.white), mirror_bits(pos.kings),
                    1 - pos.side)


def play(pos: Position, move: Move) -> Position:
    """The position after ``move`` (which must be legal in ``pos``)."""
    white, black, kings, side = pos
    sb = 1 << move.start
    eb = 1 << move.end
    cap = move.captured
    if cap:
        kings &= ~cap
    if kings & sb:
        kings = (kings & ~sb) | eb
    elif move.crowned:
        kings |= eb
    if side:
        return _new(Position, (white & ~cap, (black & ~sb) | eb, kings, 0))
    return _new(Position, ((white & ~sb) | eb, black & ~cap, kings, 1))


# --- captures -------------------------------------------------------------------------------


def _king_can_capture(sq: Square, opp: Bitboard, empty: Bitboard) -> bool:
    for ray in _CAPTURE_RAYS[sq]:
        n = len(ray) - 1
        i = 0
        while i < n and empty >> ray[i] & 1:
            i += 1
        if i < n and opp >> ray[i] & 1 and empty >> ray[i + 1] & 1:
            return True
    return False


def _king_captures(
    start: Square, sq: Square, opp: Bitboard, empty: Bitboard, taken: Bitboard,
    path: tuple[Square, ...], crowned: bool, out: dict,
) -> None:
    """Extend a king's capture from ``sq``. ``opp`` holds the opponents not yet taken; taken
    pieces are in neither ``opp`` nor ``empty``, so they block (Turkish strike)."""
    for ray in _CAPTURE_RAYS[sq]:
        n = len(ray)
        i = 0
        while i < n and empty >> ray[i] & 1:
            i += 1
        if i >= n - 1 or not opp >> ray[i] & 1:
            continue
        over = ray[i]
        i += 1
        landings = []
        while i < n and empty >> ray[i] & 1:
            landings.append(ray[i])
            i += 1
        if not landings:
            continue
        opp2 = opp & ~(1 << over)
        taken2 = taken | 1 << over
        going_on = [to for to in landings if _king_can_capture(to, opp2, empty)]
        if going_on:  # it must land where it can capture again
            for to in going_on:
                _king_captures(start, to, opp2, empty, taken2, path + (to,), crowned, out)
        else:
            for to in landings:
                key = (to, taken2)
                if key not in out:
                    out[key] = _new(Move, (start, to, taken2, path + (to,), crowned))


def _man_captures(
    start: Square, sq: Square, opp: Bitboard, empty: Bitboard, taken: Bitboard,
    path: tuple[Square, ...], crown: Bitboard, out: dict,
) -> bool:
    """Extend a man's capture from ``sq``; says whether it could take anything from there (when
    not, the caller's capture ends on ``sq``)."""
    found = False
    for over, land in JUMPS[sq]:
        if opp >> over & 1 and empty >> land & 1:
            found = True
            opp2 = opp & ~(1 << over)
            taken2 = taken | 1 << over
            path2 = path + (land,)
            if crown >> land & 1:  # crowned mid-capture: goes on as a king
                if _king_can_capture(land, opp2, empty):
                    _king_captures(start, land, opp2, empty, taken2, path2, True, out)
                    continue
                crowned = True
            elif _man_captures(start, land, opp2, empty, taken2, path2, crown, out):
                continue
            else:
                crowned = False
            key = (land, taken2)
            if key not in out:
                out[key] = _new(Move, (start, land, taken2, path2, crowned))
    return found


def _iter_bits(bb: Bitboard) -> Iterator[Square]:
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def _capturing_men(men: Bitboard, opp: Bitboard, empty: Bitboard) -> Bitboard:
    """The men that have a capture: an opponent next to them with an empty square beyond, in
    any of the four directions, found with shifts instead of a loop over squares."""
    return men & (
        (opp >> 4 & empty >> 8) | (opp >> 5 & empty >> 10)
        | (opp << 4 & empty << 8) | (opp << 5 & empty << 10)
    )


def captures(pos: Position) -> list[Move]:
    """Every capture of the side to move, one Move per distinct (start, end, taken set)."""
    white, black, kings, side = pos
    if side:
        own, opp = black, white
    else:
        own, opp = white, black
    empty = BB_BOARD & ~(white | black)
    capturers = _capturing_men(own & ~kings, opp, empty)
    own_kings = own & kings
    if not capturers and not own_kings:
        return []
    result: list[Move] = []
    if capturers:
        crown = BB_CROWN[side]
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            s = low.bit_length() - 1
            out: dict = {}
            _man_captures(s, s, opp, empty | low, 0, (), crown, out)
            result.extend(out.values())
    while own_kings:
        low = own_kings & -own_kings
        own_kings ^= low
        s = low.bit_length() - 1
        e = empty | low
        if _king_can_capture(s, opp, e):
            out = {}
            _king_captures(s, s, opp, e, 0, (), False, out)
            result.extend(out.values())
    return result


# --- quiet moves ----------------------------------------------------------------------------


def quiet_moves(pos: Position) -> list[Move]:
    """Every non-capturing move of the side to move (legal only when there is no capture)."""
    white, black, kings, side = pos
    empty = BB_BOARD & ~(white | black)
    own = black if side else white
    men = own & ~kings
    crown = BB_CROWN[side]
    result: list[Move] = []
    append = result.append
    for shift in (4, 5):
        if side:
            targets = (men >> shift) & empty
            back = shift
        else:
            targets = (men << shift) & empty
            back = -shift
        while targets:
            low = targets & -targets
            targets ^= low
            to = low.bit_length() - 1
            append(_new(Move, (to + back, to, 0, (to,), bool(crown & low))))
    for s in _iter_bits(own & kings):
        for ray in RAYS[s]:
            for to in ray:
                if not empty >> to & 1:
                    break
                append(_new(Move, (s, to, 0, (to,), False)))
    return result


def legal_moves(pos: Position) -> list[Move]:
    """All legal moves: the captures when there is one (capture is compulsory), else quiet moves.

    >>> from kbdraughts.notation import parse_fen, move_text
    >>> sorted(move_text(m) for m in legal_moves(parse_fen("W:WKa1:Bc3,e5")))
    ['a1:d4:f6', 'a1:d4:g7', 'a1:d4:h8']
    """
    return captures(pos) or quiet_moves(pos)


def _count_quiet(pos: Position) -> int:
    white, black, kings, side = pos
    empty = BB_BOARD & ~(white | black)
    own = black if side else white
    men = own & ~kings
    if side:
        n = ((men >> 4) & empty).bit_count() + ((men >> 5) & empty).bit_count()
    else:
        n = ((men << 4) & empty).bit_count() + ((men << 5) & empty).bit_count()
    for s in _iter_bits(own & kings):
        for ray in RAYS[s]:
            for to in ray:
                if not empty >> to & 1:
                    break
                n += 1
    return n


def count_moves(pos: Position) -> int:
    """``len(legal_moves(pos))`` without building the quiet moves: popcounts of shifted men."""
    caps = captures(pos)
    return len(caps) if caps else _count_quiet(pos)


def perft(pos: Position, depth: int) -> int:
    """The number of move sequences of ``depth`` plies (leaf nodes of the legal-move tree).

    It walks the tree with its own stack, not Python's, so any depth works (memory grows with
    the depth, time with the tree). Here each side has one move, a king's step to and fro:

    >>> from kbdraughts.notation import parse_fen
    >>> shuttle = "W:WKg1,f2,a3,c3,e3,g3,b4,d4,f4,h4:BKb8,c7,a5,c5,e5,g5,b6,d6,f6,h6"
    >>> perft(parse_fen(shuttle), 1100)
    1
    """
    if depth <= 2:
        if depth <= 1:
            return count_moves(pos) if depth == 1 else 1
        return sum(count_moves(play(pos, m)) for m in legal_moves(pos))
    total = 0
    # One iterator over the moves still to try per ply from the root down to depth - 3; the
    # last two plies are counted at once (count_moves), as most of the time is spent there.
    positions = [pos]
    pending = [iter(legal_moves(pos))]
    while pending:
        move = next(pending[-1], None)
        if move is None:
            pending.pop()
            positions.pop()
            continue
        child = play(positions[-1], move)
        if len(pending) == depth - 2:
            for m in legal_moves(child):
                total += count_moves(play(child, m))
        else:
            positions.append(child)
            pending.append(iter(legal_moves(child)))
    return total


def divide(pos: Position, depth: int) -> list[tuple[Move, int]]:
    """Each root move with the perft count below it."""
    return [(m, perft(play(pos, m), depth - 1)) for m in legal_moves(pos)]


# The native core's generator replaces the one above when it was built (kbdraughts.native):
# the functions above stay the reference, and tests hold the two equal.
from kbdraughts.native import core as _core  # noqa: E402

if _core is not None:
    _core.init(Move, Position)
    captures = _core.captures  # noqa: F811
    quiet_moves = _core.quiet_moves  # noqa: F811
    legal_moves = _core.legal_moves  # noqa: F811
    count_moves = _core.count_moves  # noqa: F811
    play = _core.play  # noqa: F811
    _pure_perft, _native_perft = perft, _core.perft

    def perft(pos: Position, depth: int) -> int:  # noqa: F811
        # The native perft keeps a move list a ply (16 KB): deeper trees walk in Python.
        return _native_perft(pos, depth) if depth <= 10_000 else _pure_perft(pos, depth)
