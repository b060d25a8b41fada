"""Scan's Hub protocol (version 2) on the wire: its lines, its square numbers, its positions and
its moves. The engine loop (``hub_engine``) and the client (``hub_player``) both speak it here.

A line is ``command key=value key="a value" flag``; values with a space, an ``=`` or nothing in
them are quoted. The 32 squares are numbered as lidraughts numbers them (``standard``: 1 = b8,
4 = h8, 29 = a1, 32 = g1), or rank-mirrored as pydraughts >= 0.6 numbers its Russian moves
(``mirrored``: 1 = a1, 32 = h8). A position is the side to move and 32 characters in standard
order (``w b W B e``); a capture is ``from x to x taken...``, the taken squares in any order.

>>> line = read_line('pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="22-18 11-15"')
>>> line.command, line.args["moves"]
('pos', '22-18 11-15')
>>> write_line("info", depth=3, pv="22-18 11-15", reason="")
'info depth=3 pv="22-18 11-15" reason=""'
>>> game = read_game(line.args["pos"], line.args["moves"])
>>> [move_word(m) for m in game.legal_moves()]  # d4:f6, taking e5: compulsory
['18x11x15']
>>> move_word(game.legal_moves()[0], MIRRORED)
'14x23x19'
"""

from __future__ import annotations

import re
from typing import Mapping, NamedTuple

from kbdraughts.board import SQUARES, Move, Position
from kbdraughts.errors import KbdraughtsError
from kbdraughts.fen import numbered_square, parse_fen, square_number
from kbdraughts.game import Game
from kbdraughts.notation import FenError, MoveError
from kbdraughts.squares import SQUARE_NAMES

#: The numberings a client may use for moves: lidraughts' (and pydraughts 0.5's), and the
#: rank-mirrored one of pydraughts >= 0.6's Russian moves.
STANDARD, MIRRORED = "standard", "mirrored"
NUMBERINGS = (STANDARD, MIRRORED)
_NUMBER = {STANDARD: {sq: square_number(sq) for sq in SQUARES},
           MIRRORED: {sq: i for i, sq in enumerate(SQUARES, 1)}}
_SQUARE = {name: {n: sq for sq, n in numbers.items()} for name, numbers in _NUMBER.items()}
#: A position's characters: a white or black man or king, or an empty square.
_PIECES = "wbWBe"
#: The longest line read; the longest game (a moves list of 10,000 plies is some 80 KB).
MAX_LINE = 1 << 20
_WORD = re.compile(r'\s*([^\s="]+)(?:=(?:"([^"]*)"|([^\s"]*)))?')


class HubError(KbdraughtsError, ValueError):
    """A line, position or move that cannot be read; the message says why, in one line."""


class HubLine(NamedTuple):
    """One line: its command and its arguments (a flag's value is the empty string)."""

    command: str
    args: dict[str, str]


def read_line(text: str) -> HubLine:
    """The command and arguments of ``text``; HubError for an unclosed quote or a stray
    character.

    >>> read_line('level infinite  move-time=0.5')
    HubLine(command='level', args={'infinite': '', 'move-time': '0.5'})
    """
    if len(text) > MAX_LINE:
        raise HubError(f"a line of more than {MAX_LINE:,} characters")
    words: list[tuple[str, str]] = []
    rest = text.strip()
    while rest:
        found = _WORD.match(rest)
        if found is None:
            raise HubError(f"cannot read {rest[:20]!r} in {_short(text)!r}")
        words.append((found[1], found[2] if found[2] is not None else found[3] or ""))
        rest = rest[found.end():]
        if rest and not rest[0].isspace():
            raise HubError(f"cannot read {rest[:20]!r} in {_short(text)!r}")
    if not words:
        return HubLine("", {})
    (command, _), *args = words
    return HubLine(command, dict(args))


def write_line(command: str, **args: object) -> str:
    """A line with ``args`` in order (a key's ``_`` written ``-``), values quoted where they
    must be; a quote inside a value becomes ``'`` (the protocol has no escape)."""
    words = [command]
    for key, value in args.items():
        text = str(value).replace('"', "'").replace("\n", " ")
        if text == "" or any(c in text for c in ' \t="'):
            text = f'"{text}"'
        words.append(f"{key.replace('_', '-')}={text}")
    return " ".join(words)


def read_position(text: str) -> Position:
    """The position ``W`` or ``B`` and 32 squares in standard order give; HubError says what is
    wrong (and what the FEN rules refuse: 13 men a side, a man on its crowning rank).

    >>> from kbdraughts.notation import fen
    >>> fen(read_position("B" + "e" * 31 + "W"))
    'B:WKg1:B'
    """
    if len(text) != 33 or text[0] not in "WB" or any(c not in _PIECES for c in text[1:]):
        raise HubError(f"a position is W or B and 32 of {' '.join(_PIECES)}, got "
                       f"{_short(text)!r} ({len(text)} characters)")
    sides: dict[str, list[str]] = {"W": [], "B": []}
    for number, piece in enumerate(text[1:], 1):
        if piece != "e":
            sides[piece.upper()].append(("K" if piece.isupper() else "") + str(number))
    try:
        return parse_fen(f"{text[0]}:W{','.join(sides['W'])}:B{','.join(sides['B'])}")
    except FenError as e:
        raise HubError(f"position {text}: {e}") from None


def write_position(pos: Position) -> str:
    """``pos`` as a Hub position (the inverse of :func:`read_position`)."""
    chars = ["e"] * 32
    for sq in SQUARES:
        bit = 1 << sq
        if (pos.white | pos.black) & bit:
            piece = "w" if pos.white & bit else "b"
            chars[square_number(sq) - 1] = piece.upper() if pos.kings & bit else piece
    return ("B" if pos.side else "W") + "".join(chars)


def move_word(move: Move, numbering: str = STANDARD) -> str:
    """``move`` as the Hub writes it: ``22-18``, or ``from x to x taken...`` (taken in
    standard order)."""
    number = _NUMBER[numbering]
    if not move.captured:
        return f"{number[move.start]}-{number[move.end]}"
    taken = sorted(number[sq] for sq in SQUARES if move.captured >> sq & 1)
    return "x".join(map(str, [number[move.start], number[move.end], *taken]))


def read_move(pos: Position, word: str, legal: list[Move], numbering: str = STANDARD) -> Move:
    """The legal move ``word`` names in ``pos``: its from, to and taken squares (in any order)
    must be those of one move; a capture written ``from x to`` alone is read when only one
    fits. MoveError names the moves that fit, or the legal ones."""
    squares = _move_squares(word, numbering)
    start, end, *taken = squares
    capture = "x" in word
    fits = [m for m in legal if m.start == start and m.end == end and bool(m.captured) == capture
            and (not taken or m.captured == sum(1 << sq for sq in taken))]
    if len({(m.start, m.end, m.captured) for m in fits}) == 1:  # one move, perhaps two paths
        return fits[0]
    shown = ", ".join(move_word(m, numbering) for m in (fits or legal)[:12])
    if fits:
        raise MoveError(f"{word!r} is ambiguous: {shown}; name the taken squares")
    if not legal:
        raise MoveError(f"{word!r}: there is no legal move, the game is over")
    where = " ".join(SQUARE_NAMES[sq] for sq in squares)
    raise MoveError(f"{word!r} ({where}) is not a legal move here; legal: {shown}")


def read_game(position: str, moves: str = "", numbering: str = STANDARD) -> Game:
    """The game a ``pos`` command gives: its position and the moves played from it.

    A game the draw rules ended is played on from where it stands (the client keeps its own
    rules and may go on); its history then starts there."""
    game = Game(read_position(position))
    for number, word in enumerate(moves.split(), 1):
        try:
            move = read_move(game.position, word, game.legal_moves(), numbering)
        except (HubError, MoveError) as e:
            raise HubError(f"move {number} of moves: {e}") from None
        if game.result is not None:
            game = Game(game.position)
        game.push(move)
    return game


def check_numbering(name: str) -> str:
    if name not in NUMBERINGS:
        raise HubError(f"unknown numbering {name!r}: {' or '.join(NUMBERINGS)}")
    return name


def numbered(args: Mapping[str, str], key: str, low: float, high: float) -> float:
    """``args[key]`` as a number within ``low..high``; HubError naming the key otherwise."""
    text = args.get(key, "")
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:  # also nan
        raise HubError(f"{key} must be a number from {low:g} to {high:g}, got {_short(text)!r}")
    return value


def whole(args: Mapping[str, str], key: str, low: int, high: int) -> int:
    """``args[key]`` as a whole number within ``low..high`` (``1.5`` and ``1e3`` are not);
    HubError naming the key otherwise.

    >>> whole({"depth": "1.5"}, "depth", 1, 64)
    Traceback (most recent call last):
    ...
    kbdraughts.match.hub.HubError: depth must be a whole number from 1 to 64, got '1.5'
    """
    text = args.get(key, "")
    if not (text.isascii() and text.isdigit() and len(text) <= 18 and low <= int(text) <= high):
        raise HubError(f"{key} must be a whole number from {low} to {high}, got {_short(text)!r}")
    return int(text)


def flag(args: Mapping[str, str], key: str) -> bool:
    """Whether the flag ``key`` is there; HubError when it is given a value (``infinite=3``)."""
    if key in args and args[key]:
        raise HubError(f"{key} takes no value, got {key}={_short(args[key])!r}")
    return key in args


def _move_squares(word: str, numbering: str) -> list[int]:
    parts = re.split(r"[-x]", word)
    if len(parts) < 2 or ("-" in word and ("x" in word or len(parts) != 2)) \
            or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        raise MoveError(f"{_short(word)!r} is not a Hub move: 22-18, or 18x11x15 for a capture")
    try:
        return [_SQUARE[numbering][int(p)] if 1 <= int(p) <= 32 else numbered_square(int(p))
                for p in parts]
    except FenError as e:
        raise MoveError(f"{word!r}: {e}") from None


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
