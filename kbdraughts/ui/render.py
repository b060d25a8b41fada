"""Drawing the board as prompt_toolkit fragments (colour) or plain text (pipes, ``--ascii``).

The board is seen from the person's side (``bottom``): White at the bottom unless the person
plays Black or turned it with ``flip``. Every square is three cells wide so the board keeps its
proportions in a terminal. The last move's squares and the squares of the pieces it took are
highlighted; without colour they are marked with ``[ ]`` and ``x`` so a pipe still shows them.

>>> from kbdraughts.notation import parse_fen
>>> print(board_text(parse_fen("W:WKa1,c3:BKh8"), glyphs=ASCII))
    a  b  c  d  e  f  g  h
 8     .     .     .     B  8
 7  .     .     .     .     7
 6     .     .     .     .  6
 5  .     .     .     .     5
 4     .     .     .     .  4
 3  .     w     .     .     3
 2     .     .     .     .  2
 1  W     .     .     .     1
    a  b  c  d  e  f  g  h
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from kbdraughts.board import BLACK, WHITE, Bitboard, Move, Position, Side, square_at


@dataclass(frozen=True)
class Glyphs:
    """The characters for men, kings and markers."""

    white_man: str
    white_king: str
    black_man: str
    black_king: str
    empty: str  # an empty dark square
    taken: str  # a square whose piece the last move took

    def piece(self, side: Side, king: bool) -> str:
        if side == WHITE:
            return self.white_king if king else self.white_man
        return self.black_king if king else self.black_man


UNICODE = Glyphs("○", "♕", "●", "♛", "·", "×")
ASCII = Glyphs("w", "W", "b", "B", ".", "x")


def glyphs_for(encoding: str | None, force_ascii: bool = False) -> Glyphs:
    """Unicode pieces when the terminal's encoding can show them, else ASCII."""
    if force_ascii or not encoding:
        return ASCII
    sample = "".join(vars(UNICODE).values()) + "½–…⠋"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return ASCII
    return UNICODE


def move_squares(move: Move | None) -> set[int]:
    """The squares the move started on, landed on and ended on."""
    if move is None:
        return set()
    return {move.start, *move.path}


def board_fragments(
    pos: Position,
    *,
    bottom: Side = WHITE,
    last: Move | None = None,
    glyphs: Glyphs = UNICODE,
    marks: bool = False,
    panel: Sequence[StyleAndTextTuples] = (),
) -> StyleAndTextTuples:
    """The board as styled fragments, one line per rank plus file labels, ending in a newline.

    ``marks`` draws the last move without colour (``[ ]`` around its squares, ``x`` where it took
    a piece). ``panel`` lines are shown to the right of the ranks, top to bottom.
    """
    files = range(8) if bottom == WHITE else range(7, -1, -1)
    ranks = range(7, -1, -1) if bottom == WHITE else range(8)
    moved = move_squares(last)
    taken: Bitboard = last.captured if last else 0
    label = "class:board.label"
    letters = "  ".join("abcdefgh"[f] for f in files)
    header: StyleAndTextTuples = [(label, f"    {letters}\n")]
    out: StyleAndTextTuples = list(header)
    for row, rank in enumerate(ranks):
        out.append((label, f" {rank + 1} "))
        for file in files:
            if (file + rank) % 2:
                out.append(("class:board.light", "   "))
                continue
            sq = square_at(file, rank)
            piece = pos.piece_at(sq)
            style = "class:board.dark"
            if taken >> sq & 1:
                text = glyphs.taken
                style = "class:board.taken"
            elif piece is None:
                text = glyphs.empty
            else:
                text = glyphs.piece(*piece)
                style += " class:piece." + ("white" if piece[0] == WHITE else "black")
            if sq in moved:
                style += " class:board.last"
            if marks and sq in moved:
                cell = f"[{text}]"
            else:
                cell = f" {text} "
            out.append((style, cell))
        out.append((label, f" {rank + 1}"))
        if row < len(panel) and panel[row]:
            out.append(("", "   "))
            out.extend(panel[row])
        out.append(("", "\n"))
    out.extend(header)
    return out


def board_text(pos: Position, **kwargs) -> str:
    """The board as plain text (no colour, last move marked), without the final newline."""
    kwargs.setdefault("marks", True)
    return fragment_list_to_text(board_fragments(pos, **kwargs)).rstrip("\n")


def material_text(pos: Position) -> str:
    """Pieces of each side: ``White 8 men 1 king, Black 7 men``."""
    wm, wk, bm, bk = pos.counts()

    def side(men: int, kings: int) -> str:
        parts = []
        if men:
            parts.append(f"{men} {'man' if men == 1 else 'men'}")
        if kings:
            parts.append(f"{kings} {'king' if kings == 1 else 'kings'}")
        return " ".join(parts) or "none"

    return f"White {side(wm, wk)}, Black {side(bm, bk)}"


def record_text(start_side: Side, moves: Sequence[Move]) -> str:
    """The moves played, numbered as on a score sheet: ``1. c3-d4 b6-a5 2. g3-h4``.

    >>> from kbdraughts.notation import parse_fen, parse_move
    >>> record_text(BLACK, [parse_move(parse_fen("B:Wc3:Bf6"), "f6-g5")])
    '1... f6-g5'
    """
    from kbdraughts.notation import move_text

    parts: list[str] = []
    number = 1
    for i, move in enumerate(moves):
        side = (start_side + i) % 2
        if side == WHITE:
            parts.append(f"{number}. {move_text(move)}")
        else:
            parts.append(f"{number}... {move_text(move)}" if i == 0 else move_text(move))
            number += 1
    return " ".join(parts)


__all__ = [
    "Glyphs", "UNICODE", "ASCII", "glyphs_for", "board_fragments", "board_text", "material_text",
    "move_squares", "record_text", "BLACK", "WHITE",
]
