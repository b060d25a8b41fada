"""Level 1's weighted move sees the opponent's shot: a man given to take more back (issue 40,
item 24; :func:`kbdraughts.eval.move_features.their_shot`). Its claim is checked by
exhaustive search (:func:`kbdraughts.proof.prove`, a king weighed 2.5 men)."""

from __future__ import annotations

import random
import threading

import pytest

from kbdraughts.ai.engine import Engine
from kbdraughts.board import START, Position, captures, legal_moves, play
from kbdraughts.eval.move_features import their_shot
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen
from kbdraughts.proof import prove, weigh
from kbdraughts.values import KING_LOST, MAN_LOST, MAN_TAKEN, MAN_VALUE, KING_VALUE
from scripts import load_script

#: White's king on the long diagonal, Black's man on h8 behind it: most moves let Black give
#: e7-f6 (or another man) so that the king must take and land where a man takes it back.
KING_FOR_A_MAN = "W:WKb2,c1,e1,g1:Bh8,e7,a7,c7"


@pytest.fixture(scope="module")
def level1() -> Engine:
    engine = Engine(level=1, egdb=False)
    engine.warm(tables=False)
    return engine


@pytest.fixture(scope="module")
def bench():
    return load_script("bench/level1_losses.py", "bench_level1_shots")


def quiet_replies(pos: Position) -> list:
    """The mover's moves after which the opponent has no capture (where their_shot counts)."""
    return [m for m in legal_moves(pos) if not captures(play(pos, m))]


def test_a_king_for_a_man_is_what_exhaustive_search_finds():
    """Where their_shot says a king is lost for a man (the tree's 105 - 250), the exhaustive
    search over their reply and the captures after it loses 1.5 men (250 - 100), and where it
    says nothing, the search finds no loss either: move by move, no move left out."""
    pos = parse_fen(KING_FOR_A_MAN)
    us, base = pos.side, weigh(pos, pos.side)
    shot, safe = [], []
    for move in quiet_replies(pos):
        after = play(pos, move)
        lost = prove(after, us, 1).value - base
        if their_shot(after, us) == MAN_TAKEN - KING_LOST:
            assert lost == MAN_VALUE - KING_VALUE, move_text(move)
            shot.append(move_text(move))
        else:
            assert their_shot(after, us) == 0 and lost == 0, move_text(move)
            safe.append(move_text(move))
    assert sorted(safe) == ["b2-a3", "b2-e5"] and len(shot) == 8


def test_level_1_keeps_its_king(level1, bench):
    """The weighted move played c1-d2 here (+39: the guard kept, a tempo), and lost the king
    to a man given."""
    pos = parse_fen(KING_FOR_A_MAN)
    choice = level1.choose(Game(pos), threading.Event())
    assert choice is not None
    assert move_text(choice.move) in ("b2-a3", "b2-e5"), choice.reason
    assert bench.loses(pos, next(m for m in legal_moves(pos) if move_text(m) == "c1-d2"))
    assert not bench.loses(pos, choice.move)


def test_their_shot_is_a_real_loss_whenever_it_says_half_a_man():
    """In positions of random games, every quiet move after which their_shot says the
    opponent wins half a man or more (the tree's scale) loses material against every defence
    by exhaustive search (their reply and the captures after it). The tree weighs a crowning
    2 men where the search weighs it 1.5: a smaller shot may be none (a king taken for a man
    that crowns)."""
    rng, seen = random.Random(40), 0
    for _ in range(25):
        pos = START
        for _ply in range(100):
            moves = legal_moves(pos)
            if not moves:
                break
            if not captures(pos):
                us = pos.side
                for move in quiet_replies(pos):
                    after = play(pos, move)
                    if legal_moves(after) and their_shot(after, us) <= -MAN_LOST // 2:
                        seen += 1
                        assert prove(after, us, 1).value < weigh(after, us), \
                            (pos, move_text(move))
            pos = play(pos, rng.choice(moves))
    assert seen >= 50  # the check saw shots, not an empty set


def test_level_1_loses_in_at_most_1_percent_of_the_sets_start(bench):
    """The issue's target on the kept set's first 310 positions (of the first 3,000 quiet
    positions), where the issue measured 1.6% (the whole set: test_ai_level1_losses.py)."""
    result = bench.measure(bench.read_set(positions=3000))
    assert result["positions"] == 310
    assert len(result["lost"]) <= 0.01 * result["positions"], bench.report(result, True)


def test_the_gain_holds_on_a_second_set(bench):
    """The set made with another seed (2027; 1.46% at the commit before their_shot)."""
    result = bench.measure(bench.read_set(bench.ROOT / "bench/data/level1_wins_2027.txt"))
    assert result["positions"] == 752
    assert len(result["lost"]) <= 0.01 * result["positions"], bench.report(result, True)
