"""Every hand-written rule of the shipped knowledge base wins what it promises.

For each rule of ``combos/motifs.txt`` and ``combos/endgames.txt``: a concrete position it
matches, where its move is legal (the rule fires), and where an exhaustive search of every
defence (kbdraughts/referee.py and tests/kb_promises.py, built on the move generator only)
proves its promise. The same is checked for the mirrored position, where the rule fires for
Black.
"""

from __future__ import annotations

import pytest
from kb_promises import catches, crowns, holds_main_road, lone_king_survives, rule_move

from kbdraughts.board import play
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.referee import nets

SHIPPED = [
    ('shot-01', 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8', 'nets', 1),
    ('shot-02', 'W:Wc1,h2,e3,g3:BKe5,g5,d6,f6', 'nets', 1),
    ('shot-03', 'W:Wa1,e1,b2,f2,h2,c3,b4:Bf4,Kg5,b6,f6,h6,a7,e7,g7,b8,d8,f8', 'nets', 1),
    ('shot-04', 'W:Wa1,g1,f2,h2,a3,e3,f4:Ba5,b6,f6,h6,g7,b8,f8,h8', 'nets', 1),
    ('shot-05', 'W:Wa1,c1,e1,g1,b2,d2,f2,e3,g3,d4,h6:Bb4,b6,f6,a7,e7,g7,b8,d8,f8,h8', 'nets', 1),
    ('shot-06', 'W:Wa1,c1,g1,b2,d2,f2,h2,c3,h4,a5:Bc5,g5,f6,e7,g7,b8,d8,f8', 'nets', 1),
    ('shot-07', 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3:Ba5,e5,d6,h6,a7,c7,b8,d8,f8,h8', 'nets', 1),
    ('shot-08', 'W:Wa1,c1,b2,h2,a3,c3:Ba5,e5,a7,c7,e7,g7,b8,f8,h8', 'nets', 3),
    ('shot-09', 'W:Wa1,e1,g1,b2,d2,h2,g3,h4:Bd4,h6,a7,c7,e7,g7,b8,h8', 'nets', 1),
    ('shot-10', 'W:Wa1,e1,g1,b2,d2,f2,h2,a3,g3,f4:Bd4,d6,h6,c7,e7,g7,b8,d8,f8,h8', 'nets', 1),
    ('shot-11', 'W:Wa1,b2,f2,a3,c3,e3,g3:Bh4,a5,c5,g5,d6,f6,h6,a7,c7,e7,b8', 'nets', 2),
    ('shot-12', 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3:Ba5,e5,d6,h6,a7,c7,b8,d8,f8,h8', 'nets', 1),
    ('shot-13', 'W:Wa1,b2,f2,a3,c3,g3:Ba5,c5,e5,g5,a7,g7,b8,f8,h8', 'nets', 2),
    ('shot-14', 'W:Wa1,c1,g1,b2,f2,h2,c3,d4,h4,a5:Bf4,b6,f6,h6,a7,c7,g7,b8,f8,h8', 'nets', 1),
    ('shot-15', 'W:Wa1,e1,b2,d2,h2,a3,b4:BKd4,b6,d6,a7,c7,e7,f8', 'nets', 1),
    ('shot-16', 'W:Wc1,e1,g1,b2,d2,f2,h2,a5:Bf4,h4,g5,h6,a7,e7,b8,f8,h8', 'nets', 1),
    ('shot-17', 'W:Wa1,c1,g1,b2,f2,h2,g3:Bc5,g5,d6,g7,b8,d8,h8', 'nets', 1),
    ('shot-18', 'W:Wa1,c1,e1,g1,b2,d2,a3,c3,f4,h4,h6,a7:Ba5,c5,f6,e7,g7,b8,d8,f8,h8', 'nets', 1),
    ('shot-19', 'W:Wa1,c1,e1,g1,b2,f2,a3,c3,e3,f4,h4:Ba5,c5,g5,f6,h6,a7,c7,g7,b8,d8,f8', 'nets', 1),
    ('shot-20', 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,e3,g3,a5:Be5,g5,b6,f6,a7,c7,e7,g7,d8,f8,h8', 'nets', 2),
    ('shot-21', 'W:Wa1,c1,e1,g1,d2,f2,h2,c3,e3,b4,f4,h4:Ba5,d6,f6,h6,a7,c7,b8,d8,f8,h8', 'nets', 2),
    ('shot-22', 'W:Wc1,e1,g1,b2,d2,f2,c3,g3:Ba3,c5,g5,h6,a7,c7,e7,g7,b8,h8', 'nets', 3),
    ('shot-23', 'W:Wa1,c1,e1,g1,b2,d2,a3,c3,g3:Ba5,c5,h6,a7,g7,b8,d8,f8,h8', 'nets', 1),
    ('shot-24', 'W:Wa1,c1,e1,g1,b2,h2,a3,g3,f4,h4:Bb6,d6,f6,h6,a7,g7,b8,f8,h8', 'nets', 2),
    ('shot-25', 'W:Wa1,g1,f2,a3,d4:Bd2,h4,b6,g7,d8,h8', 'nets', 1),
    ('shot-26', 'W:Wc1,e1,g1,d2,f2,h2,e3,f4,a5:Ba3,h4,b6,f6,h6,a7,c7,g7,b8,h8', 'nets', 1),
    ('shot-27', 'W:Wa1,b2,c3,d4:Bf4,g5,d6,f6,c7,g7', 'nets', 1),
    ('shot-28', 'W:Wa1,c1,g1,h2,d4,h4:Ba3,g5,Kb6,f6,h6,e7,g7,b8,h8', 'nets', 2),
    ('shot-29', 'W:Wa1,c1,e1,g1,b2,d2,f2,a3,e3,g3,b4,f4:Be5,g5,b6,d6,h6,a7,c7,e7,b8,d8,f8,h8', 'nets', 1),
    ('shot-30', 'W:Wa1,c1,e1,g1,f2,h2,c3,e3:Bc5,e5,b6,h6,a7,e7,g7,b8', 'nets', 3),
    ('shot-31', 'W:Wa1,g1,b2,h2,a3,b4,h4,a5:Bc5,e5,d6,h6,a7,c7,e7,g7,h8', 'nets', 1),
    ('shot-32', 'W:Wa1,c1,e1,g1,d2,f2,h2,c3,d4,f4,h4:Bb4,a5,b6,f6,h6,c7,b8,d8,f8,h8', 'nets', 1),
    ('shot-33', 'W:Wc1,e1,b2,f2,h2,e3,g3:Bb4,b6,d6,a7,b8,f8', 'nets', 1),
    ('shot-34', 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,d4,a5:Bg5,d6,f6,a7,g7,b8,d8,h8', 'nets', 2),
    ('shot-35', 'W:Wa1,c1,e1,b2,d2,e3,g3,d4,h4,h6:Bb4,c5,b6,d6,e7,g7,b8,f8,h8', 'nets', 2),
    ('shot-36', 'W:Wa1,c1,b2,d2,f2,h2,a3,c3,e3,h4:Bc5,e5,g5,b6,f6,a7,c7,e7,g7,d8', 'nets', 2),
    ('shot-37', 'W:Wa1,c1,e1,g1,b2,f2,h2,c3,d4,c5:Be3,a5,g5,h6,a7,c7,e7,g7,b8,f8,h8', 'nets', 2),
    ('breakthrough-1', 'W:Wd6,h6:Bb6,e7,f8', 'crowns', 3),
    ('breakthrough-2', 'W:Wc5,b6,a7:Bb8,h8', 'crowns', 3),
    ('breakthrough-3', 'W:Wb6,d6:Ba7,b8,h8', 'crowns', 3),
    ('breakthrough-4', 'W:Wc5,f6,h6:Bc7,d8', 'crowns', 3),
    ('breakthrough-5', 'W:Wa5,a7,c7:Bb8,d8,f8', 'crowns', 3),
    ('breakthrough-6', 'W:Wg5,d6,f6:Bh6,a7,f8', 'crowns', 3),
    ('petrov-catch-1', 'W:WKg1,Kd4,Kb8:BKa7', 'catches', 2),
    ('petrov-catch-2', 'W:WKh2,Ka7,Kc7:BKb8', 'catches', 2),
    ('petrov-catch-3', 'W:WKg1,Kf4,Ka7:BKh2', 'catches', 2),
    ('petrov-catch-4', 'W:WKg1,Kc3,Ke5:BKh2', 'catches', 2),
    ('petrov-catch-5', 'W:WKc1,Kf2,Kb6:BKa7', 'catches', 2),
    ('petrov-catch-6', 'W:WKe1,Kf2,Kd4:BKa7', 'catches', 2),
    ('main-road-from-g1', 'W:WKg1,c1,a3:BKe7', 'main-road', 0),
    ('main-road-from-a7', 'W:WKa7,d2,g3:BKe7', 'main-road', 0),
    ('main-road-from-e1', 'W:WKe1,g3,g1:BKe7', 'main-road', 0),
    ('main-road-from-a5', 'W:WKa5,a3,g3:BKe7', 'main-road', 0),
    ('main-road-from-h4', 'W:WKh4,g1,h2:BKe1', 'main-road', 0),
    ('main-road-from-d8', 'W:WKd8,e3,g3:BKh6', 'main-road', 0),
    ('main-road-from-b8', 'W:WKb8,a3,g1:BKh4', 'main-road', 0),
    ('main-road-from-h2', 'W:WKh2,d2,c1:BKg1', 'main-road', 0),
    ('lone-king-to-main-road-from-g1', 'W:WKg1:BKe7,Kh4,Kc7', 'lone-king', 0),
    ('lone-king-to-main-road-from-a7', 'W:WKa7:BKe1,Kb4', 'lone-king', 0),
    ('lone-king-to-main-road-from-e1', 'W:WKe1:BKb8,Kf4,Ka3', 'lone-king', 0),
    ('lone-king-to-main-road-from-a5', 'W:WKa5:BKh4,Kc5', 'lone-king', 0),
    ('lone-king-to-main-road-from-h4', 'W:WKh4:BKc5,Kd6', 'lone-king', 0),
    ('lone-king-to-main-road-from-d8', 'W:WKd8:BKc5,Kb8,Ke3', 'lone-king', 0),
    ('lone-king-to-main-road-from-b8', 'W:WKb8:BKd8,Ke7,Kf2', 'lone-king', 0),
    ('lone-king-to-main-road-from-h2', 'W:WKh2:BKf8,Kc5', 'lone-king', 0),
]


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base()


def kept(kind: str, amount: int, before, after, us: int, landing: int) -> bool:
    if kind == "nets":
        return nets(before, after, us) >= amount
    if kind == "crowns":
        return crowns(before, after, us, amount)
    if kind == "catches":
        return catches(after, us, amount)
    if kind == "main-road":
        return bool(holds_main_road(after, us, landing))
    if kind == "lone-king":
        return bool(holds_main_road(after, us, landing)) and lone_king_survives(after, us)
    raise ValueError(kind)


@pytest.mark.parametrize("rule_id, fen, kind, amount", SHIPPED, ids=[r[0] for r in SHIPPED])
@pytest.mark.parametrize("mirrored", [False, True], ids=["as-written", "mirrored"])
def test_rule_wins_what_it_promises(kb, rule_id: str, fen: str, kind: str, amount: int,
                                    mirrored: bool):
    pos, move = rule_move(kb, rule_id, fen, mirrored)
    after = play(pos, move)
    assert kept(kind, amount, pos, after, pos.side, move.end), f"{rule_id}: {kind} {amount} fails"


def test_every_hand_written_rule_has_a_test(kb):
    hand_written = {r.id for r in kb.rules if r.path.endswith(("motifs.txt", "endgames.txt"))}
    assert len(hand_written) >= 40
    assert hand_written == {r[0] for r in SHIPPED}


def test_a_promise_check_can_fail(kb):
    # The referee is not a rubber stamp: a quiet move that gives a man away for nothing fails.
    pos = parse_fen("W:Wc3:Be5")
    move = parse_move(pos, "c3-d4")
    assert not kept("nets", 1, pos, play(pos, move), 0, move.end)
    assert not kept("crowns", 3, pos, play(pos, move), 0, move.end)


@pytest.mark.parametrize("fen", [
    "W:WKe1,g3,g1:Be3",  # Black still has a man: stop it or take it, the road can wait
    "W:WKe1,g3,g1:BKb8,e3",
    "W:WKe1,g3:BKe7",  # two pieces cannot build the triangle
])
def test_the_main_road_is_taken_against_a_lone_king_only(kb, fen: str):
    # The same three White pieces against the lone king W:...:BKe7 do take it: that is
    # main-road-from-e1's own test above.
    pos = parse_fen(fen)
    assert not [m for m in kb.firing(pos) if m.rule.id.startswith("main-road")]


SHOTS = [r for r in SHIPPED if r[2] == "nets"]


@pytest.mark.parametrize("rule_id, fen, kind, amount", SHOTS, ids=[r[0] for r in SHOTS])
def test_the_ai_capture_tree_agrees_with_each_shot(kb, rule_id: str, fen: str, kind: str,
                                                   amount: int):
    # After the shot's quiet move every continuation is a capture, so the AI's capture tree
    # (its own code, its own numbers) must see the line win the promised men too.
    from kbdraughts.capture_tree import exchange
    from kbdraughts.values import MAN_LOST

    pos = parse_fen(fen)
    (match,) = [m for m in kb.firing(pos) if m.rule.id == rule_id and not m.mirrored]
    line = exchange(play(pos, match.move), pos.side)
    assert line.score >= amount * MAN_LOST, (rule_id, line)
