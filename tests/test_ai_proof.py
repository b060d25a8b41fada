"""proof.py: the coach's exhaustive material minimax, a king counted as 2.5 men, equal to a
plain minimax without pruning on positions of random games; its null window agrees."""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import START, WHITE, legal_moves, play
from kbdraughts.notation import move_text, parse_fen
from kbdraughts.proof import GAME, at_least, prove, weigh


def plain(pos, us, plies) -> int:
    """The minimax with no pruning at all: the definition."""
    moves = legal_moves(pos)
    if not moves:
        return -GAME if pos.side == us else GAME
    if plies <= 0 and not moves[0].captured:
        return weigh(pos, us)
    values = [plain(play(pos, m), us, plies - 1) for m in moves]
    return max(values) if pos.side == us else min(values)


def positions(seed: int, count: int) -> list:
    """Positions of random games from the start (kings come in the longer ones)."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        pos = START
        for _ in range(rng.randrange(10, 90)):
            moves = legal_moves(pos)
            if not moves:
                break
            pos = play(pos, rng.choice(moves))
        out.append(pos)
    return out


@pytest.mark.parametrize("plies", [0, 1, 2, 3])
def test_prove_and_its_null_window_equal_the_plain_minimax(plies):
    for pos in positions(seed=plies, count=25):
        for us in (pos.side, 1 - pos.side):
            value = plain(pos, us, plies)
            proof = prove(pos, us, plies)
            assert proof.value == value
            assert at_least(pos, us, plies, value) and not at_least(pos, us, plies, value + 1)
            # the line plays out to the value
            end = pos
            for m in proof.line:
                assert m in legal_moves(end)
                end = play(end, m)
            if abs(value) < GAME:
                assert weigh(end, us) == value


def test_a_crowning_and_a_king_count_as_material():
    # g7-f8 crowns: a man (100) becomes a king (250), against Black's two men
    pos = parse_fen("W:Wg7:Bb4,a5")
    assert prove(pos, WHITE, 0).value == weigh(pos, WHITE) == -100
    assert prove(pos, WHITE, 1).value == 250 - 200
    # c3:e5:g7 takes two men, h8:f6 takes one back: level
    pos = parse_fen("W:Wc3,g3:Bd4,f6,h8")
    proof = prove(pos, WHITE, 0)
    assert proof.value == 0 and [move_text(m) for m in proof.line] == ["c3:e5:g7", "h8:f6"]
