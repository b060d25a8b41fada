"""Every move graded (coach/grade.py): the evaluation before and after at a node budget, the best
move and its line, ?! ? ?? by the loss in men, confirmed deeper; the endgame tables' verdict where
they know; the same verdicts on any machine load."""

from __future__ import annotations

import pytest

from kbdraughts.board import BLACK, WHITE
from kbdraughts.coach.grade import BLUNDER, INACCURACY, MISTAKE, grade_for, grade_game
from kbdraughts.coach.verdict import DECIDED, Grade
from kbdraughts.egdb.probe import Database
from kbdraughts.game import Game
from kbdraughts.native import core
from kbdraughts.notation import move_text, parse_fen, parse_move

#: From a level-1 game: a7-b6 lets a3-b4 c5:a3 f4-g5 h6:f4 e3:g5:e7:c5:a7 win two men; f6-e5
#: or f8-e7 lose nothing (the coach's test of a loss past the first plies).
LOSES_TWO = "B:Wa1,c1,e1,d2,a3,c3,e3,f4,h4:Bc5,d6,f6,h6,a7,g7,b8,d8,f8"
#: The budget the tests search at: the pure search is some forty times slower a node.
NODES = 20_000 if core is not None else 2_000


def game_of(fen: str, *moves: str) -> Game:
    game = Game(parse_fen(fen))
    for text in moves:
        game.push(parse_move(game.position, text))
    return game


@pytest.fixture
def no_tables(tmp_path) -> Database:
    """Tables that know nothing (an empty folder, nothing built): the search alone judges."""
    return Database(tmp_path, auto_pieces=0)


def test_the_thresholds_in_men():
    assert INACCURACY < MISTAKE < BLUNDER
    assert grade_for(INACCURACY - 0.01) is None
    assert grade_for(INACCURACY) is Grade.INACCURACY
    assert grade_for(MISTAKE) is Grade.MISTAKE
    assert grade_for(BLUNDER) is Grade.BLUNDER


def test_a_move_that_loses_two_men_is_a_blunder_and_the_better_move_is_named(no_tables):
    [v] = grade_game(game_of(LOSES_TWO, "a7-b6"), nodes=NODES, tables=no_tables)
    assert (v.ply, v.side, move_text(v.move)) == (0, BLACK, "a7-b6")
    assert v.grade is Grade.BLUNDER and v.loss >= 1.5
    assert v.best is not None and move_text(v.best) != "a7-b6"
    assert v.best_line[0] == v.best
    # scores from White's side: Black's blunder raises White's evaluation
    assert v.after > v.before


def test_a_good_move_is_not_graded_and_names_no_better_one(no_tables):
    [v] = grade_game(game_of(LOSES_TWO, "f8-e7"), nodes=NODES, tables=no_tables)
    assert v.grade is None and v.loss < INACCURACY


def test_only_the_sides_moves_and_the_same_verdicts_as_for_both(no_tables):
    game = game_of(LOSES_TWO, "a7-b6", "a3-b4", "c5:a3")
    both = grade_game(game, nodes=NODES, tables=no_tables)
    black = grade_game(game, BLACK, nodes=NODES, tables=no_tables)
    assert [v.ply for v in both] == [0, 1, 2]
    assert [v.ply for v in black] == [0, 2]
    assert black == [v for v in both if v.side == BLACK]
    assert [v.ply for v in grade_game(game, WHITE, nodes=NODES, tables=no_tables)] == [1]


def test_the_same_game_gets_the_same_verdicts_whatever_was_searched_before(no_tables):
    game = game_of(LOSES_TWO, "a7-b6", "a3-b4")
    first = grade_game(game, nodes=NODES, tables=no_tables)
    grade_game(game_of(LOSES_TWO, "f6-e5"), nodes=NODES, tables=no_tables)
    assert grade_game(game, nodes=NODES, tables=no_tables) == first


def test_why_is_asked_only_of_graded_moves(no_tables):
    asked = []

    def why(played_end, best_end, side):
        asked.append(side)
        return (("the back guard", -0.31),)

    game = game_of(LOSES_TWO, "a7-b6", "a3-b4")
    verdicts = grade_game(game, nodes=NODES, tables=no_tables, why=why)
    assert verdicts[0].why == (("the back guard", -0.31),) and asked == [BLACK]
    assert verdicts[1].why == ()


#: 2 v 2 (found in the 4-piece tables): g7-h8 crowns and wins, g7-f8 crowns and only draws,
#: a7-d4 loses.
ENDING = "W:WKa7,g7:BKa1,b8"


@pytest.mark.parametrize("played, grade, after", [
    ("g7-h8", None, DECIDED), ("g7-f8", Grade.MISTAKE, 0.0), ("a7-d4", Grade.BLUNDER, -DECIDED)])
def test_the_endgame_tables_grade_by_the_change_of_their_verdict(endgame_tables, played, grade,
                                                                 after):
    if core is None:
        pytest.skip("4-piece tables need the native core")
    tables = Database(endgame_tables, auto_pieces=0)
    [v] = grade_game(game_of(ENDING, played), nodes=NODES, tables=tables)
    assert (v.before, v.after, v.grade) == (DECIDED, after, grade)
    assert (v.best is None) == (grade is None)
    if grade is not None:
        assert move_text(v.best) == "g7-h8"
