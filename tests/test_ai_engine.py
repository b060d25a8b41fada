"""The engine: its layers in order, the reason it gives, levels, draws and the stop event."""

from __future__ import annotations

import random
import re
import threading
from pathlib import Path

import pytest

from kbdraughts.ai.engine import DEFAULT_LEVEL, MAX_LEVEL, Choice, Engine
from kbdraughts.eval.heuristic import Heuristic
from kbdraughts.eval.terms import parse_terms
from kbdraughts.board import START, legal_moves, play
from kbdraughts.egdb.build import native_solves
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen
import kbdraughts.kb.knowledge as kb_module

# A pattern: a white man on c3 with d4 empty plays c3-d4, whatever else stands anywhere.
RULE = """\
rule {id}
  name: push to d4
  side: white{extra}
  board:
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - . - ? - ?
    ? - w - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
  play: c3-d4
"""


def kb_with(tmp_path: Path, text: str):
    path = tmp_path / "mine.txt"
    path.write_text(text, encoding="utf-8")
    return kb_module.load_knowledge_base([path]), path


def choose(fen: str, **kw) -> Choice | None:
    kw.setdefault("use_kb", False)
    return Engine(**kw).choose(Game(parse_fen(fen)))


def test_levels():
    assert MAX_LEVEL >= 2 and 1 <= DEFAULT_LEVEL <= MAX_LEVEL


def test_no_legal_move_is_none():
    assert choose("W:Wa1:Bb2,c3", level=1) is None  # a1 is blocked in
    assert choose("W:Wa1:Bb2,c3", level=2, movetime_ms=50) is None


def test_level_1_capture_tree_reason():
    c = choose("W:Wc3,e3,g1:Bd4,f6,g7", level=1)
    assert move_text(c.move) == "e3:c5" and c.layer == "capture tree"
    assert c.reason.startswith("capture tree +105: e3:c5 (best of 2 captures")
    assert len(c.short) <= 40 and c.short == "capture tree +105"


def test_level_1_weighted_move_lists_its_terms():
    c = choose("W:Wc3:Be5,h8", level=1)
    assert move_text(c.move) == "c3-b4"  # c3-d4 would hang the man
    assert c.layer == "heuristic"
    assert re.fullmatch(r"weighted move [+-]?\d+: .* \(best of 2 moves\)", c.reason)
    assert "the race to crown" in c.reason  # the breakthrough term, in words


def test_search_reason_shows_depth_score_and_line():
    c = choose("W:Wc3,e3,g3:Bf6,d6,h6", level=2, movetime_ms=200)
    assert c.layer == "search"
    assert re.match(r"search depth \d+\+?: (score [+-]?\d+|wins in \d+ pl|loses in)", c.reason)
    assert f"line {move_text(c.move)}" in c.reason


def test_choose_never_changes_the_game():
    game = Game()
    game.push(legal_moves(START)[0])
    before = (list(game.positions), list(game.moves))
    for level in (1, 2):
        Engine(level=level, movetime_ms=50, use_kb=False).choose(game)
    assert (game.positions, game.moves) == before


def test_ties_break_by_seed_but_deterministically_without():
    # A heuristic that weighs no quiet move: every move of the position ties.
    flat = Heuristic(parse_terms("weight crowning 200 when crowns\n"))
    fen = "W:Wa1,c1,e1,g1:Ba7,c7,e7,g7"
    without = {move_text(choose(fen, level=1, heuristic=flat).move) for _ in range(3)}
    assert len(without) == 1
    seeded = {move_text(choose(fen, level=1, seed=s, heuristic=flat).move) for s in range(12)}
    assert len(seeded) > 1
    assert choose(fen, level=1, seed=4, heuristic=flat).move == \
        choose(fen, level=1, seed=4, heuristic=flat).move


def test_a_pattern_rule_comes_before_the_heuristic(tmp_path):
    kb, path = kb_with(tmp_path, RULE.format(id="push-d4", extra=""))
    c = Engine(level=1, kb=kb).choose(Game(parse_fen("W:Wc3,g3:Bh8")))
    assert move_text(c.move) == "c3-d4" and c.layer == "pattern rule"
    assert c.reason == f'pattern rule push-d4 "push to d4" at {path}:1'
    assert c.short == "rule push-d4"


def test_a_mirrored_rule_says_so(tmp_path):
    kb, path = kb_with(tmp_path, RULE.format(id="push-d4", extra=""))
    c = Engine(level=1, kb=kb).choose(Game(parse_fen("B:Wh2:Bf6,b8")))
    assert move_text(c.move) == "f6-e5" and c.reason.endswith(f"{path}:1, mirrored")


def test_use_kb_false_ignores_the_rules(tmp_path):
    kb, _ = kb_with(tmp_path, RULE.format(id="push-d4", extra=""))
    c = Engine(level=1, kb=kb, use_kb=False).choose(Game(parse_fen("W:Wc3,g3:Bh8")))
    assert c.layer == "heuristic"


def test_a_losing_rule_is_skipped_by_the_capture_tree_at_level_1_by_the_search_at_2(tmp_path):
    """Level 1 played a rule's move that hangs a man (issue 40, item 24): its check is the
    capture tree's, level 2's a short search."""
    kb, path = kb_with(tmp_path, RULE.format(id="hang", extra=""))
    fen = "W:Wc3,g3:Be5,h8"  # c3-d4 hangs the man to e5:c3
    c1 = Engine(level=1, kb=kb).choose(Game(parse_fen(fen)))
    assert move_text(c1.move) != "c3-d4" and c1.layer == "heuristic"
    assert f"skipped rule hang ({path}:1): c3-d4 loses 1 man to the captures after it" \
        in c1.reason
    c2 = Engine(level=2, kb=kb, movetime_ms=100, egdb=False).choose(Game(parse_fen(fen)))
    assert move_text(c2.move) != "c3-d4" and c2.layer == "search"
    assert f"skipped rule hang ({path}:1): c3-d4 loses 1 man in 4 plies" in c2.reason


def test_a_declared_sacrifice_is_played_at_level_2(tmp_path):
    kb, _ = kb_with(tmp_path, RULE.format(id="offer", extra="\n  sacrifice: 1"))
    c = Engine(level=2, kb=kb, movetime_ms=100, egdb=False).choose(
        Game(parse_fen("W:Wc3,g3:Be5,h8")))
    assert move_text(c.move) == "c3-d4" and c.layer == "pattern rule"
    assert "sacrifices 1" in c.reason


CAPTURE_RULE = """\
rule take-e5
  board:
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - . - ? -
    - ? - * - ? - ?
    ? - w - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
  play: c3:e5
"""


def test_capture_rules_come_before_the_capture_tree(tmp_path):
    kb, path = kb_with(tmp_path, CAPTURE_RULE)
    fen = "W:Wc3,a3:Bd4,b4,h8"  # the tree prefers a3:c5:e3 (two men)
    assert move_text(choose(fen, level=1).move) == "a3:c5:e3"
    c = Engine(level=1, kb=kb).choose(Game(parse_fen(fen)))
    assert move_text(c.move) == "c3:e5" and c.layer == "capture rule"
    assert c.reason == f"capture rule take-e5 at {path}:1"


def test_draw_acceptance():
    e = Engine(level=1, use_kb=False)
    equal = Game(parse_fen("W:WKc1:BKf8"))
    assert e.accepts_draw(equal, 0) and e.accepts_draw(equal, 1)
    ahead = Game(parse_fen("W:WKa1,Kc1,c3:Bh8"))
    assert not e.accepts_draw(ahead, 0)
    assert e.accepts_draw(ahead, 1)


def test_the_king_duel_on_the_long_diagonal_is_a_win_not_a_draw():
    # White to move must step along a1-h8 and is taken: Black wins, neither side calls it drawn.
    # The tables say so where they reach (tests/test_ai_endgame.py); this is the short search.
    e = Engine(level=1, use_kb=False, egdb=False)
    duel = Game(parse_fen("W:WKa1:BKh8"))
    assert e.draw_verdict(duel, 1) == (False, "it sees a win in 1 move")
    assert e.offers_draw(duel, 1) == (False, "it sees a win in 1 move")
    assert not e.offers_draw(duel, 0)[0]
    assert e.offers_draw(Game(parse_fen("W:WKc1:BKh8")), 1) == (True, "it judges the position even")


@pytest.mark.parametrize("fen_text", [None, "W:Wa1,c1,e1,g1,b2,d2:Bh8,f8,d8,b8,g7,e7"])
def test_an_even_position_with_many_pieces_is_too_early_for_a_draw(fen_text):
    e = Engine(level=1, use_kb=False)
    game = Game(parse_fen(fen_text)) if fen_text else Game()
    for side in (0, 1):
        accepted, why = e.draw_verdict(game, side)
        assert not accepted and not e.accepts_draw(game, side)
        assert why.startswith("too early to agree a draw with ")
        assert re.search(r"it judges the position (even|[+-][\d.]+ m[ae]n for itself)$", why)


def test_the_draw_verdict_says_why_in_men():
    e = Engine(level=1, use_kb=False)
    ahead = Game(parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2:Bh8,f8,d8,b8,g7,e7"))
    accepted, why = e.draw_verdict(ahead, 0)
    assert not accepted and re.fullmatch(r"it judges the position \+[\d.]+ m[ae]n for itself", why)
    accepted, why = e.draw_verdict(ahead, 1)
    assert accepted and re.fullmatch(r"it judges the position -[\d.]+ m[ae]n for itself", why)


def test_few_pieces_do_not_make_it_take_a_draw_while_ahead(endgame_tables):
    # Three kings against one and no win seen in the judgement's plies: the strong side plays
    # on (it declined only when a win was in sight before: "few pieces" came first).
    e = Engine(level=1, use_kb=False, egdb=False)
    game = Game(parse_fen("W:WKh4,Kg1,Ke3:BKh2"))
    # Five men's worth of kings, less what the evaluation grants Black's king in its corner.
    accepted, why = e.draw_verdict(game, 0)
    assert not accepted and re.fullmatch(r"it judges the position \+4\.\d men for itself", why)
    accepted, why = e.draw_verdict(game, 1)
    assert accepted and re.fullmatch(r"it judges the position -4\.\d men for itself", why)
    # The tables know more: the win and its length (4 pieces: tables the native core builds).
    if not native_solves():
        return
    accepted, why = Engine(level=1, use_kb=False).draw_verdict(game, 0)
    assert not accepted and re.fullmatch(r"the endgame database says it wins in \d+ moves, .*", why)


def test_the_stop_event_ends_thinking_with_a_legal_move():
    stop = threading.Event()
    stop.set()
    game = Game()
    c = Engine(level=MAX_LEVEL, movetime_ms=60_000, use_kb=False).choose(game, stop)
    assert c is not None and c.move in game.legal_moves()


def test_stop_from_another_thread():
    stop = threading.Event()
    game = Game()
    result = []
    t = threading.Thread(target=lambda: result.append(
        Engine(level=MAX_LEVEL, movetime_ms=60_000, use_kb=False).choose(game, stop)))
    t.start()
    stop.set()
    t.join(30)
    assert not t.is_alive() and result[0].move in game.legal_moves()


@pytest.mark.parametrize("level", [1, 2])
def test_the_engine_is_legal_on_random_positions(level):
    rng = random.Random(level)
    engine = Engine(level=level, movetime_ms=20, use_kb=False)
    for _ in range(15):
        game = Game()
        for _ in range(rng.randrange(0, 70)):
            if game.result is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        c = engine.choose(game)
        assert (c is None) == (not game.legal_moves())
        if c is not None:
            assert c.move in game.legal_moves() and len(c.short) <= 40 and "\n" not in c.reason


def test_recurring_positions_stop_at_an_irreversible_move():
    from kbdraughts.ai.layers import recurring_positions

    game = Game(parse_fen("W:WKa1,c3:BKh8,f6"))
    for text in ("a1-b2", "h8-g7", "b2-a1", "g7-h8", "c3-d4", "h8-g7"):
        game.push(next(m for m in game.legal_moves() if move_text(m) == text))
    assert recurring_positions(game) == [game.positions[-2]]
    game.pop()
    game.pop()
    assert recurring_positions(game) == game.positions[-2::-1]


def test_the_search_scores_a_repetition_as_a_draw():
    from kbdraughts.eval.heuristic import default_heuristic
    from kbdraughts.ai.search import Searcher

    pos = parse_fen("W:WKa1,Kc1:BKh8")  # two kings against one: White is ahead
    s = Searcher(default_heuristic().evaluate)
    ahead = s.search(pos, max_depth=3).score
    # Every position White can reach has been seen: all lines repeat, so all are draws.
    seen = [play(pos, m) for m in legal_moves(pos)]
    s2 = Searcher(default_heuristic().evaluate)
    assert ahead > 0 and s2.search(pos, max_depth=3, history=seen).score == 0


def test_a_rule_losing_more_than_it_declares_is_skipped(tmp_path):
    kb, path = kb_with(tmp_path, RULE.format(id="offer", extra="\n  sacrifice: 1"))
    fen = "W:Wc3,d2,g3:Be5,h8"  # c3-d4 e5:c3:e1 takes two and crowns
    c = Engine(level=2, kb=kb, movetime_ms=100).choose(Game(parse_fen(fen)))
    assert move_text(c.move) != "c3-d4"
    assert re.search(rf"skipped rule offer \({re.escape(str(path))}:1\): c3-d4 loses "
                     r"(the game|[\d.]+ men in 4 plies), declares 1", c.reason)



CROWNS = """\
rule offer
  sacrifice: 1
  board:
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - . - b
    ? - ? - ? - w -
  play: g1-f2
"""


def test_no_tolerance_beyond_the_declared_sacrifice(tmp_path):
    # g1-f2 declares one man but lets h2 crown on g1: a man and a half in material (the
    # check counts a king 2.5 men). The half-man tolerance the check once had let it through.
    kb, path = kb_with(tmp_path, CROWNS)
    fen = "W:We1,g1,b2,d2,g5:Bh2,b6,d6,d8,h8"
    c1 = Engine(level=1, kb=kb).choose(Game(parse_fen(fen)))
    assert move_text(c1.move) == "g1-f2" and c1.layer == "pattern rule"  # the rule fires
    c = Engine(level=2, kb=kb, movetime_ms=200).choose(Game(parse_fen(fen)))
    assert move_text(c.move) != "g1-f2"
    assert f"skipped rule offer ({path}:1): g1-f2 loses 1.5 men in 4 plies, declares 1" \
        in c.reason


SHOT = """\
rule test-shot
  name: h2-g3 gives a man, h4:f2 is forced, g1:e3:c5 takes two
  sacrifice: 1
  board:
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - . - ? - ? -
    - ? - b - ? - b
    ? - ? - . - . -
    - ? - ? - . - w
    ? - ? - ? - w -
  play: h2-g3
"""


def test_level_1_sees_the_shots_its_rules_give_the_opponent(tmp_path):
    kb, _ = kb_with(tmp_path, SHOT)
    game = Game(parse_fen("B:Wg1,b2,d2,h2:Bd4,g5,h6,a7,b8"))  # g5-h4 walks into the shot
    weighed = {move_text(m): dict(parts)
               for m, _, parts in Engine(level=1, kb=kb).weigh_all(game.position,
                                                                   game.legal_moves())}
    assert weighed["g5-h4"]["shot-danger"] == 105 - 2 * 100  # we take one, they take two
    assert "shot-danger" not in weighed["g5-f4"]
    blind = Engine(level=1, kb=kb, use_kb=False).weigh_all(game.position, game.legal_moves())
    assert all("shot-danger" not in dict(parts) for _, _, parts in blind)


def test_a_won_score_counts_from_the_position_searched_not_an_earlier_one():
    # The engine keeps its transposition table between moves; a won game's distance it kept
    # must be read from the new position (once it said "wins in 11 plies" four moves running).
    kept = Engine(level=3, use_kb=False, egdb=False)  # the search's own words, not the tables'
    game = Game(parse_fen("B:WKa1,c1:BKh8,Kf8,Kd8,e5"))
    said = []
    while game.result is None and len(said) < 4:
        c = kept.choose(game)
        fresh = Engine(level=3, use_kb=False, egdb=False).choose(game)
        outcome = re.search(r"(wins|loses) in \d+ pl\w+", c.reason)
        assert outcome and outcome.group() in fresh.reason, (c.reason, fresh.reason)
        said.append(outcome.group())
        game.push(c.move)
    assert said == ["wins in 5 plies", "loses in 4 plies", "wins in 3 plies", "loses in 2 plies"]


def test_the_words_for_the_console_have_no_file_and_no_engine_detail(tmp_path):
    kb, path = kb_with(tmp_path, RULE.format(id="push-d4", extra=""))
    c = Engine(level=1, kb=kb).choose(Game(parse_fen("W:Wc3,g3:Bh8")))
    assert c.words == 'pattern rule push-d4 "push to d4"'
    c = Engine(level=1, kb=kb).choose(Game(parse_fen("B:Wh2:Bf6,b8")))
    assert c.words == 'pattern rule push-d4 "push to d4", mirrored'
    c2 = Engine(level=2, kb=kb, movetime_ms=100, egdb=False).choose(
        Game(parse_fen("W:Wc3,g3:Be5,h8")))
    assert c2.layer == "search" and str(path) in c2.reason  # the skipped rule, verbose only
    # The score, and the evaluation's shares that decided over the next best move.
    assert re.fullmatch(r"search: (even|[+-][\d.]+ m[ae]n for itself|(wins|loses) in \d+ moves?)"
                        r"( \((.+ [+-]\d\.\d\d)(, .+ [+-]\d\.\d\d)*\))?", c2.words), c2.words
    won = Engine(level=3, use_kb=False, egdb=False).choose(
        Game(parse_fen("B:WKa1,c1:BKh8,Kf8,Kd8,e5")))
    assert won.words == "search: wins in 3 moves"
    taken = Engine(level=1, use_kb=False).choose(Game(parse_fen("W:Wc3,a3:Bd4,b4,h8")))
    assert taken.words == "capture tree: +2 men for itself"


def test_a_draw_judged_after_the_engines_move_says_what_the_move_said():
    """Issue 28, item 26: a move said "+3 men for Black" and `draw` then "+1.9 men": the draw's
    short search, not the move's. After its own move the engine judges by that move's search."""
    fen = "W:Wc1,e1,g1,h2,a3,c3,g3,b4,a5:Be5,b6,d6,h6,a7,c7,b8,d8,h8"
    engine = Engine(level=2, movetime_ms=60_000, egdb=False)  # 4 plies: the same each run
    game = Game(parse_fen(fen))
    choice = engine.choose(game)
    game.push(choice.move)
    said = re.match(r"search: (even|[-+][\d.]+ men? for itself)", choice.words)
    assert said, choice.words
    assert engine.draw_verdict(game, 0)[1].endswith(f"it judges the position {said.group(1)}")
