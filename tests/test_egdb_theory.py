"""The endgame tables against the theory of the endings (the sampled check against an
exhaustive search is tests/test_egdb_check.py's).

The theory, from the literature of Russian draughts (the sources are named; no page numbers
are given where they were not checked):

- Petrov's triangle: three kings that hold the main road (the long diagonal a1-h8) catch a lone
  king that is off it, by their 13th move at the latest. The method is named after A. D. Petrov,
  who published it in Russia in "Руководство к основательному познанию шашечной игры" (A guide
  to a thorough knowledge of the game of draughts, St Petersburg, 1827), with the position
  White kings a1, c1, e1, Black king f8; it is older: Pedro Ruiz Montero's "Libro del juego de
  las damas vulgarmente nombrado el marro" (Valencia, 1591) has it, with White kings a1, b2, c3
  against b8, and Juan Timoneda's book of 1635 the position a1, c1, e1 against c7 (as the
  Russian Wikipedia article "Треугольник Петрова" sums up the history, after master A.
  Kolesnikov). The FMJD rules of Russian draughts give the strong side 15 moves.
- The method is the win of three kings *holding the main road*; the sources give no win
  against a lone king on it, and the tables agree: it is not caught, only a shot at once wins
  (a king offered so that the forced capture is taken back). Two kings, a weaker force, do no
  better: two kings against one on the main road draw (the tests below, not a citation).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from kbdraughts.board import Position, captures, legal_moves, play
from kbdraughts.egdb import build
from kbdraughts.egdb.probe import Database
from kbdraughts.egdb.store import DRAW, LOSS, WIN
from kbdraughts.notation import parse_fen
from kbdraughts.squares import SQUARE_FILE, SQUARE_RANK, SQUARES

MAIN_ROAD = [s for s in SQUARES if SQUARE_FILE[s] == SQUARE_RANK[s]]  # a1-h8
OFF_ROAD = [s for s in SQUARES if s not in MAIN_ROAD]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Database:
    folder: Path = tmp_path_factory.mktemp("egdb")
    build.build(3, folder)
    return Database(folder, auto_pieces=3)


@pytest.fixture(scope="module")
def db4(tmp_path_factory: pytest.TempPathFactory) -> Database:
    """The tables of up to 4 pieces (some seconds natively; too slow without the core)."""
    if not build.native_solves():
        pytest.skip("4-piece tables need the native core")
    return Database(tmp_path_factory.mktemp("egdb4"), auto_pieces=4)


# --- the theory -------------------------------------------------------------------------------------


def kings(white: list[int], black: list[int], side: int) -> Position:
    w, b = sum(1 << s for s in white), sum(1 << s for s in black)
    return Position(w, b, w | b, side)


def test_one_king_against_one_is_a_draw_unless_a_capture_is_forced(db) -> None:
    # Worked out from the moves alone: the side to move takes now (won in 1), or each of its
    # moves can be taken (lost in 2), or it has a move after which each reply can be taken
    # (won in 3); otherwise neither king can ever be forced and it is a draw.
    def takes(pos: Position) -> bool:
        return bool(captures(pos))

    def every_move_is_taken(pos: Position) -> bool:
        return all(takes(play(pos, m)) for m in legal_moves(pos))

    for w, b in ((w, b) for w in SQUARES for b in SQUARES if w != b):
        for side in (0, 1):
            pos = kings([w], [b], side)
            if takes(pos):
                want = (WIN, 1)
            elif every_move_is_taken(pos):
                want = (LOSS, 2)
            elif any(every_move_is_taken(play(pos, m)) for m in legal_moves(pos)):
                want = (WIN, 3)
            else:
                want = (DRAW, 0)
            assert db.probe(pos) == want, (pos, want)
    assert db.probe(parse_fen("W:WKa1:BKh8")) == (LOSS, 2)  # a1's only road leads to h8
    assert db.probe(parse_fen("W:WKc1:BKh8")) == (DRAW, 0)


def _quiet(pos: Position) -> bool:
    """Neither side could take at once."""
    return not captures(pos) and not captures(pos._replace(side=1 - pos.side))


def test_two_kings_against_a_lone_king_on_the_main_road_draw(db) -> None:
    assert db.probe(parse_fen("W:WKc1,Ke1:BKa1")) == (DRAW, 0)  # issue 21's example
    checked = 0
    for road in MAIN_ROAD:
        for white in combinations(OFF_ROAD, 2):
            for side in (0, 1):
                pos = kings(list(white), [road], side)
                if _quiet(pos):
                    assert db.probe(pos) == (DRAW, 0), pos
                    checked += 1
    assert checked > 3000


def test_a_lone_king_holding_the_main_road_draws_against_three_kings(db4) -> None:
    # Against three kings only a shot at once wins (a king offered so that the forced capture
    # is taken back): no such win is longer than 3 plies.
    for road in MAIN_ROAD:
        for white in combinations(OFF_ROAD, 3):
            for side in (0, 1):
                pos = kings(list(white), [road], side)
                if _quiet(pos):
                    value, plies = db4.probe(pos)
                    assert value == DRAW or (side == 0 and value == WIN and plies <= 3), pos


def test_three_kings_holding_the_main_road_win_within_the_fifteen_moves(db4) -> None:
    # Petrov's triangle: with a king on the main road and White to move, three kings catch a
    # lone king that is off it, every time, by White's 15th move (29 plies) at the latest.
    assert db4.probe(parse_fen("W:WKa1,Kc1,Ke1:BKd8"))[0] == WIN  # issue 21's examples
    assert db4.probe(parse_fen("W:WKa1,Kg1,Ke1:BKd8"))[0] == WIN
    longest = 0
    for road in MAIN_ROAD:
        for lone in OFF_ROAD:
            for two in combinations([s for s in SQUARES if s not in (road, lone)], 2):
                pos = kings([road, *two], [lone], 0)
                if _quiet(pos):
                    value, plies = db4.probe(pos)
                    assert value == WIN, pos
                    longest = max(longest, plies)
    assert longest <= 25  # by White's 13th move (ply 25), the method's bound; the rule's is 29


#: The classical positions of the method: three kings against one, White to move and win.
CLASSICS = {
    "Petrov, 1827": "W:WKa1,Kc1,Ke1:BKf8",
    "Montero, 1591": "W:WKa1,Kb2,Kc3:BKb8",
    "Timoneda, 1635": "W:WKa1,Kc1,Ke1:BKc7",
}


@pytest.mark.parametrize("source", CLASSICS)
@pytest.mark.parametrize("side", (0, 1))
def test_the_classical_positions_of_petrovs_triangle_are_won_by_the_13th_move(
        db4, source: str, side: int) -> None:
    pos = parse_fen(CLASSICS[source])._replace(side=side)
    value, plies = db4.probe(pos)
    assert value == (WIN if side == 0 else LOSS)
    # White's 13th move is ply 25 with White to move, ply 26 with Black to move first.
    assert plies <= 25 + side
    assert plies > 10  # no shot: the triangle has to be built
