"""bench/egdb_play.py on a handful of 3-piece positions: the draw judgement agrees with the
database where the tables are asked, the count finds a judge that does not, and the games from
won and drawn positions end as the tables say. Nothing here is timed."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.ai.endgame import judge
from kbdraughts.ai.engine import Engine
from kbdraughts.game import Game
from kbdraughts.notation import parse_fen
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
#: Black to move loses whatever it plays, in 1, 2 or 7 plies by the move it chooses.
LOST_FOR_BLACK = "B:WKa5,Kb8:BKc7"

pytestmark = pytest.mark.usefixtures("endgame_tables")


@pytest.fixture(scope="module")
def bench():
    return load_script("bench/egdb_play.py", "bench_egdb_play")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(level=2, movetime_ms=30, seed=1, use_kb=False)


def test_the_judged_positions_are_covered_and_seeded(bench) -> None:
    games, _ = bench.judged_games(12, 3, seed=5)
    again, _ = bench.judged_games(12, 3, seed=5)
    assert [g.position for g in games] == [g.position for g in again]
    for g in games:
        wm, wk, bm, bk = g.position.counts()
        assert wk and bk and wm + wk + bm + bk <= 3 and g.result is None
        assert judge(g.position, *game_counters(g)) is not None
    assert any(g.moves for g in games)  # some walked, so the counters run


def test_the_tables_judge_every_draw_as_the_database_says(bench, engine: Engine) -> None:
    games, _ = bench.judged_games(12, 3, seed=5)
    a = bench.agreement(engine, games)
    assert (a.offers, a.accepts, a.asked, a.wrong) == (24, 24, 24, [])


class AlwaysOffers:
    """A judge that offers and takes a draw in every position."""

    def offers_draw(self, game, side):
        return True, ""

    def draw_verdict(self, game, side):
        return True, ""


def test_a_judge_that_always_agrees_to_a_draw_is_counted_wrong_in_won_positions(bench) -> None:
    won = Game(parse_fen("W:WKe1,Kg1:BKa7"))  # White wins in 4 moves
    a = bench.agreement(AlwaysOffers(), [won])
    # Black (lost) takes the draw rightly and offers it wrongly; White is wrong twice.
    assert (a.offers, a.accepts, a.asked) == (0, 1, 2)
    assert len(a.wrong) == 3


def test_the_walk_runs_the_counters_without_taking_or_crowning(bench) -> None:
    game = Game(parse_fen("W:WKc1,Ke1:BKa1"))
    bench.walk(game, random.Random(3), 20)
    assert game.ply == 20 and game.result is None
    assert game_counters(game) == (20, 20)


def test_won_and_drawn_starts_are_played_out_as_the_tables_say(bench, engine: Engine) -> None:
    starts = bench.play_starts(4, 4, 3, seed=7)
    wins = [s for s in starts if s.outcome == 1]
    draws = [s for s in starts if s.outcome == 0]
    assert len(wins) == len(draws) == 4
    fallbacks: Counter[str] = Counter()
    tw = bench.tally(wins, engine, 7, fallbacks)
    td = bench.tally(draws, engine, 7, fallbacks)
    assert (tw.won, tw.failed) == (4, [])
    assert (td.lost, td.stopped, td.failed) == (0, 0, [])
    assert sum(tw.reasons.values()) == sum(td.reasons.values()) == 4


def test_the_board_best_defence_delays_the_loss(bench) -> None:
    game = Game(parse_fen(LOST_FOR_BLACK))
    lengths = {}
    for m in game.legal_moves():
        game.push(m)
        v = judge(game.position, *game_counters(game))
        assert v is not None and v.outcome == 1  # every move loses
        lengths[m] = v.distance
        game.pop()
    assert len(set(lengths.values())) > 1  # some lose sooner than others
    best = bench.board_best(game.position, game.legal_moves())
    assert lengths[best] == max(lengths.values())
    assert lengths[bench.table_defence(random.Random(1), Counter())(game)] == max(lengths.values())
