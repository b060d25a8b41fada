"""The capture tree: scores and lines on known positions, and against a plain minimax."""

from __future__ import annotations

import random

import pytest

from kbdraughts.capture_tree import exchange, gain, score_captures
from kbdraughts.board import START, captures, legal_moves, play
from kbdraughts.game import random_walk
from kbdraughts.notation import move_text, parse_fen
from kbdraughts.values import CROWN_GAIN, KING_TAKEN, MAN_LOST, MAN_TAKEN


def best(fen: str):
    scored = score_captures(parse_fen(fen))
    return max(scored, key=lambda ml: ml[1].score)


def test_a_double_capture_scores_two_men():
    move, line = best("W:Wc3:Bd4,f6")
    assert move_text(move) == "c3:e5:g7"
    assert line.score == 2 * MAN_TAKEN
    assert [move_text(m) for m in line.moves] == ["c3:e5:g7"]


def test_an_even_trade_is_worth_the_five_points_of_the_first_take():
    move, line = best("W:Wc3:Bd4,f6,g7")
    assert [move_text(m) for m in line.moves] == ["c3:e5", "f6:d4"]
    assert line.score == MAN_TAKEN - MAN_LOST == 5


def test_a_king_taken_is_worth_two_and_a_half_men():
    _, line = best("W:Wc3:BKd4")
    assert line.score == KING_TAKEN == 262


def test_crowning_during_a_capture_counts():
    move, line = best("W:Wf6:Be7,h2")
    assert move.crowned and line.score == MAN_TAKEN + CROWN_GAIN


def test_the_tree_prefers_the_capture_that_loses_nothing():
    # c3:e5 takes d4 but f6:d4:f2 takes two back (g1:e3 then one more): 105-200+105.
    # e3:c5 takes the same man and nothing answers it.
    pos = parse_fen("W:Wc3,e3,g1:Bd4,f6,g7")
    lines = {move_text(m): line for m, line in score_captures(pos)}
    assert [move_text(m) for m in lines["c3:e5"].moves] == ["c3:e5", "f6:d4:f2", "g1:e3"]
    assert lines["c3:e5"].score == 2 * MAN_TAKEN - 2 * MAN_LOST
    assert lines["e3:c5"].score == MAN_TAKEN


def test_no_capture_is_an_empty_line():
    line = exchange(START, START.side)
    assert line.score == 0 and line.moves == ()


def _naive(pos, us) -> int:
    """Minimax over mutual captures, written plainly: the reference."""
    caps = captures(pos)
    if not caps:
        return 0
    values = [gain(pos, m, us) + _naive(play(pos, m), us) for m in caps]
    return max(values) if pos.side == us else min(values)


def _random_positions(n: int, seed: int):
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        for pos in random_walk(rng, rng.randrange(6, 60)):
            if captures(pos) and rng.random() < 0.3:
                found.append(pos)
                break
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_tree_agrees_with_plain_minimax(seed):
    for pos in _random_positions(40, seed):
        for us in (0, 1):
            assert exchange(pos, us).score == _naive(pos, us)
        for m, line in score_captures(pos):
            assert line.moves[0] == m
            assert line.score == gain(pos, m, pos.side) + _naive(play(pos, m), pos.side)


def test_a_king_heavy_tree_stays_within_its_node_budget():
    from kbdraughts.capture_tree import MAX_NODES, TreeMemo

    # Mutual king captures here branch into millions of sequences (the plain tree took 30 s).
    pos = parse_fen("B:Wa1,Kc1,b2,f2,Kh2,b4,Kh4,a5,e5,Kf6,c7:"
                    "BKe1,Kg1,d2,Kd4,Kc5,Kd6,Kh6,e7,Kg7,b8,Kd8")
    memo = TreeMemo()
    for m in legal_moves(pos):
        line = exchange(play(pos, m), pos.side, memo, 1)
        replay = play(pos, m)
        for reply in line.moves:  # the line is a legal sequence of captures
            assert reply.captured and reply in legal_moves(replay)
            replay = play(replay, reply)
    assert memo.truncated and memo.nodes == MAX_NODES
