"""The named ideas of the literature (issue 38, item 7): the motifs of combos/motifs.txt's last
section, each a player's idea the coach proved in real games and no motif named.

For each: where it fires (its first example, and the same position mirrored for Black), its
claim is proved by the referee's exhaustive search of every defence at the claim's horizon
(:func:`kbdraughts.ai.claims.holds`), and a gain still stands after the deep search's best
defence 10 plies on, as bench/motifs.py measures it; on a near miss (the position with one
piece gone) it does not fire, and the same move there does not keep its claim.

The quiet ideas (zugzwang, the opposition, the quiet king move) ask that no threat stood before
the move (``threat_now(P), P <= 0``): where one did, the move wins but the idea is not its own,
and the motif is silent.
"""

from __future__ import annotations

import re

import pytest
from scripts import load_script

from kbdraughts.ai.claims import GAIN, claim_of, danger_is_real, holds
from kbdraughts.board import legal_moves, mirror_position
from kbdraughts.coach.deep_check import DeepCheck
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.kb.motifs.vocab import Board
from kbdraughts.notation import move_text, parse_fen, parse_move
from kbdraughts.resources import combos_dir

#: The section of combos/motifs.txt these motifs open.
SECTION = "# -- named ideas of the literature (issue 38)"
#: (motif, where it fires, its move (None: a warning), a near miss: one piece gone).
CASES = [
    # d6-e5 is taken f4:d6, and e7:c5:a3:c1 crowns
    ("shot-crowns", "B:Wg1,b2,d2,f2,e3,g3,b4,f4:Bh4,d6,e7,f8", "d6-e5",
     "B:Wg1,b2,d2,f2,e3,g3,b4:Bh4,d6,e7,f8"),
    ("shot-for-two", "W:Wa1,c1,e1,g1,d2,h2,h6:Ba3,d4,h4,b6,e7,b8,d8,f8,h8", "h2-g3",
     "W:Wa1,c1,e1,g1,d2,h2,h6:Ba3,h4,b6,e7,b8,d8,f8,h8"),
    # e3-d4 empties e3: d2 is taken c1:e3, and f2... d2 gone, nothing opens
    ("shot-clearing", "W:Wd2,h2,e3,c5:BKc1,g3,f4,g5,h6,c7", "e3-d4",
     "W:Wh2,e3,c5:BKc1,g3,f4,g5,h6,c7"),
    # e1-f2 leaves f4 to g5:e3, and f2:d4:b6 takes two
    ("shot-prepared", "W:Wa1,c1,e1,g1,a3,f4,a5:Bc5,g5,h6,b8,d8,f8,h8", "e1-f2",
     "W:Wa1,c1,e1,g1,a3,f4,a5:Bg5,h6,b8,d8,f8,h8"),
    ("shot-many", "W:Wc1,e1,e3,f4,h4:Ba3,b4,b6,f6,h6,e7,f8", "f4-g5",
     "W:Wc1,e1,e3,f4:Ba3,b4,b6,f6,h6,e7,f8"),
    ("zugzwang", "W:Wa1,e1,g1,b2,d4:Bc3,f6,b8,f8,h8", "d4-c5",
     "W:Wa1,g1,b2,d4:Bc3,f6,b8,f8,h8"),
    ("opposition", "W:Wg1,g3,c5:Ba5,f6", "g3-f4", "W:Wg1,g3:Ba5,f6"),
    ("king-quiet", "W:Wc1,g5,f6,Kb8:Ba3,d4,c5,h8", "b8-a7", "W:Wc1,g5,f6,Kb8:Ba3,c5,h8"),
    # e5-d6 opens g7-a1: the king attacks c3, and d6 stands guard over c5
    ("discovered", "W:Wc1,e5,Kg7:Ba3,c3,b6", "e5-d6", "W:We5,Kg7:Ba3,c3,b6"),
    ("exchange-crowns", "W:Wg1,e3,g5,h6:BKa1,d6,b8,h8", "g5-f6", "W:Wg1,e3,g5:BKa1,d6,b8,h8"),
    ("breakthrough-two", "B:Wc1,e1,g1,b2,e3,g3,f4,h4:Ba5,c5,f6,h6,b8,d8,f8,h8", "f6-e5",
     "B:Wc1,e1,g1,b2,e3,g3,h4:Ba5,c5,f6,h6,b8,d8,f8,h8"),
    ("king-hangs-afar", "W:Wg1,g3,Kh4,e5:BKa1,b4,h6,b8", None, "W:Wg1,g3,Kh4:BKa1,b4,h6,b8"),
]
#: (motif, a position where a threat already stood, a move that keeps it and wins).
STANDING = [
    ("opposition", "W:Wc1,e1,f6:Bc3", "e1-f2"),
    ("zugzwang", "W:Wc1,e1,f6:Bc3", "e1-f2"),
    ("king-quiet", "B:Wa5:BKg1,Ke3,d8", "e3-f2"),
]
DEPTH = 10


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base([combos_dir() / "motifs.txt"])


@pytest.fixture(scope="module")
def at_depth():
    bench = load_script("bench/motifs.py", "bench_motifs")
    searcher = DeepCheck().searcher
    return lambda claim, pos, move: bench.holds_at_depth(claim, pos, move, searcher, DEPTH)


def _found(kb, pos, motif_id: str) -> list:
    return [m for m in kb.matches(pos) if m.rule.id == motif_id]


def _same_move(pos, text: str):
    return next((m for m in legal_moves(pos) if move_text(m) == text), None)


@pytest.mark.parametrize("motif_id, fires, move, near", CASES, ids=[c[0] for c in CASES])
def test_a_named_idea_fires_proves_its_claim_and_skips_its_near_miss(
        kb, at_depth, motif_id, fires, move, near):
    claim = claim_of(kb.rule(motif_id))
    pos, miss = parse_fen(fires), parse_fen(near)
    got = _found(kb, pos, motif_id)
    assert got and _found(kb, mirror_position(pos), motif_id)  # for Black too
    assert not _found(kb, miss, motif_id)
    if move is None:
        assert kb.rule(motif_id).warning and got[0].move is None
        assert danger_is_real(pos) and not danger_is_real(miss)
        return
    assert move in [move_text(m.move) for m in got]
    played = parse_move(pos, move)
    assert holds(claim, pos, played)
    if claim.kind == GAIN:
        assert at_depth(claim, pos, played)
    same = _same_move(miss, move)
    assert same is None or not holds(claim, miss, same)


@pytest.mark.parametrize("motif_id, fen, move", STANDING, ids=[c[0] for c in STANDING])
def test_a_quiet_idea_is_silent_where_the_threat_stood_before_the_move(kb, motif_id, fen, move):
    pos = parse_fen(fen)
    played = parse_move(pos, move)
    assert holds(claim_of(kb.rule(motif_id)), pos, played)  # the move wins...
    assert not _found(kb, pos, motif_id)  # ...but the threat was there before it


def test_threat_now_says_what_they_would_lose_were_it_their_move():
    def threat_now(fen: str) -> int:
        pos = parse_fen(fen)
        return Board(pos).library("threat_now", (None,))[0][0]

    assert threat_now("W:Wc1,e1,f6:Bc3") >= 1  # c3 is lost whatever it does
    assert threat_now("W:Wa1,e1,g1,b2,d4:Bc3,f6,b8,f8,h8") == -1  # c3 would take b2 or d4
    # after the zugzwang's d4-c5 every move of theirs loses a man: the threat stands now
    assert threat_now("W:Wa1,e1,g1,b2,c5:Bc3,f6,b8,f8,h8") >= 1


def test_every_named_idea_has_its_test_and_thirty_motifs_ship(kb):
    text = (combos_dir() / "motifs.txt").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1]
    named = set(re.findall(r"^motif (\S+)", section, re.M))
    assert named == {c[0] for c in CASES}
    assert {m for m, *_ in STANDING} <= named
    assert len(kb.motifs) >= 30
