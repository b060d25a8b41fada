"""The index of an endgame table: every position of one material as a number, and back.

A material is the counts (white men, white kings, black men, black kings); its table holds both
sides to move, White's half first. Within a half the index is a combinatorial ranking (no
position is stored, no number is wasted):

1. White's men on the 28 squares off rank 8, split by ``j``, the number of them on rank 1 (the
   only squares Black's men can never share with them); each ``j`` is a block of
   ``C(4, j) * C(24, wm - j) * C(28 - (wm - j), bm)`` numbers;
2. Black's men on the squares off rank 1 that White's men leave free;
3. White's kings on the squares the men leave free, then Black's kings on the rest.

Each set is ranked in colex order over the squares still free (the combinatorial number
system). ``kbdraughts/csrc/egdb.c`` has the same ranking in C; the tests hold them equal.
Squares here are dark indices 0 (a1) .. 31 (h8), a 32-bit mask; :func:`to_dark` and
:func:`to_padded` convert from and to the board's padded bitboards.

>>> from kbdraughts.notation import parse_fen
>>> pos = parse_fen("W:WKc3:Bf6,Kh8")
>>> m = material_of(pos)
>>> m, size(m)
(Material(wm=0, wk=1, bm=1, bk=1), 52080)
>>> unrank(m, rank(pos)) == pos
True
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

from kbdraughts.board import BLACK, WHITE, Bitboard, Position

#: The most pieces a table holds (the counts fit the C's tables and a byte of the header).
MAX_PIECES = 5

_ALL = 0xFFFFFFFF
_RANK1 = 0x0000000F
_RANK8 = 0xF0000000
_MIDDLE = _ALL & ~_RANK1 & ~_RANK8  # where both sides' men may stand
_BLACK_MEN = _ALL & ~_RANK1


class Material(NamedTuple):
    """The counts of a table: white men, white kings, black men, black kings."""

    wm: int
    wk: int
    bm: int
    bk: int

    @property
    def pieces(self) -> int:
        return self.wm + self.wk + self.bm + self.bk

    @property
    def name(self) -> str:
        """The file name's stem, ``w0m2k-b0m1k`` for two white kings against a black king."""
        return f"w{self.wm}m{self.wk}k-b{self.bm}m{self.bk}k"

    def words(self) -> str:
        """``2 kings v 1 king``, White's side first."""
        return f"{_side_words(self.wm, self.wk)} v {_side_words(self.bm, self.bk)}"

    def mirrored(self) -> Material:
        """The same material with the colours swapped."""
        return Material(self.bm, self.bk, self.wm, self.wk)


def _side_words(men: int, kings: int) -> str:
    parts = [f"{n} {word}{'s' if n > 1 else ''}" for n, word in ((kings, "king"), (men, "man"))
             if n]
    return " and ".join(parts).replace("mans", "men")


def material_of(pos: Position) -> Material:
    wm, wk, bm, bk = pos.counts()
    return Material(wm, wk, bm, bk)


def covers(pos: Position) -> bool:
    """Whether ``pos`` belongs in some table: each side has a piece, at most MAX_PIECES, and no
    man stands on the rank where it would have been crowned."""
    dark_w, dark_b, dark_k = to_dark(pos.white), to_dark(pos.black), to_dark(pos.kings)
    return (bool(pos.white) and bool(pos.black)
            and (pos.white | pos.black).bit_count() <= MAX_PIECES
            and not dark_w & ~dark_k & _RANK8 and not dark_b & ~dark_k & _RANK1)


def materials(pieces: int) -> list[Material]:
    """Every material of 2..``pieces`` pieces with a piece on each side, in build order: fewer
    pieces first (a capture leads there), then fewer men (a crowning leads there)."""
    out = []
    for n in range(2, pieces + 1):
        for white in range(1, n):
            black = n - white
            out += [Material(wm, white - wm, bm, black - bm)
                    for wm in range(white + 1) for bm in range(black + 1)]
    return sorted(out, key=lambda m: (m.pieces, m.wm + m.bm, m))


# --- the padded board and dark indices -------------------------------------------------------


def to_dark(bb: Bitboard) -> int:
    """A padded bitboard (ghost bits 4, 13, 22, 31) as a 32-bit mask of dark indices."""
    return ((bb & 0xF) | (bb >> 1 & 0xFF0) | (bb >> 2 & 0xFF000) | (bb >> 3 & 0xFF00000)
            | (bb >> 4 & 0xF0000000))


def to_padded(dark: int) -> Bitboard:
    """The inverse of :func:`to_dark`.

    >>> to_padded(to_dark(0xF7FBFDFEF)) == 0xF7FBFDFEF
    True
    """
    return ((dark & 0xF) | (dark & 0xFF0) << 1 | (dark & 0xFF000) << 2
            | (dark & 0xFF00000) << 3 | (dark & 0xF0000000) << 4)


# --- ranking sets ----------------------------------------------------------------------------


def rank_set(chosen: int, free: int) -> int:
    """The colex rank of the squares ``chosen`` among the squares ``free`` (both masks).

    >>> [rank_set(s, 0b1111) for s in (0b0011, 0b0101, 0b0110, 0b1001)]
    [0, 1, 2, 3]
    """
    r, i = 0, 1
    while chosen:
        low = chosen & -chosen
        r += comb((free & (low - 1)).bit_count(), i)
        i += 1
        chosen ^= low
    return r


def unrank_set(r: int, k: int, free: int) -> int:
    """The ``k`` squares of rank ``r`` among ``free``: the inverse of :func:`rank_set`."""
    squares = [s for s in range(32) if free >> s & 1]
    chosen = 0
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= r:
            c += 1
        r -= comb(c, i)
        chosen |= 1 << squares[c]
    return chosen


# --- the table's index -----------------------------------------------------------------------


def _block(m: Material, j: int) -> int:
    """How many placements of the men have ``j`` white men on rank 1."""
    return comb(4, j) * comb(24, m.wm - j) * comb(28 - (m.wm - j), m.bm)


def _kings(m: Material) -> tuple[int, int]:
    free = 32 - m.wm - m.bm
    return comb(free, m.wk), comb(free - m.wk, m.bk)


def half(m: Material) -> int:
    """The positions of one side to move."""
    kw, kb = _kings(m)
    return sum(_block(m, j) for j in range(min(4, m.wm) + 1)) * kw * kb


def size(m: Material) -> int:
    """The positions of the table, both sides to move."""
    return 2 * half(m)


def rank(pos: Position) -> int:
    """The index of ``pos`` in its material's table (:func:`covers` must hold)."""
    m = material_of(pos)
    w, b, k = to_dark(pos.white), to_dark(pos.black), to_dark(pos.kings)
    wmen, bmen = w & ~k, b & ~k
    j = (wmen & _RANK1).bit_count()
    wk_free = _ALL & ~wmen & ~bmen
    men = ((rank_set(wmen & _RANK1, _RANK1) * comb(24, m.wm - j)
            + rank_set(wmen & _MIDDLE, _MIDDLE)) * comb(28 - (m.wm - j), m.bm)
           + rank_set(bmen, _BLACK_MEN & ~wmen))
    men += sum(_block(m, i) for i in range(j))
    kw, kb = _kings(m)
    kings = rank_set(w & k, wk_free) * kb + rank_set(b & k, wk_free & ~(w & k))
    return pos.side * half(m) + men * kw * kb + kings


def unrank(m: Material, index: int) -> Position:
    """The position numbered ``index`` in ``m``'s table: the inverse of :func:`rank`."""
    side, r = divmod(index, half(m))
    kw, kb = _kings(m)
    men, kings = divmod(r, kw * kb)
    j = 0
    while men >= _block(m, j):
        men -= _block(m, j)
        j += 1
    high_n, blacks = divmod(men, comb(28 - (m.wm - j), m.bm))
    low_r, high_r = divmod(high_n, comb(24, m.wm - j))
    wmen = unrank_set(low_r, j, _RANK1) | unrank_set(high_r, m.wm - j, _MIDDLE)
    bmen = unrank_set(blacks, m.bm, _BLACK_MEN & ~wmen)
    free = _ALL & ~wmen & ~bmen
    wk_r, bk_r = divmod(kings, kb)
    wkings = unrank_set(wk_r, m.wk, free)
    bkings = unrank_set(bk_r, m.bk, free & ~wkings)
    return Position(to_padded(wmen | wkings), to_padded(bmen | bkings),
                    to_padded(wkings | bkings), BLACK if side else WHITE)
