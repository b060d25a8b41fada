"""How the search's moves are explained: in the ideas a player names, or in the tables' ids.

    python bench/explain.py [--positions N] [--seed S] [--depth D]

Positions: from seeded self-play games (8 random plies, then a depth-6 search), one quiet
position a game at a random ply from 16 to 50 with 14 pieces or more and at least two moves.
The default level-4 engine (knowledge base on) chooses a move in each at a fixed depth (no
clock: the same reasons on any machine load). For the moves the search decided, the reason's
ideas (``over g3-h4: White's right flank's shape (...) -0.19, the back guard (...) +0.11``) are
counted:

- the share of the ideas named that are named ideas or areas in words (a value term or pattern
  that ``eval/ideas.py`` gives words, or an area the regions lie in), against a term said by
  its bare name;
- the explanations that name a region by its id (``diamond-c1``) anywhere in the reason or the
  console's words;
- the share of the explanations that still name at least one weighted idea.

The anchor, from the same run: what the raw breakdown would have named at the same two line
ends (``Heuristic.shares``: the terms and patterns by their file names, each region by its id,
a region beside its mirror), as the reasons said before the ideas.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kbdraughts.ai.engine import Engine  # noqa: E402
from kbdraughts.ai.layers import LayerName  # noqa: E402
from kbdraughts.board import Move, Position  # noqa: E402
from kbdraughts.eval import ideas, judgement  # noqa: E402
from kbdraughts.eval.heuristic import Heuristic, default_heuristic  # noqa: E402
from kbdraughts.eval.judgement import SMALLEST, TRANSPOSES, line_end  # noqa: E402
from kbdraughts.game import Game  # noqa: E402
from kbdraughts.squares import SQUARE_NAMES, mirror_square  # noqa: E402
from kbdraughts.values import MAN_VALUE  # noqa: E402


_SQUARE_OF = {name: s for s, name in SQUARE_NAMES.items()}


def positions(count: int, seed: int) -> list[Position]:
    """``count`` quiet middle-game positions from seeded self-play."""
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


def raw_deciding(h: Heuristic, pos: Position, best: Sequence[Move], other: Sequence[Move],
                 most: int = 3) -> list[str]:
    """The anchor: the names the raw breakdown gives the largest differences (``region
    diamond-c1`` for a region), as the reasons named them before the ideas."""
    def mover(line: Sequence[Move]) -> dict[str, float]:
        end = line_end(pos, line)
        sign = 1.0 if end.side == pos.side else -1.0
        return {n: sign * v for n, v in h.shares(end).items() if n != "material"}

    a, b = mover(best), mover(other)
    diff = {n: a.get(n, 0.0) - b.get(n, 0.0) for n in a.keys() | b.keys()}
    kept = [(n, d) for n, d in diff.items() if abs(d) >= SMALLEST]
    return [n for n, _ in sorted(kept, key=lambda nd: (-abs(nd[1]), nd[0]))[:most]]


def new_ideas(h: Heuristic, pos: Position, best: Sequence[Move], other: Sequence[Move],
              most: int = 3) -> list[ideas.Idea]:
    """The ideas the reason names (``judgement.deciding``'s, as ideas rather than words)."""
    a = ideas.idea_shares(line_end(pos, best), pos.side, h)
    b = ideas.idea_shares(line_end(pos, other), pos.side, h)
    diff = {i: a.get(i, 0.0) - b.get(i, 0.0) for i in a.keys() | b.keys()}
    kept = [(i, d) for i, d in diff.items() if abs(d) >= SMALLEST / MAN_VALUE]
    return [i for i, _ in sorted(kept, key=lambda idd: -abs(idd[1]))[:most]]


def mirrors(h: Heuristic) -> dict[str, str]:
    """Each region's name (as the raw breakdown says it) to its mirror's, where it has one."""
    squares = {r.name: frozenset(r.squares) for r in h.regions}
    turned = {r.name: frozenset(SQUARE_NAMES[mirror_square(_SQUARE_OF[n])] for n in r.squares)
              for r in h.regions}
    return {f"region {a}": f"region {b}" for a in squares for b in squares
            if a != b and turned[a] == squares[b]}


def in_words(idea: ideas.Idea) -> bool:
    """Whether an idea is said in words: an area, or a term or pattern ideas.py gives words."""
    return idea.kind == "area" or idea.name in (
        ideas.TERM_WORDS if idea.kind == "term" else ideas.PATTERN_WORDS)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=10)
    args = ap.parse_args(argv)
    h = default_heuristic()
    engine = Engine(level=4, movetime_ms=10 ** 7, max_depth=args.depth)
    region_id = re.compile(r"\b(" + "|".join(re.escape(r.name) for r in h.regions) + r")\b")
    asked: list[tuple] = []
    deciding = judgement.deciding

    def recorded(*call):  # what the reason was made of, for the counts below
        asked.append(call)
        return deciding(*call)

    judgement.deciding = recorded  # type: ignore[assignment]
    searched = named = by_id = same = 0
    old = {"items": 0, "regions": 0, "explained": 0, "by_id": 0, "mirrors": 0}
    mirror = mirrors(h)
    items = worded = 0
    start = time.perf_counter()
    for pos in positions(args.positions, args.seed):
        asked.clear()
        choice = engine.choose(Game(pos))
        if choice.layer != LayerName.SEARCH:
            continue
        searched += 1
        by_id += bool(region_id.search(choice.reason) or region_id.search(choice.words))
        same += f" {TRANSPOSES}, " in choice.reason
        if asked:  # the ideas of the line compared last (past a transposition); the anchor's
            # of the next best line, as the reasons compared before
            said = new_ideas(*asked[-1])
            named += bool(said)
            items += len(said)
            worded += sum(map(in_words, said))
            raw = raw_deciding(*asked[0])
            old["items"] += len(raw)
            old["regions"] += sum(n.startswith("region ") for n in raw)
            old["explained"] += bool(raw)
            old["by_id"] += any(n.startswith("region ") for n in raw)
            old["mirrors"] += any(mirror.get(n) in raw for n in raw)
    seconds = time.perf_counter() - start
    pct = lambda a, b: f"{100 * a / b:.0f}%" if b else "-"  # noqa: E731
    print(f"{searched} of {args.positions} moves decided by the search (depth {args.depth}); "
          f"{seconds:.0f} s")
    print(f"ideas: {worded} of {items} ideas named are named ideas or areas in words "
          f"({pct(worded, items)}); {by_id} explanations name a region by id; {named} of "
          f"{searched} name a weighted idea ({pct(named, searched)}); {same} past a next best "
          f"move that transposes")
    print(f"anchor, the raw breakdown at the same line ends: {old['regions']} of {old['items']} "
          f"named are region ids ({pct(old['regions'], old['items'])}), "
          f"{old['items'] - old['regions']} terms or patterns by their file names, none in "
          f"words; {old['by_id']} explanations name a region by id; {old['explained']} of "
          f"{searched} name a term ({pct(old['explained'], searched)}); {old['mirrors']} name a "
          f"region beside its mirror")
    return 0


if __name__ == "__main__":
    sys.exit(main())
