"""The native core equals the pure-Python reference: the same moves (paths, captured squares,
crowning, order) on 100,000 positions of random games, the same perft counts, the same
features and evaluation on 20,000 positions, the same move, score and node count at a fixed
depth on the middle games and on positions with kings, the same constants. Skipped where the
C extension is not built (the pure path then runs everything)."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from kbdraughts import native
from kbdraughts.ai import draw_rules, search as search_module, tree
from kbdraughts.eval.heuristic import Heuristic, NativeWarning, default_heuristic, material
from kbdraughts.ai.native_search import NativeSearcher, make_searcher, native_evaluator
from kbdraughts.ai.search import Searcher
from kbdraughts.board import START, Position, legal_moves
from kbdraughts.game import ENDING_PLIES, KING_MOVES_ONLY_PLIES, LONE_KING_MOVES, random_walk
from kbdraughts.eval.terms import parse_terms
from kbdraughts.notation import fen, parse_fen
from pure import pure_modules

pytestmark = pytest.mark.skipif(native.core is None, reason=f"no native core: {native.why_pure}")

MIDDLE_GAMES = Path(__file__).resolve().parent.parent / "bench" / "data" / "middlegames.txt"


@pytest.fixture(scope="module")
def pure():
    board, evaluation = pure_modules("kbdraughts.board", "kbdraughts.eval.evaluation")
    assert board.captures.__module__ == "kbdraughts.board"  # the Python functions, not C
    return board, evaluation


def random_positions(count: int, seed: int) -> list[Position]:
    """Every position of random games (kings, captures and crowning among them) until
    ``count``."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        out.extend(random_walk(rng, rng.randrange(20, 160)))
    return out[:count]


def test_the_modules_run_the_native_functions():
    from kbdraughts import board
    from kbdraughts.eval import evaluation
    assert board.legal_moves is native.core.legal_moves
    assert evaluation.other_features is native.core.other_features
    assert native.describe().startswith("native core")


def test_the_same_moves_on_100000_positions(pure):
    board, _ = pure
    n_caps = n_crown = 0
    for pos in random_positions(100_000, seed=1):
        expected = board.legal_moves(pos)
        got = legal_moves(pos)
        assert got == expected, pos  # the same moves, paths and order
        assert native.core.count_moves(pos) == len(expected)
        n_caps += bool(expected and expected[0].captured)
        n_crown += any(m.crowned for m in expected)
    assert n_caps > 10_000 and n_crown > 1_000  # the positions did exercise captures, crowning


def test_the_same_quiet_moves_and_captures_apart(pure):
    board, _ = pure
    for pos in random_positions(5_000, seed=2):
        assert native.core.captures(pos) == board.captures(pos)
        assert native.core.quiet_moves(pos) == board.quiet_moves(pos)
        for m in board.legal_moves(pos):
            assert native.core.play(pos, m) == board.play(pos, m)


def test_the_same_perft_on_the_start_and_60_positions(pure):
    board, _ = pure
    assert native.core.perft(START, 6) == board.perft(START, 6) == 37_986
    rng = random.Random(3)
    for pos in rng.sample(random_positions(5_000, seed=3), 60):
        assert native.core.perft(pos, 3) == board.perft(pos, 3), pos


def test_the_same_features_and_evaluation_on_20000_positions(pure):
    _, evaluation = pure
    h = default_heuristic()
    ev = h.native_evaluator()
    for pos in random_positions(20_000, seed=4):
        assert native.core.other_features(pos) == evaluation.other_features(pos), pos
        assert native.core.men_sums(pos) == evaluation.men_sums(pos), pos
        # The same whole hundredths summed: the native way, the quick way and the slow way
        # (feature by feature) each in its own order, the same number to the last bit.
        assert ev.evaluate(pos) == h._quickly(pos, 0) == h._slowly(pos, 0), pos


def test_the_evaluator_takes_whole_hundredths_in_32_bits():
    # The rows come from Heuristic in hundredths (ints); a number beyond 32 bits or not whole
    # is refused at the boundary, never wrapped or truncated in the tables.
    from kbdraughts.eval.evaluation import OTHERS
    from kbdraughts.eval.features import PHASES

    def evaluator(const):
        men = ((0,) * 512,) * 4
        return native.core.Evaluator([(const, (0,) * len(PHASES), men, men,
                                       (0,) * len(OTHERS))], [])

    assert evaluator(2**31 - 1).evaluate(START) == (2**31 - 1) / 100
    assert evaluator(-2**31).evaluate(START) == -2**31 / 100
    for bad, error in ((2**31, OverflowError), (-2**31 - 1, OverflowError), (1.5, TypeError)):
        with pytest.raises(error):
            evaluator(bad)


def test_the_same_evaluation_with_fractional_weights_and_conditions():
    # Weights that are not whole numbers (hundredths no binary fraction holds: the sums are of
    # whole hundredths, so no order of additions rounds them differently), and `when`
    # conditions on several features: four signature rows.
    h = Heuristic(parse_terms(
        "value a 1.5 per centre_men when not endgame\n"
        "value b -2.25 per man_ranks when kings\n"
        "value c 0.75 per king_mobility when kings and not endgame\n"
        "value d 3.5\n"
        "value e 12.13 per runaway\n", "test.txt"))
    ev = h.native_evaluator()
    assert ev is not None
    for pos in random_positions(5_000, seed=5):
        assert ev.evaluate(pos) == h._quickly(pos, 0) == h._slowly(pos, 0), pos


def test_conditions_on_sums_over_men_run_natively_and_equal(pure):
    # Every feature a `when` may name is computed natively, the sums over men too: the search
    # stays native, and the pure module's quick way gives the same numbers to the last bit.
    text = ("value a 2.5 per kings when centre_men\n"
            "value b -1.25 per runaway when not men and endgame\n"
            "value c 0.5 per man_ranks when golden and not back_guard\n"
            "pattern p 3 c3=w d4=w when back_men\n")
    h = Heuristic(parse_terms(text, "t.txt"))
    assert not h.warnings
    assert isinstance(make_searcher(h.evaluate), NativeSearcher)
    _, evaluation = pure
    named = 0
    for pos in random_positions(5_000, seed=6):
        assert h.native_evaluator().evaluate(pos) == h._quickly(pos, 0), pos
        assert h.evaluate(pos) == h._slowly(pos, 0), pos
        named += bool(evaluation.men_sums(pos)[0])
    assert named > 1_000  # the condition on centre_men did hold and not hold


def test_too_many_conditions_warn_at_load_time_with_the_line(tmp_path):
    # Nine features named in `when`s: more than the native evaluator's rows hold. The loader
    # says so at the line that names the ninth, and the search runs on the pure core.
    names = ["centre_men", "back_men", "kings", "endgame", "golden", "runaway", "opening",
             "hanging", "passed_men"]
    path = tmp_path / "heuristic.txt"
    path.write_text("".join(f"value t{i} 1 when {n}\n" for i, n in enumerate(names)))
    (tmp_path / "shapes.txt").write_text("")
    ninth = rf"^{re.escape(str(path))}:9: warning: .*9th feature \(passed_men\)"
    with pytest.warns(NativeWarning, match=ninth):
        h = Heuristic.from_file(path)
    assert h.native_evaluator() is None
    assert isinstance(make_searcher(h.evaluate), Searcher)
    path.write_text("".join(f"value t{i} 1 when {n}\n" for i, n in enumerate(names[:8])))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # eight: no warning, native
        assert isinstance(make_searcher(Heuristic.from_file(path).evaluate), NativeSearcher)
    assert isinstance(make_searcher(default_heuristic().evaluate), NativeSearcher)


def test_the_same_referee_on_3000_positions():
    referee, = pure_modules("kbdraughts.referee")
    assert referee.resolve.__module__ == "kbdraughts.referee"
    rng = random.Random(8)
    for pos in rng.sample(random_positions(30_000, seed=8), 3_000):
        plies = rng.randrange(0, 4)
        us = rng.randrange(2)
        assert native.core.resolve(pos, us, plies) == referee.resolve(pos, us, plies), pos


def test_the_same_referee_budget_on_1000_positions():
    # With Nodes the referee spends one per position visited, in C as in Python: the same
    # value and the same positions left, or OutOfNodes in both with none left.
    from kbdraughts import referee as ours
    pure_referee, = pure_modules("kbdraughts.referee")
    rng = random.Random(9)
    ran_out = 0
    for pos in rng.sample(random_positions(30_000, seed=9), 1_000):
        plies, us, limit = rng.randrange(0, 4), rng.randrange(2), rng.randrange(1, 400)
        a, b = ours.Nodes(limit), pure_referee.Nodes(limit)
        try:
            got = ours.resolve(pos, us, plies, a)
        except ours.OutOfNodes:
            got = "out"
        try:
            expected = pure_referee.resolve(pos, us, plies, b)
        except pure_referee.OutOfNodes:
            expected = "out"
        assert (got, a.left) == (expected, b.left), pos
        ran_out += got == "out"
    assert 50 < ran_out < 950


def middle_games() -> list[Position]:
    lines = (line.split("#", 1)[0].strip() for line in MIDDLE_GAMES.read_text().splitlines())
    return [parse_fen(text) for text in lines if text]


def king_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for pos in random_positions(40_000, seed):
        if pos.kings and legal_moves(pos) and rng.random() < 0.2:
            out.append(pos)
    return out[:count]


def same_search(pos: Position, depth: int, evaluate, **kw) -> None:
    """The pure search and the native one, with tables of the same size, search the same
    tree: the same move, score, depth, number of nodes and mean depth of the leaves."""
    pure_result = Searcher(evaluate).search(pos, max_depth=depth, **kw)
    native_result = NativeSearcher(evaluate, native_evaluator(evaluate), tt_size=1 << 17).search(
        pos, max_depth=depth, **kw)
    assert (native_result.move, native_result.score, native_result.depth, native_result.nodes,
            native_result.mean_depth) == (pure_result.move, pure_result.score, pure_result.depth,
                                          pure_result.nodes, pure_result.mean_depth), pos


def quiet_middle_games(count: int, seed: int) -> list[Position]:
    """Positions of random games with 14 to 22 men, no king and no capture pending."""
    out = []
    for pos in random_positions(20_000, seed):
        if not pos.kings and 14 <= pos.occupied.bit_count() <= 22 and not legal_moves(pos)[0] \
                .captured and len(out) < count and random.Random(hash(pos)).random() < 0.05:
            out.append(pos)
    return out


def test_the_same_search_at_depth_7_on_60_middle_games():
    games = middle_games() + quiet_middle_games(30, seed=6)
    assert len(games) >= 60
    evaluate = default_heuristic().evaluate
    for pos in games:
        same_search(pos, 7, evaluate)


def test_the_same_search_at_depth_7_on_positions_with_kings_and_the_draw_rules():
    evaluate = default_heuristic().evaluate
    rng = random.Random(7)
    for pos in king_positions(40, seed=7):
        counters = (rng.randrange(0, 29), rng.randrange(0, 119))
        same_search(pos, 7, evaluate, counters=counters, contempt=True)
        same_search(pos, 5, material, counters=counters)


def test_the_same_search_with_the_game_s_history_and_preferred_moves():
    evaluate = default_heuristic().evaluate
    pos = parse_fen("W:WKc1,Ke1,g3:BKd8,Kh8,a7")
    history = [parse_fen("B:WKc1,Ke1,g3:BKd8,Kg7,a7"), parse_fen("W:WKb2,Ke1,g3:BKd8,Kg7,a7")]
    prefer = legal_moves(pos)[-2:]
    same_search(pos, 7, evaluate, history=history, prefer=prefer, contempt=True)


def test_the_constants_are_the_python_ones():
    c = native.core.CONSTANTS
    assert c["CHECK_MASK"] == tree.CHECK_MASK and c["MAX_QUIESCENCE"] == tree.MAX_QUIESCENCE
    assert (c["FUTILITY"], c["LMR_FROM"], c["LMR_DEPTH"], c["LMR_LATER"], c["EXT_MAX"]) == (
        tree.FUTILITY, tree.LMR_FROM, tree.LMR_DEPTH, tree.LMR_LATER, tree.EXT_MAX)
    assert c["WINDOW"] == search_module.WINDOW and c["MATE_ZONE"] == tree.MATE_ZONE
    assert c["TABLE_WIN"] == tree.TABLE_WIN
    assert (c["CONTEMPT"], c["CONTEMPT_FROM"], c["RULE_PLIES"]) == (
        draw_rules.CONTEMPT, draw_rules.CONTEMPT_FROM, draw_rules.RULE_PLIES)
    assert (c["KING_MOVES_ONLY_PLIES"], c["LONE_KING_MOVES"]) == (KING_MOVES_ONLY_PLIES,
                                                                  LONE_KING_MOVES)
    assert ENDING_PLIES == {4: c["ENDING_PLIES_4_5"], 5: c["ENDING_PLIES_4_5"],
                            6: c["ENDING_PLIES_6_7"], 7: c["ENDING_PLIES_6_7"]}


def test_a_stop_event_halts_the_native_search_at_once():
    stop = threading.Event()
    searcher = make_searcher(default_heuristic().evaluate)
    threading.Timer(0.2, stop.set).start()
    t = time.perf_counter()
    res = searcher.search(middle_games()[0], stop=stop)  # no budget: only the event stops it
    assert time.perf_counter() - t < 1.0 and not res.complete and res.move is not None


def test_ctrl_c_interrupts_a_native_search_on_the_main_thread():
    # The search runs without the GIL; on the main thread it lets the signal handler run every
    # few milliseconds, so Ctrl-C ends `bestmove` at once (exit 130), not after its minute.
    # A shell without job control starts background jobs with SIGINT ignored, and Python keeps
    # an ignored SIGINT ignored: the child gets the default back, as a terminal's program has.
    proc = subprocess.Popen([sys.executable, "-m", "kbdraughts.cli", "bestmove", "--no-kb",
                             "--movetime", "60000", fen(middle_games()[0])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.0)  # started and searching
    t = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130 and time.perf_counter() - t < 1.0


def test_the_native_search_keeps_its_deadline():
    searcher = make_searcher(default_heuristic().evaluate)
    for pos in middle_games()[:5]:
        t = time.perf_counter()
        res = searcher.search(pos, movetime_ms=100)
        assert time.perf_counter() - t < 0.3 and res.depth >= 6


def test_bad_input_is_refused_before_c_sees_it():
    core = native.core
    with pytest.raises(ValueError):
        core.legal_moves((1 << 4, 0, 0, 0))  # a ghost square
    with pytest.raises(ValueError):
        core.legal_moves((1, 1, 0, 0))  # two pieces on a1
    with pytest.raises(ValueError):
        core.legal_moves((1, 0, 2, 1))  # a king where nothing stands
    with pytest.raises(TypeError):
        core.legal_moves("W:Wa1:Bh8")
    with pytest.raises(ValueError):
        core.play(START, (99, 0, 0, (), False))
    with pytest.raises(ValueError):
        core.perft(START, -1)


def test_regions_on_the_same_squares_share_their_views_and_keep_their_tables(pure):
    # A region split by the phases of the game: the same squares under other conditions, each
    # with a table of its own (the native core keeps one pair of views for them; the weights
    # stay apart). Weights in hundredths: no order of additions rounds them differently.
    from kbdraughts.eval.shapes import parse_shapes

    rng = random.Random(12)

    def region(name: str, squares: str, when: str) -> str:
        lines = "".join(f"  {''.join(rng.choice('.wb?') for _ in squares.split())}  "
                        f"{rng.randrange(-6400, 6400) / 100}\n" for _ in range(40))
        return f"region {name} {squares}{' when ' + when if when else ''}\n{lines}"

    window = "c3 e3 d4 f4 c5 e5 d6 f6"
    shapes = (region("w-opening", window, "opening")
              + region("diamond", "c1 b2 d2 c3", "")
              + region("w-middle", window, "not opening and not endgame")
              + region("w-ending", window, "endgame") + region("w-always", window, ""))
    h = Heuristic(parse_terms("value a 1.5 per centre_men\n", "t.txt"),
                  parse_shapes(shapes, "s.txt"))
    ev = h.native_evaluator()
    assert ev is not None
    phases = set()
    for pos in random_positions(5_000, seed=8):
        assert ev.evaluate(pos) == h._quickly(pos, 0), pos
        phases.add(pos.occupied.bit_count() >= 20 or pos.occupied.bit_count() <= 8)
    assert phases == {True, False}
    for pos in middle_games()[:10] + king_positions(10, seed=3):
        same_search(pos, 6, h.evaluate)
