"""How often the search's move is explained by the evaluation's knowledge: on middle-game
positions, the share of the moves the search chose whose reason names at least one term,
pattern or region (``over c3-d4: passed +0.22, ...``).

    python bench/explain.py [--positions N] [--seed S] [--movetime MS]

Positions: from seeded self-play games (8 random plies, then a depth-6 search), one quiet
position a game at a random ply from 16 to 50 with 14 pieces or more and at least two moves.
The default level-4 engine (knowledge base on) chooses a move in each within ``--movetime``.
Printed beside it, from the same run, the anchor: how many of the positions the search decided
at all (the others were the knowledge base's, an only move, or the tables').
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kbdraughts.ai.engine import Engine  # noqa: E402
from kbdraughts.ai.layers import LayerName  # noqa: E402
from kbdraughts.board import Position  # noqa: E402
from kbdraughts.game import Game  # noqa: E402
from kbdraughts.notation import fen  # noqa: E402


def positions(count: int, seed: int) -> list[Position]:
    """``count`` quiet middle-game positions from seeded self-play."""
    from kbdraughts.eval.heuristic import default_heuristic
    from kbdraughts.ai.native_search import make_searcher

    searcher = make_searcher(default_heuristic().evaluate)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        game, stop_at = Game(), rng.randrange(16, 51)
        while game.result is None and game.ply < stop_at:
            legal = game.legal_moves()
            move = rng.choice(legal) if game.ply < 8 else \
                searcher.search(game.position, max_depth=6).move or legal[0]
            game.push(move)
        pos = game.position
        legal = game.legal_moves()
        if game.result is None and len(legal) >= 2 and not legal[0].captured \
                and (pos.white | pos.black).bit_count() >= 14:
            out.append(pos)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=300)
    args = ap.parse_args(argv)
    engine = Engine(level=4, movetime_ms=args.movetime)
    searched = named = 0
    start = time.perf_counter()
    for pos in positions(args.positions, args.seed):
        choice = engine.choose(Game(pos))
        if choice.layer != LayerName.SEARCH:
            continue
        searched += 1
        if "; over " in choice.reason:
            named += 1
        else:
            print(f"  nothing named: {fen(pos)}  # {choice.reason}")
    share = named / searched if searched else 0.0
    print(f"{named} of {searched} search moves name a term, pattern or region: {100 * share:.0f}%"
          f" (the anchor: the search chose {searched} of {args.positions} moves; "
          f"{time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
