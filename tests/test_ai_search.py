"""The search: its pruning keeps plain minimax's score, it finds forced wins and shots, keeps
its time, knows the draw rules, and tries the moves it is asked to prefer first. Every test
runs twice, on the pure search and on the native one (where the core is built), as CPython's
test_heapq runs on heapq and _heapq."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from kbdraughts import native
from kbdraughts.ai.draw_rules import CONTEMPT, game_counters, rule_draw
from kbdraughts.eval.heuristic import default_heuristic, material
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.search import MATE_ZONE, MAX_QUIESCENCE, Searcher
from kbdraughts.board import START, Position, captures, legal_moves, play
from kbdraughts.game import Game, Reason, random_walk
from kbdraughts.notation import move_text, parse_fen
from kbdraughts.values import WIN

TACTICS = Path(__file__).resolve().parent / "data" / "tactics.txt"


@pytest.fixture(autouse=True, params=["pure", "native"])
def implementation(request, monkeypatch):
    """``Searcher`` in these tests: the pure class, or what the program chooses (the native
    search, for every evaluation it knows)."""
    if request.param == "native":
        if native.core is None:
            pytest.skip(f"no native core: {native.why_pure}")
        monkeypatch.setattr(sys.modules[__name__], "Searcher", make_searcher)
    return request.param


def tactics(max_plies: int) -> list[tuple[Position, int, list[str]]]:
    """The shots of tests/data/tactics.txt won within ``max_plies``: (position, P, moves)."""
    out = []
    for line in TACTICS.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            fen_text, plies, moves = (x.strip() for x in text.split("|"))
            if int(plies) <= max_plies:
                out.append((parse_fen(fen_text), int(plies), moves.split()))
    return out


def minimax(pos: Position, depth: int, evaluate, ply: int = 0, path: frozenset = frozenset()
            ) -> float:
    """Plain negamax, no pruning, no table: the rules of the search (captures resolved at the
    leaves, a repeated position with kings a draw) and nothing else."""
    if pos.kings and pos in path:
        return 0
    caps = captures(pos)
    if depth <= 0 and (not caps or depth <= -MAX_QUIESCENCE):
        return evaluate(pos)
    moves = caps or legal_moves(pos)
    if not moves:
        return -WIN + ply
    path = path | {pos} if pos.kings else path
    return max(-minimax(play(pos, m), depth - 1, evaluate, ply + 1, path) for m in moves)


def positions(seed: int, count: int, plies: tuple[int, int] = (4, 60)) -> list[Position]:
    """Positions of random games, some with kings, none over (the side to move has a move)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        walk = list(random_walk(rng, rng.randrange(*plies)))
        if walk and legal_moves(walk[-1]):
            out.append(walk[-1])
    return out


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_exact_pruning_keeps_the_minimax_score(depth):
    # PVS, aspiration windows, the table, killers and history cut only what cannot matter.
    evaluate = default_heuristic().evaluate
    for pos in positions(depth, 12 if depth < 4 else 8):
        s = Searcher(evaluate, reductions=False, extensions=False)
        assert s.search(pos, max_depth=depth).score == minimax(pos, depth, evaluate), pos


def test_exact_pruning_with_kings_and_material():
    for pos in positions(7, 12, plies=(70, 110)):
        s = Searcher(material, reductions=False, extensions=False)
        assert s.search(pos, max_depth=3).score == minimax(pos, 3, material), pos


def test_a_full_table_ages_instead_of_emptying_and_stays_exact():
    evaluate = default_heuristic().evaluate
    aged = 0
    for pos in positions(8, 6, plies=(10, 40)):
        s = Searcher(evaluate, tt_size=50, reductions=False, extensions=False)
        assert s.search(pos, max_depth=4).score == minimax(pos, 4, evaluate), pos
        current, old = s.table_counts
        assert 0 < current <= 50 and old in (0, 50)
        aged += old == 50
    assert aged >= 3


@pytest.mark.parametrize("extended", [False, True])
def test_the_full_search_finds_every_forced_win_minimax_finds(extended):
    wins = [(p, minimax(p, 3, material)) for p in positions(11, 150, plies=(60, 120))]
    wins = [(p, v) for p, v in wins if v >= MATE_ZONE]
    assert len(wins) >= 3  # the test means something
    for pos, value in wins:
        res = Searcher(default_heuristic().evaluate, extensions=extended,
                       forced_extension=extended).search(pos, max_depth=5)
        assert res.score >= value, pos  # as soon or sooner (the extensions see further)
        assert minimax(play(pos, res.move), 2, material) <= -MATE_ZONE


def test_the_full_search_finds_the_short_shots():
    # The shots of tests/data/tactics.txt won within 5 plies: with its reductions, a ply
    # deeper than the shot, the search plays a listed move, or one that wins material too by
    # plain minimax to the same depth.
    found = 0
    for pos, plies, winning in tactics(5):
        if minimax(pos, plies, material) <= 0:
            continue  # minimax counts a king as 2.5 men: the shot is an exchange to it
        res = Searcher(material).search(pos, max_depth=plies + 1)
        assert (move_text(res.move) in winning
                or -minimax(play(pos, res.move), plies, material) > 0), pos
        found += 1
    assert found >= 10


def test_the_budget_is_kept():
    """The search stops at its deadline. Judged by the lesser of the wall time and this thread's
    processor time: on a loaded machine the thread may wait long for the processor after its
    deadline passed (the wall time), but a search that ran past it spent the processor too."""
    budget = 150
    for pos in positions(3, 4, plies=(20, 40)) + [START]:
        searcher = Searcher(default_heuristic().evaluate)  # its table set up, once a game
        t, cpu = time.perf_counter(), time.thread_time()
        res = searcher.search(pos, movetime_ms=budget)
        spent = min(time.perf_counter() - t, time.thread_time() - cpu) * 1000
        assert res.move in legal_moves(pos) and res.depth >= 1
        assert spent <= budget * 1.05 + 60, spent


def test_a_timed_search_deepens_until_the_deadline_cuts_an_iteration():
    # The budget is the move's whole time: another iteration starts while any is left, so
    # the last one is cut short (it is not, only when the search ends at a mate or max_depth).
    for pos in positions(4, 3, plies=(14, 30)):
        res = Searcher(default_heuristic().evaluate).search(pos, movetime_ms=120)
        # Cut short; or, on a starved machine, an iteration ended just past the deadline
        # before the search looked at the clock: either way it deepened until the deadline.
        assert (not res.complete or res.seconds >= 0.120) and res.depth >= 1, res
    res = Searcher(default_heuristic().evaluate).search(START, max_depth=3, movetime_ms=10_000)
    assert res.complete and res.depth == 3


def test_no_garbage_collection_inside_a_search_and_it_is_back_after():
    import gc

    seen = []

    def evaluate(pos: Position) -> float:
        seen.append(gc.isenabled())
        return material(pos)

    assert gc.isenabled()
    Searcher(evaluate).search(START, max_depth=4)
    # The root's own evaluation (for contempt) comes first, outside the deepening.
    assert len(seen) > 1 and not any(seen[1:]) and gc.isenabled()
    gc.disable()  # a caller that keeps it off finds it off
    try:
        Searcher(evaluate).search(START, max_depth=2)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_stop_event_ends_a_search_without_a_budget():
    import threading

    stop = threading.Event()
    threading.Timer(0.1, stop.set).start()
    t = time.perf_counter()
    res = Searcher(default_heuristic().evaluate).search(START, stop=stop)
    assert time.perf_counter() - t < 0.1 + 0.5 and not res.complete
    assert res.move in legal_moves(START)


def test_an_unfinished_iteration_still_answers_a_legal_move():
    pos = positions(5, 1, plies=(20, 30))[0]
    res = Searcher(default_heuristic().evaluate).search(pos, movetime_ms=1)
    assert res.move in legal_moves(pos)


# -- the game's draw rules --------------------------------------------------------------------

AHEAD = "W:WKa1,Kc1:BKh8"  # two kings against one, no capture: White is better


def test_one_king_move_before_the_15_move_rule_every_line_is_a_draw():
    pos = parse_fen(AHEAD)
    ahead = Searcher(material).search(pos, max_depth=3)
    assert ahead.score > 0
    drawn = Searcher(material).search(pos, max_depth=3, counters=(29, 0))
    assert drawn.score == 0
    # With contempt the better side counts the draw a little below zero...
    assert Searcher(material).search(pos, max_depth=3, counters=(29, 0),
                                     contempt=True).score == -CONTEMPT
    # ... and the worse side a little above.
    behind = parse_fen("B:WKa1,Kc1:BKh8")
    assert Searcher(material).search(behind, max_depth=3, counters=(29, 0),
                                     contempt=True).score == CONTEMPT


def test_a_repetition_scores_a_draw_with_contempt():
    pos = parse_fen(AHEAD)
    seen = [play(pos, m) for m in legal_moves(pos)]
    assert Searcher(material).search(pos, max_depth=3, history=seen).score == 0
    assert Searcher(material).search(pos, max_depth=3, history=seen,
                                     contempt=True).score == -CONTEMPT


def test_the_lone_king_rule_ends_the_line():
    pos = parse_fen("W:WKa1,Kc1,Ke1:BKh8")  # three kings against a lone king
    assert Searcher(material).search(pos, max_depth=2, counters=(0, 28)).score == 0
    assert Searcher(material).search(pos, max_depth=2, counters=(0, 20)).score > 0


def test_the_counters_and_rules_agree_with_the_game():
    rng = random.Random(4)
    checked = 0
    for fen_text in ("W:WKa1,Kc1,Ke1:BKh8", "W:WKa1,c3:BKh8,f6", "B:WKb2,Kd2:BKg7,Kh8",
                     "W:WKa1,Kc1,Ke1,g3:BKh8,b8"):
        for _ in range(6):
            game = Game(parse_fen(fen_text))
            while game.result is None and game.ply < 300:
                # Random moves that hang nothing when there are any: the kings live long.
                legal = game.legal_moves()
                safe = [m for m in legal if not captures(play(game.position, m))]
                game.push(rng.choice(safe or legal))
                reason = game.draw_reason()
                by_rule = reason is not None and reason.reason != Reason.REPETITION
                assert rule_draw(game.position, *game_counters(game)) == by_rule
                checked += by_rule
    assert checked > 0


def test_the_engine_passes_the_game_to_the_search(monkeypatch):
    from kbdraughts.ai.engine import Engine
    from kbdraughts.match.line_protocol import read_game_line

    seen = {}
    # Three pieces: without the endgame tables, which would answer first.
    engine = Engine(level=4, movetime_ms=100, use_kb=False, egdb=False)
    kind = type(engine.searcher)  # the native search where the core is built
    real = kind.search

    def spy(self, pos, **kw):
        seen.update(kw)
        return real(self, pos, **kw)

    monkeypatch.setattr(kind, "search", spy)
    game = read_game_line("W:WKc1,Ke1:BKh8 moves c1-d2 h8-g7 d2-c1")
    engine.choose(game)
    assert seen["counters"] == (3, 3) and seen["contempt"] is True
    assert len(seen["history"]) == 3


# -- prefer -----------------------------------------------------------------------------------


def test_prefer_puts_its_moves_first_at_the_root():
    # One ply from the start every move keeps material even: all tie, the first tried wins.
    legal = legal_moves(START)
    for m in legal:
        assert Searcher(material).search(START, max_depth=1, prefer=[m]).move == m
    a, b = legal[2], legal[5]
    assert Searcher(material).search(START, max_depth=1, prefer=[b, a]).move == b
    # An illegal preference is ignored.
    other = legal_moves(play(START, a))[0]
    assert Searcher(material).search(START, max_depth=1, prefer=[other]).move == legal[0]


def test_the_search_layer_prefers_the_knowledge_bases_moves(monkeypatch):
    from kbdraughts.ai.engine import Engine

    seen = {}

    class Match:
        def __init__(self, move):
            self.move = move
            # An exact rule, as the search layer reads it when it plays a firing move (the
            # pure search within 50 ms sometimes does: the fake lacked it and raised).
            self.rule = type("Rule", (), {"exact": True})()

    legal = legal_moves(START)

    class Rules:
        def firing(self, pos, legal_now=None):
            return [Match(legal[4]), Match(None), Match(legal[1]), Match(legal[4])]

    engine = Engine(level=4, movetime_ms=50, kb=Rules())
    kind = type(engine.searcher)
    real = kind.search

    def spy(self, pos, **kw):
        seen.update(kw)
        return real(self, pos, **kw)

    monkeypatch.setattr(kind, "search", spy)
    # The checked layer finds nothing it may play (no rule object): the search decides.
    monkeypatch.setattr("kbdraughts.ai.layers._rules", lambda ctx, check, exact_only=False: None)
    engine.choose(Game())
    assert seen["prefer"] == [legal[4], legal[1]]
