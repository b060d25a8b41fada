"""bench/motifs.py: its referee on hand-made positions, and its counting on a tiny set."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from kbdraughts.ai.claims import two_ply_wins
from kbdraughts.board import START, captures, legal_moves
from kbdraughts.notation import move_text, parse_fen, parse_move
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
#: shot-01 of combos/motifs.txt: e3-d4 c5:e3 d2:f4:h6 nets a man.
SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
#: A quiet threat: after e3-d4 every reply loses a man.
THREAT = "W:Wg1,e3,b4,h6:Bh2,f6,h8"


@pytest.fixture(scope="module")
def bench():
    return load_script("bench/motifs.py", "bench_motifs")


def wins_of(fen: str) -> list[tuple[str, int]]:
    return [(move_text(m), n) for m, n in two_ply_wins(parse_fen(fen))]


def test_the_referee_finds_a_shot_and_a_threat_and_nothing_in_a_quiet_position():
    assert wins_of(SHOT_01) == [("e3-d4", 1)]
    assert wins_of(THREAT) == [("e3-d4", 1)]
    assert wins_of("W:Wa1,c1,e1:Bf8,h8,d8") == []  # far apart: nothing to win in two plies
    assert two_ply_wins(START) == []
    assert wins_of("W:Wc3,h2:Bd4,h8") == []  # a capture is pending: not a quiet position


def match(rule_id: str, layer: str, pos, move: str | None, path="combos/x.txt", **claim):
    fields = dict(name="", gain=None, promise=None, warning=False, exact=layer == "exact")
    fields.update(claim)
    rule = SimpleNamespace(id=rule_id, path=path, line=1, **fields)
    return SimpleNamespace(rule=rule, layer=layer, mirrored=False, bindings=(),
                           move=None if move is None else parse_move(pos, move))


class Fixed:
    """A knowledge base that answers each position with the matches given for it."""

    def __init__(self, answers):
        self.answers = answers

    def matches(self, pos, legal=None):
        return self.answers.get(pos, [])


def test_the_bench_counts_firings_rights_and_recall(bench):
    shot, threat, start = parse_fen(SHOT_01), parse_fen(THREAT), START
    hanging = parse_fen("W:Wc5,a1:Bd6,e7,h8")  # the man on c5 hangs: d6:b4
    kb = Fixed({
        shot: [match("shot-01", "pattern", shot, "e3-d4", "combos/motifs.txt",
                     name="shot: e3-d4 gives a man, c5:e3 is forced, d2:f4:h6 takes two"),
               match("shot-01", "pattern", shot, "e3-d4", "combos/motifs.txt",  # its mirror
                     name="shot: e3-d4 gives a man, c5:e3 is forced, d2:f4:h6 takes two"),
               match("bluff", "motif", shot, "g3-h4", gain=1),
               match("greedy", "motif", shot, "e3-d4", gain=2)],
        threat: [match("threat", "motif", threat, "e3-d4", gain=1)],
        start: [match("opening-1", "exact", start, "c3-d4", "combos/openings.txt")],
        hanging: [match("hanging-man", "motif", hanging, None, warning=True)],
    })
    tally = bench.measure([shot, threat, start, hanging], kb)
    assert (tally.positions, tally.with_win) == (4, 2)
    assert dict(tally.fired) == {"motifs.txt pattern": 1, "motif bluff": 1, "motif greedy": 1,
                                 "motif threat": 1, "openings.txt exact": 1,
                                 "motif hanging-man": 1}
    assert dict(tally.right) == {"motifs.txt pattern": 1, "motif bluff": 0, "motif greedy": 0,
                                 "motif threat": 1, "motif hanging-man": 1}
    assert "openings.txt exact" not in tally.claims  # an opening line claims nothing
    # in SHOT_01 both layers fired the win (greedy's claim of two is wrong, its move wins one)
    assert dict(tally.recall) == {"patterns": 1, "motifs": 2, "both": 2}
    assert len(tally.referee_ms) == len(tally.query_ms) == 4
    lines = bench.report(tally)
    assert any(line.split() == ["motif", "bluff", "1", "0", "0.0%"] for line in lines)
    assert any(line.split() == ["openings.txt", "exact", "1", "-", "-"] for line in lines)
    assert "recall of 2-ply wins (2 of 4 positions have one):" in lines
    assert any(line.split() == ["patterns", "1/2", "50.0%"] for line in lines)
    assert any(line.split() == ["both", "2/2", "100.0%"] for line in lines)
    assert lines[-1].startswith("time per position: brute-force referee median ")


def test_the_positions_are_quiet_distinct_and_from_the_seeds_games(bench):
    positions = bench.quiet_positions(seed=7, count=40)
    assert len(positions) == 40 == len(set(positions))
    assert all(legal_moves(p) and not captures(p) for p in positions)
    assert positions == bench.quiet_positions(seed=7, count=40)  # the seed decides
    assert positions != bench.quiet_positions(seed=8, count=40)


#: shot-1-for-2 fires g3-f4 here (seed 7): it nets a man in two plies, but the search at
#: depth 10 finds Black winning it back.
REFUTED = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,g3,a5:Bc5,g5,f6,h6,c7,e7,b8,d8,f8,h8"
#: king-fork e5-d4 nets a piece in two plies by count, but f2-e1 crowns first.
CROWNING = "W:Wa1,c1,h2,Ke5:Bf2,b6,d8,h8"


def test_each_claim_is_measured_with_kings_counted_and_at_depth(bench):
    shot, refuted, crowning = parse_fen(SHOT_01), parse_fen(REFUTED), parse_fen(CROWNING)
    kb = Fixed({
        shot: [match("shot-1-for-2", "motif", shot, "e3-d4", gain=1)],
        refuted: [match("shot-1-for-2", "motif", refuted, "g3-f4", gain=1)],
        crowning: [match("king-fork", "motif", crowning, "e5-d4", gain=1)],
    })
    tally = bench.measure([shot, refuted, crowning], kb, depth=8)
    assert dict(tally.right) == {"motif shot-1-for-2": 2, "motif king-fork": 1}
    assert dict(tally.kings) == {"motif shot-1-for-2": 2, "motif king-fork": 0}
    assert dict(tally.gains) == {"motif shot-1-for-2": 2, "motif king-fork": 1}
    assert tally.deep["motif shot-1-for-2"] == 1  # SHOT_01's holds, REFUTED's does not
    lines = bench.report(tally)
    assert lines[0].split()[-4:] == ["kings", "gains", "depth", "8"]
    assert any(line.split() == ["motif", "shot-1-for-2", "2", "2", "100.0%", "100.0%", "2",
                                "50.0%"] for line in lines)
    refuted_line = next(line for line in lines if line.startswith("refuted at depth 8"))
    assert "motif shot-1-for-2 (1 of 2)" in refuted_line
    # without --depth the report is as it was
    assert "kings" not in bench.report(bench.measure([shot], kb))[0]


def test_the_endings_measure_counts_a_move_that_throws_the_win_away(bench, endgame_tables):
    from kbdraughts.egdb.probe import Database

    db = Database(endgame_tables, auto_pieces=0)
    # Two men against a king on the main road: c3-b4 or e3-d4 holds the draw, c3-d4 and
    # e3-f4 give the king a man and the game.
    pos = parse_fen("W:Wc3,e3:BKh8")
    outcome = {move_text(m): bench.mover_outcome(db, pos, m) for m in legal_moves(pos)}
    best = max(outcome.values())
    keeps = next(t for t, v in outcome.items() if v == best)
    throws = next(t for t, v in outcome.items() if v < best)
    moves = [keeps, throws]
    kb = SimpleNamespace(matches=lambda p, legal: [
        match(f"r{i}", "motif", p, t, gain=1) for i, t in enumerate(moves)])
    fired, kept, n, keeping = bench.measure_endings([pos], kb, db)
    assert n == len(legal_moves(pos)) and keeping == sum(v == best for v in outcome.values())
    assert sum(fired.values()) == len(moves) and sum(kept.values()) == 1
    positions = bench.ending_positions(30, 1, 3)
    assert len(positions) == 30 and all(3 <= (p.white | p.black).bit_count() <= 3
                                        and legal_moves(p) and not captures(p) for p in positions)
