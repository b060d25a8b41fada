"""The evaluation graph of a game, as an analysis board draws it: White's advantage up, Black's
down, clipped at :data:`CLIP` men (a decided ending at the edge), the graded moves marked.

Two drawings of one series (:func:`series`): :func:`text_graph` for the terminal (Unicode
blocks, or ASCII where the output's encoding cannot show them; it fits 80 columns: a long
game compressed, several plies a column; a short one two columns a ply at most) and
:func:`svg_graph` for the HTML report (inline SVG, each mark a link to its diagram).

>>> from kbdraughts.board import START, legal_moves
>>> m = legal_moves(START)[0]
>>> v = [MoveVerdict(0, 0, m, 0.0, -2.0, None, (), Grade.BLUNDER)]
>>> series(v)
[0.0, -2.0]
>>> print(text_graph(v, ascii=True).splitlines()[-1])
! inaccuracy (?!)  ? mistake (?)  X blunder (??); 2 columns a ply
"""

from __future__ import annotations

import math
import sys
from typing import IO, Sequence

from kbdraughts.coach.verdict import DECIDED, Grade, MoveVerdict
from kbdraughts.notation import move_text
from kbdraughts.squares import BLACK, WHITE, Side
from kbdraughts.variations import move_label

__all__ = ["CLIP", "series", "text_graph", "svg_graph", "can_show", "GRAPH_LINE"]

#: The graph's edge in men: a greater advantage (and a decided ending) is drawn at it.
CLIP = 3.0
#: Text rows each side of the axis (each row two half-blocks: 8 steps of 3/8 man a side).
ROWS = 4
#: The label column's width before the axis.
MARGIN = 6
#: The marks (terminal): Unicode, then ASCII; the labels below them carry the PDN glyph.
MARKS = {Grade.INACCURACY: ("⁈", "!"), Grade.MISTAKE: ("?", "?"), Grade.BLUNDER: ("⁇", "X")}
#: Block, lower half, upper half, axis, tick, rule, ellipsis: Unicode then ASCII.
UNICODE = ("█", "▄", "▀", "─", "┼", "│", "…")
ASCII = ("#", ".", "'", "-", "+", "|", "...")
#: The SVG graph's line colour (the HTML report's test looks for it in a screenshot).
GRAPH_LINE = "#1f5fbf"
GRADE_COLOURS = {Grade.INACCURACY: "#d9a400", Grade.MISTAKE: "#e06c00", Grade.BLUNDER: "#c8102e"}


def start_side(verdicts: Sequence[MoveVerdict]) -> Side:
    """The side that played the game's first move (ply 0), read off any verdict."""
    v = verdicts[0]
    return v.side if v.ply % 2 == 0 else 1 - v.side


def series(verdicts: Sequence[MoveVerdict], plies: int | None = None) -> list[float]:
    """The evaluation (men, White's side) at the start and after each ply up to ``plies``
    (default: the last verdict's): a ply without a verdict (``--side``: the other side's)
    takes the next verdict's ``before``, else the last value held."""
    if not verdicts:
        return [0.0] * ((plies or 0) + 1)
    by_ply = {v.ply: v for v in verdicts}
    last = plies if plies is not None else max(by_ply) + 1
    first = min(by_ply)
    held = by_ply[first].before
    out = [held]
    for p in range(last):
        if p in by_ply:
            held = by_ply[p].after
        elif p + 1 in by_ply:
            held = by_ply[p + 1].before
        out.append(held)
    return out


def clipped(value: float) -> float:
    """``value`` within the graph's edge; a decided ending (or a NaN) at the edge or 0."""
    if math.isnan(value):
        return 0.0
    if abs(value) >= DECIDED:
        return math.copysign(CLIP, value)
    return max(-CLIP, min(CLIP, value))


def can_show(stream: IO[str] | None = None) -> bool:
    """Whether ``stream`` (default stdout) can show the Unicode graph: its encoding
    encodes every character it uses."""
    stream = stream if stream is not None else sys.stdout
    encoding = getattr(stream, "encoding", None) or "ascii"
    sample = "".join(UNICODE) + "".join(m[0] for m in MARKS.values())
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _layout(plies: int, width: int) -> tuple[list[int], list[int], str]:
    """Where the plies go in ``width`` columns: the ply each column shows (the last it
    covers), the column each ply's mark goes in, and the scale in words. Two columns a ply
    when that fits, one, else the plies spread over the whole width."""
    if plies * 2 <= width:
        return [p for p in range(plies) for _ in (0, 1)], [2 * p + 1 for p in range(plies)], \
            "2 columns a ply"
    if plies <= width:
        return list(range(plies)), list(range(plies)), "a column a ply"
    shown = [min(plies, -(-(c + 1) * plies // width)) - 1 for c in range(width)]
    return shown, [p * width // plies for p in range(plies)], f"{plies} plies in {width} columns"


def _halves(value: float) -> int:
    """How many half-rows a value fills, signed (White's up)."""
    return round(clipped(value) / CLIP * 2 * ROWS)


def text_graph(verdicts: Sequence[MoveVerdict], plies: int | None = None, width: int = 80,
               ascii: bool = False) -> str:
    """The graph for a terminal, at most ``width`` columns: a column a ply (two for a short
    game, several plies a column for a long one), each the evaluation after its last ply;
    the marks row below names the graded moves' grades, the rows under it their numbers."""
    signs = ASCII if ascii else UNICODE
    width = max(width, MARGIN + 20)  # a screen too narrow for any graph gets a narrow one
    values = series(verdicts, plies)[1:]
    shown, where, scale = _layout(len(values), width - MARGIN)
    heights = [_halves(values[p]) for p in shown]
    lines = [f"Evaluation in men: White up, Black down, {CLIP:g} at most (a won game at the edge)"]
    for k in range(ROWS, 0, -1):  # White's rows, the top first
        row = "".join(signs[0] if h >= 2 * k else signs[1] if h == 2 * k - 1 else " "
                      for h in heights)
        lines.append(_margin(f"+{CLIP:g}" if k == ROWS else "", signs, row))
    lines.append(_margin("0", signs, signs[3] * len(heights), tick=True))
    for k in range(1, ROWS + 1):  # Black's rows, the axis first
        row = "".join(signs[0] if -h >= 2 * k else signs[2] if -h == 2 * k - 1 else " "
                      for h in heights)
        lines.append(_margin(f"-{CLIP:g}" if k == ROWS else "", signs, row))
    lines.extend(_marks(verdicts, where, width - MARGIN, ascii))
    legend = "  ".join(f"{MARKS[g][ascii]} {g.word} ({g.glyph})" for g in Grade)
    lines.append(f"{legend}; {scale}")
    return "\n".join(line.rstrip() for line in lines)


def _margin(label: str, signs: tuple[str, ...], row: str, tick: bool = False) -> str:
    """A graph row after its label and the axis."""
    axis = signs[4] if tick or label else signs[5]
    return f"{label:>{MARGIN - 2}} {axis}{row}"


def _marks(verdicts: Sequence[MoveVerdict], where: list[int], columns: int,
           ascii: bool) -> list[str]:
    """The marks row and the labels' rows under it (``columns`` wide): each graded move's
    number and glyph (``19.??``) starting under its mark (ending at the edge near it), on
    the first of three rows where it fits; those that fit on none listed on a line of their
    own."""
    graded = [v for v in verdicts if v.grade is not None and v.ply < len(where)]
    if not graded:
        return [" " * MARGIN + "(no move graded)"]
    first = start_side(verdicts)
    worst: dict[int, MoveVerdict] = {}
    order = list(Grade)
    for v in graded:  # a column's mark: its worst graded move
        col = where[v.ply]
        if col not in worst or order.index(v.grade) > order.index(worst[col].grade):  # type: ignore[arg-type]
            worst[col] = v
    marks = [" "] * columns
    rows: list[list[str]] = [[" "] * columns for _ in range(3)]
    ends = [-1, -1, -1]
    left: list[str] = []
    for col in sorted(worst):
        v = worst[col]
        assert v.grade is not None
        marks[col] = MARKS[v.grade][ascii]
        label = move_label(v.ply, first, "..." if ascii else "…") + v.grade.glyph
        at = min(col, columns - len(label))
        row = next((r for r in range(3) if at > ends[r]), None)
        if row is None:
            left.append(label)
            continue
        rows[row][at:at + len(label)] = list(label)
        ends[row] = at + len(label)
    out = [" " * MARGIN + "".join(marks)]
    out += [" " * MARGIN + "".join(r) for r in rows if "".join(r).strip()]
    if left:
        out.append(" " * MARGIN + "also " + " ".join(left))
    return out


def svg_graph(verdicts: Sequence[MoveVerdict], plies: int | None = None,
              href: str = "", width: int = 720, height: int = 200) -> str:
    """The graph as inline SVG: White's area up, the line in :data:`GRAPH_LINE`, each graded
    move a dot in its grade's colour (its move in a tooltip), linked to ``#{href}{ply}`` (its
    diagram) where ``href`` is given."""
    values = [clipped(v) for v in series(verdicts, plies)]
    box = _Box(width, height, max(1, len(values) - 1))
    zero = box.y(0.0)
    points = " ".join(f"{box.x(i):.1f},{box.y(v):.1f}" for i, v in enumerate(values))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" viewBox="0 0 {width} '
             f'{height}" role="img" aria-label="evaluation graph">',
             f'<rect x="{box.left}" y="{box.top}" width="{box.w}" height="{box.h / 2:.1f}" '
             'fill="#fbf8f1"/>',
             f'<rect x="{box.left}" y="{zero:.1f}" width="{box.w}" height="{box.h / 2:.1f}" '
             'fill="#e4ded2"/>']
    for level in (-CLIP, -CLIP / 2, 0.0, CLIP / 2, CLIP):
        parts.append(f'<line x1="{box.left}" x2="{box.left + box.w}" y1="{box.y(level):.1f}" '
                     f'y2="{box.y(level):.1f}" stroke="#999" '
                     f'stroke-width="{1 if level == 0 else 0.4}"/><text x="{box.left - 4}" '
                     f'y="{box.y(level) + 4:.1f}" text-anchor="end" font-size="11">'
                     f"{level:+g}</text>")
    parts.append(f'<polygon points="{box.x(0):.1f},{zero:.1f} {points} '
                 f'{box.x(len(values) - 1):.1f},{zero:.1f}" fill="{GRAPH_LINE}" '
                 'fill-opacity="0.18"/>')
    parts.append(f'<polyline points="{points}" fill="none" stroke="{GRAPH_LINE}" '
                 'stroke-width="2.5" stroke-linejoin="round"/>')
    first = start_side(verdicts) if verdicts else WHITE
    parts.extend(_svg_ticks(len(values) - 1, first, box))
    parts.extend(_svg_dots(verdicts, first, box, href))
    parts.append("</svg>")
    return "\n".join(parts)


class _Box:
    """The SVG graph's plotting area: a point's x by its index, y by its value in men."""

    def __init__(self, width: int, height: int, steps: int) -> None:
        self.left, self.top = 34, 8
        self.w, self.h = width - self.left - 8, height - self.top - 22
        self.step = self.w / steps

    def x(self, index: int) -> float:
        return self.left + index * self.step

    def y(self, value: float) -> float:
        return self.top + self.h / 2 - value / CLIP * self.h / 2


def _svg_dots(verdicts: Sequence[MoveVerdict], first: Side, box: _Box,
              href: str) -> list[str]:
    """A dot at each graded move, in its grade's colour, linked to its diagram."""
    from html import escape

    out = []
    for v in verdicts:
        if v.grade is None:
            continue
        words = move_label(v.ply, first, "…") + " " + move_text(v.move) + v.grade.glyph
        dot = (f'<circle cx="{box.x(v.ply + 1):.1f}" cy="{box.y(clipped(v.after)):.1f}" r="5" '
               f'fill="{GRADE_COLOURS[v.grade]}" stroke="#fff"><title>{escape(words)}</title>'
               "</circle>")
        out.append(f'<a href="#{href}{v.ply}">{dot}</a>' if href else dot)
    return out


def _svg_ticks(plies: int, first: Side, box: _Box) -> list[str]:
    """The move numbers under the graph, every 5, 10 or 20 moves as the game's length allows,
    each under the point after that move's White ply."""
    moves = 1 + (plies - 1 + (first == BLACK)) // 2 if plies else 0
    every = 5 if moves <= 40 else 10 if moves <= 100 else 20
    out = []
    for number in range(every, moves + 1, every):
        ply = min(plies - 1, 2 * (number - 1) - (first == BLACK))
        out.append(f'<text x="{box.x(ply + 1):.1f}" y="{box.top + box.h + 15:.1f}" '
                   'text-anchor="middle" '
                   f'font-size="11">{number}</text>')
    return out
