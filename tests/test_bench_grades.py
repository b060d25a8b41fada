"""bench/grades.py: the reference's scores cached by position and depth and read back, a move's
loss as the reference sees it, and the two shares the issue's targets name."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.game import Game
from kbdraughts.board import legal_moves
from kbdraughts.notation import move_text, parse_fen, parse_move
from scripts import load_script

#: c7-d6 leaves b6 and d6 to a5:c7:e5: a man lost.
START = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


@pytest.fixture(scope="module")
def bench():
    return load_script("bench/grades.py", "bench_grades")


def test_the_reference_is_cached_read_back_and_a_lost_man_is_a_losing_move(bench, tmp_path: Path):
    game = Game(parse_fen(START))
    for text in ("d6-c5", "g3-h4", "c7-d6"):
        game.push(parse_move(game.position, text))
    cache = tmp_path / "reference.tsv"
    bench.fill(bench.Reference(cache), [game], [4])
    assert len(cache.read_text(encoding="utf-8").splitlines()) == len(game.positions)
    again = bench.Reference(cache)  # read back: nothing searched twice
    losses = bench.reference_losses([game], again, 4)
    assert sorted(losses) == [(0, 0), (0, 1), (0, 2)]
    assert losses[0, 2] >= bench.LOST  # c7-d6 loses a man
    assert bench.reference_losses([game], again, 6) == {}  # another depth: not cached


def test_a_line_of_another_evaluation_is_stale(bench, tmp_path: Path):
    cache = tmp_path / "reference.tsv"
    cache.write_text(f"{START}\t4\t12\tfeedfacecafe\n", encoding="utf-8")
    ref = bench.Reference(cache)
    assert ref.stale == 1 and ref.scores == {}
    same = bench.weights_digest("weight x 1")
    assert bench.weights_digest("# a comment\nweight x 1  # sign: +\n") == same
    assert bench.weights_digest("weight x 2") != same


def test_the_shares_of_losing_moves_graded_and_of_notes_on_fine_moves(bench):
    losses = {(0, 0): 80, (0, 1): 10, (0, 2): 60, (0, 3): 30}
    said = bench.shares({(0, 0), (0, 1), (5, 5)}, losses)
    assert said == ("graded 1/2 of the losing moves (50.0%); 1/2 notes on fine moves (50.0%)")


def test_the_best_move_is_cached_and_a_losing_move_it_plays_is_unavoidable(bench, tmp_path: Path):
    cache = tmp_path / "reference.tsv"
    pos = parse_fen(START)
    bench.Reference(cache).score(pos, 4)
    again = bench.Reference(cache)
    best = again.best_move(pos, 4)  # read back, not searched again
    assert best is not None and len(cache.read_text(encoding="utf-8").splitlines()) == 1
    game = Game(pos)
    game.push(parse_move(pos, best))
    other = Game(pos)
    other.push(next(m for m in legal_moves(pos) if move_text(m) != best))
    losing = {(0, 0): bench.LOST}
    assert bench.unavoidable([game], again, 4, losing) == {(0, 0)}
    assert bench.unavoidable([other], again, 4, losing) == set()
    assert bench.unavoidable([game], again, 4, {(0, 0): bench.LOST - 1}) == set()
