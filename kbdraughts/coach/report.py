"""The coach's report as one HTML page (``kbdraughts annotate GAME.pdn --html REPORT.html``):
for each game its tags, its moves with the graded ones marked, the evaluation graph and, at
every graded move, a board diagram (the position before it, the move played and the better
one) with the coach's note.

One self-contained file: inline CSS and SVG, no script, no font and nothing fetched (a
Content-Security-Policy in the page forbids it too), so it works offline in any browser, reads
in a narrow window and prints with each diagram whole. Every text from the PDN (tags, the
file's name) is escaped: a tag holding ``<script>`` is shown, never run.

>>> from kbdraughts.game import Game
>>> page = report_page("a<b>.pdn", [GameReport(1, {"White": "<script>x</script>"}, Game(), ())])
>>> "<script>x" in page, "&lt;script&gt;x" in page
(False, True)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from html import escape
from typing import IO, TYPE_CHECKING, Mapping, Sequence

from kbdraughts.coach.diagram import board_svg
from kbdraughts.coach.graph import can_show, svg_graph, text_graph
from kbdraughts.variations import move_label
from kbdraughts.coach.verdict import DECIDED, MoveVerdict
from kbdraughts.game import Game
from kbdraughts.notation import move_text
from kbdraughts.files import printable_lines
from kbdraughts.squares import WHITE, Side

if TYPE_CHECKING:
    from kbdraughts.pdn import PdnGame

__all__ = ["GameReport", "report_page", "verdict_words", "heading", "Pictures", "GRAPHS"]

#: A run of at most this many games draws each one's graph in the terminal: more would bury
#: the run's summary (``--game N`` draws one game's, the report every game's).
GRAPHS = 10

#: Nothing outside the page: no script, no font, no image fetched; the inline styles alone.
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

STYLE = """
body { font: 16px/1.45 Georgia, 'Times New Roman', serif; color: #1d1d1d; background: #fff;
       max-width: 62rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.25rem; border-top: 2px solid #555;
     padding-top: .6rem; margin-top: 2.2rem; }
table.tags { border-collapse: collapse; font-size: .9rem; margin-bottom: 1rem; }
table.tags th { text-align: left; padding-right: 1rem; font-weight: normal; color: #555; }
table.tags td { overflow-wrap: anywhere; }
p.moves { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: .9rem;
          word-spacing: .15rem; }
.m { white-space: nowrap; } .n { color: #777; }
.note { color: #555; font-family: Georgia, serif; font-style: italic; }
a.g { font-weight: bold; text-decoration: none; padding: 0 .15rem; border-radius: 3px; }
a.inaccuracy { background: #fff1c2; color: #6b5200; }
a.mistake { background: #ffe0c2; color: #7a3500; }
a.blunder { background: #ffd0d6; color: #8a0018; }
svg { max-width: 100%; height: auto; display: block; }
figure.graph { margin: 1rem 0; }
.diagrams { display: flex; flex-wrap: wrap; gap: 1.2rem; }
figure.diagram { margin: 0; flex: 1 1 20rem; max-width: 24rem; }
figure.diagram svg { width: 100%; }
figcaption { font-size: .95rem; margin-top: .3rem; }
.grade { font-weight: bold; }
@media print {
  body { max-width: none; font-size: 11pt; }
  figure.diagram, figure.graph { break-inside: avoid; }
  h2 { break-before: auto; break-after: avoid; }
  a { color: inherit; }
}
"""


@dataclass(frozen=True)
class GameReport:
    """A game of the report: its place in the file (from 1), its tags, the game, the coach's
    verdicts on its moves and its notes by ply (the words the PDN's comments hold)."""

    number: int
    tags: Mapping[str, str]
    game: Game
    verdicts: Sequence[MoveVerdict]
    notes: Mapping[int, Sequence[str]] = field(default_factory=dict)
    result: str = "*"


def _first(game: Game) -> Side:
    return game.start.side


def verdict_words(v: MoveVerdict, first: Side) -> str:
    """A graded move in words where the coach wrote no note of its own: its glyph, the
    evaluation before and after, the better move and the ideas named."""
    assert v.grade is not None
    label = move_label(v.ply, first, "…")
    article = "an" if v.grade.word[0] in "aeiou" else "a"
    words = (f"{v.grade.glyph}: {label} {move_text(v.move)} is {article} {v.grade.word}: "
             f"{_men(v.before)} before, {_men(v.after)} after")
    if v.why:
        words += "; " + ", ".join(f"{idea} ({value:+.2f})" for idea, value in v.why)
    if v.best is not None:
        words += f"; better {label} {move_text(v.best)}"
    return words


def _men(value: float) -> str:
    """An evaluation in men as a player reads it: ``+0.35``, or who wins."""
    if abs(value) >= DECIDED:
        return "White wins" if value > 0 else "Black wins"
    return f"{value:+.2f}"


def _anchor(report: GameReport, ply: int) -> str:
    return f"g{report.number}-p{ply}"


def _moves(report: GameReport) -> str:
    """The moves, numbered, the graded ones marked and linked to their diagrams, the coach's
    other notes (a combination played, the summary) after their moves."""
    game, first = report.game, _first(report.game)
    graded = {v.ply: v for v in report.verdicts if v.grade is not None}
    out: list[str] = []
    for ply, move in enumerate(game.moves):
        number = ""  # the number kept on the move's line, the move never broken at its dash
        if ply == 0 or (first + ply) % 2 == WHITE:
            number = f'<span class="n">{escape(move_label(ply, first, "…"))}</span> '
        text = escape(move_text(move))
        v = graded.get(ply)
        if v is not None and v.grade is not None:
            out.append(f'<span class="m">{number}<a class="g {v.grade.word}" '
                       f'href="#{_anchor(report, ply)}">{text}{escape(v.grade.glyph)}</a></span>')
        else:
            out.append(f'<span class="m">{number}{text}</span>')
            out += [f'<span class="note">{{{escape(n)}}}</span>'
                    for n in report.notes.get(ply, ())]
    out.append(escape(report.result))
    return '<p class="moves">' + " ".join(out) + "</p>"


def _diagram(report: GameReport, v: MoveVerdict) -> str:
    """A graded move's figure: the board before it with both moves, the note beneath."""
    assert v.grade is not None
    first = _first(report.game)
    label = move_label(v.ply, first, "…")
    played = f"{label} {move_text(v.move)}{v.grade.glyph}"
    better = f"{label} {move_text(v.best)}" if v.best is not None else None
    svg = board_svg(report.game.positions[v.ply], v.move, v.best, played, better,
                    title=f"the position before {played}")
    notes = list(report.notes.get(v.ply, ())) or [verdict_words(v, first)]
    caption = "".join(f"<p>{escape(n)}</p>" for n in notes)
    line = ""
    if len(v.best_line) > 1:
        line = ("<p>line: " + escape(" ".join(move_text(m) for m in v.best_line)) + "</p>")
    return (f'<figure class="diagram" id="{_anchor(report, v.ply)}">{svg}<figcaption>'
            f'<span class="grade">{escape(v.grade.word.capitalize())}</span>, '
            f"{escape(_men(v.before))} → {escape(_men(v.after))} (men, White's side){caption}{line}"
            "</figcaption></figure>")


def heading(report: GameReport, dash: str = "–") -> str:
    """The game's heading: its number, the players, the result (not escaped)."""
    white = report.tags.get("White", "?")
    black = report.tags.get("Black", "?")
    return f"Game {report.number}: {white} {dash} {black}, {report.result}"


def _game(report: GameReport) -> str:
    """One game's section."""
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>"
                   for k, v in report.tags.items())
    graded = [v for v in report.verdicts if v.grade is not None]
    parts = [f'<section class="game" id="g{report.number}">',
             f"<h2>{escape(heading(report))}</h2>",
             f'<table class="tags">{rows}</table>' if rows else "", _moves(report)]
    if report.verdicts:
        svg = svg_graph(report.verdicts, len(report.game.moves), href=f"g{report.number}-p")
        parts.append(f'<figure class="graph">{svg}<figcaption>The evaluation in men, White\'s '
                     "advantage up (at most 3 drawn); the dots are the graded moves.</figcaption>"
                     "</figure>")
    if graded:
        parts.append('<div class="diagrams">' + "".join(_diagram(report, v) for v in graded)
                     + "</div>")
    else:
        parts.append("<p>No move graded.</p>")
    parts.append("</section>")
    return "\n".join(p for p in parts if p)


def report_page(source: str, games: Sequence[GameReport]) -> str:
    """The whole page for the games of the file ``source``."""
    title = escape(f"The coach's report: {source}")
    count = f"{len(games)} game{'s' if len(games) != 1 else ''}"
    graded = sum(1 for g in games for v in g.verdicts if v.grade is not None)
    body = "\n".join(_game(g) for g in games)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{title}</h1>\n<p>{count}, {graded} graded move"
            f"{'s' if graded != 1 else ''}: ?! an inaccuracy, ? a mistake, ?? a blunder. "
            "At each, the board before the move: the move played in red, the better one "
            "dashed in green.</p>\n"
            f"{body}\n</body>\n</html>\n")


class Pictures:
    """The pictures of an ``annotate`` run over ``games`` games of the file ``source``,
    gathered game by game: each game's graph for the terminal where ``terminal`` (a run of
    at most :data:`GRAPHS` games) and, where ``html`` is asked for, the report's page."""

    def __init__(self, source: str, games: int, html: bool, terminal: bool = True) -> None:
        self.source, self.games, self.html, self.terminal = source, games, html, terminal
        self.reports: list[GameReport] = []

    def add(self, g: PdnGame, verdicts: Sequence[MoveVerdict],
            notes: Mapping[int, Sequence[str]]) -> None:
        """A game annotated: its verdicts and its notes by ply (as its PDN comments hold
        them)."""
        if self.html or (self.terminal and self.games <= GRAPHS):
            number = g.index + 1 if g.index >= 0 else len(self.reports) + 1
            self.reports.append(GameReport(number, dict(g.tags), g.game, tuple(verdicts),
                                           {p: tuple(n) for p, n in notes.items()}, g.result))

    def graphs(self, out: IO[str] | None = None) -> None:
        """Each game's graph under its heading on ``out`` (default stderr), in ASCII where its
        encoding cannot show the blocks; or a line saying why none is drawn; nothing where no
        terminal reads them."""
        out = out if out is not None else sys.stderr
        if not self.terminal:
            return
        if self.games > GRAPHS:
            print(f"kbdraughts annotate: no evaluation graph drawn for {self.games} games (at "
                  f"most {GRAPHS}): --game N draws one game's, --html FILE every game's",
                  file=out)
            return
        ascii = not can_show(out)
        for report in self.reports:
            title = printable_lines(heading(report, "-" if ascii else "–")).replace("\n", " ")
            if ascii:  # a name in letters the output cannot show: escapes, never a crash
                title = title.encode("ascii", "backslashreplace").decode("ascii")
            graph = text_graph(report.verdicts, len(report.game.moves), ascii=ascii)
            print(f"\n{title}\n{graph}", file=out)
        out.flush()

    def page(self) -> str:
        """The report's page of the games gathered."""
        return report_page(self.source, self.reports)
