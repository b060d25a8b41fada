"""A node budget instead of the time: the search stops once it has spent N nodes (read at the
clock's ticks), the pure tree and the C one at the same node, and a move by nodes does not
depend on the time or the load; the engine, its spec (``kb:4:Nnodes``), ``bestmove --nodes``,
``match --nodes`` and bench/versus.py pass it on."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kbdraughts import native
from kbdraughts.ai.engine import Engine
from kbdraughts.ai.native_search import NativeSearcher, native_evaluator
from kbdraughts.ai.search import Searcher
from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError
from kbdraughts.ai.tree import CHECK_MASK
from kbdraughts.board import START, legal_moves, play
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.game import Game
from kbdraughts.notation import fen, parse_fen

ROOT = Path(__file__).resolve().parents[1]
#: Middle games of bench's file, where no search of a few tens of thousands of nodes ends by
#: itself.
POSITIONS = [line.split("#")[0].strip() for line in (
    ROOT / "bench" / "data" / "middlegames.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")][:3]

needs_core = pytest.mark.skipif(native.core is None, reason=f"no native core: {native.why_pure}")


def _opened() -> Game:
    game = Game()
    for i in (0, 1, 2, 0):
        game.push(legal_moves(game.position)[i])
    return game


@needs_core
@pytest.mark.parametrize("budget", [3_000, 20_000, 70_001])
def test_the_pure_and_the_native_search_stop_at_the_same_node(budget):
    evaluate = default_heuristic().evaluate
    for text in POSITIONS:
        pos = parse_fen(text)
        pure = Searcher(evaluate).search(pos, nodes=budget)
        c = NativeSearcher(evaluate, native_evaluator(evaluate), tt_size=1 << 17).search(
            pos, nodes=budget)
        assert (c.move, c.score, c.depth, c.nodes, c.complete) == (
            pure.move, pure.score, pure.depth, pure.nodes, pure.complete), text
        # Cut short at the first tick past the budget: no more than a tick's nodes over it.
        assert not c.complete and budget <= c.nodes <= budget + CHECK_MASK + 1, (text, c.nodes)


def test_the_pure_search_stops_within_a_tick_of_its_budget():
    pos = parse_fen(POSITIONS[0])
    res = Searcher(default_heuristic().evaluate).search(pos, nodes=5_000)
    assert not res.complete and 5_000 <= res.nodes <= 5_000 + CHECK_MASK + 1
    unbounded = Searcher(default_heuristic().evaluate).search(pos, max_depth=res.depth + 1)
    assert unbounded.nodes > res.nodes + CHECK_MASK + 1  # the budget, not the depth, stopped it


def _hog(stop: threading.Event) -> None:
    while not stop.is_set():  # holds the GIL in turns, as a loaded machine slows the search
        sum(range(1000))


@pytest.mark.parametrize("pure", [False, True])
def test_a_move_by_nodes_is_the_same_at_any_time_and_load(pure, monkeypatch):
    """Without a node budget, 1 ms stops the search at once; with one, the time given plays
    no part, nor does a thread competing for the processor: the same move, nodes and depth."""
    if pure:
        if native.core is None:
            pytest.skip("the native run is the pure one here")
        monkeypatch.setattr("kbdraughts.ai.engine.make_searcher",
                            lambda evaluate, **kw: Searcher(evaluate, **kw))
    budget = 30_000 if pure else 200_000
    game = _opened()
    quiet = Engine(level=4, movetime_ms=60_000, use_kb=False, nodes=budget).choose(game)
    stop = threading.Event()
    hog = threading.Thread(target=_hog, args=(stop,), daemon=True)
    hog.start()
    try:
        loaded = Engine(level=4, movetime_ms=1, use_kb=False, nodes=budget).choose(game)
    finally:
        stop.set()
        hog.join()
    assert quiet is not None and loaded is not None
    assert quiet.searched is not None and loaded.searched is not None
    assert (loaded.move, loaded.searched.nodes, loaded.searched.depth, loaded.searched.score) \
        == (quiet.move, quiet.searched.nodes, quiet.searched.depth, quiet.searched.score)
    assert quiet.searched.nodes >= budget
    timed = Engine(level=4, movetime_ms=1, use_kb=False).choose(game)
    assert timed is not None and timed.searched is not None
    assert timed.searched.nodes < budget  # the time would have stopped it far sooner


def test_a_node_budget_must_be_positive():
    with pytest.raises(ValueError):
        Engine(nodes=0)


def test_the_spec_carries_a_node_budget():
    spec = PlayerSpec.parse("KB:4:nokb:300000nodes")
    assert (spec.level, spec.use_kb, spec.nodes) == (4, False, 300_000)
    assert str(spec) == "kb:4:nokb:300000nodes" and PlayerSpec.parse(str(spec)) == spec
    assert PlayerSpec.parse("kb:2:200ms").nodes == 0
    for bad in ("kb:4:0nodes", "kb:4:nodes", "kb:4:1x0nodes", "kb:4:10000000000000nodes"):
        with pytest.raises(PlayerSpecError, match="nodes like"):
            PlayerSpec.parse(bad)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kbdraughts", *args], capture_output=True,
                          text=True, timeout=300, env=os.environ.copy())


def test_bestmove_by_nodes_answers_the_same_at_any_movetime():
    line = fen(play(START, legal_moves(START)[2]))
    short = _run("bestmove", "--no-kb", "--nodes", "150000", "--movetime", "1", "--explain",
                 line)
    long = _run("bestmove", "--no-kb", "--nodes", "150000", "--movetime", "60000", "--explain",
                line)
    assert short.returncode == long.returncode == 0, short.stderr
    # The same words, but for the seconds taken: depth, score, nodes, the line.
    assert re.sub(r"[0-9.]+ s\b", "", short.stdout) == re.sub(r"[0-9.]+ s\b", "", long.stdout)
    assert "nodes" in short.stdout
    bad = _run("bestmove", "--nodes", "0", line)
    assert bad.returncode == 2 and "nodes must be from 1" in bad.stderr


def test_match_by_nodes_names_its_engines_so():
    out = _run("match", "kb:4:nokb", "greedy", "--nodes", "5000", "--games", "2", "--max-plies",
               "30")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1].startswith("kb:4:nokb:5000nodes vs greedy: ")


def _versus():
    spec = importlib.util.spec_from_file_location("versus", ROOT / "bench" / "versus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_versus_gives_both_sides_the_node_budget(tmp_path):
    v = _versus()
    words = v.engine_words(tmp_path, 300, 4, True, 300_000)
    assert words[-2:] == ["--nodes", "300000"]
    assert "--nodes" not in v.engine_words(tmp_path, 300, 4, True)
    args = v.argparse.Namespace(level=4, movetime=300, no_kb=False, games=4, seed=1, jobs=1,
                                balanced=True, pdn=None, fens=None, nodes=300_000)
    assert v.match_command(args, ["old"], True)[4] == "kb:4:300ms:300000nodes"
