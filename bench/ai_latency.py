"""Level-1 latency of ``kbdraughts bestmove`` driven on a pipe, beside ``kbdraughts moves``.

    python bench/ai_latency.py [--positions N] [--games G] [--default K]

The positions come from real games: G games of the level-1 engine against ``search:2`` from
seeded openings (every position of them with a legal move; N sampled). One ``bestmove --level 1``
process answers them one line at a time, as a program driving the engine would (write a FEN,
wait for its line); the knowledge base query is included. The anchor is ``kbdraughts moves``
(the rules core alone) driven the same way over the same positions in the same run. Level 1
runs twice, on the native core and on the pure-Python path (``KBDRAUGHTS_PURE=1``). With
``--default K`` it also times K positions at the default level and its 1 s budget.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

from kbdraughts.match.runner import opening, play_game
from kbdraughts.match.players import make_player
from kbdraughts.notation import fen


def game_positions(games: int) -> list[str]:
    out: list[str] = []
    for i in range(games):
        a, b = make_player("kb:1", seed=i), make_player("search:2", seed=i)
        white, black = (a, b) if i % 2 == 0 else (b, a)
        game, _, _ = play_game(white, black, opening(1000 + i, 0))
        for pos in game.positions[:len(game.moves)]:
            out.append(fen(pos))
    return out


def drive(args: list[str], fens: list[str], pure: bool = False) -> list[float]:
    """Seconds from writing each FEN to reading its answer line."""
    env = dict(os.environ)
    env.pop("KBDRAUGHTS_PURE", None)
    if pure:
        env["KBDRAUGHTS_PURE"] = "1"
    p = subprocess.Popen([sys.executable, "-m", "kbdraughts.cli", *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
    assert p.stdin and p.stdout
    # Warm-up: start-up and loading the knowledge base are not per-move costs.
    p.stdin.write(fens[0] + "\n")
    p.stdin.flush()
    p.stdout.readline()
    times = []
    for f in fens:
        t = time.perf_counter()
        p.stdin.write(f + "\n")
        p.stdin.flush()
        line = p.stdout.readline()
        times.append(time.perf_counter() - t)
        if not line:
            raise SystemExit(f"{args[0]} stopped answering at {f}")
    p.stdin.close()
    p.wait()
    return times


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, int(round(0.95 * len(xs))) - 1)]


def report(name: str, times: list[float]) -> None:
    ms = [t * 1000 for t in times]
    print(f"{name:32s} n={len(ms):4d}  median {statistics.median(ms):6.2f} ms  "
          f"p95 {p95(ms):6.2f} ms  max {max(ms):7.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--default", type=int, default=0, metavar="K")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    fens = game_positions(args.games)
    rng = random.Random(args.seed)
    sample = rng.sample(fens, min(args.positions, len(fens)))
    print(f"{len(sample)} positions sampled from {len(fens)} in {args.games} games")
    anchor = drive(["moves"], sample)
    level1 = drive(["bestmove", "--level", "1"], sample)
    nokb = drive(["bestmove", "--level", "1", "--no-kb"], sample)
    pure = drive(["bestmove", "--level", "1"], sample, pure=True)
    report("anchor: moves (rules core)", anchor)
    report("bestmove --level 1", level1)
    report("bestmove --level 1 --no-kb", nokb)
    report("bestmove --level 1, pure Python", pure)
    print(f"level-1 p95 {p95(level1) * 1000:.2f} ms (target 20 ms) beside moves p95 "
          f"{p95(anchor) * 1000:.2f} ms")
    if args.default:
        d = drive(["bestmove"], sample[: args.default])
        report("bestmove (default level, 1 s)", d)
        print(f"default level max {max(d) * 1000:.0f} ms against its 1000 ms budget")


if __name__ == "__main__":
    main()
