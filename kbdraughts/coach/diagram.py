"""A board diagram in SVG, as a book prints one at a graded move: the position before the
move (White at the bottom), the move played and the better one drawn as arrows in two
colours, the men the move played takes crossed, and a legend under the board.

Plain SVG (no script, no font, no reference to anything outside it): it is written inline in
the HTML report and reads the same printed, in black and white too (the played arrow solid,
the better one dashed).

>>> from kbdraughts.board import START, legal_moves
>>> svg = board_svg(START, legal_moves(START)[0], None, "1. a3-b4")
>>> svg.startswith("<svg") and svg.count('class="dark"') == 32
True
"""

from __future__ import annotations

import math
from html import escape

from kbdraughts.board import Move, Position
from kbdraughts.squares import BLACK, SQUARE_FILE, SQUARE_RANK, SQUARES, Square

__all__ = ["board_svg", "DARK", "PLAYED", "BETTER"]

#: A square's side and the margin for the coordinates, in SVG units.
SIZE = 40
EDGE = 18
#: The squares' colours (the HTML report's test looks for DARK in a screenshot), the pieces'.
LIGHT = "#f0dcb4"
DARK = "#a0673c"
PIECES = {0: ("#fbfaf6", "#3a3a3a"), BLACK: ("#262626", "#000000")}
#: The arrows: the move played, the better one.
PLAYED = "#d01c3a"
BETTER = "#138a52"


def _centre(square: Square) -> tuple[float, float]:
    """The centre of ``square`` (White at the bottom)."""
    return (EDGE + (SQUARE_FILE[square] + 0.5) * SIZE,
            (7 - SQUARE_RANK[square] + 0.5) * SIZE)


def _squares() -> list[str]:
    """The 64 squares (the light ones as one background) and the coordinates."""
    out = [f'<rect x="{EDGE}" y="0" width="{8 * SIZE}" height="{8 * SIZE}" fill="{LIGHT}"/>']
    for s in SQUARES:
        x, y = _centre(s)
        out.append(f'<rect class="dark" x="{x - SIZE / 2:g}" y="{y - SIZE / 2:g}" '
                   f'width="{SIZE}" height="{SIZE}" fill="{DARK}"/>')
    for i in range(8):
        out.append(f'<text x="{EDGE + (i + 0.5) * SIZE:g}" y="{8 * SIZE + 13}" '
                   f'text-anchor="middle" font-size="11">{"abcdefgh"[i]}</text>')
        out.append(f'<text x="{EDGE / 2:g}" y="{(7 - i + 0.5) * SIZE + 4:g}" '
                   f'text-anchor="middle" font-size="11">{i + 1}</text>')
    return out


def _pieces(pos: Position) -> list[str]:
    """A disc for each man; a king has a second ring and a dot inside."""
    out = []
    for s in SQUARES:
        piece = pos.piece_at(s)
        if piece is None:
            continue
        side, king = piece
        fill, stroke = PIECES[side]
        x, y = _centre(s)
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{SIZE * 0.38:g}" fill="{fill}" '
                   f'stroke="{stroke}" stroke-width="1.5"/>')
        if king:
            ring = PIECES[1 - side][0]
            out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{SIZE * 0.22:g}" fill="none" '
                       f'stroke="{ring}" stroke-width="2"/><circle cx="{x:g}" cy="{y:g}" '
                       f'r="{SIZE * 0.07:g}" fill="{ring}"/>')
    return out


def _arrow(move: Move, colour: str, shift: float, dashed: bool) -> list[str]:
    """The move's path from its start through every landing square, an arrowhead at its end;
    ``shift`` moves it sideways a little (across every diagonal) so that two arrows on one
    diagonal both show."""
    points = [(x + shift, y) for x, y in (_centre(s) for s in (move.start, *move.path))]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    angle = math.atan2(y1 - y0, x1 - x0)
    head = SIZE * 0.32
    tip = (x1 - math.cos(angle) * SIZE * 0.12, y1 - math.sin(angle) * SIZE * 0.12)
    base = (tip[0] - math.cos(angle) * head, tip[1] - math.sin(angle) * head)
    wing = (-math.sin(angle) * head * 0.55, math.cos(angle) * head * 0.55)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points[:-1]) + f" {base[0]:.1f},{base[1]:.1f}"
    dash = ' stroke-dasharray="7 4"' if dashed else ""
    return [f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="5" '
            f'stroke-linecap="round" stroke-linejoin="round" opacity="0.9"{dash}/>',
            f'<polygon points="{tip[0]:.1f},{tip[1]:.1f} {base[0] + wing[0]:.1f},'
            f'{base[1] + wing[1]:.1f} {base[0] - wing[0]:.1f},{base[1] - wing[1]:.1f}" '
            f'fill="{colour}" opacity="0.9"/>']


def _crosses(move: Move) -> list[str]:
    """A cross on each piece the move played takes."""
    out = []
    for s in SQUARES:
        if move.captured >> s & 1:
            x, y = _centre(s)
            d = SIZE * 0.22
            out.append(f'<path d="M{x - d:g},{y - d:g}L{x + d:g},{y + d:g}M{x - d:g},'
                       f'{y + d:g}L{x + d:g},{y - d:g}" stroke="{PLAYED}" stroke-width="3"/>')
    return out


def _legend(top: float, played: str, better: str | None) -> list[str]:
    """The legend under the board: each arrow's colour and the move it draws."""
    rows = [(PLAYED, "", f"played {played}")]
    if better is not None:
        rows.append((BETTER, ' stroke-dasharray="7 4"', f"better {better}"))
    out = []
    for i, (colour, dash, words) in enumerate(rows):
        y = top + 16 + i * 18
        out.append(f'<line x1="{EDGE}" x2="{EDGE + 30}" y1="{y - 4}" y2="{y - 4}" '
                   f'stroke="{colour}" stroke-width="5"{dash}/><text x="{EDGE + 38}" '
                   f'y="{y}" font-size="13">{escape(words)}</text>')
    return out


def board_svg(pos: Position, played: Move, better: Move | None, played_words: str,
              better_words: str | None = None, title: str = "") -> str:
    """The diagram of ``pos`` with the move ``played`` (solid, :data:`PLAYED`) and the
    ``better`` one (dashed, :data:`BETTER`; None: none drawn), the legend naming them in
    ``played_words`` and ``better_words``; ``title`` the picture's accessible name."""
    height = 8 * SIZE + 22 + 18 * (2 if better is not None else 1) + 6
    width = EDGE + 8 * SIZE + 4
    label = escape(title or f"the position before {played_words}", quote=True)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} '
             f'{height}" role="img" aria-label="{label}">']
    parts += _squares() + _pieces(pos) + _crosses(played)
    if better is not None:
        parts += _arrow(better, BETTER, 3.0, dashed=True)
    parts += _arrow(played, PLAYED, -3.0 if better is not None else 0.0, dashed=False)
    parts += _legend(8 * SIZE + 14, played_words,
                     better_words if better is not None else None)
    parts.append("</svg>")
    return "\n".join(parts)
