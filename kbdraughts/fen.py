"""PDN FEN: a position as text, its squares named (``c3``) or numbered (``22``).

The numbering is the PDN standard's for 64-square boards, the one pydraughts and other
programs write: 1 = b8, 2 = d8, 3 = f8, 4 = h8, 5 = a7 ... 29 = a1, 32 = g1 (row by row from
Black's back rank, left to right as White sees the board). A FEN may name squares either way,
mix them, and give a run of numbers as a range (``W:W21-32:B1-12``); :func:`fen` writes names,
or numbers when asked.

>>> pos = parse_fen("W:Wa1,c3,Kd4:Bb6,Kh8")
>>> fen(pos)
'W:Wa1,c3,Kd4:Bb6,Kh8'
>>> fen(pos, numbered=True)
'W:WK18,22,29:BK4,9'
>>> parse_fen("W:WK18,22,29:BK4,9") == pos
True
"""

from __future__ import annotations

import re

from kbdraughts.board import BB_CROWN, BLACK, SQUARES, WHITE, Bitboard, Position, Side, Square
from kbdraughts.errors import KbdraughtsError
from kbdraughts.squares import BB_BOARD, SQUARE_FILE, SQUARE_NAMES, SQUARE_RANK, side_name

__all__ = ["FenError", "fen", "parse_fen", "square_number", "numbered_square"]


class FenError(KbdraughtsError, ValueError):
    """A FEN that cannot be read; the message is one line naming the problem."""


#: The PDN number of each square (1 = b8 ... 32 = g1) and the square of each number.
_NUMBER: dict[Square, int] = {
    s: (7 - SQUARE_RANK[s]) * 4 + SQUARE_FILE[s] // 2 + 1 for s in SQUARES
}
_BY_NUMBER: dict[int, Square] = {n: s for s, n in _NUMBER.items()}


def square_number(square: Square) -> int:
    """The PDN number of a square: ``square_number(<b8>) == 1``, ``<g1>`` is 32."""
    return _NUMBER[square]


def numbered_square(number: int) -> Square:
    """The square numbered ``number`` (1..32); FenError for any other number."""
    if number not in _BY_NUMBER:
        raise FenError(f"square {number} does not exist: numbered squares are 1..32")
    return _BY_NUMBER[number]


def fen(pos: Position, numbered: bool = False) -> str:
    """PDN FEN: side to move, then White's and Black's pieces, kings marked ``K``; squares
    numbered 1..32 (in that order) when ``numbered``; FenError for what is no position
    (bits off the 32 squares, a square of both sides, a king on no piece, no side to move).

    >>> fen(Position(-1, 0, 0, 0))
    Traceback (most recent call last):
    ...
    kbdraughts.fen.FenError: not a position: White's pieces stand off the 32 dark squares
    """
    _check_position(pos)
    parts = ["B" if pos.side else "W"]
    order = sorted(SQUARES, key=_NUMBER.__getitem__) if numbered else SQUARES
    for colour, bb in (("W", pos.white), ("B", pos.black)):
        names = [
            ("K" if pos.kings >> s & 1 else "") + (str(_NUMBER[s]) if numbered else SQUARE_NAMES[s])
            for s in order if bb >> s & 1
        ]
        parts.append(colour + ",".join(names))
    return ":".join(parts)


def _check_position(pos: Position) -> None:
    """FenError unless ``pos`` is a position its FEN can say (a Position is built unchecked)."""
    for name, bb in (("White's pieces", pos.white), ("Black's pieces", pos.black),
                     ("the kings", pos.kings)):
        if not isinstance(bb, int) or bb < 0 or bb & ~BB_BOARD:
            raise FenError(f"not a position: {name} stand off the 32 dark squares")
    if pos.white & pos.black:
        raise FenError("not a position: a square holds a piece of each side")
    if pos.kings & ~(pos.white | pos.black):
        raise FenError("not a position: a king stands where no piece does")
    if pos.side not in (WHITE, BLACK):
        raise FenError(f"not a position: the side to move is {pos.side!r}, not 0 or 1")


def parse_fen(text: str) -> Position:
    """Read a PDN FEN such as ``W:Wa1,c3,Kd4:Bb6,Kh8`` or ``B:W18,K22:B3,6``; FenError says
    what is wrong.

    Both sections must be present (either order; one may be empty: ``B:WKa1:B``); whitespace and
    a final ``.`` are tolerated.

    >>> parse_fen(" w:bKh8:wa1 .") == parse_fen("W:Wa1:BKh8")
    True
    """
    side, sections = _fen_fields(text)
    pieces = {"W": 0, "B": 0}
    kings = 0
    seen: dict[Square, str] = {}  # the colour listed on each square so far
    read: set[str] = set()
    for section in sections:
        colour = section[:1].upper()
        if colour not in ("W", "B"):
            raise FenError(f"a piece section must start with W or B, got {section!r}")
        if colour in read:
            raise FenError(f"the {_COLOUR_NAMES[colour]} section appears twice")
        read.add(colour)
        if len(section) > 1:
            pieces[colour], section_kings = _fen_section(section, colour, seen)
            kings |= section_kings
    for colour, bb in pieces.items():
        if bb.bit_count() > 12:
            raise FenError(f"{_COLOUR_NAMES[colour]} has {bb.bit_count()} pieces; at most 12")
    return Position(pieces["W"], pieces["B"], kings, side)


_COLOUR_NAMES = {"W": side_name(WHITE), "B": side_name(BLACK)}
_SPACE_RE = re.compile(r"\s+")
_FEN_SQUARE_RE = re.compile(r"[a-hA-H][1-8]")
_RANGE_RE = re.compile(r"([Kk]?)([0-9]{1,2})-([0-9]{1,2})")
#: A man's or a king's item as a FEN writes it (``c3``, ``C3``, ``Kc3``, ``kC3``, ``22``,
#: ``K22``): the square and whether it is a king, looked up at once; anything else goes the
#: long way, to its error.
_FEN_ITEMS: dict[str, tuple[Square, bool]] = {
    k + n: (sq, bool(k))
    for sq, name in SQUARE_NAMES.items()
    for n in (name, name.upper(), str(_NUMBER[sq]))
    for k in ("", "K", "k")
}


def _fen_fields(text: str) -> tuple[Side, list[str]]:
    """The side to move and the two piece sections of a FEN, whitespace and final dot gone."""
    t = _SPACE_RE.sub("", text)
    if t.endswith("."):
        t = t[:-1]
    if not t:
        raise FenError("empty FEN: expected something like W:Wa1,c3:Bb6,Kh8")
    shown = text.strip()
    fields = t.split(":")
    if len(fields) == 1:
        raise FenError(f"{shown!r} is not a FEN: expected side:White pieces:Black pieces, like "
                       "W:Wa1,c3:Bb6,Kh8")
    side_field = fields[0].upper()
    if side_field not in ("W", "B"):
        raise FenError(f"unknown side to move {fields[0]!r} in {shown!r}: expected W or B")
    if len(fields) != 3:
        raise FenError(
            f"expected side:White pieces:Black pieces (like W:Wa1,c3:Bb6), got {shown!r}"
        )
    return (BLACK if side_field == "B" else WHITE), fields[1:]


def _items(section: str) -> list[tuple[Square, bool]]:
    """The (square, king) items of a section's list, ranges of numbers (``K1-3``) spread."""
    out = []
    for item in section[1:].split(","):
        found = _FEN_ITEMS.get(item)
        if found is not None:
            out.append(found)
            continue
        m = _RANGE_RE.fullmatch(item)
        if m is None:
            out.append(_fen_item(item, section))
            continue
        first, last = int(m.group(2)), int(m.group(3))
        if first > last:
            raise FenError(f"{item!r}: a range of squares goes up (like 1-12)")
        out.extend((numbered_square(n), bool(m.group(1))) for n in range(first, last + 1))
    return out


def _fen_section(
    section: str, colour: str, seen: dict[Square, str]
) -> tuple[Bitboard, Bitboard]:
    """The pieces and the kings of one colour's section (``Wa1,Kc3``); ``seen`` collects the
    squares listed so far, to refuse a square listed twice."""
    pieces = kings = 0
    crown = BB_CROWN[WHITE if colour == "W" else BLACK]
    for sq, king in _items(section):
        name = SQUARE_NAMES[sq]
        if sq in seen:
            who = "for both sides" if seen[sq] != colour else "twice"
            raise FenError(f"{name} is listed {who}")
        seen[sq] = colour
        bb = 1 << sq
        if not king and crown & bb:
            raise FenError(
                f"a {_COLOUR_NAMES[colour]} man on {name} "
                "stands on its crowning rank: it would be a king (write K)"
            )
        pieces |= bb
        if king:
            kings |= bb
    return pieces, kings


def _fen_item(item: str, section: str) -> tuple[Square, bool]:
    """The square and king mark of an item that is not a plain square name or number: its
    FenError."""
    king = item[:1].upper() == "K"
    name = item[1:] if king else item
    if not item:
        raise FenError(f"an empty square name in {section!r} (two commas, or one at the end)")
    if re.fullmatch(r"[0-9]+", name):
        if len(name) <= 6 and 1 <= int(name) <= 32:  # 01, 00001: the number, zeros before it
            return numbered_square(int(name)), king
        shown = name if len(name) <= 6 else f"{name[:6]}…"
        raise FenError(f"square {shown} does not exist: numbered squares are 1..32")
    if not _FEN_SQUARE_RE.fullmatch(name):
        raise FenError(f"{item!r} is not a square (a1..h8 or 1..32, K for a king)")
    raise FenError(f"{name.lower()} is a light square: pieces stand on the dark squares only")
