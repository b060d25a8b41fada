"""Text at the edges of the core: square names, moves as text, and PDN FEN.

>>> pos = parse_fen("W:Wa1,c3,Kd4:Bb6,Kh8")
>>> fen(pos)
'W:Wa1,c3,Kd4:Bb6,Kh8'
>>> move_text(parse_move(START, "c3d4"))
'c3-d4'
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from kbdraughts.board import (
    BB_BOARD, BB_CROWN, BLACK, JUMPS, RAYS, SQUARES, START, WHITE,
    Bitboard, Move, Position, Side, Square, legal_moves,
)
from kbdraughts.squares import SQUARE_NAMES, side_name, square_name

__all__ = [
    "SQUARE_NAMES", "square_name", "parse_square", "move_text", "moves_text", "parse_move",
    "fen", "parse_fen", "FenError", "MoveError", "MoveSyntaxError", "IllegalMoveError",
    "AmbiguousMoveError", "side_name", "START",
]

_SQUARE_BY_NAME: dict[str, Square] = {n: s for s, n in SQUARE_NAMES.items()}


def parse_square(text: str) -> Square:
    """The dark square named ``text`` (``"c3"``); ValueError for a light or unknown square."""
    name = text.strip().lower()
    if name in _SQUARE_BY_NAME:
        return _SQUARE_BY_NAME[name]
    if re.fullmatch(r"[a-h][1-8]", name):
        raise ValueError(f"{name} is a light square: pieces stand on the dark squares only")
    raise ValueError(f"{text.strip()!r} is not a square (a1..h8)")


def move_text(move: Move) -> str:
    """Full-path notation: ``c3-d4`` for a quiet move, ``c3:e5:g7`` for a capture."""
    sep = ":" if move.captured else "-"
    return SQUARE_NAMES[move.start] + sep + sep.join(SQUARE_NAMES[s] for s in move.path)


def moves_text(moves: Sequence[Move], sort: bool = True) -> list[str]:
    texts = [move_text(m) for m in moves]
    return sorted(texts, key=_move_sort_key) if sort else texts


def _move_sort_key(text: str) -> tuple:
    """Order moves by their squares read as (rank, file), a stable order people can scan."""
    return tuple((int(text[i + 1]), text[i]) for i in range(0, len(text), 3))


# --- typed moves ----------------------------------------------------------------------------


class MoveError(ValueError):
    """A move typed by a person that cannot be played. ``candidates`` are the moves that fit."""

    def __init__(self, message: str, candidates: Sequence[Move] = ()):
        super().__init__(message)
        self.candidates = list(candidates)


class MoveSyntaxError(MoveError):
    """The text is not a move at all."""


class IllegalMoveError(MoveError):
    """The text names a move that is not legal here; the message says why."""


class AmbiguousMoveError(MoveError):
    """The text fits more than one legal move; ``candidates`` lists them."""


_MOVE_RE = re.compile(r"([a-h][1-8])(?:\s*[-:x]\s*|\s+|)")


def _split_squares(text: str) -> tuple[list[str], bool] | None:
    """The square names in ``text`` and whether it was written as a capture, or None."""
    t = text.strip().lower()
    pos = 0
    names: list[str] = []
    capture = False
    while pos < len(t):
        m = _MOVE_RE.match(t, pos)
        if not m or m.end() == pos:
            return None
        names.append(m.group(1))
        if ":" in m.group(0) or "x" in m.group(0)[2:]:
            capture = True
        pos = m.end()
    if len(names) < 2 or not re.fullmatch(r".*[a-h][1-8]", t):
        return None
    return names, capture


def _fits_path(start: Square, path: Sequence[Square], squares: list[Square]) -> bool:
    """Whether typed squares (start, some landing squares, end) describe a move's path."""
    if start != squares[0] or path[-1] != squares[-1]:
        return False
    it = iter(path)
    return all(any(p == s for p in it) for s in squares[1:])


def _capture_paths(pos: Position, start: Square) -> list[tuple[tuple[Square, ...], Bitboard]]:
    """Every capture path (and prefix of one) of the piece on ``start``: (landings, taken).

    The generator lists one path per move; a person (or another program) may write another path
    of the same move, e.g. a king circling four men the other way round. Any path whose
    (start, end, taken) is a legal move's is that move: its end position is the move's, so it
    is complete, and each landing it went on from was one where the capture could go on.
    """
    opp = pos.pieces(1 - pos.side)
    empty = BB_BOARD & ~(pos.white | pos.black) | 1 << start
    crown = BB_CROWN[pos.side]
    out: list[tuple[tuple[Square, ...], Bitboard]] = []

    def extend(sq: Square, taken: Bitboard, path: tuple[Square, ...], king: bool) -> None:
        if path:
            out.append((path, taken))
        if king:
            for ray in RAYS[sq]:
                i, n = 0, len(ray)
                while i < n and empty >> ray[i] & 1:
                    i += 1
                # Taken pieces stay on the board until the move ends: they block (Turkish strike).
                if i >= n or not opp >> ray[i] & 1 or taken >> ray[i] & 1:
                    continue
                over = ray[i]
                for land in ray[i + 1:]:
                    if not empty >> land & 1:
                        break
                    extend(land, taken | 1 << over, path + (land,), True)
        else:
            for over, land in JUMPS[sq]:
                if opp >> over & 1 and not taken >> over & 1 and empty >> land & 1:
                    extend(land, taken | 1 << over, path + (land,), bool(crown >> land & 1))

    extend(start, 0, (), bool(pos.kings >> start & 1))
    return out


def _legal_paths(
    pos: Position, legal: Sequence[Move], start: Square
) -> Iterator[tuple[tuple[Square, ...], Move]]:
    """Every full path of a legal capture from ``start``, listed or not, with its move."""
    by_key = {(m.start, m.end, m.captured): m for m in legal if m.captured and m.start == start}
    if not by_key or pos.piece_at(start) != (pos.side, bool(pos.kings >> start & 1)):
        return
    for path, taken in _capture_paths(pos, start):
        move = by_key.get((start, path[-1], taken))
        if move is not None:
            yield path, move


def _other_paths(pos: Position, legal: Sequence[Move], squares: list[Square]) -> list[Move]:
    """The legal captures that ``squares`` describe along a path other than the listed one."""
    found = {
        move: None for path, move in _legal_paths(pos, legal, squares[0])
        if _fits_path(squares[0], path, squares)
    }
    return list(found)


def _or_list(moves: Sequence[Move]) -> str:
    texts = moves_text(moves)
    if len(texts) <= 1:
        return "".join(texts)
    return ", ".join(texts[:-1]) + " or " + texts[-1]


def parse_move(pos: Position, text: str, legal: Sequence[Move] | None = None) -> Move:
    """The legal move ``text`` names: ``c3-d4``, ``c3d4``, ``c3 d4``, ``C3-D4``, ``c3xe5``,
    ``c3:e5:g7``, or a capture shortened to its ends (``c3:g7``) when only one move fits. A
    full path always names its move, even when it is also part of a longer capture's path.

    Raises MoveSyntaxError, IllegalMoveError (saying why) or AmbiguousMoveError.

    >>> try:
    ...     parse_move(START, "c3-e5")
    ... except IllegalMoveError as e:
    ...     print(e)
    c3-e5 is not legal: the piece on c3 can play c3-b4 or c3-d4
    """
    if legal is None:
        legal = legal_moves(pos)
    shown = text.strip()
    squares = _typed_squares(text)
    exact = _exact_move(pos, legal, squares)
    if exact is not None:
        return exact
    fitting = [m for m in legal if _fits_path(m.start, m.path, squares)]
    fitting = fitting or _other_paths(pos, legal, squares)
    if len(fitting) == 1:
        return fitting[0]
    if len(fitting) > 1:
        raise AmbiguousMoveError(
            f"{shown} is ambiguous: it could be {_or_list(fitting)}; type the full path", fitting
        )
    raise _why_illegal(pos, legal, squares, shown)


def _typed_squares(text: str) -> list[Square]:
    """The squares a typed move names, in order; MoveSyntaxError when it is not a move."""
    split = _split_squares(text)
    if split is None:
        raise MoveSyntaxError(
            f"{text.strip()!r} is not a move: write it as c3-d4, or a capture as c3:e5 "
            "(type 'help')"
        )
    squares: list[Square] = []
    for name in split[0]:
        if name not in _SQUARE_BY_NAME:
            raise MoveSyntaxError(
                f"{name} is a light square: pieces stand on the dark squares only"
            )
        squares.append(_SQUARE_BY_NAME[name])
    return squares


def _exact_move(pos: Position, legal: Sequence[Move], squares: list[Square]) -> Move | None:
    """The legal move whose whole path ``squares`` is, or None. A full path fixes every man
    taken, so it names one move even when it is also a subsequence of a longer capture's path
    (``c1:e3:a7`` beside ``c1:e3:g5:e7:c5:a7``)."""
    start, path = squares[0], tuple(squares[1:])
    for m in legal:
        if m.start == start and m.path == path:
            return m
    # Another full path of a legal capture (the generator lists one path per move).
    return next((m for landings, m in _legal_paths(pos, legal, start) if landings == path), None)


def _why_illegal(
    pos: Position, legal: Sequence[Move], squares: list[Square], shown: str
) -> IllegalMoveError:
    """The error for typed squares that fit no legal move: what stands on the start square and
    what it (or the side) can play instead."""
    start = squares[0]
    piece = pos.piece_at(start)
    name = SQUARE_NAMES[start]
    if not legal:
        return IllegalMoveError(f"{side_name(pos.side)} has no legal move")
    if piece is None:
        return IllegalMoveError(f"there is no piece on {name}", legal)
    if piece[0] != pos.side:
        return IllegalMoveError(
            f"the piece on {name} is {side_name(piece[0])}'s; you play {side_name(pos.side)}",
            legal,
        )
    own = [m for m in legal if m.start == start]
    if legal[0].captured:
        if own:
            return IllegalMoveError(
                f"{shown} is not legal: the piece on {name} must capture: {_or_list(own)}", own
            )
        return IllegalMoveError(f"you must capture: {_or_list(legal)}", legal)
    if not own:
        return IllegalMoveError(
            f"the piece on {name} cannot move; legal moves: {_or_list(legal)}", legal
        )
    return IllegalMoveError(
        f"{shown} is not legal: the piece on {name} can play {_or_list(own)}", own
    )


# --- PDN FEN --------------------------------------------------------------------------------


class FenError(ValueError):
    """A FEN that cannot be read; the message is one line naming the problem."""


def fen(pos: Position) -> str:
    """PDN FEN: side to move, then White's and Black's pieces, kings marked ``K``."""
    parts = ["B" if pos.side else "W"]
    for colour, bb in (("W", pos.white), ("B", pos.black)):
        names = [
            ("K" if pos.kings >> s & 1 else "") + SQUARE_NAMES[s] for s in SQUARES if bb >> s & 1
        ]
        parts.append(colour + ",".join(names))
    return ":".join(parts)


def parse_fen(text: str) -> Position:
    """Read a PDN FEN such as ``W:Wa1,c3,Kd4:Bb6,Kh8``; FenError says what is wrong.

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
#: A man's or a king's item as a FEN writes it (``c3``, ``C3``, ``Kc3``, ``kC3``): the square
#: and whether it is a king, looked up at once; anything else goes the long way, to its error.
_FEN_ITEMS: dict[str, tuple[Square, bool]] = {
    k + n: (sq, bool(k))
    for sq, name in SQUARE_NAMES.items()
    for n in (name, name.upper())
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


def _fen_section(
    section: str, colour: str, seen: dict[Square, str]
) -> tuple[Bitboard, Bitboard]:
    """The pieces and the kings of one colour's section (``Wa1,Kc3``); ``seen`` collects the
    squares listed so far, to refuse a square listed twice."""
    pieces = kings = 0
    crown = BB_CROWN[WHITE if colour == "W" else BLACK]
    for item in section[1:].split(","):
        sq, king = _FEN_ITEMS.get(item) or _fen_item(item, section)
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
    """The square and king mark of an item that is not a plain square name: its FenError."""
    king = item[:1].upper() == "K"
    name = item[1:] if king else item
    if not item:
        raise FenError(f"an empty square name in {section!r} (two commas, or one at the end)")
    if name.isdigit():
        raise FenError(
            f"{item!r}: numbered squares are not supported; name squares a1..h8 "
            "(like Wa1,c3)"
        )
    if not _FEN_SQUARE_RE.fullmatch(name):
        raise FenError(f"{item!r} is not a square (a1..h8, K for a king)")
    try:
        return parse_square(name), king
    except ValueError as e:
        raise FenError(str(e)) from None
