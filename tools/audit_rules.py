"""Audit the shipped pattern rules by a deeper search: does each rule's move keep its word?

    python tools/audit_rules.py [--games N] [--seed S] [--depth D] [--files tactics.txt ...]
                                [--drop-below RATIO] [--min-fired K]

Positions come from games where level 1 *with* the knowledge base plays against level 1
without it (after a few random plies), so the positions are those a rule meets in play. Wherever
a pattern rule of the audited files fires, its move is searched ``--depth`` plies deeper by a
material alpha-beta search (captures resolved to the end, as in the levels' rule check); the
rule *keeps its word* there when the move does not lose a man or more: a shot's sacrifice
must come back within the line (a shot that does not come back is what the rule check's half-man
tolerance used to let through, issue 13).

Prints, per rule that failed at least once, how often it fired and failed, and the worst
position; then the rules whose share of kept firings is below ``--drop-below`` over at least
``--min-fired`` firings (or that failed every time they fired), as the list to drop. Nothing
here runs at play time.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kbdraughts.ai.engine import Engine  # noqa: E402
from kbdraughts.eval.heuristic import material  # noqa: E402
from kbdraughts.ai.search import Searcher  # noqa: E402
from kbdraughts.board import Position, play  # noqa: E402
from kbdraughts.game import Game  # noqa: E402
from kbdraughts.kb.knowledge import KnowledgeBase, load_knowledge_base  # noqa: E402
from kbdraughts.notation import fen, move_text  # noqa: E402
from kbdraughts.values import MAN_VALUE  # noqa: E402


def played_positions(kb: KnowledgeBase, games: int, seed: int) -> list[Position]:
    """The positions of ``games`` games, level 1 with the knowledge base against level 1
    without it, colours alternating, after 2 to 8 random plies."""
    rng = random.Random(seed)
    out: list[Position] = []
    for g in range(games):
        game = Game()
        engines = [Engine(level=1, kb=kb, seed=seed * 1000 + g),
                   Engine(level=1, use_kb=False, seed=seed * 1000 + g)]
        opening = rng.randint(2, 8)
        for ply in range(160):
            legal = game.legal_moves()
            if game.result is not None or not legal:
                break
            out.append(game.position)
            if ply < opening:
                game.push(rng.choice(legal))
            else:
                game.push(engines[(ply + g) % 2].choose(game).move)
    return out


def audit(kb: KnowledgeBase, positions: list[Position], files: tuple[str, ...], depth: int
          ) -> tuple[Counter, Counter, dict[str, tuple[int, str]]]:
    """Per rule id: firings, failures, and the worst failure (material lost, its FEN)."""
    fired: Counter = Counter()
    failed: Counter = Counter()
    worst: dict[str, tuple[int, str]] = {}
    for pos in set(positions):
        for match in kb.firing(pos):
            rule = match.rule
            if rule.exact or not rule.path.endswith(files) or match.move is None:
                continue
            fired[rule.id] += 1
            res = Searcher(material).search(play(pos, match.move), max_depth=depth)
            lost = material(pos) + res.score
            if lost >= MAN_VALUE:  # a man or more (a king given for two men is a trade)
                failed[rule.id] += 1
                if lost > worst.get(rule.id, (0, ""))[0]:
                    worst[rule.id] = (lost, f"{fen(pos)} {move_text(match.move)}")
    return fired, failed, worst


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--depth", type=int, default=6, help="plies searched after the rule's move")
    ap.add_argument("--files", nargs="+", default=["motifs.txt", "endgames.txt"])
    ap.add_argument("--drop-below", type=float, default=0.75)
    ap.add_argument("--min-fired", type=int, default=4)
    args = ap.parse_args(argv)
    kb = load_knowledge_base()
    positions = played_positions(kb, args.games, args.seed)
    fired, failed, worst = audit(kb, positions, tuple(args.files), args.depth)
    for rule_id in sorted(failed, key=lambda r: (-failed[r], r)):
        lost, where = worst[rule_id]
        print(f"{rule_id}: fired {fired[rule_id]}, lost material {failed[rule_id]}, "
              f"worst {lost / 100:g} in {where}")
    drop = sorted(r for r in failed if failed[r] == fired[r] or (
        fired[r] >= args.min_fired and 1 - failed[r] / fired[r] < args.drop_below))
    total, bad = sum(fired.values()), sum(failed.values())
    print(f"{len(positions)} positions, {len(fired)} rules fired {total} times; "
          f"{total - bad} kept the material by a {args.depth}-ply search "
          f"({(total - bad) / max(total, 1):.1%})")
    print("drop:", " ".join(drop) if drop else "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
