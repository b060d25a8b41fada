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

import re
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


def record_rows(start_side: Side, moves: Sequence[Move]) -> list[tuple[int, list[str]]]:
    """The moves as score-sheet rows: (number, [White's move, Black's]), ``...`` holding
    White's place when Black moved first.

    >>> from kbdraughts.notation import parse_fen, parse_move
    >>> record_rows(BLACK, [parse_move(parse_fen("B:Wc3:Bf6"), "f6-g5")])
    [(1, ['...', 'f6-g5'])]
    """
    from kbdraughts.notation import move_text

    rows: list[tuple[int, list[str]]] = []
    for i, move in enumerate(moves):
        side = (start_side + i) % 2
        if side == WHITE or not rows:
            rows.append((len(rows) + 1, [] if side == WHITE else ["..."]))
        rows[-1][1].append(move_text(move))
    return rows


def record_text(start_side: Side, moves: Sequence[Move]) -> str:
    """The moves played, numbered as on a score sheet: ``1. c3-d4 b6-a5 2. g3-h4``.

    >>> from kbdraughts.notation import parse_fen, parse_move
    >>> record_text(BLACK, [parse_move(parse_fen("B:Wc3:Bf6"), "f6-g5")])
    '1... f6-g5'
    """
    parts: list[str] = []
    for number, played in record_rows(start_side, moves):
        if played[0] == "...":
            parts.append(f"{number}... {played[1]}")
        else:
            parts.append(f"{number}. {' '.join(played)}")
    return " ".join(parts)


def move_list(start_side: Side, moves: Sequence[Move], rows: int, marks: bool = False
              ) -> list[StyleAndTextTuples]:
    """The last ``rows`` rows of the score sheet for the side panel, the last move styled
    (and with ``marks``, for a screen without colour, put in ``[ ]``).

    >>> from kbdraughts.notation import parse_fen, parse_move
    >>> pos = parse_fen("W:Wc3:Bf6")
    >>> [fragment_list_to_text(r) for r in move_list(WHITE, [parse_move(pos, "c3-d4")], 4, True)]
    ['1. [c3-d4]']
    """
    sheet = record_rows(start_side, moves)[-rows:] if rows > 0 else []
    out: list[StyleAndTextTuples] = []
    for i, (number, played) in enumerate(sheet):
        line: StyleAndTextTuples = [("class:board.panel", f"{number}.")]
        for j, text in enumerate(played):
            last = i == len(sheet) - 1 and j == len(played) - 1
            if last:
                line.append(("class:board.panel.last", f" [{text}]" if marks else f" {text}"))
            else:
                line.append(("class:board.panel", f" {text}"))
        out.append(line)
    return out


def last_move_text(start_side: Side, moves: Sequence[Move]) -> str:
    """The last move with its number as a score sheet writes it: ``12... f6-g5``."""
    sheet = record_rows(start_side, moves)
    if not sheet:
        return ""
    number, played = sheet[-1]
    return f"{number}{'.' if len(played) == 1 else '...'} {played[-1]}"


def cut_text(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters with ``…`` (a long typed line is not shown whole).

    >>> cut_text("x" * 5000, 8)
    'xxxxxxx…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def break_points(text: str, width: int) -> dict[int, int]:
    """Where ``text`` breaks to fit ``width`` columns: the index of each space that becomes a
    new line, with the indentation the continued line takes (a table's second column, else
    the line's own). Never inside a word or a move: one longer than the line stays whole."""
    breaks: dict[int, int] = {}
    start = 0
    for line in text.split("\n"):
        indent = _hanging_indent(line, width)
        begin, col0 = 0, 0  # where the current screen line begins in ``line``, its indent
        while col0 + len(line) - begin > width:
            floor = max(begin, len(line) - len(line.lstrip(" ")) if begin == 0 else begin)
            cut = line.rfind(" ", floor + 1, begin + width - col0 + 1)
            if cut <= floor:  # a word longer than the line: break after it
                cut = line.find(" ", begin + width - col0)
                if cut < 0:
                    break
            breaks[start + cut] = indent
            begin, col0 = cut + 1, indent
        start += len(line) + 1
    return breaks


def _hanging_indent(line: str, width: int) -> int:
    """The column a continued line starts at: a table's second column ("  save FILE  saves"),
    else the line's own indentation."""
    own = len(line) - len(line.lstrip(" "))
    gap = re.search(r"\S {2,}(?=\S)", line)
    if gap and gap.end() <= width // 2:
        return gap.end()
    return own


def wrap_text(text: str, width: int) -> str:
    """``text`` broken at spaces to at most ``width`` columns (see ``break_points``).

    >>> wrap_text("1. c3-d4 b6-a5 2. g3-h4 a5-b4", 16)
    '1. c3-d4 b6-a5\\n2. g3-h4 a5-b4'
    >>> print(wrap_text("  save FILE  save the game as PDN", 26))
      save FILE  save the game
                 as PDN
    """
    return fragment_list_to_text(wrap_fragments([("", text)], width))


def wrap_fragments(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    """The fragments with their lines broken at spaces to fit ``width`` (styles kept)."""
    breaks = break_points(fragment_list_to_text(fragments), width)
    if not breaks:
        return fragments
    out: StyleAndTextTuples = []
    at = 0
    for style, text, *rest in fragments:
        pieces = []
        for i, ch in enumerate(text):
            pieces.append("\n" + " " * breaks[at + i] if at + i in breaks else ch)
        at += len(text)
        out.append((style, "".join(pieces), *rest))  # type: ignore[arg-type]
    return out


__all__ = [
    "Glyphs", "UNICODE", "ASCII", "glyphs_for", "board_fragments", "board_text", "material_text",
    "move_squares", "record_rows", "record_text", "move_list", "last_move_text", "cut_text",
    "wrap_text", "wrap_fragments", "BLACK", "WHITE",
]
