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
    BB_BOARD, BB_CROWN, JUMPS, RAYS, START, Bitboard, Move, Position, Square, legal_moves,
)
from kbdraughts.errors import KbdraughtsError
from kbdraughts.fen import FenError, fen, numbered_square, parse_fen, square_number
from kbdraughts.squares import SQUARE_NAMES, side_name, square_name

__all__ = [
    "SQUARE_NAMES", "square_name", "parse_square", "move_text", "moves_text", "parse_move",
    "fen", "parse_fen", "FenError", "square_number", "numbered_square", "MoveError",
    "MoveSyntaxError", "IllegalMoveError", "AmbiguousMoveError", "side_name", "START",
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
    """Full-path notation: ``c3-d4`` for a quiet move, ``c3:e5:g7`` for a capture; ValueError
    for a Move (built unchecked) whose squares are not of the board."""
    sep = ":" if move.captured else "-"
    try:
        return SQUARE_NAMES[move.start] + sep + sep.join(SQUARE_NAMES[s] for s in move.path)
    except (KeyError, TypeError):
        raise ValueError(f"not a move: {move!r} names a square that is not one of the 32 "
                         "dark squares") from None


def moves_text(moves: Sequence[Move], sort: bool = True) -> list[str]:
    texts = [move_text(m) for m in moves]
    return sorted(texts, key=_move_sort_key) if sort else texts


def _move_sort_key(text: str) -> tuple:
    """Order moves by their squares read as (rank, file), a stable order people can scan."""
    return tuple((int(text[i + 1]), text[i]) for i in range(0, len(text), 3))


# --- typed moves ----------------------------------------------------------------------------


class MoveError(KbdraughtsError, ValueError):
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
    if not isinstance(text, str):
        raise TypeError(f"parse_move: the move must be text, not {type(text).__name__}")
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
