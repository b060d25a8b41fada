"""The evaluation's knowledge as ideas in words (eval/ideas.py): regions grouped into areas, a
region and its mirror one idea, the words of a few positions checked by hand, why()'s signs,
and the shares adding up to the evaluation, pure and native."""

from __future__ import annotations

import random
import re

import pytest

from kbdraughts import native
from kbdraughts.ai.engine import Engine
from kbdraughts.board import BLACK, START, WHITE, legal_moves, play
from kbdraughts.eval import ideas
from kbdraughts.eval.heuristic import Heuristic, default_heuristic, material
from kbdraughts.eval.judgement import against_next_best
from kbdraughts.eval.regions import compile_regions
from kbdraughts.eval.shapes import parse_shapes
from kbdraughts.eval.terms import parse_terms
from kbdraughts.game import Game, random_walk
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.squares import SQUARE_NAMES

_OF = {n: s for s, n in SQUARE_NAMES.items()}
_SHAPES = """\
region corner a1 b2 a3 c3
  w...  10
  .w.b  -4
region corner-turned h8 g7 h6 f6
  w...  3
region middle c3 e3 d4 f4 c5 e5 d6 f6
  ???w????  2
"""
_TERMS = """\
value back-guard 30 per back_guard when not endgame
value tempo 2 per man_ranks
value lead 5 when endgame
value steady 7 per endgame
pattern stake-held 20 c5=w b4=w d4=w
"""


def squares(*names: str) -> list[int]:
    return [_OF[n] for n in names]


def small() -> Heuristic:
    return Heuristic(parse_terms(_TERMS), parse_shapes(_SHAPES))


def test_a_region_on_a1_to_c3_is_the_left_flank_and_its_mirror_the_same_idea():
    corner, turned, middle = compile_regions(parse_shapes(_SHAPES))
    assert ideas.area_of(squares("a1", "b2", "a3", "c3")) == "left flank"
    # The region weighs White's copy on a1..c3 and Black's on h8..f6; its mirror, written on
    # h8..f6 for White, weighs the same two copies: the same two ideas, White's and Black's.
    assert ideas.copy_idea(corner.white) == ideas.Idea("area", "left flank", WHITE)
    assert ideas.copy_idea(corner.black) == ideas.Idea("area", "left flank", BLACK)
    assert ideas.copy_idea(turned.white) == ideas.copy_idea(corner.black)
    assert ideas.copy_idea(turned.black) == ideas.copy_idea(corner.white)
    # A region that is its own mirror is both sides' at once.
    assert ideas.copy_idea(middle.white) == ideas.Idea("area", "centre", None)


@pytest.mark.parametrize("names, area", [
    (("c1", "b2", "d2", "c3"), "back rank"), (("g3", "f4", "h4", "g5"), "right flank"),
    (("d2", "c3", "e3", "d4"), "centre"),
    (("e3", "d4", "f4", "e5"), "golden square's neighbourhood"),
    (("a3", "c3", "b4", "d4", "a5", "c5", "b6", "d6"), "left flank"),
])
def test_the_areas_are_computed_from_the_squares(names, area):
    assert ideas.area_of(squares(*names)) == area


def test_the_shipped_regions_are_all_in_areas_and_a_mirror_pair_in_the_same_two():
    h = default_heuristic()
    compiled = {r.name: r for r in compile_regions(h.regions)}
    for r in compiled.values():
        for copy in (r.white, r.black):
            assert ideas.copy_idea(copy).name in ideas.AREAS
        twin = next((t for t in compiled.values() if set(t.white) == set(r.black)), None)
        if twin is not None:
            assert {ideas.copy_idea(twin.white), ideas.copy_idea(twin.black)} == \
                {ideas.copy_idea(r.white), ideas.copy_idea(r.black)}


def test_the_words_of_a_hand_checked_position():
    h = small()
    # White: a1, b2 (the corner's w... is a1 alone: b2 stands there, no match), c1, e1 (the
    # guard), the stake c5 held by b4 and d4. Black: f8 (its guard's one man), h6, g7.
    pos = parse_fen("W:Wa1,c1,e1,b4,d4,c5:Bf8,h6,g7,a7")
    said = ideas.shares(pos, WHITE, h)
    assert said["the back guard (your men c1, e1 against f8)"] == pytest.approx(0.30)
    assert said["your stake on c5 held from behind"] == pytest.approx(0.20)
    # The corner: White's a1 with b2, a3, c3 empty is "w..." (+10); Black's copy (h8 g7 h6 f6
    # from Black's view) is ".w.w"... no line: 0; the turned region weighs White's h8..f6
    # (empty: 0) and Black's a1..c3 from Black's view (a1 is theirs: "b...": no line).
    assert said["your left flank's shape (your man a1)"] == pytest.approx(0.10)
    assert not any(re.search(r"corner|region|middle", w) for w in said)
    assert sum(said.values()) * 100 == pytest.approx(h.positional(pos))
    # Told to Black, the same ideas with the other sign and the other owner's words.
    theirs = ideas.shares(pos, BLACK, h)
    assert theirs["White's stake on c5 held from behind"] == pytest.approx(-0.20)
    corner = "White's left flank's shape (White's man a1, none of yours)"
    assert theirs[corner] == pytest.approx(-0.10)
    assert theirs["the back guard (your man f8 against c1, e1)"] == pytest.approx(-0.30)


def test_why_names_the_back_guard_given_up_with_its_sign():
    h = small()
    pos = parse_fen("W:Wc1,e1,g3,a3,b2:Bf8,d8,h6,b6,a7")  # ten pieces: no endgame
    played = play(pos, parse_move(pos, "e1-f2"))  # the guard broken
    best = play(pos, parse_move(pos, "g3-h4"))  # the guard kept
    ((first, value),) = ideas.why(played, best, WHITE, heuristic=h)
    assert first == "the back guard (your man c1 against d8, f8)"
    assert value == pytest.approx(-0.30)  # given up: played less best, for White
    assert ideas.why(played, best, BLACK, heuristic=h)[0][1] == pytest.approx(0.30)
    # The tempo is the same at both ends (one man a rank up each): not named.
    assert all("tempo" not in words for words, _ in ideas.why(played, best, WHITE, heuristic=h))
    assert ideas.why(best, best, WHITE, heuristic=h) == ()


def test_why_keeps_the_largest_top_first():
    pos = parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
    ends = [play(pos, m) for m in [parse_move(pos, "c3-d4"), parse_move(pos, "a3-b4")]]
    said = ideas.why(ends[0], ends[1], WHITE, top=2)
    assert 1 <= len(said) <= 2
    assert [abs(v) for _, v in said] == sorted((abs(v) for _, v in said), reverse=True)
    assert not any(re.search(r"diamond|window|region", w) for w, _ in said)


def _positions() -> list:
    rng = random.Random(38)
    return [START] + [p for _ in range(30) for p in random_walk(rng, rng.randrange(10, 90))]


@pytest.mark.parametrize("which", ["shipped", "small"])
def test_the_shares_add_up_to_the_positional_evaluation_pure_and_native(which):
    h = default_heuristic() if which == "shipped" else small()
    natively = h.native_evaluator() if native.core is not None else None
    for pos in _positions():
        for side in (WHITE, BLACK):
            total = sum(ideas.shares(pos, side, h).values()) * 100
            sign = 1 if side == pos.side else -1
            assert total == pytest.approx(sign * h._slowly(pos, 1), abs=1e-6), pos
            assert total == pytest.approx(sign * h._quickly(pos, 1), abs=1e-6), pos
            if natively is not None:
                assert total == pytest.approx(
                    sign * (natively.evaluate(pos) - material(pos)), abs=1e-6), pos


def test_no_idea_is_said_by_a_region_id():
    h = default_heuristic()
    names = {r.name for r in h.regions}
    for pos in _positions()[:10]:
        for words in ideas.shares(pos, pos.side, h):
            assert not any(name in words for name in names), words


def _line(pos, *texts: str) -> list:
    line = []
    for text in texts:
        move = parse_move(pos, text)
        line.append(move)
        pos = play(pos, move)
    return line


def test_a_next_best_line_that_transposes_is_passed_and_named():
    h = default_heuristic()
    pos = START
    ours = _line(pos, "c3-d4", "h6-g5", "a3-b4")
    same = _line(pos, "a3-b4", "h6-g5", "c3-d4")  # the same end, the other order
    other = _line(pos, "g3-h4", "b6-a5")
    answers = iter([(same[0], same), (other[0], other)])
    asked: list[list] = []

    def next_best(moves):
        asked.append(moves)
        return next(answers)

    others = [m for m in legal_moves(pos) if m != ours[0]]
    move, text = against_next_best(h, pos, ours, others, next_best)
    assert move == other[0] and text.startswith("a3-b4 transposes, "), text
    assert same[0] not in asked[1]  # the move that transposes is not asked again
    assert re.fullmatch(r"a3-b4 transposes, .+ [+-]\d\.\d\d", text)
    # Two transpositions in a row: nothing decided.
    answers = iter([(same[0], same), (same[0], same)])
    assert against_next_best(h, pos, ours, others, next_best) is None


def test_the_search_reason_names_ideas_in_words_never_a_region_id():
    h = default_heuristic()
    region_id = re.compile("|".join(re.escape(r.name) for r in h.regions))
    engine = Engine(level=3, movetime_ms=10 ** 6, max_depth=6, use_kb=False, egdb=False)
    rng = random.Random(7)
    said = 0
    for _ in range(12):
        *_, pos = random_walk(rng, rng.randrange(12, 30))
        if not legal_moves(pos) or (pos.white | pos.black).bit_count() < 14:
            continue
        choice = engine.choose(Game(pos))
        assert not region_id.search(choice.reason) and not region_id.search(choice.words)
        said += "; over " in choice.reason
    assert said >= 3


def test_why_names_the_material_first_where_the_line_ends_differ_in_it():
    # a graded move's line that ends a man down (or a man given for a king) where the best line
    # does not: the material is the reason before any shape (ussr1924 game 1's 21. e7-d8 was
    # said to give up 0.15 of shapes and get 0.29 back, with no word of the man it lost)
    played = parse_fen("W:Wa3,c3,e3,g3,f2,h2,e1,g1,Ke5:Ba5,c5,g5,b6,f6,h6,a7,c7")
    best = parse_fen("W:Wa3,c3,e3,g3,f2,h2,e1,g1,d4:Ba5,c5,g5,b6,f6,h6,a7,c7")
    said = ideas.why(played, best, WHITE)
    assert said[0] == ("a crowning", 1.5)
    assert len(said) == 3 and all(words != "a crowning" for words, _ in said[1:])
    lost = parse_fen("W:Wa3,c3,e3,g3:Ba5,c5")
    kept = parse_fen("W:Wa3,c3,e3,g3,h2:Ba5,c5")
    assert ideas.why(lost, kept, WHITE)[0] == ("a man", -1.0)
    assert ideas.why(lost, kept, BLACK)[0] == ("a man", 1.0)
    assert ideas.material_words(kept, kept, WHITE) == ()
    assert all(not w.startswith(("a man", "a crowning")) for w, _ in ideas.why(kept, kept, WHITE))


def test_why_counts_pieces_then_crownings_where_the_lines_end_apart_in_a_race():
    # ussr1924 game 1's 25. d6-c7 (a man lost): its line ends with Black's men crowned, the best
    # line's with White's; said as kings against men ("two kings less, three men more") it hid
    # the man. Said as a player counts: the crownings given up, the pieces, their sum the same.
    played = parse_fen("W:Wh2,f4,Ka7:BKa1,Kh4,h6")
    best = parse_fen("W:WKf2,Kd8:BKa1,f4,b8")
    said = ideas.material_words(played, best, WHITE)
    assert said == (("two crownings", -3.0), ("a man", 1.0))
    assert sum(v for _, v in said) == -2.0  # (2 + 2.5 - 5 - 1) - (5 - 2.5 - 2)
    assert ideas.material_words(best, played, BLACK) == said
    # a king taken outright is a king, not a man and a crowning
    assert ideas.material_words(parse_fen("W:Wc3:Bd6"), parse_fen("W:Wc3,Ke1:Bd6"), WHITE) \
        == (("a king", -2.5),)
    assert ideas.material_words(parse_fen("W:Wc3,Ke1,Kg1:Bd6"), parse_fen("W:Wc3:Bd6"),
                                WHITE) == (("two kings", 5.0),)
