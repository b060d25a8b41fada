"""A rule's claim (ai/claims.py): read from a motif's fields or a pattern rule's name, and
checked by the referee against every defence within fixed bounds."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kbdraughts.ai.claims import (
    CATCHES, CROWNS, DANGER, GAIN, MAIN_ROAD, Claim, claim_of, danger_is_real, gain_of, holds,
    two_ply_wins,
)
from kbdraughts.coach.annotator import expected_line
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.kb.rules.rule import make_rule
from kbdraughts.notation import move_text, parse_fen, parse_move

SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base()


def texts(moves) -> list[str]:
    return [move_text(m) for m in moves]


# -------------------------------------------------------------------------------


def test_the_claims_of_the_shipped_rules_are_read_from_their_names(kb):
    assert claim_of(kb.rule("shot-01")) == Claim(GAIN, 1)  # gives a man, takes two
    assert claim_of(kb.rule("shot-08")) == Claim(GAIN, 3)  # gives a man, takes four
    assert claim_of(kb.rule("shot-32")) == Claim(GAIN, 1)  # gives two men, takes three
    threat = make_rule("t-1", "a3-b4", cells=("?",) * 8 + ("w",) + ("?",) * 23,
                       name="threat a3-b4, nets 1")  # as the mined rules were named
    assert claim_of(threat) == Claim(GAIN, 1)
    assert claim_of(kb.rule("breakthrough-1")) == Claim(CROWNS)
    assert claim_of(kb.rule("petrov-catch-1")) == Claim(CATCHES)
    assert claim_of(kb.rule("main-road-from-g1")) == Claim(MAIN_ROAD)
    opening = next(r for r in kb.rules if r.exact)
    assert claim_of(opening) is None


def test_a_motifs_claim_is_its_fields():
    motif = SimpleNamespace(name="a shot", exact=False, gain=2, promise=None, warning=False)
    assert claim_of(motif) == Claim(GAIN, 2)
    motif.gain, motif.promise = None, "catches the lone king"
    assert claim_of(motif) == Claim(CATCHES)
    motif.warning = True
    assert claim_of(motif) == Claim(DANGER)
    assert Claim(GAIN, 2).words() == "wins two men" and Claim(GAIN).words(3) == "wins three men"


def test_the_referee_confirms_a_shot_and_refuses_a_quiet_move():
    pos = parse_fen(SHOT_01)
    shot, quiet = parse_move(pos, "e3-d4"), parse_move(pos, "g3-h4")
    assert gain_of(pos, shot) == 1 and holds(Claim(GAIN, 1), pos, shot)
    assert not holds(Claim(GAIN, 2), pos, shot)  # it nets one, not two
    assert gain_of(pos, quiet) == 0 and not holds(Claim(GAIN), pos, quiet)
    assert texts(expected_line(pos, shot)) == ["e3-d4", "c5:e3", "d2:f4:h6"]
    assert [(move_text(m), n) for m, n in two_ply_wins(pos)] == [("e3-d4", 1)]
    assert two_ply_wins(parse_fen("W:Wa1,c3:Bf6,h8")) == []  # nothing to win
    assert two_ply_wins(parse_fen("W:Wc3:Bd4,h8")) == []  # a capture is pending: not quiet


@pytest.mark.parametrize("claim, fen, move, kept", [
    (CROWNS, "W:Wc5,b6,a7:Bb8,h8", "b6-c7", True),
    (CROWNS, "W:Wc5,b6,a7:Bb8,h8", "c5-d6", False),
    (CATCHES, "W:WKg1,Kd4,Kb8:BKa7", "g1-e3", True),
    (CATCHES, "W:WKg1,Kd4,Kb8:BKa7", "g1-h2", False),
    (MAIN_ROAD, "W:WKg1,c1,a3:BKe7", "g1-d4", True),
    (MAIN_ROAD, "W:WKg1,c1,a3:BKe7", "g1-h2", False),
])
def test_the_promises_are_checked_against_every_defence(claim, fen, move, kept):
    pos = parse_fen(fen)
    assert holds(Claim(claim), pos, parse_move(pos, move)) is kept


def test_a_danger_is_real_when_a_man_hangs():
    assert danger_is_real(parse_fen("W:Wc3,h2:Bd4,h8"))  # were it Black's move, d4:b2
    assert not danger_is_real(parse_fen("W:Wa1:Bh8"))


def test_a_move_that_leaves_the_opponent_nothing_wins_the_game():
    from kbdraughts.ai.claims import GAME_WON

    pos = parse_fen("W:WKa1:Bc3,e5")  # the king takes both men: no piece of Black's is left
    move = parse_move(pos, "a1:d4:f6")
    assert gain_of(pos, move) >= GAME_WON and Claim(GAIN).words(gain_of(pos, move)) == (
        "wins the game")
    assert gain_of(parse_fen(SHOT_01), parse_move(parse_fen(SHOT_01), "e3-d4")) < GAME_WON
