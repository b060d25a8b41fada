"""How far the coach's notes can be trusted: each claim the coach proved at its horizon, judged
again by a deeper search, for the notes it wrote and for the claims its deep check refuted.

    python bench/coach.py [--seed S] [--games N] [--depth D] [--judge J] [--pdn FILE]

Games: ``--games`` level-1 self-play games (``kb:1`` against ``kb:1``, ``--seed``; the seed
2026 was not looked at while the coach was written), or the games of ``--pdn FILE``.

The coach (:mod:`kbdraughts.coach.annotator`) proves each claim exhaustively within 2 or 4 plies
(a king counted as 2.5 men), then writes it only when the material search ``--depth`` plies
deep (its check, without a time budget here) still finds three quarters of a man at stake.
The judge is the same check ``--judge`` plies deep (default 14, the depth of the outside
engine in issue 20). The figures:

- *notes*: the claims the coach wrote, and the share the judge confirms (its precision);
- the anchor, in the same run: *proved*, every claim proved at its horizon (what the coach
  would write with no deep check), and the share the judge confirms;
- *refuted*: the claims the coach's check refused, and the share the judge would have
  confirmed (the notes the check cost).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Sequence

from kbdraughts.coach.annotator import _Coach  # the proof and the check one at a time
from kbdraughts.coach.deep_check import DEEP_DEPTH, DeepCheck
from kbdraughts.game import Game

SEED = 2026
GAMES = 30
JUDGE = 14


def games_of(seed: int, count: int, pdn: str | None) -> list[Game]:
    """The games to annotate: a file's, or level-1 self-play's."""
    if pdn is not None:
        from kbdraughts.pdn import load_pdn_file

        return [g.game for g in load_pdn_file(pdn).games]
    from kbdraughts.match.runner import replay, run_match

    return [replay(record) for record in run_match("kb:1", "kb:1", count, seed)]


def measure(games: Sequence[Game], kb, depth: int, judge: int) -> Counter:
    """Counts by ``(what, kind)``: ``proved``, ``written``, ``refuted`` claims, and those of
    each the judge confirms (``... held``)."""
    counts: Counter = Counter()
    check = DeepCheck(per_check=None, depth=depth)
    deeper = DeepCheck(per_check=None, depth=judge)
    for game in games:
        coach, judged = _Coach(game, kb, check), _Coach(game, kb, deeper)
        for ply in range(len(game.moves)):
            for proved in coach.proved(ply):
                kind = proved.note.kind
                written = coach.confirm(proved) is not None
                held = judged.confirm(proved) is not None
                for what in ("proved", "written" if written else "refuted"):
                    counts[what, kind] += 1
                    counts[what + " held", kind] += held
    return counts


def report(counts: Counter, depth: int, judge: int) -> list[str]:
    """The lines: per kind and in all, the claims and the share the judge confirms."""
    kinds = sorted({k for _, k in counts})
    lines = [f"{'claims':<34} " + " ".join(f"{k:>14}" for k in kinds + ['all'])]
    for what, words in (("written", f"notes written (checked at depth {depth})"),
                        ("proved", "proved at the horizon (anchor)"),
                        ("refuted", f"refuted at depth {depth}")):
        cells = []
        for k in kinds + ["all"]:
            n = sum(counts[what, x] for x in kinds) if k == "all" else counts[what, k]
            h = (sum(counts[what + " held", x] for x in kinds) if k == "all"
                 else counts[what + " held", k])
            cells.append(f"{h:>5}/{n:<5} {100 * h / n if n else 0:3.0f}%")
        lines.append(f"{words:<34} " + " ".join(f"{c:>14}" for c in cells))
    lines.append(f"(held: the judge, the same check at depth {judge}, confirms the claim)")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=SEED, help=f"self-play seed (default {SEED})")
    p.add_argument("--games", type=int, default=GAMES, help=f"games (default {GAMES})")
    p.add_argument("--depth", type=int, default=DEEP_DEPTH,
                   help=f"the coach's check, plies (default {DEEP_DEPTH})")
    p.add_argument("--judge", type=int, default=JUDGE,
                   help=f"the judge's depth, plies (default {JUDGE})")
    p.add_argument("--pdn", default=None, help="annotate this file's games instead")
    args = p.parse_args(argv)
    from kbdraughts.kb.knowledge import load_knowledge_base

    started = time.perf_counter()
    games = games_of(args.seed, args.games, args.pdn)
    counts = measure(games, load_knowledge_base(), args.depth, args.judge)
    moves = sum(len(g.moves) for g in games)
    print(f"bench/coach.py: {len(games)} games, {moves} moves "
          f"({args.pdn or f'level-1 self-play, seed {args.seed}'}); "
          f"{time.perf_counter() - started:.0f} s")
    for line in report(counts, args.depth, args.judge):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
