"""The evaluation graph (kbdraughts/coach/graph.py): the series it draws, the terminal's
drawing (80 columns, White up, clipped, the graded moves marked and numbered, ASCII where the
encoding cannot show it) and the SVG one."""

from __future__ import annotations

import io
import pytest

from kbdraughts.board import START, Move, legal_moves
from kbdraughts.coach.graph import (
    CLIP, GRAPH_LINE, MARGIN, MARKS, ROWS, can_show, series, svg_graph, text_graph)
from kbdraughts.coach.verdict import DECIDED, Grade, MoveVerdict
from kbdraughts.squares import BLACK, WHITE
from kbdraughts.variations import move_label


#: The graph draws no move: one will do for every verdict.
MOVE: Move = legal_moves(START)[0]


def verdicts(values: list[float], grades: dict[int, Grade] | None = None,
             first: int = WHITE) -> list[MoveVerdict]:
    """A verdict for each ply: the evaluation after ply p is ``values[p]``, 0 at the start."""
    grades = grades or {}
    out, before = [], 0.0
    for p, v in enumerate(values):
        out.append(MoveVerdict(p, (first + p) % 2, MOVE, before, v, None, (), grades.get(p)))
        before = v
    return out


def rows(text: str) -> list[str]:
    """The graph's rows: the 2 * ROWS + 1 lines after the heading, without the margin."""
    return [line[MARGIN:] for line in text.splitlines()[1:2 * ROWS + 2]]


def test_series_fills_the_other_sides_plies_from_the_next_verdict() -> None:
    vs = verdicts([0.5, 0.25, -1.0, -1.5])
    assert series(vs) == [0.0, 0.5, 0.25, -1.0, -1.5]
    whites = vs[0::2]  # --side white: Black's plies take the next verdict's before
    assert series(whites) == [0.0, 0.5, 0.25, -1.0]
    assert series(whites, plies=6) == [0.0, 0.5, 0.25, -1.0, -1.0, -1.0, -1.0]
    assert series([], plies=2) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("plies", [1, 10, 37, 38, 74, 75, 160])
def test_it_fits_80_columns_a_long_game_compressed_a_short_one_not_stretched(plies: int) -> None:
    vs = verdicts([0.1 * (p % 7) for p in range(plies)], {plies - 1: Grade.BLUNDER})
    text = text_graph(vs)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    width = len(rows(text)[ROWS])  # the axis row: one cell per column drawn
    assert width == (2 * plies if 2 * plies <= 74 else min(plies, 74)), text


def test_white_is_up_black_down_and_the_edge_clips() -> None:
    vs = verdicts([2.0, -2.0, 10.0, DECIDED + 3, -DECIDED, CLIP, 0.0])
    graph = rows(text_graph(vs))
    top, axis, bottom = graph[0], graph[ROWS], graph[-1]
    columns = [[r[c] if c < len(r) else " " for r in graph] for c in range(1, 14, 2)]
    up = [sum(cell != " " for cell in col[:ROWS]) for col in columns]
    down = [sum(cell != " " for cell in col[ROWS + 1:]) for col in columns]
    assert up == [3, 0, ROWS, ROWS, 0, ROWS, 0] and down == [0, 3, 0, 0, ROWS, 0, 0], graph
    assert set(axis) == {"─"} and top[5] == "█" and bottom[9] == "█"
    # two men fill 2/3 of the rows: 16/3 half-rows, rounded to 5: the third row's lower half
    assert graph[1][1] == "▄" and graph[ROWS + 3][3] == "▀"


def test_the_grades_are_marked_apart_and_numbered_below() -> None:
    grades = {4: Grade.INACCURACY, 9: Grade.MISTAKE, 20: Grade.BLUNDER}
    vs = verdicts([0.0] * 30, grades)
    lines = text_graph(vs).splitlines()
    marks = lines[2 * ROWS + 2][MARGIN:]
    assert [(i, c) for i, c in enumerate(marks) if c != " "] == \
        [(9, "⁈"), (19, "?"), (41, "⁇")]
    below = "\n".join(lines[2 * ROWS + 3:])
    assert "3.?!" in below and "5…?" in below and "11.??" in below
    assert lines[2 * ROWS + 3][MARGIN + 9:].startswith("3.?!")  # under its mark


def test_crowded_marks_still_name_every_move() -> None:
    grades = {p: Grade.MISTAKE for p in range(0, 60)}
    text = text_graph(verdicts([0.0] * 60, grades))
    for p in range(60):
        assert move_label(p, WHITE, "…") + "?" in text, p
    assert "also " in text


def test_no_move_graded_says_so() -> None:
    assert "(no move graded)" in text_graph(verdicts([0.5, 0.2]))


def test_ascii_where_the_encoding_cannot_show_it() -> None:
    vs = verdicts([2.0, -2.0, 0.0], {1: Grade.BLUNDER, 2: Grade.INACCURACY})
    text = text_graph(vs, ascii=True)
    text.encode("ascii")
    assert "#" in text and MARKS[Grade.BLUNDER][1] in text and "1...??" in text
    assert not can_show(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert not can_show(io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))
    assert can_show(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))


def test_move_labels_count_from_the_side_that_began() -> None:
    assert [move_label(p, WHITE, "…") for p in range(4)] == ["1.", "1…", "2.", "2…"]
    assert [move_label(p, BLACK, "…") for p in range(3)] == ["1…", "2.", "2…"]


def test_svg_graph_draws_the_line_and_links_each_graded_move() -> None:
    vs = verdicts([1.0, -0.5, DECIDED, 0.0], {1: Grade.MISTAKE, 3: Grade.BLUNDER})
    svg = svg_graph(vs, 4, href="g2-p")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert f'stroke="{GRAPH_LINE}"' in svg
    assert svg.count("<circle") == 2
    assert 'href="#g2-p1"' in svg and 'href="#g2-p3"' in svg and 'href="#g2-p0"' not in svg
    # the decided score drawn at the edge, not off the picture: every y within the viewBox
    line = svg.split('<polyline points="')[1].split('"')[0]
    ys = [float(p.split(",")[1]) for p in line.split()]
    assert min(ys) >= 0 and max(ys) <= 200 and min(ys) == pytest.approx(8.0)


def test_the_consoles_review_draws_the_graph_under_its_notes(tmp_path) -> None:
    from ui_driver import play_session

    shot = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
    _, shown = play_session("g3-h4\rreview\rquit\r", tmp_path, fen=shot)
    review = shown.split("White to move: review\n", 1)[1]
    notes, graph = review.split("Evaluation in men", 1)
    assert "White missed the shot e3-d4" in notes
    lines = graph.splitlines()
    assert lines[ROWS + 1].endswith("┼────")  # the axis: two plies, two columns each
    assert "1.?" in graph or "1.??" in graph  # g3-h4 let a man go: graded
