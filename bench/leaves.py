"""What reading the endgame tables at the search's nodes adds: paired games from endings.

    python bench/leaves.py [--positions N] [--seed S] [--level L] [--pieces LO-HI]

Positions of LO..HI pieces (default 6-8: one or two captures from the tables' four) are taken
from random games, kept when no capture is pending and a 6-ply search without tables scores
them within 0.8 men of even (a random game's ending is mostly decided: those measure nothing).
From each, two games are played with the colours swapped: the engine that reads the tables at
its nodes (``Engine(egdb_leaves=True)``) against the same engine without (both keep the
tables at the root, as the shipped levels do). The search goes to the level's fixed depth (level
3: 8 plies) with no clock, so the games do not depend on the machine's load and the same seed
plays the same games. The anchor, in the same run: the engine without against itself on the
first positions (a deterministic search: the pair of games must score exactly 50%, which checks
that the pairing is fair). Games end by the rules of game.py, or are scored a draw at 300 plies.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from kbdraughts.ai.engine import Engine
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.board import Position, legal_moves
from kbdraughts.egdb import leaves, probe
from kbdraughts.game import Game, random_walk
from kbdraughts.native import describe

MAX_PLIES = 300


def positions(count: int, seed: int, lo: int, hi: int) -> list[Position]:
    rng = random.Random(seed)
    judge = make_searcher(default_heuristic().evaluate)
    out: list[Position] = []
    while len(out) < count:
        for pos in random_walk(rng, 200):
            n = (pos.white | pos.black).bit_count()
            if n < lo:
                break
            if n > hi or not legal_moves(pos) or legal_moves(pos)[0].captured:
                continue
            if rng.random() < 0.3:
                if abs(judge.search(pos, max_depth=6).score) < 80:
                    out.append(pos)
                break
    return out


def play(start: Position, white: Engine, black: Engine) -> float | None:
    """White's score: 1, 0.5 or 0."""
    game = Game(start)
    while game.result is None and game.ply < MAX_PLIES:
        engine = white if game.side == 0 else black
        choice = engine.choose(game)
        game.push(choice.move)
    result = game.result
    if result is None or result.winner is None:
        return 0.5
    return 1.0 if result.winner == 0 else 0.0


def engine(level: int, with_leaves: bool) -> Engine:
    return Engine(level=level, movetime_ms=600_000, use_kb=False, egdb_leaves=with_leaves)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--pieces", default="6-8")
    ap.add_argument("--anchor", type=int, default=10, help="positions of the self-play anchor")
    args = ap.parse_args(argv)
    lo, hi = map(int, args.pieces.split("-"))
    db = probe.default()
    start = positions(args.positions, args.seed, lo, hi)
    for pos in start:  # the tables read once, before any game (the timing is not measured)
        leaves.for_root(db, pos, wait=True)
    print(f"{len(start)} positions of {lo}-{hi} pieces (seed {args.seed}), level {args.level} "
          f"to its fixed depth, each played twice with colours swapped; {describe()}")
    t = time.perf_counter()
    pair_diffs = []
    points = games = 0.0
    won = drawn = lost = 0
    for i, pos in enumerate(start, 1):
        # A fresh pair of engines a position: each game starts with an empty table.
        a = play(pos, engine(args.level, True), engine(args.level, False))
        b = 1.0 - play(pos, engine(args.level, False), engine(args.level, True))
        for s in (a, b):
            won, drawn, lost = won + (s == 1.0), drawn + (s == 0.5), lost + (s == 0.0)
        points += a + b
        games += 2
        pair_diffs.append(a + b - 1.0)
        if i % 20 == 0:
            print(f"  {i} positions: {points / games:.1%}", file=sys.stderr, flush=True)
    mean = sum(pair_diffs) / len(pair_diffs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in pair_diffs) / max(1, len(pair_diffs) - 1))
    se = sd / math.sqrt(len(pair_diffs)) / 2  # per game
    changed = sum(1 for x in pair_diffs if x != 0)
    print(f"tables at the nodes vs without: +{won} ={drawn} -{lost}, score {points / games:.1%} "
          f"(± {se:.1%} one standard error); {changed} of {len(start)} pairs not even "
          f"({time.perf_counter() - t:.0f} s)")
    anchor_points = 0.0
    for pos in start[:args.anchor]:
        anchor_points += play(pos, engine(args.level, False), engine(args.level, False))
        anchor_points += 1.0 - play(pos, engine(args.level, False), engine(args.level, False))
    print(f"anchor, without against itself on the first {args.anchor} positions: "
          f"{anchor_points / (2 * args.anchor):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
