"""Level 1's losing moves where a 2-ply win was there (issue 40, item 24).

    python bench/level1_losses.py [--positions N] [--list] [--set FILE]
    python bench/level1_losses.py --make [--seed S] [--count N] [--set FILE]   # (minutes)

The set, ``bench/data/level1_wins.txt``: the quiet positions of level-1 self-play (bench/
motifs.py's ``quiet_positions``: ``kb:1`` against ``kb:1``, seed 2026, the first 10,000 distinct
quiet positions in game order) where the side to move has a *2-ply win*
(:func:`kbdraughts.ai.claims.two_ply_wins`: a move that nets a piece against every defence
within two plies and the captures after them), each with its index among those 10,000. It was
made once (at 0c6317f) and is kept: level 1's own games change when its knowledge does, and
the figure must be measured on the same positions before and after. ``--positions N`` keeps
those of the first N quiet positions (3,000: the first 310 of the set). ``--set FILE`` reads
(or ``--make`` writes) another set: ``bench/data/level1_wins_2027.txt``, made with seed 2027 by
the same command, is the check that a change holds beyond the positions it was measured on.

Level 1 (the knowledge base's rules, the capture tree, the weighted move; no search) plays
each position, fresh. Its move *loses* when the material after it, against every defence
within two plies and the captures that follow, a king weighed 2.5 men
(:func:`kbdraughts.proof.prove`, as :func:`kbdraughts.ai.claims.holds_weighed` counts), is a
man or more below the material before it (its captures resolved): a man given where the
opponent's man then crowns at once loses 1 + 1.5 - 1.5 men.

The anchor, in the same run: a legal move picked at random (seeded) on the same positions, and
the share of the positions where level 1 plays a 2-ply win.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

from kbdraughts.ai.claims import GAIN_PLIES, two_ply_wins
from kbdraughts.ai.engine import Engine
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.notation import fen, move_text, parse_fen
from kbdraughts.proof import prove
from kbdraughts.values import MAN_VALUE

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "bench" / "data" / "level1_wins.txt"
#: The self-play seed of the set (bench/motifs.py's, never tuned on) and its quiet positions.
SEED, COUNT = 2026, 10_000


def read_set(path: Path = SET, positions: int = COUNT) -> list[Position]:
    """The set's positions among the first ``positions`` quiet positions."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            index, text = line.split()
            if int(index) < positions:
                out.append(parse_fen(text))
    return out


def loses(pos: Position, move: Move) -> bool:
    """Whether ``move`` leaves the mover a man or more below the material before it, a king
    weighed 2.5 men, against every defence within GAIN_PLIES plies and the captures after."""
    us = pos.side
    return prove(play(pos, move), us, GAIN_PLIES).value - prove(pos, us, 0).value <= -MAN_VALUE


def measure(positions: Sequence[Position], seed: int = 1) -> dict:
    """Level 1's losing moves and 2-ply wins played, by layer, beside a random move's."""
    engine = Engine(level=1, egdb=False)
    engine.warm(tables=False)
    rng = random.Random(seed)
    lost: list[tuple[Position, Move, str]] = []
    layers: Counter = Counter()
    won = random_lost = 0
    for pos in positions:
        choice = engine.choose(Game(pos), threading.Event())
        assert choice is not None
        if loses(pos, choice.move):
            lost.append((pos, choice.move, choice.reason))
            layers[choice.layer] += 1
        won += choice.move in {m for m, _ in two_ply_wins(pos)}
        random_lost += loses(pos, rng.choice(legal_moves(pos)))
    return {"positions": len(positions), "lost": lost, "layers": layers, "won": won,
            "random_lost": random_lost}


def report(m: dict, listed: bool = False) -> list[str]:
    n = m["positions"]

    def share(k: int) -> str:
        return f"{k} ({100 * k / n:.2f}%)" if n else "0"

    by = ", ".join(f"{layer} {k}" for layer, k in m["layers"].most_common()) or "none"
    lines = [f"level 1 plays a losing move in {share(len(m['lost']))} of {n} positions with a "
             f"2-ply win (by layer: {by}); it plays a 2-ply win in {share(m['won'])}",
             f"anchor: a random legal move loses in {share(m['random_lost'])}"]
    if listed:
        lines += [f"  {fen(p)}  {move_text(mv)}  {why[:100]}" for p, mv, why in m["lost"]]
    return lines


def make(seed: int, count: int, path: Path = SET) -> int:
    """Write the set: the quiet positions of level-1 self-play with a 2-ply win."""
    sys.path.insert(0, str(ROOT / "bench"))
    from motifs import quiet_positions  # noqa: E402 (a script beside this one)

    positions = quiet_positions(seed, count)
    rows = [f"{i} {fen(p)}" for i, p in enumerate(positions) if two_ply_wins(p)]
    path.write_text(
        f"# bench/level1_losses.py --make --seed {seed} --count {count}: of the first "
        f"{len(positions)} quiet positions of level-1 self-play, those with a 2-ply win, each "
        "with its index among them.\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return len(rows)


def _seed_of(path: Path) -> str:
    """The self-play seed a set was made with, as its header says."""
    head = path.read_text(encoding="utf-8").split("\n", 1)[0]
    words = head.split()
    return words[words.index("--seed") + 1] if "--seed" in words else "?"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=COUNT,
                   help=f"the set's positions among the first N quiet positions (default {COUNT})")
    p.add_argument("--list", action="store_true", help="list the positions level 1 loses in")
    p.add_argument("--make", action="store_true", help="write the set anew (plays the games)")
    p.add_argument("--set", type=Path, default=SET, help=f"the set's file (default {SET.name})")
    p.add_argument("--seed", type=int, default=SEED, help=f"--make's seed (default {SEED})")
    p.add_argument("--count", type=int, default=COUNT,
                   help=f"--make's quiet positions (default {COUNT})")
    args = p.parse_args(argv)
    if args.make:
        n = make(args.seed, args.count, args.set)
        print(f"{n} positions with a 2-ply win written to {args.set}")
        return 0
    started = time.perf_counter()
    positions = read_set(args.set, args.positions)
    result = measure(positions)
    seed = _seed_of(args.set)
    print(f"bench/level1_losses.py: {args.set.name}, the positions with a 2-ply win among the "
          f"first {args.positions:,} quiet positions of level-1 self-play (seed {seed}); "
          f"{time.perf_counter() - started:.1f} s")
    for line in report(result, args.list):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
