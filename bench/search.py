"""The search's speed and depth on fixed middle games, beside perft leaves/s in the same run.

    python bench/search.py [--movetime MS | --depth D] [--limit N] [--eval heuristic|material]
                           [--no-engine] [--profile] [--make-positions] [--old REV] [--pure]

For each position of ``bench/data/middlegames.txt`` (middle games of men only, see
``make_positions``) a fresh ``Searcher`` (empty transposition table) searches for ``--movetime``
milliseconds (default 1000): the depth of its last finished iteration, the nodes it visited and
its nodes per second, by the wall clock and by this process's CPU time (the machine may be
shared; the load average is printed). Then the level-4 engine without the knowledge base
(``Engine(level=4, use_kb=False)``) chooses a move in the same position: the time it actually
used, against its budget. The anchor, in the same run: perft from the start to depth 7
(``--perft-depth``), best of 3, in leaves per second.

``--profile`` runs the searches under cProfile instead and prints the functions by own time and
the shares of the evaluation, the move generator, the transposition table and the rest (the
figures are slower under the profiler; only the shares count).

``--old REV`` measures the search of another commit too: its ``kbdraughts`` package (``git
archive``) in a worker process of its own, position by position in turn with this one, so both
see the same load: the old figures first, then the new.

``--pure`` measures this tree's pure-Python search too (``KBDRAUGHTS_PURE=1`` in the worker),
in turn with the native one, and prints the ratio of nodes/s and the difference in depth.

``--depth D`` searches every position to exactly D plies instead (no clock): the nodes, the CPU
time and the move and score found, so a change meant only to be faster shows the same tree in
less time, and one that prunes shows what it saves.

``--make-positions`` writes the positions file afresh; it is made once and kept, so the figures
of later versions compare on the same positions (the games behind it depend on the knowledge
base and the heuristic of the day).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from kbdraughts.ai.engine import Engine
import kbdraughts

# The worker of a commit before the house (issue 37) finds the evaluation in ai/. Asked by the
# package's own folder: the editable install would find this tree's eval/ for an old package.
if (Path(kbdraughts.__file__).parent / "eval").is_dir():
    from kbdraughts.eval.heuristic import default_heuristic, material
else:
    from kbdraughts.ai.heuristic import default_heuristic, material  # type: ignore
from kbdraughts.ai.search import Searcher
from kbdraughts.native import describe

try:  # the worker of an older commit (--old) has no native search
    from kbdraughts.ai.native_search import make_searcher
except ImportError:
    make_searcher = Searcher
from kbdraughts.board import START, Position, captures, legal_moves, perft
from kbdraughts.game import Game
from kbdraughts.notation import fen, move_text, parse_fen

POSITIONS = Path(__file__).resolve().parent / "data" / "middlegames.txt"
#: What a position of the set must be (the test of the file checks the same).
PLIES = (10, 60)
PIECES = (14, 22)
SEED = 13
COUNT = 30


class Row(NamedTuple):
    depth: int
    nodes: int
    seconds: float  # wall clock, as the search counts its budget
    cpu: float  # this process's CPU time
    engine_seconds: float  # the level-4 engine's whole choice, wall clock (0 when not run)


# -- the positions ---------------------------------------------------------------------------


def quiet_middle_game(pos: Position) -> bool:
    """Men only, PIECES pieces, even or one man apart, no capture pending, a choice of moves
    (not a forced reply)."""
    w, b = pos.white.bit_count(), pos.black.bit_count()
    return (not pos.kings and PIECES[0] <= w + b <= PIECES[1] and abs(w - b) <= 1
            and not captures(pos) and len(legal_moves(pos)) >= 2)


def make_positions(count: int = COUNT, seed: int = SEED) -> list[tuple[str, int, int]]:
    """One position from each of ``count`` games of level 1 against itself: (FEN, game, ply).

    Game ``i`` opens with ``match.opening(seed, i)``'s random plies, then the two level-1
    players (seeds ``seed*1000 + 2i`` and ``+1``) play on; of its positions between ply
    PLIES[0] and PLIES[1] that are quiet middle games, one is drawn by ``Random(seed)``.
    """
    from kbdraughts.match.runner import opening, play_game
    from kbdraughts.match.players import make_player
    from kbdraughts.ai.rulebook import load_default_kb

    kb, rng = load_default_kb(), random.Random(seed)
    out: list[tuple[str, int, int]] = []
    i = 0
    while len(out) < count:
        white = make_player("kb:1", seed * 1000 + 2 * i, kb=kb)
        black = make_player("kb:1", seed * 1000 + 2 * i + 1, kb=kb)
        game, _, _ = play_game(white, black, opening(seed, i), PLIES[1] + 1)
        taken = {f for f, _, _ in out}
        fits = [(ply, p) for ply, p in enumerate(game.positions)
                if PLIES[0] <= ply <= PLIES[1] and quiet_middle_game(p) and fen(p) not in taken]
        if fits:
            ply, p = rng.choice(fits)
            out.append((fen(p), i, ply))
        i += 1
    return out


def write_positions(path: Path = POSITIONS) -> None:
    rows = make_positions()
    lines = [
        "# Middle games of men only for bench/search.py: one FEN a line, '#' starts a comment.",
        f"# Made once by `python bench/search.py --make-positions` (make_positions, seed {SEED}):",
        "# one quiet position (no capture pending, 14-22 men, even or one man apart, at least 2",
        "# moves) from each of several level-1 self-play games, ply 10-60, no two alike. Kept",
        "# fixed so versions compare.",
    ]
    lines += [f"{f}  # game {g} ply {ply}" for f, g, ply in rows]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(rows)} positions to {path}")


def read_positions(path: Path = POSITIONS) -> list[Position]:
    """The positions of the file: one FEN a line; blank lines and '#' comments skipped."""
    out = []
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            out.append(parse_fen(text))
    return out


# -- measuring -------------------------------------------------------------------------------


class OldSearch:
    """The search of commit ``rev``: its package exported to a temporary directory and run
    by this script in a worker process (``--worker``) with that directory first on the path;
    one position a line in, one Row (and the move and score) a line out."""

    def __init__(self, rev: str | None, evaluation: str):
        root = Path(__file__).resolve().parent.parent
        self.dir = tempfile.TemporaryDirectory(prefix="kbd-old-")
        if rev is None:  # this tree's pure-Python search
            env = dict(os.environ, PYTHONPATH=str(root), KBDRAUGHTS_PURE="1")
        else:
            # The commit's own native core, built in its archive (bench/versus.py's export):
            # an editable install would hand it this tree's.
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from versus import export

            export(rev, Path(self.dir.name))
            env = dict(os.environ, PYTHONPATH=self.dir.name, XDG_DATA_HOME=self.dir.name)
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--eval", evaluation], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=self.dir.name)

    def measure(self, pos: Position, movetime_ms: int, depth: int) -> tuple[Row, str]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{fen(pos)};{movetime_ms};{depth}\n")
        self.proc.stdin.flush()
        fields = self.proc.stdout.readline().split(";")
        return Row(int(fields[0]), int(fields[1]), float(fields[2]), float(fields[3]), 0.0), \
            fields[4].strip()

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()
        self.dir.cleanup()


def worker(evaluate) -> None:
    """The other side of :class:`OldSearch`: ``FEN;movetime;depth`` lines in."""
    make_searcher(evaluate).search(read_positions()[0], movetime_ms=200)  # the same warm-up
    for line in sys.stdin:
        text, movetime, depth = line.strip().split(";")
        row, found = measure(parse_fen(text), int(movetime), evaluate, False, depth=int(depth))
        print(f"{row.depth};{row.nodes};{row.seconds};{row.cpu};{found}", flush=True)


def measure(pos: Position, movetime_ms: int, evaluate, engine: bool, depth: int = 0
            ) -> tuple[Row, str]:
    """One search of ``pos`` (``depth`` plies exactly, or ``movetime_ms``), and its move and
    score as text."""
    searcher = make_searcher(evaluate)
    cpu = time.process_time()
    if depth:
        res = searcher.search(pos, max_depth=depth)
    else:
        res = searcher.search(pos, movetime_ms=movetime_ms)
    cpu = time.process_time() - cpu
    used = 0.0
    if engine:
        e = Engine(level=4, movetime_ms=movetime_ms, use_kb=False)
        t = time.perf_counter()
        e.choose(Game(pos))
        used = time.perf_counter() - t
    found = f"{move_text(res.move) if res.move else '-'} {res.score:g}"
    return Row(res.depth, res.nodes, res.seconds, cpu, used), found


def perft_anchor(depth: int) -> tuple[int, float, float]:
    """(leaves, best wall seconds, best CPU seconds) of perft from the start, best of 3."""
    runs = []
    for _ in range(3):
        t, c = time.perf_counter(), time.process_time()
        n = perft(START, depth)
        runs.append((n, time.perf_counter() - t, time.process_time() - c))
    return min(runs, key=lambda r: r[1])


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def report(rows: list[Row], movetime_ms: int, engine: bool) -> tuple[float, float]:
    print(f"{'#':>3} {'depth':>5} {'nodes':>8} {'s':>6} {'nodes/s':>8} {'CPU n/s':>8}"
          + ("  engine s" if engine else ""))
    for i, r in enumerate(rows, 1):
        print(f"{i:>3} {r.depth:>5} {r.nodes:>8} {r.seconds:>6.3f} {r.nodes / r.seconds:>8.0f}"
              f" {r.nodes / max(r.cpu, 1e-9):>8.0f}"
              + (f"  {r.engine_seconds:8.3f}" if engine else ""))
    nps = statistics.mean(r.nodes / r.seconds for r in rows)
    cpu_nps = statistics.mean(r.nodes / max(r.cpu, 1e-9) for r in rows)
    depth = statistics.mean(r.depth for r in rows)
    print(f"mean {depth:.2f} plies, {nps:.0f} nodes/s ({cpu_nps:.0f} by CPU time), depths "
          f"{min(r.depth for r in rows)}-{max(r.depth for r in rows)}")
    if engine:
        used = sorted(r.engine_seconds * 1000 for r in rows)
        print(f"level-4 engine (no kb), budget {movetime_ms} ms: used mean "
              f"{statistics.mean(used):.0f} ms, max {used[-1]:.0f} ms "
              f"({used[-1] / movetime_ms:.2f}x the budget)")
    return nps, depth


# -- profiling -------------------------------------------------------------------------------

OTHER = "other (interpreter built-ins not called from the above)"


def share_of(file: str, name: str) -> str | None:
    """Which share a Python function's own time counts in (None for a built-in)."""
    if file.endswith("heuristic.py") or file.endswith("terms.py"):
        return "evaluation (eval/heuristic.py)"
    if file.endswith("board.py"):
        return "move generator (board.py)"
    if name in ("_store", "_from_node", "_from_root"):
        return "transposition table (store, lookup, mate-distance)"
    if name in ("_order", "key") or file.endswith("ordering.py"):
        return "move ordering (ai/ordering.py: order, cutoff, sorted)"
    if name == "_static":
        return "evaluation (eval/heuristic.py)"
    if file.endswith(("search.py", "tree.py", "draw_rules.py", "clock.py")):
        return "search's own code (_negamax, _moves, _root, _tick, draw rules)"
    return None


def shares(stats: pstats.Stats) -> dict[str, float]:
    """Own seconds by share; a built-in's time (bit_count, a NamedTuple's __new__, a dict
    lookup, sorted) counts in its callers' shares, the table's lookup in the table."""
    out: dict[str, float] = {}
    for (file, _line, name), (_cc, _nc, own, _cum, callers) in stats.stats.items():
        share = share_of(file, name)
        if share is not None or not callers:
            out[share or OTHER] = out.get(share or OTHER, 0.0) + own
            continue
        called = sum(v[2] for v in callers.values()) or 1.0
        for (cfile, _cline, cname), v in callers.items():
            s = share_of(cfile, cname) or OTHER
            if cname == "_negamax" and "get' of 'dict" in name:
                s = share_of("", "_store")
            elif cname in ("_moves", "order") and "sorted" in name:
                s = share_of("", "_order")
            out[s] = out.get(s, 0.0) + own * v[2] / called
    return out


def profile(positions: list[Position], movetime_ms: int, evaluate) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for pos in positions:
        make_searcher(evaluate).search(pos, movetime_ms=movetime_ms)
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())
    print(f"own time by function ({total:.2f} s profiled over {len(positions)} positions):")
    ranked = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])
    for (file, line, name), (_cc, calls, own, cum, _callers) in ranked[:18]:
        print(f"  {own / total:6.1%} {own:6.2f} s {calls:>9} calls  cum {cum:6.2f} s  "
              f"{Path(file).name}:{line} {name}")
    print("shares (a built-in counted with its callers):")
    for share, own in sorted(shares(stats).items(), key=lambda kv: -kv[1]):
        print(f"  {own / total:6.1%}  {share}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--movetime", type=int, default=1000, help="ms a position (default 1000)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    ap.add_argument("--eval", choices=("heuristic", "material"), default="heuristic")
    ap.add_argument("--no-engine", action="store_true", help="skip the level-4 engine's timing")
    ap.add_argument("--perft-depth", type=int, default=7)
    ap.add_argument("--profile", action="store_true", help="cProfile the searches instead")
    ap.add_argument("--make-positions", action="store_true", help="write the positions file")
    ap.add_argument("--old", metavar="REV", help="also measure the search of commit REV, "
                    "interleaved with this one")
    ap.add_argument("--depth", type=int, default=0, help="search each position to exactly D "
                    "plies instead of for --movetime")
    ap.add_argument("--pure", action="store_true", help="also measure this tree's pure-Python "
                    "search (KBDRAUGHTS_PURE=1), interleaved with the native one")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.make_positions:
        return write_positions()
    evaluate = default_heuristic().evaluate if args.eval == "heuristic" else material
    if args.worker:
        return worker(evaluate)
    positions = read_positions()[: args.limit or None]
    make_searcher(evaluate).search(positions[0], movetime_ms=200)  # warm-up: imports, caches
    budget = f"{args.depth} plies" if args.depth else f"{args.movetime} ms"
    print(f"{len(positions)} positions, {budget} each, {args.eval} evaluation; {describe()}; "
          f"{load()}")
    if args.profile:
        return profile(positions, args.movetime, evaluate)
    other = "the pure-Python search of this tree" if args.pure else f"the search of {args.old}"
    old = OldSearch(args.old, args.eval) if args.old or args.pure else None
    rows, old_rows, same = [], [], 0
    engine = not args.no_engine and not args.depth
    try:
        for p in positions:
            if old is not None:
                row, old_found = old.measure(p, args.movetime, args.depth)
                old_rows.append(row)
            row, found = measure(p, args.movetime, evaluate, engine, args.depth)
            rows.append(row)
            same += old is not None and found == old_found
    finally:
        if old is not None:
            old.close()
    if old is not None:
        print(f"-- {other}:")
        old_nps, old_depth = report(old_rows, args.movetime, False)
        print("-- this search:")
    nps, depth = report(rows, args.movetime, engine)
    leaves, wall, cpu = perft_anchor(args.perft_depth)
    print(f"perft {args.perft_depth} from the start: {leaves} leaves in {wall:.3f} s, "
          f"{leaves / wall:.0f} leaves/s ({leaves / cpu:.0f} by CPU time); {load()}")
    print(f"search: mean {nps:.0f} nodes/s, mean depth {depth:.2f} in {budget} over "
          f"{len(rows)} positions; anchor perft: {leaves / wall:.0f} leaves/s")
    if old is not None:
        print(f"{other}: mean {old_nps:.0f} nodes/s, mean depth {old_depth:.2f}; this one "
              f"{nps / old_nps:.2f}x the nodes/s, {depth - old_depth:+.2f} plies")
        if args.depth:
            old_nodes, old_cpu = sum(r.nodes for r in old_rows), sum(r.cpu for r in old_rows)
            new_nodes, new_cpu = sum(r.nodes for r in rows), sum(r.cpu for r in rows)
            print(f"to depth {args.depth}: {other} {old_nodes} nodes in {old_cpu:.2f} s CPU, "
                  f"this one {new_nodes} nodes in {new_cpu:.2f} s CPU ({old_cpu / new_cpu:.2f}x "
                  f"faster); the same move and score in {same} of {len(rows)} positions")


if __name__ == "__main__":
    sys.exit(main())
