"""The motifs tightened for issue 20 hold at depth: each skips a position of the shape the deep
search refuted, and still fires where its gain survives it.

bench/motifs.py (seeds 7 and 11) found six gain motifs whose gain was refuted by a 10-ply
material search in more than 5% of their firings: the man won was given back a few moves
later, or the opponent crowned while it was taken. Each now asks
``after(X-T, gains_within(P, 1))``: the gain is still there after P plies, a king weighed
2.5 men, as the deep search weighs it. For each motif:

- a position from those refuted games: without that condition the motif fires there and its
  claim holds at its stated horizon, but the deep search refutes it; the shipped motif does
  not fire;
- a position where the shipped motif fires and its gain holds at depth.
"""

from __future__ import annotations

import pytest
from kb_loose import DEPTH_CONDITION, loose_motifs
from scripts import load_script

from kbdraughts.ai.claims import claim_of, holds
from kbdraughts.coach.deep_check import DeepCheck
from kbdraughts.board import Position
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.notation import move_text, parse_fen, parse_move
from kbdraughts.resources import combos_dir

#: The bench's deep search depth (plies).
DEPTH = 10
#: (motif, a refuted position and the move it used to play, a position where it holds).
CASES = [
    # c1-b2 attacks c3, but while it is taken h4 runs to g1 and crowns
    ("threat", "W:Wa1,c1,e3:Bc3,h4,d6", "c1-b2", "W:We1,g1,c3,h4,c5:Be3,f6,h6,b8,d8", "e1-f2"),
    # c3-d4 forks e3 and c5, but e3 runs to e1 and crowns while c5 is taken
    ("man-fork", "W:Wa1,g1,c3:Be3,c5,b8,f8", "c3-d4", "W:Wa1,c3,g5:Be5,g7,b8", "g5-f6"),
    # the king forks d4 and f6; d4-a1, and after e5:h8 the king on a1 takes it
    ("king-fork", "W:WKf4:BKd4,h4,f6", "f4-e5", "W:WKb8:BKd4,f6", "b8-e5"),
    # e5 attacks c3, e3-d2 gives the other man and the king crowns at c1
    ("king-threat", "W:We1,Kh2:Bc3,e3", "h2-e5", "B:Wa5,f6:BKg1,f8", "g1-d4"),
    # c1-d2 gives one and e5:c3:a5 takes two, but the man taken lands on e1 as a king
    ("shot-1-for-2", "W:Wa1,c1,e5,f6,h6:Bc3,b4,d4,f8,h8", "c1-d2",
     "W:Wa1,c1,g1,b2,d2,h2,e3,g3:Bc5,g5,b6,a7,e7,g7,b8,f8,h8", "e3-d4"),
    # h8-f6 wins two men for the king, and the man on h6 crowns
    ("king-sacrifice", "B:Wf4,g5,h6:BKc1,b8,Kh8", "h8-f6", "B:We3:BKe5,h6", "e5-f4"),
]


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    """The shipped motifs, and the same without their ``gains_within`` conditions."""
    shipped = combos_dir() / "motifs.txt"
    blocks = {b.split(None, 1)[0]: b for b in shipped.read_text().split("\nmotif ")[1:]}
    assert all(DEPTH_CONDITION.search(blocks[c[0]]) for c in CASES)  # each asks it
    loose = loose_motifs(tmp_path_factory.mktemp("loose"))
    return load_knowledge_base([shipped]), load_knowledge_base([loose])


@pytest.fixture(scope="module")
def at_depth():
    bench = load_script("bench/motifs.py", "bench_motifs")
    searcher = DeepCheck().searcher

    def holds_at_depth(claim, pos: Position, move) -> bool:
        return bench.holds_at_depth(claim, pos, move, searcher, DEPTH)
    return holds_at_depth


def _moves(kb, pos: Position, motif_id: str) -> list[str]:
    return [move_text(m.move) for m in kb.matches(pos) if m.rule.id == motif_id and m.move]


@pytest.mark.parametrize("motif_id, refuted, move, holding, good",
                         CASES, ids=[c[0] for c in CASES])
def test_a_tightened_motif_skips_the_refuted_shape_and_keeps_the_rest(
        kbs, at_depth, motif_id, refuted, move, holding, good):
    shipped, loose = kbs
    claim = claim_of(shipped.rule(motif_id))
    pos = parse_fen(refuted)
    played = parse_move(pos, move)
    assert move in _moves(loose, pos, motif_id)  # what it claimed before
    assert holds(claim, pos, played)  # right at its horizon...
    assert not at_depth(claim, pos, played)  # ...refuted deeper
    assert move not in _moves(shipped, pos, motif_id)
    pos = parse_fen(holding)
    assert good in _moves(shipped, pos, motif_id)
    assert at_depth(claim, pos, parse_move(pos, good))
