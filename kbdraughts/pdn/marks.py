"""An analysis's marks beside a game's moves, written as lidraughts writes an analysed game.

lidraughts exports a game its engine analysed with, on every move, the evaluation as a comment
``{[%eval 0.35]}`` (pieces, from White's side; ``#n`` a win in n moves, ``#-n`` for Black),
and on each move it grades the glyph (``?!``, ``?``, ``??``: the PDN NAGs 6, 2 and 4, written
as their glyphs after the move) and the better move with its line as a variation after the
move. A :class:`Mark` is that for one move; :func:`mark_edits` puts the marks into a file's
movetext with the file's own text untouched, and first takes out those of an earlier
analysis, so a game annotated twice carries them once:

- a comment that is a lone ``[%eval ...]`` on a main-line move is an analysis's evaluation;
- a variation of a main-line move whose first move is followed by a ``{coach: ...}`` comment
  is the coach's better line;
- a glyph ``?!``, ``?`` or ``??`` on a move whose better line's comment names that grade
  (``{coach: best; mistake}``) is the coach's: a grade is written with its better line only
  (where the file's own variation already begins with the better move, neither is written:
  the grade is in the coach's note), and a move the author marked keeps the author's glyph or
  NAG, the grade not written over it (its line then says ``{coach: best}``).

:func:`read_marks` reads them back from a game read.

>>> from kbdraughts.pdn import parse_pdn, pdn_game_text
>>> (pg,) = parse_pdn("1. c3-d4 f6-g5 2. g3-h4 *")
>>> g5 = parse_pdn("1. c3-d4 h6-g5 *")[0].game.moves[1]
>>> text = pdn_game_text(pg, marks={1: Mark(6, 0.42, line=(g5,)), 2: Mark(None, 0.1)})
>>> text.splitlines()[-1]
'1. c3-d4 f6-g5?! {[%eval 0.42]} (1... h6-g5 {coach: best; inaccuracy}) 2. g3-h4 {[%eval 0.1]} *'
>>> (again,) = parse_pdn(text)
>>> read_marks(again) == {1: Mark(6, 0.42, line=(g5,)), 2: Mark(None, 0.1)}
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple

from kbdraughts.board import Move, Side
from kbdraughts.pdn.lexer import COACH, tokens
from kbdraughts.pdn.lines import Edit, joined, line_pieces
from kbdraughts.pdn.model import Movetext, PdnGame
from kbdraughts.values import MAN_VALUE, TABLE_WIN, TABLE_ZONE, WIN
from kbdraughts.variations import Line

__all__ = ["Mark", "Marked", "GLYPHS", "WORDS", "BEST", "eval_text", "win_in", "mark_edits",
           "read_marks"]

#: The grades' NAGs as lidraughts writes them: their glyphs (the PDN standard's 6, 2, 4).
GLYPHS = {6: "?!", 2: "?", 4: "??"}
_NAGS = {glyph: nag for nag, glyph in GLYPHS.items()}
#: The better line is written this many plies long at most (lidraughts: 20).
MAX_LINE = 20
#: The comment after the better line's first move: what marks the line as the coach's; with
#: the grade of the move played when the coach wrote its glyph (``{coach: best; mistake}``).
BEST = f"{COACH} best"
#: The grades in words, by NAG.
WORDS = {6: "inaccuracy", 2: "mistake", 4: "blunder"}
_EVAL = re.compile(r"\{\s*\[%eval\s+(#-?\d+|-?\d+(?:\.\d+)?)\s*\]\s*\}")
_COACH_LINE = re.compile(r"\(\s*(?:\d+\s*\.(?:\.\.|…)?\s*)?[^\s(){}]+\s*\{\s*" + COACH
                         + r"[^;}]*(?:;\s*(" + "|".join(WORDS.values()) + r"))?\s*\}")
_BY_WORD = {word: GLYPHS[nag] for nag, word in WORDS.items()}


@dataclass(frozen=True)
class Mark:
    """What an analysis writes beside one move: ``nag`` its grade's NAG (6 ``?!``, 2 ``?``,
    4 ``??``; None: not graded), ``eval`` the evaluation after it in men from White's side,
    ``win`` a decided ending instead (moves to its end: > 0 White wins, < 0 Black; written
    ``#n``), ``line`` the better move and its line, played instead of the move."""

    nag: int | None = None
    eval: float | None = None
    win: int | None = None
    line: tuple[Move, ...] = field(default=())


def eval_text(value: float | None, win: int | None = None) -> str | None:
    """The evaluation as lidraughts writes it in ``[%eval ...]``: pieces to the hundredth
    in the shortest form (``0.35``, ``-1.0``), a win as ``#n``.

    >>> eval_text(0.354), eval_text(-1), eval_text(-0.001), eval_text(None, -3)
    ('0.35', '-1.0', '0.0', '#-3')
    """
    if win is not None:
        return f"#{win}"
    if value is None:
        return None
    return repr(round(float(value), 2) + 0.0)  # + 0.0: no "-0.0"


def win_in(score: float) -> int | None:
    """The moves to the end of a score in men that the search or the endgame tables give a
    decided ending (a win in n plies is WIN - n, a table's TABLE_WIN - n): positive White's
    win; None for any other score.

    >>> win_in((WIN - 5) / MAN_VALUE), win_in(-(TABLE_WIN - 2) / MAN_VALUE), win_in(3.5)
    (3, -1, None)
    """
    value = abs(score) * MAN_VALUE
    for top in (WIN, TABLE_WIN):
        if top - TABLE_ZONE < value <= top:
            moves = (round(top - value) + 1) // 2
            return moves if score > 0 else -moves
    return None


@dataclass
class _Found:
    """What a game's movetext holds of analyses: where each main-line move's own token ends,
    the glyph written onto it (start, end, glyph), the moves with a NAG or mark of the
    author's, the lone [%eval] comments of each move (start with the space before, end,
    value), the coach's lines (ply, start, end) and the glyph of the grade each names."""

    move_ends: list[int] = field(default_factory=list)
    glyphs: dict[int, tuple[int, int, str]] = field(default_factory=dict)
    marked: set[int] = field(default_factory=set)
    evals: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)
    lines: list[tuple[int, int, int]] = field(default_factory=list)
    graded: dict[int, str] = field(default_factory=dict)  # the glyph each coach's line names

    def coach_glyph(self, ply: int) -> tuple[int, int, str] | None:
        """The glyph of a move the coach graded: one of its grades on a move it gave a
        better line."""
        glyph = self.glyphs.get(ply)
        return glyph if glyph is not None and self.graded.get(ply) == glyph[2] else None


def _space_before(text: str, at: int) -> int:
    """Where the spaces before ``at`` start on its line (a line end is kept: it may end a
    ``; comment``)."""
    while at > 0 and text[at - 1] in " \t":
        at -= 1
    return at


def _find(src: Movetext) -> _Found:
    """The analyses' marks in the file's movetext: the main line read token by token."""
    found, depth, ply = _Found(), 0, -1
    text = src.text
    for kind, m, _ in tokens(text):
        if kind in ("open", "close"):
            depth += 1 if kind == "open" else -1
        elif depth or kind == "space":
            continue
        elif kind in ("move", "numeric_move"):
            ply += 1
            found.move_ends.append(m.end())
        elif 0 <= ply < len(src.ends) and m.end() <= src.ends[ply]:  # the move's annotations
            if kind == "mark" and m.start() == found.move_ends[ply]:
                found.glyphs[ply] = (m.start(), m.end(), m.group(0))
            elif kind in ("mark", "nag"):
                found.marked.add(ply)
            elif kind == "comment" and (e := _EVAL.fullmatch(m.group(0))) is not None:
                found.evals.setdefault(ply, []).append(
                    (_space_before(text, m.start()), m.end(), e.group(1)))
    for ply, start, end in src.variations:
        if ply >= 0 and (line := _COACH_LINE.match(text, start)) is not None:
            found.lines.append((ply, start, end))
            if line.group(1):
                found.graded[ply] = _BY_WORD[line.group(1)]
    found.marked |= {p for p in found.glyphs if found.coach_glyph(p) is None}  # the author's
    return found


def _line_text(moves: tuple[Move, ...], ply: int, start_side: Side, nag: int | None) -> str:
    """The better line as a variation, its first move followed by the coach's mark (naming
    the grade when the coach's glyph is written: ``nag``)."""
    line = Line(list(moves[:MAX_LINE]))
    mark = BEST + (f"; {WORDS[nag]}" if nag in WORDS else "")
    return "(" + joined(line_pieces(line, ply, start_side, notes={0: mark})) + ")"


class Marked(NamedTuple):
    """The edits that write an analysis's marks: those before any comment put in beside a
    move (earlier marks taken out, the glyphs), the ``{[%eval ...]}`` comment of each move
    (to stand after the move's own comments and the coach's notes), and the better lines
    (after those comments)."""

    edits: list[Edit]
    comments: dict[int, str]
    lines: list[Edit]


def mark_edits(pg: PdnGame, marks: Mapping[int, Mark], kept: int, afters: list[int]
               ) -> Marked:
    """The edits to a file's movetext that take out an earlier analysis's marks and write
    ``marks`` on its first ``kept`` moves (variations after ``afters[ply]``)."""
    src = pg.source
    assert src is not None
    found = _find(src)
    edits: list[Edit] = [(a, b, "") for spans in found.evals.values() for a, b, _ in spans]
    edits += [(_space_before(src.text, a), b, "") for _, a, b in found.lines]
    glyphs = {p: g for p in found.glyphs if (g := found.coach_glyph(p)) is not None}
    coach = {a for _, a, _ in found.lines}
    root = pg.variations.root(pg.game.moves)
    theirs = {p: {b.moves[0] for b in root.branches.get(p, ())
                  if b.written is None or b.written.start not in coach} for p in range(kept)}
    comments: dict[int, str] = {}
    lines: list[Edit] = []
    for ply, mark in sorted(marks.items()):
        if not 0 <= ply < min(kept, len(found.move_ends)):
            continue
        if (text := eval_text(mark.eval, mark.win)) is not None:
            comments[ply] = "{[%eval " + text + "]}"
        if not mark.line or mark.line[0] in theirs[ply]:  # the file's own line says it
            continue
        end = found.move_ends[ply]
        old = glyphs.pop(ply, (end, end, ""))
        nag = mark.nag if ply not in found.marked and mark.nag in GLYPHS else None
        if nag is not None or old[2]:
            edits.append((old[0], old[1], GLYPHS[nag] if nag is not None else ""))
        lines.append((afters[ply], afters[ply],
                      " " + _line_text(mark.line, ply, pg.game.start.side, nag)))
    edits += [(a, b, "") for a, b, _ in glyphs.values()]  # grades no longer given
    return Marked(edits, comments, lines)


def read_marks(pg: PdnGame) -> dict[int, Mark]:
    """The analysis's marks a game read carries, by ply: the grade's glyph, the evaluation
    (the last lone ``[%eval]`` of the move) and the coach's better line."""
    if pg.source is None:
        return {}
    found = _find(pg.source)
    lines: dict[int, tuple[Move, ...]] = {}
    root = pg.variations.root(pg.game.moves)
    for ply, _, end in found.lines:
        for b in root.branches.get(ply, ()):
            if b.written is not None and b.written.end == end:
                lines[ply] = tuple(b.moves)
    out: dict[int, Mark] = {}
    for ply in sorted(set(found.evals) | set(lines)):
        glyph = found.coach_glyph(ply)
        value = found.evals[ply][-1][2] if ply in found.evals else None
        win = int(value[1:]) if value is not None and value.startswith("#") else None
        number = float(value) if value is not None and win is None else None
        out[ply] = Mark(_NAGS[glyph[2]] if glyph else None, number, win, lines.get(ply, ()))
    return out
