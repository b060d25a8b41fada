"""What the knowledge base's parts add to level 1: paired matches on the same seeds.

    python bench/knowledge.py [--games N] [--seed S] [--jobs J] [--only NAME ...]

Each row is ``kb:1`` with one variant of the knowledge base against ``kb:1:nokb`` (level 1
without any rule), over the same openings (the same ``--seed``), so the rows differ only by
the knowledge they use; ``selfplay`` (``kb:1:nokb`` against itself) is the anchor, the spread
around 50% that equal players show over these openings. The variants:

- ``full``: the shipped knowledge base as the AI uses it (rules and motifs, motifs also in the
  weighted move's danger term, where the opponent's rules are asked after each candidate);
- ``no-defence``: motifs play, but the danger term asks the rules only (not the motifs);
- ``no-motifs``: the rules alone (the knowledge base before motifs).

(A ``no-tactics`` row measured the mined snapshots of combos/tactics.txt against the motifs:
65.3% without them against 63.4% with, so the file was dropped; ``Without(kb, files=[...])``
measures any file the same way.)

The variant is set in each worker process by wrapping the shared knowledge base
(``kbdraughts.match.runner`` loads it once per process); nothing in the package changes. Each row
prints the match line, its +/- two standard errors (a score over N games varies by about
``100 / sqrt(N)`` points at 2 sigma for decisive games), and the time it took.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kbdraughts.match.runner import Tally, run_game  # noqa: E402

ROWS = ("selfplay", "no-motifs", "full", "no-defence")


class Without:
    """A knowledge base that hides the matches of some layers or files."""

    def __init__(self, kb, layers: Sequence[str] = (), files: Sequence[str] = ()):
        self.kb, self.layers, self.files = kb, frozenset(layers), tuple(files)

    def _keep(self, match) -> bool:
        return match.layer not in self.layers and not (
            self.files and match.rule.path.endswith(self.files))

    def matches(self, pos, legal=None):
        return [m for m in self.kb.matches(pos, legal) if self._keep(m)]

    def firing(self, pos, legal=None):
        return [m for m in self.kb.firing(pos, legal) if self._keep(m)]

    def __getattr__(self, name):
        return getattr(self.kb, name)


def _variant(name: str) -> None:
    """Set this process's shared knowledge base (and the danger term's) to ``name``."""
    from kbdraughts.ai import layers
    from kbdraughts.match import runner as match
    from kbdraughts.ai.rulebook import RuleLayer, load_default_kb

    kb = load_default_kb()
    if name == "no-motifs":
        kb = Without(kb, layers=[RuleLayer.MOTIF])
    elif name == "no-defence":
        weigh = layers.weigh_moves

        def weigh_without_motifs(heuristic, kb_, pos, legal):
            without = None if kb_ is None else Without(kb_, [RuleLayer.MOTIF])
            return weigh(heuristic, without, pos, legal)

        layers.weigh_moves = weigh_without_motifs
    match._kb_cache["kb"] = kb


def play_row(name: str, games: int, seed: int, jobs: int) -> tuple[Tally, float]:
    a = "kb:1:nokb" if name == "selfplay" else "kb:1"
    work = [(a, "kb:1:nokb", i, seed, 300) for i in range(games)]
    tally = Tally()
    started = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(processes=jobs, initializer=_variant, initargs=(name,)) as pool:
        for record in pool.imap_unordered(run_game, work, chunksize=4):
            tally.add(record)
    return tally, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="+", choices=ROWS, default=list(ROWS))
    args = ap.parse_args(argv)
    for name in [r for r in ROWS if r in args.only]:
        tally, seconds = play_row(name, args.games, args.seed, args.jobs)
        margin = 100 / math.sqrt(max(tally.games, 1))
        a = "kb:1:nokb" if name == "selfplay" else f"kb:1 ({name})"
        print(f"{name:>10}: {tally.line(a, 'kb:1:nokb')}  (+/-{margin:.1f}, {seconds:.0f} s)",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
