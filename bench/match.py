"""The AI's strength targets as match runs, each beside an anchor match played in the same run.

    python bench/match.py [--games N] [--jobs J] [--seed S] [--seeds K] [--only NAME ...]
                          [--default-games N]

Runs ``kbdraughts match`` for each target (issue 4) and prints its last line, the time it took
and the target. The anchor (``greedy vs random``) shows what the same games score for a
player that only counts captures; ``selfplay`` (level 1 without the knowledge base against
itself) shows how far from 50 % equal players land over the same openings: the noise the
``kb-gain`` row is read against. With ``--seeds K`` every row is played with K seeds from
``--seed`` on and their mean is printed too: one seed of 200 level-1 games can land several
points either side of its mean (self-play, seeds 31-40: 42.0 to 55.0 %). The default level
plays at its full 1 s per move, so its match is long: ``--default-games`` keeps it short
(default 20 games).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time

TARGETS = [
    # name, player A, player B, target score for A (percent), or a gain over another row
    ("anchor", "greedy", "random", None),
    ("random", "kb:1", "random", 98.0),
    ("greedy", "kb:1", "greedy", 90.0),
    ("nokb", "kb:1:nokb", "greedy", None),  # the same games without the knowledge base
    ("selfplay", "kb:1:nokb", "kb:1:nokb", None),  # equal players: the noise around 50 %
    ("kb-gain", "kb:1", "kb:1:nokb", 60.0),  # +10 points over an even 50 %
    ("search4", "kb", "search:4", 60.0),
]

LINE = re.compile(r"^(.*) vs (.*): \+(\d+) =(\d+) -(\d+), score ([\d.]+)%$")


def play(a: str, b: str, games: int, seed: int, jobs: int) -> tuple[str, float, float]:
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "kbdraughts.cli", "match", a, b, "--games",
                        str(games), "--seed", str(seed), "--jobs", str(jobs)],
                       capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(r.stderr.strip())
    if r.stderr.strip():
        print(r.stderr.strip(), file=sys.stderr)
    last = r.stdout.strip().splitlines()[-1]
    m = LINE.match(last)
    return last, float(m[6]) if m else float("nan"), elapsed


def verdict(score: float, target: float | None) -> str:
    return f"target >= {target:g}%: {'met' if score >= target else 'MISSED'}" if target else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--default-games", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1, help="seeds per row, from --seed on")
    ap.add_argument("--only", nargs="*", help="names of the rows to run: "
                    + ", ".join(t[0] for t in TARGETS))
    args = ap.parse_args()
    for name, a, b, target in TARGETS:
        if args.only and name not in args.only and name != "anchor":
            continue
        games = args.default_games if name == "search4" else args.games
        scores = []
        for seed in range(args.seed, args.seed + args.seeds):
            line, score, secs = play(a, b, games, seed, args.jobs)
            scores.append(score)
            goal = verdict(score, target) if args.seeds == 1 else f"seed {seed}"
            print(f"{line:60s} {secs:7.1f} s  {goal}", flush=True)
        if args.seeds > 1:
            mean = sum(scores) / len(scores)
            print(f"{a} vs {b}: mean of {len(scores)} seeds {mean:.1f}%".ljust(70)
                  + verdict(mean, target), flush=True)


if __name__ == "__main__":
    main()
