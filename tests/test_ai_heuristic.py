"""The weighted simple move and the evaluation (eval/heuristic.py): features, terms' shares,
the heuristic file read and cached answers (the format itself: test_kb_terms)."""

from __future__ import annotations

import itertools
import re
import random
import threading

import pytest

from kbdraughts.eval.heuristic import Heuristic, default_heuristic, material, position_features
from kbdraughts.eval.terms import MOVE_FEATURES, POSITION_FEATURES, HeuristicFileError, parse_terms
from kbdraughts.game import random_walk
from kbdraughts.board import START, Position, legal_moves, mirror_position
from kbdraughts.resources import combos_dir
from kbdraughts.notation import move_text, parse_fen


def terms_of(fen: str) -> dict[str, dict[str, float]]:
    """Each legal move's applicable terms, by move text."""
    h = default_heuristic()
    pos = parse_fen(fen)
    return {move_text(m): dict(h.weigh(pos, m)[1]) for m in legal_moves(pos)}


def test_crowning_is_worth_two_men():
    terms = terms_of("W:Wc7:BKa1")
    assert terms["c7-d8"]["crowning"] == 200


def test_a_move_that_hangs_a_man_carries_the_capture_tree_of_the_reply():
    terms = terms_of("W:Wc3:Be5")
    assert terms["c3-d4"]["safety"] == -100  # e5:c3 takes it
    assert "safety" not in terms["c3-b4"]


def test_bait_that_wins_more_back_scores_positive():
    # h2-g3 gives a man (h4:f2), then g1:e3:c5 takes two back: -100 + 2*105.
    terms = terms_of("W:Wg1,b2,d2,h2:Bd4,h4,h6,a7,b8")
    assert terms["h2-g3"]["safety"] == 110


def test_king_moves_onto_the_diagonal_that_bars_the_way():
    terms = terms_of("W:WKh2,c1:Ba7,b8")  # black men above the long diagonal a1-h8
    assert terms["h2-e5"]["bar-the-way"] == 60
    assert "bar-the-way" not in terms["h2-f4"]


def test_with_the_king_on_guard_a_man_moves():
    terms = terms_of("W:WKd4,c1:Ba7,b8")
    assert terms["c1-d2"]["keep-the-guard"] == 30
    assert terms["d4-c5"]["leave-the-guard"] == -40
    assert "leave-the-guard" not in terms["d4-e5"]  # still on a1-h8


def test_the_king_rules_mirror_for_black():
    # The first king position turned round: Black's king a7 bars the white men h2, g1.
    terms = terms_of("B:Wh2,g1:BKa7,f8")
    assert terms["a7-d4"]["bar-the-way"] == 60
    assert "bar-the-way" not in terms["a7-c5"]


def _rotate(pos: Position) -> Position:
    """The same position seen from the other side: board turned, colours swapped."""
    def turn(bb: int) -> int:
        return sum(1 << (35 - s) for s in range(36) if bb >> s & 1)
    return Position(turn(pos.black), turn(pos.white), turn(pos.kings), 1 - pos.side)


def test_evaluation_is_the_same_for_both_colours():
    h = default_heuristic()
    rng = random.Random(5)
    for pos in itertools.chain([START], random_walk(rng, 59)):
        # The same sum of hundredths, to the last bit.
        assert h.evaluate(pos) == h.evaluate(_rotate(pos))
        assert position_features(pos) == position_features(_rotate(pos))


# The evaluation weighs the sums over men with tables and the others one by one; its number
# must be the terms' own sum, as `score` adds them up term by term from the features.
_FRACTIONAL = """value centre 6.25 per centre_men when not endgame
value tempo 1.5 per man_ranks
value golden -3.75 per golden when kings
value runaway 99.5 per runaway
value blocked -6.13 per blocked_men when endgame
value flank-balance -2.5 per flank_imbalance
value steady 7.5 when main_road
"""
_WHEN_A_MEN_SUM = "value guard-while-golden 12 per back_guard when golden\nvalue men 3 per men\n"


@pytest.mark.parametrize("text", [None, _FRACTIONAL, _WHEN_A_MEN_SUM])
def test_the_evaluation_is_material_plus_the_value_terms_sum(text):
    h = default_heuristic() if text is None else Heuristic(parse_terms(text))
    rng = random.Random(21)
    positions = [START] + [p for _ in range(40) for p in random_walk(rng, rng.randrange(20, 90))]
    for pos in positions:
        # Every share by name (the value terms, the patterns, the regions, the material).
        shares = h.shares(pos)
        assert h.evaluate(pos) == pytest.approx(sum(shares.values()), abs=1e-9), pos
        assert h.positional(pos) == pytest.approx(sum(shares.values()) - material(pos),
                                                  abs=1e-9), pos
        if not h.patterns and not h.regions:
            terms, _ = h.score("value", position_features(pos))
            assert sum(shares.values()) == pytest.approx(material(pos) + terms, abs=1e-9)


def test_a_weight_has_at_most_two_decimals_and_the_evaluation_sums_them_exactly():
    # 0.1 + 0.2 is not 0.3 in binary floating point, but 10 + 20 hundredths are 30: every
    # weight a file holds is whole hundredths, so the evaluation is their exact sum divided
    # by 100 once, on the native core and on the pure path alike, whatever the order.
    from kbdraughts.eval.shapes import parse_shapes
    for text, line in (("weight ok 1.50\nvalue a 1.125 per kings\n", 2),
                       ("pattern p 0.001 c3=w\n", 1)):
        with pytest.raises(HeuristicFileError, match="more than two decimals") as e:
            parse_terms(text, "h.txt")
        assert str(e.value).startswith(f"h.txt:{line}: error: weight ")
    with pytest.raises(HeuristicFileError, match="s.txt:3: error: weight 0.333 has more"):
        parse_shapes("region r a1 c1\n  w. 5.10\n  ?b 0.333\n", "s.txt")
    h = Heuristic(parse_terms("value a 0.1 per centre_men\nvalue b 0.2 per back_men\n"
                              "value c 0.07 per man_ranks\nvalue d -0.3 per hanging\n"))
    names = ("centre_men", "back_men", "man_ranks", "hanging")
    rng = random.Random(8)
    seen = set()
    for pos in [p for _ in range(30) for p in random_walk(rng, rng.randrange(20, 90))]:
        f = dict(zip(POSITION_FEATURES, position_features(pos)))  # from the side to move
        cents = 100 * material(pos) + sum(c * f[n] for c, n in zip((10, 20, 7, -30), names))
        assert h.evaluate(pos) == h._quickly(pos, 0) == h._slowly(pos, 0) == cents / 100, pos
        seen.add(cents % 10)
    assert len(seen) > 5  # sums of tenths and hundredths, not whole men alone


def test_material_counts_kings_as_two_and_a_half_men():
    assert material(parse_fen("W:WKa1,c3:Bh8")) == 250


def test_datalog_answers_agree_with_the_conditions_read_directly():
    text = """
    weight a 1 when crowns
    weight b 2 when crowns and not man_move
    weight c 3 per advance when not endgame and man_move
    weight d 4
    value e 5 per centre_men when not endgame
    """
    h = Heuristic(parse_terms(text))
    for kind, feats in (("weight", MOVE_FEATURES), ("value", POSITION_FEATURES)):
        mentioned = sorted({feats.index(f) for t in h.terms if t.kind == kind
                            for f, _ in t.needs})
        for bits in itertools.product((0, 1), repeat=len(mentioned)):
            sig = sum(1 << i for i, b in zip(mentioned, bits) if b)
            expected = sorted(
                t.name for t in h.terms if t.kind == kind
                and all(bool(sig >> feats.index(f) & 1) == holds for f, holds in t.needs))
            assert [n for n, _, _ in h.applicable(kind, sig)] == expected


def test_datalog_answers_from_another_thread():
    h = Heuristic(parse_terms("weight x 7 when crowns\n"))
    out = []
    t = threading.Thread(target=lambda: out.append(h.applicable("weight", 1)))
    t.start()
    t.join()
    assert out == [(("x", 7.0, None),)]


def test_per_multiplies_by_the_feature():
    h = Heuristic(parse_terms("weight t 3 per advance when man_move\n"))
    pos = parse_fen("W:Wc3:Bh8")
    scores = {move_text(m): h.weigh(pos, m) for m in legal_moves(pos)}
    assert scores["c3-d4"] == (9.0, [("t", 9.0)])  # d4 is rank index 3


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(HeuristicFileError) as e:
        Heuristic.from_file(tmp_path / "nope.txt")
    assert "nope.txt:1: error: cannot read" in str(e.value)


def test_the_shipped_file_parses_and_mentions_only_known_features():
    h = default_heuristic()
    names = {t.name for t in h.terms}
    assert {"crowning", "safety", "bar-the-way", "keep-the-guard"} <= names


def test_a_users_heuristic_file_replaces_the_shipped_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "heuristic.txt").write_text("weight edge-lover 50 when edge\n", encoding="utf-8")
    h = default_heuristic()
    assert [t.name for t in h.terms] == ["edge-lover"]
    pos = parse_fen("W:Wc3,g3:Bh8")
    assert dict(h.weigh(pos, next(m for m in legal_moves(pos) if move_text(m) == "g3-h4"))[1]) \
        == {"edge-lover": 50}


# --- issue 11: the user's heuristic file, damaged, reaches the person as one line ----------


def _users_file(tmp_path, monkeypatch, data: bytes):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "heuristic.txt").write_bytes(data)
    return combos / "heuristic.txt"


def test_a_heuristic_file_not_utf8_is_one_line_with_its_place(tmp_path):
    path = tmp_path / "h.txt"
    path.write_bytes(b"weight a 1\nweight b 2\n# \xff\n")
    with pytest.raises(HeuristicFileError) as e:
        Heuristic.from_file(path)
    assert str(e.value).startswith(f"{path}:3: error: not UTF-8")


@pytest.mark.parametrize("data, line, what", [
    (b"weight crowning 200 when crowns\nweight a " + b"9" * 400 + b"\n", 2, "too large"),
    (b"# mine\n\n\xc3\n", 3, "not UTF-8"),
    (b"# \x0c page\nweight a\x1b[2J 1\n", 2, "control character U+001B"),
], ids=["huge-weight", "not-utf8", "escape"])
def test_bestmove_and_match_report_a_bad_users_file_in_one_line(tmp_path, monkeypatch, capsys,
                                                                data, line, what):
    from kbdraughts.cli import main

    path = _users_file(tmp_path, monkeypatch, data)
    assert main(["bestmove", "--no-kb", "--level", "1", "W:Wc3:Bf6"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kbdraughts bestmove: {path}:{line}: error: ") and what in err
    assert err.count("\n") == 1 and "\x1b" not in err
    assert main(["match", "kb:1:nokb", "random", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kbdraughts match: {path}:{line}: error: ") and what in err


def test_terms_named_true_and_false_play(tmp_path, monkeypatch, capsys):
    from kbdraughts.cli import main

    _users_file(tmp_path, monkeypatch, b"weight True 50 when edge\nweight False -5\n"
                b"value True 3 per kings\n")
    assert main(["bestmove", "--no-kb", "--level", "1", "--explain", "W:Wc3,g3:Bh8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("g3-h4  #") and "True +50" in out
    assert main(["bestmove", "--no-kb", "--level", "2", "W:Wc3,g3:Bh8"]) == 0


# --- the position features a draughts player names (eval/evaluation.py) -------------------------


def features(fen: str) -> dict[str, int]:
    return dict(zip(POSITION_FEATURES, position_features(parse_fen(fen))))


@pytest.mark.parametrize("fen, name, value", [
    # c3 (2) + d4 (3) for White; f6 is Black's third row (2): a tempo lead of 3.
    ("W:Wc3,d4:Bf6", "man_ranks", 3),
    ("B:Wc3,d4:Bf6", "man_ranks", -3),
    # c5 needs 3 steps, h6 is outside its danger zone and needs 5: a runaway, for either side
    # to move (with Black to move, Black's h6 would still need 5 steps against White's 3).
    ("W:Wc5:Bh6", "runaway", 1),
    ("B:Wc5:Bh6", "runaway", -1),
    ("W:Wc5:Bd8", "runaway", 0),    # d8 stands in the way
    ("W:Wc5:Be5", "runaway", 0),    # e5 would take it from the side (men take backwards)
    ("W:Wc5:BKh8", "runaway", 0),   # a king can come back
    ("W:Wc5:Bh2", "runaway", -1),   # h2 crowns first: Black's runaway, c5 is not
    ("W:Wc5,c7:Bh6", "runaway", 1),  # c7 runs; c5 does not, c7 stands on its path
    # h4 faces g5 and the edge (f6 keeps it from taking); Black's g5 and f6 can still step.
    ("W:Wh4:Bg5,f6", "blocked_men", 1),
    ("B:Wh4:Bg5,f6", "blocked_men", -1),
    # a1 waits behind its own b2: not held by the opponent.
    ("W:Wa1,b2:Bh8", "blocked_men", 0),
    # d4 held by c3 and e3; a5 by b4 and the edge; b4 is not held.
    ("W:Wd4,c3,e3:Ba7", "outposts", 1),
    ("W:Wa5,b4:Bh8", "outposts", 1),
    ("W:Wd4,c3:Ba7", "outposts", 0),
    # a1's king sees b2..g7 (h8 is taken); c1's sees b2, a3 and d2..h6.
    ("W:WKa1:Bh8", "king_mobility", 6),
    ("W:WKc1:Bh8", "king_mobility", 7),
    ("W:WKa1:BKh8", "king_mobility", 0),
    # The main road counts for the side with fewer pieces only.
    ("W:WKa1:Bh8,g7", "main_road", 1),
    ("B:WKa1:Bh8,g7", "main_road", -1),
    ("W:WKa1:Bh8", "main_road", 0),       # as many pieces: nothing
    ("W:WKa1:BKh8", "main_road", 0),
    ("W:WKc1:Bh8,g7", "main_road", 0),
    ("W:WKa1,c1,e1:BKd4", "main_road", -1),  # Black's lone king holds the road
    # White keeps c1 and e1, Black only f8 of f8/d8.
    ("W:Wa1,c1,e1:Bf8,h8", "back_guard", 1),
    ("W:Wc5,f4:Ba7", "golden", 2),
    ("W:Wc5:Bf4", "golden", 0),
    # a1, c1 left and e1 right: uneven by 1; Black's b8 and h8 are even.
    ("W:Wa1,c1,e1:Bb8,h8", "flank_imbalance", 1),
    ("B:Wa1,c1,e1:Bb8,h8,Kd4", "men", -1),
    ("B:Wa1,c1,e1:Bb8,h8,Kd4", "kings", 1),
])
def test_a_feature_has_the_value_a_player_counts(fen, name, value):
    assert features(fen)[name] == value


def test_the_features_mirror_for_black():
    rng = random.Random(8)
    for pos in random_walk(rng, 300):
        assert position_features(pos) == position_features(mirror_position(pos))


def test_the_file_explains_every_feature():
    header = (combos_dir() / "heuristic.txt").read_text(encoding="utf-8").split("\n\n# Crowning")[0]
    for name in MOVE_FEATURES + POSITION_FEATURES:
        assert re.search(rf"[ (]{name}[ ,.(:)\n]", header), name
    for term in parse_terms((combos_dir() / "heuristic.txt").read_text(encoding="utf-8")):
        assert term.line > 1  # every term line comes after its comment


def test_eval_gain_is_what_the_move_gains_in_the_value_terms():
    # Only a centre value term: c3-d4 keeps a man in c3-f6 (gain 0), a1-b2 brings none in,
    # g3-f4 enters the centre from g3 (+1 man there: +6 for the mover).
    h = Heuristic(parse_terms("weight e 1 per eval_gain\nvalue centre 6 per centre_men\n"))
    pos = parse_fen("W:Wa1,c3,g3:Bb8,h8")
    weights = {move_text(m): h.weigh(pos, m)[0] for m in legal_moves(pos)}
    assert weights["c3-d4"] == 0 and weights["a1-b2"] == 0 and weights["g3-f4"] == 6


def _crowns_surely(pos: Position, man: int, side: int) -> bool:
    """``side``'s man on ``man`` crowns whatever the opponent plays (``side`` moves only it)."""
    from kbdraughts.board import BB_CROWN, play
    if not pos.pieces(side) >> man & 1:
        return False  # taken
    if BB_CROWN[side] >> man & 1:
        return True
    moves = legal_moves(pos)
    if pos.side == side:
        return any(_crowns_surely(play(pos, m), m.end, side) for m in moves if m.start == man)
    return all(_crowns_surely(play(pos, m), man, side) for m in moves)


def test_a_runaway_counted_crowns_whatever_the_opponent_plays():
    # Random endgames: one man of White on ranks 4-7 against one to five black men; whenever
    # the feature counts it a runaway, a search of every black reply proves it crowns.
    from kbdraughts.board import SQUARE_RANK, SQUARES
    rng = random.Random(21)
    proved = 0
    for _ in range(3000):
        man = rng.choice([s for s in SQUARES if SQUARE_RANK[s] >= 3 and SQUARE_RANK[s] < 7])
        black = sum(1 << s for s in rng.sample([s for s in SQUARES if s != man and
                                                SQUARE_RANK[s] > 0], rng.randint(1, 5)))
        pos = Position(1 << man, black, 0, rng.randint(0, 1))
        if not legal_moves(pos) or legal_moves(pos)[0].captured:
            continue
        run = dict(zip(POSITION_FEATURES, position_features(pos)))["runaway"]
        if run * (1 if pos.side == 0 else -1) > 0:
            assert _crowns_surely(pos, man, 0), pos
            proved += 1
    assert proved >= 30


def test_evaluate_is_material_plus_the_value_terms():
    h = default_heuristic()
    rng = random.Random(12)
    for pos in random_walk(rng, 200):
        assert h.evaluate(pos) == pytest.approx(material(pos) + h.positional(pos))
