"""Pattern terms and the named features added for the evaluation as knowledge (issue 29): each
says what a player means by it, on positions a player would set up; the native evaluation
weighs them exactly as the pure one."""

from __future__ import annotations

import random

import pytest

from kbdraughts import native
from kbdraughts.eval.heuristic import Heuristic
from kbdraughts.eval.patterns import pattern_counts, pattern_masks
from kbdraughts.board import mirror_position
from kbdraughts.game import random_walk
from kbdraughts.eval.terms import POSITION_FEATURES, HeuristicFileError, parse_terms
from kbdraughts.notation import parse_fen
from kbdraughts.eval.evaluation import position_features


def features(text: str) -> dict[str, int]:
    return dict(zip(POSITION_FEATURES, position_features(parse_fen(text))))


def counts(pattern: str, fen: str) -> int:
    (term,) = parse_terms(pattern)
    return pattern_counts(parse_fen(fen), [pattern_masks(term.squares)])[0]


def test_a_pattern_counts_ours_less_theirs_from_white():
    stake = "pattern stake 1 c5=w b4=w d4=w\n"
    assert counts(stake, "W:Wc5,b4,d4:Bh8") == 1
    assert counts(stake, "W:Wc5,b4:Bh8") == 0  # d4 missing
    assert counts(stake, "W:Wa1:Bf4,g5,e5") == -1  # Black's stake: c5 turned round is f4
    assert counts(stake, "W:Wc5,b4,d4:Bf4,g5,e5") == 0  # both hold it
    assert counts(stake, "W:Wc5,b4,Kd4:Bh8") == 0  # a king is not a man
    assert counts("pattern s 1 c5=w d4=+\n", "W:Wc5,Kd4:Bh8") == 1
    assert counts("pattern e 1 c5=w d6=.\n", "W:Wc5:Bd6") == 0
    assert counts("pattern a 1 c5=w d6=@\n", "W:Wc5:BKd6") == 1


def test_pattern_lines_that_are_wrong_say_where_and_why():
    for line, words in (("pattern s 1 z9=w", "'z9' is not a dark square"),
                        ("pattern s 1 d5=w", "'d5' is not a dark square"),
                        ("pattern s 1 c5=Q", "unknown symbol 'Q' on c5"),
                        ("pattern s 1", "a pattern is"),
                        ("value v 1 c5=w", "belong to a 'pattern' term"),
                        ("pattern s 1 c5=w c5=b", "c5 is named twice"),
                        ("value v 2 per opening", "'opening' is a phase"),
                        ("pattern s 1 " + " ".join(f"{f}{r}=w" for f in "aceg" for r in "1357"),
                         "at most 12 squares")):
        with pytest.raises(HeuristicFileError, match=words) as e:
            parse_terms("# x\n" + line + "\n", "h.txt")
        assert str(e.value).startswith("h.txt:2: error:")


def test_hanging_men_are_those_the_opponent_could_take_now():
    assert features("W:Wc3:Bd4")["hanging"] == 0  # each could take the other
    assert features("W:Wb2,c3:Bd4")["hanging"] == -1  # b2 covers c3; their d4 hangs
    assert features("B:Wb2,c3:Bd4")["hanging"] == 1  # the same, from Black's side: ours
    assert features("B:Wb2,c3:Bd4,e5")["hanging"] == 0  # e5 covers the square beyond d4
    assert features("W:Wd4:Bc5,b6")["hanging"] == 1  # c5 takes d4 (e3 empty), not back
    assert features("W:Wd4:Bc3,b6")["hanging"] == 0  # a man takes backwards too: d4 c3 both


def test_the_opposition_in_an_ending_of_men():
    # The side to move has it when its system (White: the a-, c-, e-, g-files) holds an odd
    # number of pieces.
    assert features("W:Wc3:Bf6")["opposition"] == 1  # c3 alone on the system: odd
    assert features("W:Wc3:Be7")["opposition"] == -1  # c3 and e7: even, Black has it
    assert features("B:Wc3:Be7")["opposition"] == -1  # Black's system b d f h: none, even
    assert features("B:Wc3:Bf6")["opposition"] == 1  # f6 on it: Black to move has it
    assert features("W:Wc3,e3:Bf6")["opposition"] == 0  # not as many men a side
    assert features("W:WKc3:Bf6")["opposition"] == 0  # a king: no opposition


def test_passed_men_and_the_double_corner():
    assert features("W:Wc5:Bh8")["passed_men"] == 1
    assert features("W:Wc5:Bb8")["passed_men"] == 0  # b8 is in front of it, within its cone
    assert features("W:Wc3:Bh8")["passed_men"] == 0  # from the 4th rank only
    assert features("W:WKh2:BKa1,Kc1")["double_corner"] == 1  # the weaker side's king, there
    assert features("W:WKh2,Ke3:BKa1")["double_corner"] == 0  # the stronger side's: nothing
    assert features("W:Wa1:Bc7")["opening"] == 0 and features("W:Wa1:Bc7")["endgame"] == 1


def test_the_features_and_patterns_mirror_for_black():
    rng = random.Random(11)
    h = Heuristic(parse_terms("pattern a 3 c5=w b4=? d4=w\npattern b -2 a1=. b2=w c1=+\n"))
    for pos in random_walk(rng, 400):
        assert position_features(pos) == position_features(mirror_position(pos))
        assert h.evaluate(pos) == h.evaluate(mirror_position(pos))


@pytest.mark.skipif(native.core is None, reason="the native core is not built")
def test_the_native_evaluation_weighs_patterns_as_the_pure_one():
    h = Heuristic(parse_terms(
        "value a 1.5 per hanging when not endgame\n"
        "value b -2.25 per passed_men when opening\n"
        "value c 4.5 per opposition when endgame\n"
        "value d 3.5 per double_corner\n"
        "pattern p 12.13 c5=w b4=w d4=? when not endgame\n"
        "pattern zero 0 c3=w d4=w\n"  # weighed 0 everywhere: the native core leaves it out
        "pattern q -3.75 c1=w e1=w\n"
        "pattern r 0.5 a1=. b2=@ c3=* when opening\n", "test.txt"))
    ev = h.native_evaluator()
    assert ev is not None
    rng = random.Random(12)
    seen = set()
    n = 0
    while n < 20_000:
        for pos in random_walk(rng, rng.randrange(10, 120)):
            assert ev.evaluate(pos) == h._quickly(pos, 0) == h._slowly(pos, 0), pos
            seen.update(i for i, c in enumerate(pattern_counts(pos, h._pattern_masks)) if c)
            n += 1
    assert seen == {0, 1, 2, 3}  # every pattern did count somewhere


def _regions_heuristic(wide: bool = False):
    from kbdraughts.eval.shapes import parse_shapes
    # wide: a weight beyond 16 bits of hundredths (327.67), so the native tables stay 32 bits.
    regions = parse_shapes(("region r0 e3 g3\n  ww 400\n" if wide else "") +
        "region r1 c3 b4 d4 c5\n  w..w 12.5\n  ?b?w -3.25\n  @@.. 0.75\n"
        "region r2 a1 c1 e1 g1 b2 d2 f2 h2 when not endgame\n  wwwwwwww 4\n  w??????? -1.5\n"
        "region r3 e5 f6 when opening\n  wb 7\n"
        # a window (two runs of bits, a look-up table each) and squares far apart (the loop)
        "region r4 a5 c5 b6 d6 a7 c7 b8 d8\n  w?b?..w? 2.5\n  ??????bb -1.25\n"
        "region r5 a1 b4 a7 h8\n  w??b 3\n  ?w.. 1.5\n", "s.txt")
    return Heuristic(parse_terms("value a 6 per centre_men\npattern p 2 c1=w e1=w\n"), regions)


def test_regions_count_men_from_each_side_and_nothing_with_a_king():
    h = _regions_heuristic()
    (r1, *_) = h._compiled
    from kbdraughts.eval.regions import region_value
    assert region_value(parse_fen("W:Wc3,c5:Bh8"), r1) == 12.5
    assert region_value(parse_fen("W:Wa1:Bf6,f4"), r1) == -12.5  # Black's, turned round
    assert region_value(parse_fen("W:Wc3,Kc5:Bh8"), r1) == 0.0  # a king there: nothing
    assert region_value(parse_fen("W:Wc3,b4:Bh8"), r1) == 0.75  # '@@..'


def test_region_files_that_are_wrong_say_where_and_why():
    from kbdraughts.eval.shapes import parse_shapes
    for text, words in (("region r a1 z9\n", "'z9' is not a dark square"),
                        ("region r a1\n", "a region has 2 to 8 squares"),
                        ("region r a1 c1\n  wW 3\n", "men only"),
                        ("region r a1 c1\n  w 3\n", "expected 2 symbols"),
                        ("  w. 3\n", "an indented line before any"),
                        ("region r a1 c1\nregion r c3 e3\n", "duplicate region 'r'"),
                        ("region r a1 c1 when sunny\n", "bad condition 'sunny'")):
        with pytest.raises(HeuristicFileError, match=words) as e:
            parse_shapes("# x\n" + text, "s.txt")
        assert str(e.value).startswith("s.txt:")


def test_a_wildcard_table_has_a_budget():
    from kbdraughts.eval.regions import compile_regions
    from kbdraughts.eval.shapes import parse_shapes
    lines = "".join("  ????????  1\n" for _ in range(700))
    with pytest.raises(HeuristicFileError, match="more than 4000000 table entries"):
        compile_regions(parse_shapes("region r a1 c1 e1 g1 b2 d2 f2 h2\n" + lines, "s.txt"),
                        "s.txt")


@pytest.mark.skipif(native.core is None, reason="the native core is not built")
@pytest.mark.parametrize("wide", [False, True], ids=["16-bit", "32-bit"])
def test_the_native_evaluation_weighs_regions_as_the_pure_one(wide):
    h = _regions_heuristic(wide)
    ev = h.native_evaluator()
    assert ev is not None
    rng = random.Random(13)
    n = 0
    while n < 20_000:
        for pos in random_walk(rng, rng.randrange(10, 120)):
            assert ev.evaluate(pos) == h._quickly(pos, 0) == h._slowly(pos, 0), pos
            assert h.evaluate(pos) == h.evaluate(mirror_position(pos))
            n += 1
