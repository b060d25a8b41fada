"""referee.py: the exhaustive material minimax the rule tests and the rule tools share."""

from __future__ import annotations

from kbdraughts.referee import (
    LOST, balance, forces, move_squares, nets, principal_line, resolve,
)
from kbdraughts.board import BLACK, WHITE, legal_moves, play
from kbdraughts.notation import SQUARE_NAMES, move_text, parse_fen, parse_move


def test_balance_counts_pieces_for_either_side():
    pos = parse_fen("W:Wa1,Kc3:Bh8")
    assert (balance(pos, WHITE), balance(pos, BLACK)) == (1, -1)


def test_resolve_plays_the_captures_out():
    pos = parse_fen("W:Wc3,g3:Bd4,f6,h8")  # c3:e5:g7 takes two, h8:f6 takes one back
    assert resolve(pos, WHITE, 0) == 0 and balance(pos, WHITE) == -1


def test_a_side_without_a_move_has_lost():
    blocked = parse_fen("B:Wc5,b6:Ba7")  # the man on a7 is walled in
    assert legal_moves(blocked) == []
    assert (resolve(blocked, WHITE, 2), resolve(blocked, BLACK, 2)) == (LOST, -LOST)
    assert resolve(parse_fen("W:W:Bh8"), WHITE, 2) == -LOST  # no piece, no move


def test_principal_line_agrees_with_resolve():
    pos = parse_fen("W:Wc1,e1,b2,f2,c3:Bf4,d6,f6,b8")
    for plies in range(3):
        value, line = principal_line(pos, WHITE, plies)
        assert value == resolve(pos, WHITE, plies)
        end = pos
        for m in line:
            assert m in legal_moves(end)
            end = play(end, m)


def test_a_shot_nets_what_it_wins():
    before = parse_fen("W:Wc1,h2,e3,g3:BKe5,g5,d6,f6")  # shot-02 of the shipped motifs
    move = parse_move(before, "g3-f4")
    assert nets(before, play(before, move), WHITE) >= 1


def test_forces_a_goal_against_every_defence():
    pos = parse_fen("W:Wg7:Bb8")
    assert forces(pos, WHITE, 1, lambda p: bool(p.white & p.kings))
    assert not forces(pos, WHITE, 0, lambda p: bool(p.white & p.kings))


def test_move_squares_are_start_landings_and_taken_pieces():
    pos = parse_fen("W:Wc3:Bd4,f6")
    (move,) = legal_moves(pos)
    assert move_text(move) == "c3:e5:g7"
    assert sorted(SQUARE_NAMES[s] for s in move_squares(move)) == ["c3", "d4", "e5", "f6", "g7"]


def test_a_node_budget_stops_the_referee_and_changes_nothing_within_it():
    import random

    import pytest

    from kbdraughts.referee import Nodes, OutOfNodes, forces, nets, resolve
    from kbdraughts.board import legal_moves, play
    from kbdraughts.game import random_walk

    for pos in list(random_walk(random.Random(5), 80))[::8]:
        for m in legal_moves(pos)[:3]:
            after = play(pos, m)
            assert nets(pos, after, pos.side, 2, Nodes(10**6)) == nets(pos, after, pos.side, 2)
            goal = lambda q: bool(q.kings)  # noqa: E731
            assert forces(after, pos.side, 3, goal, Nodes(10**6)) == forces(after, pos.side, 3,
                                                                            goal)
    # With many kings the budget is counted (the native resolve, where built, cannot be
    # stopped, so it answers only positions of few kings).
    kings = parse_fen("W:WKa1,Kc1,Ke1,Kg1,Kb2,Kd2:BKb8,Kd8,Kf8,Kh8,Ka7,Kc7")
    nodes = Nodes(50)
    with pytest.raises(OutOfNodes):
        resolve(kings, 0, 4, nodes)
    assert nodes.left == -1
    assert resolve(kings, 0, 1, Nodes(10**6)) == resolve(kings, 0, 1)
