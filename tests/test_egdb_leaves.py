"""The endgame tables read at the search's nodes (kbdraughts/egdb/leaves.py): the materials a
root reaches, the score a covered node gets, and the two searches equal with tables."""

from __future__ import annotations

import random

import pytest

from kbdraughts import native
from kbdraughts.ai.endgame import judge
from kbdraughts.ai.engine import Engine
from kbdraughts.eval.heuristic import default_heuristic, material
from kbdraughts.ai.native_search import NativeSearcher, native_evaluator
from kbdraughts.ai.search import Searcher
from kbdraughts.board import Position, legal_moves, play
from kbdraughts.egdb import leaves
from kbdraughts.egdb.index import Material, material_of
from kbdraughts.egdb.probe import Database
from kbdraughts.game import Game
from kbdraughts.notation import parse_fen
from kbdraughts.squares import BB_RANK, SQUARES
from kbdraughts.values import TABLE_WIN, TABLE_ZONE

needs_core = pytest.mark.skipif(native.core is None, reason="the native core is not built")


@pytest.fixture
def db(endgame_tables) -> Database:
    return Database(endgame_tables, auto_pieces=0)


def random_ending(rng: random.Random, pieces: int) -> Position:
    """A position of ``pieces`` pieces, each side one at least, men off their crowning rank."""
    while True:
        squares = rng.sample(SQUARES, pieces)
        n_white = rng.randint(1, pieces - 1)
        white = black = kings = 0
        for i, sq in enumerate(squares):
            bit = 1 << sq
            is_white = i < n_white
            king = rng.random() < 0.5 or bit & (BB_RANK[7] if is_white else BB_RANK[0])
            if is_white:
                white |= bit
            else:
                black |= bit
            if king:
                kings |= bit
        pos = Position(white, black, kings, rng.randint(0, 1))
        if legal_moves(pos):
            return pos


def test_the_materials_a_root_reaches_are_those_its_pieces_can_become():
    m = Material(2, 1, 1, 1)
    got = set(leaves.reachable(m, 4))
    # By brute force: take pieces away and crown men, as a game can.
    want = set()
    for wm in range(3):
        for wk in range(4):
            for bm in range(2):
                for bk in range(3):
                    fits = (wm <= m.wm and wm + wk <= m.wm + m.wk and bm <= m.bm
                            and bm + bk <= m.bm + m.bk)
                    if fits and wm + wk and bm + bk and wm + wk + bm + bk <= 4:
                        want.add(Material(wm, wk, bm, bk))
    assert got == want and Material(0, 3, 0, 1) in got and Material(3, 0, 0, 1) not in got


def test_a_root_of_the_middle_game_reads_no_table(db):
    assert leaves.for_root(db, parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3:Bb6,d6,f6,h6"),
                           wait=True) is None


def test_without_waiting_a_search_reads_the_tables_read_already_and_the_rest_come_later(db):
    pos = parse_fen("W:WKa1,c3:BKh8")
    first = leaves.for_root(db, pos)  # nothing read yet: the reading starts in the background
    db.wait()
    later = leaves.for_root(db, pos)
    assert first is None or first.pieces <= later.pieces
    assert later is not None and Material(1, 1, 0, 1) in later.tables and later.pieces == 3


@pytest.mark.parametrize("seed", range(3))
def test_a_node_the_tables_cover_scores_their_value_with_the_rules(db, seed):
    # Depth 1 from an ending of three pieces: every child is in the tables, so the root's score
    # is the best of the children's table scores, each computed here from the database itself.
    rng = random.Random(seed)
    checked = 0
    for _ in range(40):
        pos = random_ending(rng, 3)
        children = [play(pos, m) for m in legal_moves(pos)]
        if any(not c.white or not c.black for c in children):
            continue  # a side taken off: a leaf the search evaluates, no table's
        tables = leaves.for_root(db, pos, wait=True)
        want = -float("inf")
        for child in children:
            verdict = judge(child, 0, 0, db.probe)
            score = verdict.outcome * (TABLE_WIN - verdict.distance) if verdict.outcome else 0
            want = max(want, -score)
        res = Searcher(material).search(pos, max_depth=1, tables=tables)
        assert res.score == want, pos
        checked += 1
    assert checked >= 15


@needs_core  # four pieces: the pure path builds the tables of three
def test_the_rules_turn_a_table_win_into_a_draw_in_the_search(db):
    # Three kings against one off the main road: a win, but not with 14 of the 15 moves made.
    pos = parse_fen("W:WKa1,Kc1,Ke1:BKd8")
    tables = leaves.for_root(db, pos, wait=True)
    fresh = Searcher(material).search(pos, max_depth=3, tables=tables)
    late = Searcher(material).search(pos, max_depth=3, tables=tables, counters=(0, 28))
    assert fresh.score >= TABLE_WIN - TABLE_ZONE
    assert abs(late.score) < TABLE_WIN - TABLE_ZONE


@needs_core
def test_the_pure_and_the_native_search_read_the_tables_alike(db):
    rng = random.Random(11)
    evaluate = default_heuristic().evaluate
    seen_table_scores = 0
    for i in range(40):
        pos = random_ending(rng, 5 + i % 3)
        tables = leaves.for_root(db, pos, wait=True)
        assert tables is not None and tables.pieces == 4
        ko, sb = (i % 7) * 4, (i % 5) * 6
        pure = Searcher(evaluate).search(pos, max_depth=7, tables=tables, counters=(ko, sb))
        fast = NativeSearcher(evaluate, native_evaluator(evaluate), tt_size=1 << 17).search(
            pos, max_depth=7, tables=tables, counters=(ko, sb))
        assert (fast.move, fast.score, fast.depth, fast.nodes) == (
            pure.move, pure.score, pure.depth, pure.nodes), pos
        seen_table_scores += abs(pure.score) >= TABLE_WIN - TABLE_ZONE
    assert seen_table_scores >= 5  # the tables decided some of them


@needs_core
def test_the_native_searcher_refuses_tables_of_the_wrong_size():
    searcher = native.core.Searcher(native_evaluator(material))
    with pytest.raises(ValueError):
        searcher.set_tables({(0, 1, 0, 1): (b"\0", b"\0")})
    with pytest.raises(ValueError):
        searcher.set_tables({(0, 9, 0, 1): (b"", b"")})
    with pytest.raises(TypeError):
        searcher.set_tables([])
    searcher.set_tables({})


@needs_core  # four pieces after the capture: the pure path builds the tables of three
def test_the_engine_s_search_reads_the_tables_and_says_the_ending_is_won(endgame_tables):
    # Four pieces after the capture: the search's node is the tables', and it says so.
    game = Game(parse_fen("W:WKa1,Kc1,e3:BKd8,h6"))
    engine = Engine(level=4, movetime_ms=300, use_kb=False, egdb=True)
    from kbdraughts.egdb import probe
    leaves.for_root(probe.default(), game.position, wait=True)  # read before the timed move
    choice = engine.choose(game)
    assert choice is not None and choice.move in legal_moves(game.position)
    assert material_of(game.position).pieces == 5  # no table at the root: the search's nodes
    assert choice.layer == "search" and choice.words == "search: wins by the endgame tables"
