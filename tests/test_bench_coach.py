"""bench/coach.py: the coach's claims judged again deeper, counted by kind, on a tiny game."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from kbdraughts.game import Game
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.notation import parse_fen, parse_move

ROOT = Path(__file__).resolve().parent.parent
#: Black walks into shot-01 (d6-c5), White lets it pass (g3-h4), c7-d6 loses a man.
START = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
#: shot-1-for-2's g3-f4 nets a man in two plies; the search at depth 10 wins it back.
REFUTED = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,g3,a5:Bc5,g5,f6,h6,c7,e7,b8,d8,f8,h8"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_coach", ROOT / "bench" / "coach.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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
