"""bench/coach.py: the coach's claims judged again deeper, counted by kind, on a tiny game;
bench/master.py: the moves that lose a man by force, counted and matched with the notes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kbdraughts.game import Game
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.notation import move_text, parse_fen, parse_move
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
#: Black walks into shot-01 (d6-c5), White lets it pass (g3-h4), c7-d6 loses a man.
START = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
#: shot-1-for-2's g3-f4 nets a man in two plies; the search at depth 10 wins it back.
REFUTED = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,g3,a5:Bc5,g5,f6,h6,c7,e7,b8,d8,f8,h8"
#: shot-01: White's e3-d4 c5:e3 d2:f4:h6 nets a man.
SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


@pytest.fixture(scope="module")
def bench():
    return load_script("bench/coach.py", "bench_coach")


def game_of(fen: str, *moves: str) -> Game:
    game = Game(parse_fen(fen))
    for text in moves:
        game.push(parse_move(game.position, text))
    return game


def test_the_claims_are_counted_by_kind_and_judged_deeper(bench):
    games = [game_of(START, "d6-c5", "g3-h4", "c7-d6"), game_of(REFUTED, "g3-f4")]
    counts = bench.measure(games, load_knowledge_base(), depth=10, judge=12)
    assert counts["written", "allowed"] == counts["written", "missed"] == 1
    assert counts["written", "loses"] == 1
    assert counts["written", "played"] == 0  # g3-f4 gives the man back: the screen sees it
    # every claim is proved, then written or refuted
    for kind in ("allowed", "loses", "missed", "played"):
        assert counts["proved", kind] == counts["written", kind] + counts["refuted", kind]
        assert counts["proved held", kind] == (counts["written held", kind]
                                               + counts["refuted held", kind])
    assert counts["written held", "allowed"] == 1  # the shot holds at depth 12 too
    lines = bench.report(counts, 10, 12)
    assert lines[1].startswith("notes written (checked at depth 10)")
    assert lines[-1] == "(held: the judge, the same check at depth 12, confirms the claim)"


@pytest.fixture(scope="module")
def master():
    return load_script("bench/master.py", "bench_master")


def test_the_moves_losing_a_man_by_force_are_counted_and_matched_with_the_notes(master):
    # d6-c5 walks into the shot, g3-h4 lets it pass, c7-d6 gives a man: three moves that
    # lose a man by force, each with the coach's note (allowed, missed, loses)
    game = game_of(START, "d6-c5", "g3-h4", "c7-d6")
    counts = master.measure([game], load_knowledge_base(), moves_depth=8, judge=12, seed=1)
    assert counts["moves"] == 3 and counts["lost"] == 3
    assert counts["lost noted"] == 3 and counts["lost named"] == 2  # the shot, twice
    assert counts["lost kb"] == 2  # a rule names the shot; c7-d6's loss no rule names
    assert counts["shipped", "allowed"] == counts["shipped", "missed"] == 1
    assert counts["shipped on a loss"] == counts["shipped errors"] == 3
    assert 0 <= counts["random lost"] <= 3
    lines = master.report(counts, 8, 12, 1)
    assert lines[0].startswith("moves losing a man or more by force (material search, depth "
                               "8): 3 of 3 (100%); anchor, a random legal move")
    assert lines[1].startswith("  noted by the coach (loses, allowed, missed): 3 of 3 (100%)")


def test_a_loss_is_the_best_move_against_the_move_played_at_one_depth(master):
    # White to move: e3-d4 wins a man (the shot), g3-h4 wins nothing: a man's difference
    game = game_of(SHOT_01, "g3-h4")
    losses = master.Losses(8)
    [row] = losses.game(game, random.Random(0))
    assert row["loss"] == 100 and move_text(row["best"]) == "e3-d4"
    [quiet] = losses.game(game_of(SHOT_01, "e3-d4"), random.Random(0))
    assert quiet["loss"] == 0
