"""The coach's HTML report (kbdraughts/coach/report.py, diagram.py): one self-contained page
(nothing fetched, no script), every text from the PDN escaped, a diagram at every graded move;
and the page opened in a real headless Chromium, its screenshot's pixels showing the graph and
the boards drawn where they belong (skipped, saying why, where Chromium is not installed)."""

from __future__ import annotations

import random
import shutil
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from kbdraughts.coach.diagram import BETTER, DARK, PLAYED, board_svg
from kbdraughts.coach.graph import GRAPH_LINE
from kbdraughts.coach.report import GameReport, report_page
from kbdraughts.coach.verdict import Grade, MoveVerdict
from kbdraughts.fen import parse_fen
from kbdraughts.game import Game
from kbdraughts.notation import parse_move

#: A tag that would turn the page red if its script ran.
HOSTILE = "<script>document.body.style.background='rgb(255,0,0)'</script>"


def graded_game(plies: int = 40, seed: int = 7) -> tuple[Game, list[MoveVerdict]]:
    """A random game and a verdict on each move: plies 9, 16 and 25 graded ?, ?! and ??,
    the better move another legal one."""
    rng = random.Random(seed)
    while True:
        game, out, value = Game(), [], 0.0
        grades = {9: Grade.MISTAKE, 16: Grade.INACCURACY, 25: Grade.BLUNDER}
        while len(game.moves) < plies and game.legal_moves():
            legal = game.legal_moves()
            move = rng.choice(legal)
            other = next((m for m in legal if m != move), None)
            after = value + rng.uniform(-0.4, 0.4)
            grade = grades.get(len(game.moves)) if other is not None else None
            out.append(MoveVerdict(len(game.moves), game.side, move, value, after, other,
                                   (other,) if other else (), grade, (("the back guard", -0.3),)))
            value = after
            game.push(move)
        if len(game.moves) == plies and all(v.grade for v in out if v.ply in grades):
            return game, out
        rng = random.Random(rng.random())


def page_of(notes: dict[int, list[str]] | None = None) -> tuple[str, list[MoveVerdict]]:
    game, verdicts = graded_game()
    tags = {"Event": HOSTILE, "White": "Alpha & <b>Beta</b>", "Black": 'Gamma "G"',
            "Result": "1-0"}
    report = GameReport(1, tags, game, verdicts, notes or {}, "1-0")
    return report_page("<i>games</i>.pdn", [report]), verdicts


class Elements(HTMLParser):
    """Every element of a page: its tag and attributes; and the text of style elements."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def parsed(page: str) -> Elements:
    p = Elements()
    p.feed(page)
    return p


def test_the_page_fetches_nothing_and_runs_nothing() -> None:
    page, _ = page_of()
    p = parsed(page)
    tags = {t for t, _ in p.elements}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "image", "use"}
    for tag, attrs in p.elements:
        assert "src" not in attrs, tag
        assert all(not k.startswith("on") for k in attrs), (tag, attrs)
        for key in ("href", "xlink:href"):
            assert attrs.get(key) is None or str(attrs[key]).startswith("#"), (tag, attrs)
    style = "".join(p.styles)
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    # the only address is the SVG namespace, which no browser fetches
    assert page.replace('xmlns="http://www.w3.org/2000/svg"', "").count("http") == 1  # CSP
    policy = [a for t, a in p.elements if t == "meta" and a.get("http-equiv")]
    assert policy and "default-src 'none'" in str(policy[0]["content"])


def test_every_text_from_the_pdn_is_escaped() -> None:
    page, _ = page_of()
    assert "<script>document" not in page and "&lt;script&gt;document" in page
    assert "<b>Beta" not in page and "Alpha &amp; &lt;b&gt;Beta&lt;/b&gt;" in page
    assert "Gamma &quot;G&quot;" in page and "&lt;i&gt;games&lt;/i&gt;.pdn" in page
    notes = {9: ["?: 5... <script>x</script> & more"]}
    page, _ = page_of(notes)
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt; &amp; more" in page


def test_a_diagram_at_every_graded_move_linked_from_the_moves_and_the_graph() -> None:
    page, verdicts = page_of({9: ["the coach's own words at ply 9"]})
    graded = [v.ply for v in verdicts if v.grade is not None]
    assert graded == [9, 16, 25]
    p = parsed(page)
    figures = [a.get("id") for t, a in p.elements
               if t == "figure" and a.get("class") == "diagram"]
    assert figures == [f"g1-p{ply}" for ply in graded]
    links = [a.get("href") for t, a in p.elements if t == "a"]
    for ply in graded:
        assert links.count(f"#g1-p{ply}") == 2, ply  # in the moves and on the graph
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="board"') == 3
    assert page.count('class="graph"') >= 1 and f'stroke="{GRAPH_LINE}"' in page
    assert "the coach&#x27;s own words at ply 9" in page  # the note given, else its words
    assert "is an inaccuracy" in page and "the back guard (-0.30)" in page
    assert "is a mistake" not in page  # ply 9 has its note


def test_the_diagram_draws_the_position_and_both_moves() -> None:
    pos = parse_fen("W:Wc3,e3,Kg1:Bd6,f6,Kb8")
    played, better = parse_move(pos, "c3-d4"), parse_move(pos, "e3-f4")
    svg = board_svg(pos, played, better, "1. c3-d4?", "1. e3-f4")
    p = parsed(svg)
    circles = [a for t, a in p.elements if t == "circle"]
    assert len(circles) == 6 + 2 * 2  # six discs, two rings and dots for the kings
    assert svg.count(f'fill="{DARK}"') == 32
    assert f'stroke="{PLAYED}"' in svg and f'stroke="{BETTER}"' in svg
    assert "played 1. c3-d4?" in svg and "better 1. e3-f4" in svg
    alone = board_svg(pos, played, None, "1. c3-d4?")
    assert BETTER not in alone and "better" not in alone


def test_the_move_taken_is_crossed() -> None:
    pos = parse_fen("W:Wc3:Bd4")
    svg = board_svg(pos, parse_move(pos, "c3:e5"), None, "1. c3:e5")
    assert svg.count("<path") == 1 and f'stroke="{PLAYED}" stroke-width="3"' in svg


# --- in a real browser ----------------------------------------------------------------------

def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium here: install Debian's package (apt-get install chromium), as "
                ".ci/run does, to open the report in a real browser")


def png_pixels(data: bytes) -> np.ndarray:
    """An 8-bit RGB or RGBA PNG (as Chromium writes its screenshots) as rows of RGB."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width = 8, b"", 0
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + size
    raw = zlib.decompress(idat)
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.int16)
    prior = np.zeros(stride, dtype=np.int16)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], np.frombuffer(
            raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)], dtype=np.uint8).astype(np.int16)
        row = _unfilter(kind, line, prior, channels)
        out[y], prior = row, row
    return out.reshape(height, width, channels)[:, :, :3]


def _unfilter(kind: int, line: np.ndarray, prior: np.ndarray, bpp: int) -> np.ndarray:
    """One scanline's PNG filter undone (None, Sub, Up, Average, Paeth)."""
    if kind == 0:
        return line
    if kind == 2:
        return (line + prior) & 0xFF
    row = line.copy()
    for i in range(len(row)):
        a = int(row[i - bpp]) if i >= bpp else 0
        b, c = int(prior[i]), int(prior[i - bpp]) if i >= bpp else 0
        if kind == 1:
            add = a
        elif kind == 3:
            add = (a + b) // 2
        else:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            add = a if pa <= pb and pa <= pc else b if pb <= pc else c
        row[i] = (row[i] + add) & 0xFF
    return row


def where(pixels: np.ndarray, colour: str, tolerance: int = 12) -> np.ndarray:
    """The (row, column) of every pixel within ``tolerance`` of ``colour`` (#rrggbb)."""
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return np.argwhere(np.abs(pixels - rgb).max(axis=2) <= tolerance)


def test_where_finds_nothing_on_a_blank_page() -> None:
    blank = np.full((50, 50, 3), 255, dtype=np.int16)
    assert not len(where(blank, DARK)) and not len(where(blank, GRAPH_LINE))


@pytest.mark.timeout(180)
def test_chromium_draws_the_graph_above_the_boards(tmp_path: Path) -> None:
    browser = chromium()
    page, verdicts = page_of()
    html, shot = tmp_path / "report.html", tmp_path / "shot.png"
    html.write_text(page, encoding="utf-8")
    run = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars",
         f"--screenshot={shot}", "--window-size=1000,2600", html.as_uri()],
        capture_output=True, text=True, timeout=150)
    assert shot.exists(), f"no screenshot (exit {run.returncode}): {run.stderr[-2000:]}"
    pixels = png_pixels(shot.read_bytes())
    line, dark = where(pixels, GRAPH_LINE, 16), where(pixels, DARK, 3)
    squares = 3 * 32 * 30 * 30  # three boards, 32 dark squares of 40 units, drawn ≥ 30 px
    assert len(line) > 400, f"the graph's line: {len(line)} pixels of {GRAPH_LINE}"
    assert len(dark) > squares, f"the boards' dark squares: {len(dark)} pixels of {DARK}"
    # a board's row: at least 4 squares of 30 px in DARK (a letter's edge is never so many)
    rows = np.flatnonzero(np.bincount(dark[:, 0], minlength=len(pixels)) >= 120)
    assert len(rows) > 2 * 8 * 10, f"{len(rows)} rows of dark squares: no boards drawn?"
    top = rows.min()
    assert line[:, 0].max() < top, "the graph stands above the diagrams"
    for colour in (PLAYED, BETTER):  # both arrows on the boards
        drawn = where(pixels, colour, 20)
        assert len(drawn[drawn[:, 0] >= top]) > 100, colour
    red = where(pixels, "#ff0000", 0)
    assert len(red) == 0, "a script from the PDN ran: the page turned red"
    assert (pixels > 240).all(axis=2).mean() > 0.3, "a white page with things drawn on it"


# --- the run's pictures (annotate's) ---------------------------------------------------------

class Read:
    """Enough of a PdnGame for Pictures: tags, the game, the result, its index in the file."""

    def __init__(self, index: int, game: Game, white: str) -> None:
        self.index, self.game, self.result = index, game, "1-0"
        self.tags = {"White": white, "Black": "B"}


def test_pictures_draw_a_graph_for_each_game_of_a_short_run_in_the_streams_encoding() -> None:
    import io

    from kbdraughts.coach.report import GRAPHS, Pictures

    game, verdicts = graded_game()
    pictures = Pictures("g.pdn", 2, html=False)
    pictures.add(Read(4, game, "Ann\x1b[2J"), verdicts, {})  # type: ignore[arg-type]
    pictures.add(Read(6, game, "Zoë"), verdicts, {})  # type: ignore[arg-type]
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    pictures.graphs(out)
    out.seek(0)
    text = out.read()
    assert "Game 5: Ann\\x1b[2J – B, 1-0" in text and "Game 7: Zoë – B, 1-0" in text
    assert text.count("Evaluation in men") == 2 and "⁇" in text and "\x1b" not in text
    plain = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    pictures.graphs(plain)
    plain.seek(0)
    text = plain.read()
    assert "Game 7: Zo\\xeb - B, 1-0" in text and "13...??" in text  # no UnicodeEncodeError
    many = Pictures("g.pdn", GRAPHS + 1, html=False)
    many.add(Read(0, game, "A"), verdicts, {})  # type: ignore[arg-type]
    assert many.reports == []  # nothing kept for a graph it will not draw
    out = io.StringIO()
    many.graphs(out)
    assert "no evaluation graph drawn for 11 games" in out.getvalue()
    both = Pictures("g.pdn", GRAPHS + 1, html=True)
    both.add(Read(0, game, "A"), verdicts, {3: ["a note"]})  # type: ignore[arg-type]
    page = both.page()
    assert "Game 1: A – B, 1-0" in page and page.count('class="diagram"') == 3
    piped = Pictures("g.pdn", 1, html=False, terminal=False)  # no terminal reads stderr
    piped.add(Read(0, game, "A"), verdicts, {})  # type: ignore[arg-type]
    out = io.StringIO()
    piped.graphs(out)
    assert piped.reports == [] and out.getvalue() == ""


# --- annotate --html and the graph on a terminal --------------------------------------------

def _annotated_game(tmp_path: Path) -> Path:
    from test_cli_annotate import the_game, write_games

    pdn = tmp_path / "game.pdn"
    write_games(pdn, the_game())
    return pdn


def test_annotate_writes_the_report_beside_the_pdn(tmp_path: Path) -> None:
    from test_cli_annotate import run

    pdn, html, out = _annotated_game(tmp_path), tmp_path / "r.html", tmp_path / "out.pdn"
    done = run("annotate", str(pdn), "-o", str(out), "--html", str(html))
    assert done.returncode == 0, done.stderr
    assert "Evaluation in men" not in done.stderr  # no terminal reads stderr: no graph
    page = html.read_text(encoding="utf-8")
    p = parsed(page)
    graded = [a for t, a in p.elements if t == "a" and str(a.get("class", "")).startswith("g ")]
    diagrams = [a for t, a in p.elements if t == "figure" and a.get("class") == "diagram"]
    assert graded and len(diagrams) == len(graded), page  # g3-h4 let the shot pass, at least
    glyphs = out.read_text(encoding="utf-8").count("$")  # the PDN's NAGs, where written
    assert glyphs in (0, len(graded))
    assert "game 1" in page and "missed" in page and 'class="graph"' in page


def test_the_report_is_refused_onto_an_input_or_the_pdn_out_and_said_when_unwritable(
        tmp_path: Path) -> None:
    from test_cli_annotate import run

    pdn = _annotated_game(tmp_path)
    before = pdn.read_bytes()
    onto = run("annotate", str(pdn), "--html", str(pdn))
    assert onto.returncode == 2 and f"--html {pdn} is the input GAME.pdn" in onto.stderr
    assert pdn.read_bytes() == before
    out = tmp_path / "out.pdn"
    same = run("annotate", str(pdn), "-o", str(out), "--html", str(out))
    assert same.returncode == 2 and "one would write over the other" in same.stderr
    nowhere = run("annotate", str(pdn), "--html", str(tmp_path / "no" / "r.html"))
    assert nowhere.returncode == 2 and "cannot write" in nowhere.stderr
    assert "Traceback" not in nowhere.stderr


def test_on_a_terminal_the_graph_comes_before_the_summary(tmp_path: Path, monkeypatch) -> None:
    import io

    from kbdraughts.cli import main

    class Screen(io.StringIO):
        encoding = "utf-8"

        def isatty(self) -> bool:
            return True

    pdn = _annotated_game(tmp_path)
    screen = Screen()
    monkeypatch.setattr(sys, "stderr", screen)
    assert main(["annotate", str(pdn), "-o", str(tmp_path / "out.pdn")]) == 0
    err = screen.getvalue()
    assert err.index("Game 1: ? – ?, *\nEvaluation in men") < err.index(
        f"kbdraughts annotate: {pdn}: 1 game")
    assert "┼" in err and "(no move graded)" not in err
