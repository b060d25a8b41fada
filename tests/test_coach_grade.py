"""Every move graded (coach/grade.py): the evaluation before and after at a node budget, the best
move and its line, ?! ? ?? by the loss in men, confirmed deeper; the endgame tables' verdict where
they know; the same verdicts on any machine load."""

from __future__ import annotations

import threading

import pytest

from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.search import MATE_ZONE
from kbdraughts.board import BLACK, WHITE
from kbdraughts.coach.grade import NODES as GRADE_NODES
from kbdraughts.coach.grade import (BLUNDER, INACCURACY, MISTAKE, _averaged, _Judge, _Step,
                                    grade_for, grade_game)
from kbdraughts.coach.verdict import DECIDED, Grade
from kbdraughts.egdb.probe import Database
from kbdraughts.eval.heuristic import default_heuristic
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


# -- the confirming searches: what a first search some ten plies deep misjudges ----------------

needs_core = pytest.mark.skipif(core is None, reason="the budgets are the native core's")


def _first_loss(pos, move) -> float:
    """The loss the first search finds (grade.py's separate searches at the default budget)."""
    judge = _Judge(GRADE_NODES)
    depth, best, _, _ = judge.deepen(pos)
    return best - judge.played(pos, move, depth)[0]


#: From ussr1924 (game 10, move 31): d6-c7 wins by force within ten plies; d4-e5 wins too, but
#: the search sees it only at fourteen, where it scored the move +5 men.
SLOWER_WIN = "W:Wh2,c3,d4,d6,a7:Bg3,f4,a5,b8"


@needs_core
def test_a_slower_win_is_no_blunder(no_tables):
    pos = parse_fen(SLOWER_WIN)
    move = parse_move(pos, "d4-e5")
    assert _first_loss(pos, move) >= BLUNDER  # a won game against +5: called a blunder before
    proof = make_searcher(default_heuristic().evaluate).search(pos, max_depth=16, moves=[move])
    assert proof.score >= MATE_ZONE  # d4-e5 wins by force too
    [v] = grade_game(game_of(SLOWER_WIN, "d4-e5"), tables=no_tables)
    assert v.grade is None and v.before == v.after == DECIDED


#: From ussr1924 (game 8, move 7): b2-a3 loses half a man against g3-f4 at depths 9 to 12, where
#: the first search stops; from depth 13 on, searched beside g3-f4, it loses a tenth at most.
HORIZON = "W:Wc1,e1,g1,b2,d2,f2,h2,e3,g3,d4,c5:Bh4,a5,b6,f6,h6,a7,e7,b8,d8,f8,h8"


@needs_core
def test_a_loss_the_deeper_searches_do_not_see_is_not_graded(no_tables):
    pos = parse_fen(HORIZON)
    move = parse_move(pos, "b2-a3")
    assert _first_loss(pos, move) >= INACCURACY  # graded ?! before
    for depth in (15, 16):  # the proof: both moves at the same depth, fresh tables
        best = make_searcher(default_heuristic().evaluate).search(pos, max_depth=depth)
        played = make_searcher(default_heuristic().evaluate).search(pos, max_depth=depth,
                                                                    moves=[move])
        assert best.score - played.score <= 20  # within a fifth of a man
    [v] = grade_game(game_of(HORIZON, "b2-a3"), tables=no_tables)
    assert v.grade is None and v.loss < INACCURACY


def test_a_confirming_search_reads_its_loss_at_its_last_two_depths():
    pos = parse_fen(LOSES_TWO)
    played, other = parse_move(pos, "f6-e5"), parse_move(pos, "f8-e7")
    steps = [_Step(8, 0.1, -2.0, other, (other,), (played,)),  # left behind: not read
             _Step(9, 0.3, 0.3, played, (played,), (played,)),  # the move played is best
             _Step(10, 0.5, -0.3, other, (other,), (played,))]  # 0.8 lost at one depth alone
    v, played_line = _averaged(3, pos, played, steps)
    # White's side, Black to move: the mean of 0.3 and 0.5 before, of 0.3 and -0.3 after
    assert (v.ply, v.before, v.after, v.loss) == (3, -0.4, 0.0, 0.4)
    assert v.best == other and v.best_line == (other,) and played_line == (played,)
    assert v.grade is None  # graded by grade_game, with the other searches
    won = [_Step(9, 0.5, 0.4, other, (), ()), _Step(10, DECIDED, 6.0, other, (other,), ())]
    assert _averaged(0, pos, played, won)[0].loss == DECIDED - 6.0  # a forced win: that depth
    same = [_Step(9, 0.5, 0.5, played, (), ()), _Step(10, 0.6, 0.6, played, (played,), ())]
    v, _ = _averaged(0, pos, played, same)
    assert v.best is None and v.loss == 0


class _StopAfter(threading.Event):
    """A stop event set once it has been asked ``asked`` times (a Ctrl-C mid-review)."""

    def __init__(self, asked: int) -> None:
        super().__init__()
        self.left = asked

    def is_set(self) -> bool:
        self.left -= 1
        return self.left < 0


def test_a_stopped_grading_gives_the_first_moves_verdicts_whole(no_tables):
    # the blunder a7-b6 first: its verdict, confirmed, is among those given before the stop
    game = game_of(LOSES_TWO, "a7-b6", "a3-b4", "c5:a3", "f4-g5", "h6:f4")
    whole = grade_game(game, nodes=NODES, tables=no_tables)
    stopped = grade_game(game, nodes=NODES, tables=no_tables, stop=_StopAfter(2))
    assert stopped == whole[:2] and stopped[0].grade is Grade.BLUNDER
    assert grade_game(game, nodes=NODES, tables=no_tables, stop=_StopAfter(0)) == []
