"""Issue 38's targets for the coach's grades, judged by a much deeper search of the project's own.

    python bench/grades.py [--pdn FILE] [--depth D] [--deeper D ...] [--cache FILE]
                           [--reference-only [--jobs J | --cluster ADDRESS]] [--nodes N]
                           [--games N] [--no-anchor]

The reference: every position of the file searched ``--depth`` plies deep (default 20) by the
engine's own search (its evaluation, reductions as it plays, a fresh table per position, no
endgame tables), its score in men for the side to move. A move's *loss* is the reference's
score before it less the score after it (for the side that moved): ``S(P) + S(P')``. Those
searches take hours at depth 20, so they are kept in a resumable cache (``--cache``, default
bench/data/ussr1924_reference.tsv: one line per position and depth, appended as each is
searched, with the search's best move where it was kept); ``--reference-only`` fills it and
prints nothing else (run it niced in the background; it stops where it is killed and goes on
from there). It searches on ``--jobs`` processes, or as Ray tasks on the cluster at ``--cluster``
(``ray://HOST:PORT``, ``auto``; the ``cluster`` extra), a position a task: depth 18 took 649 s
of both cores here, and depth 20 costs some 7 to 10 times that.

The figures, the reference's beside the coach's (``grade_game`` at ``--nodes``):

- *moves losing ≥ 0.5 man*: the reference's count; the share of them the coach grades
  (target ≥ 60%); and the same share without the losing moves the reference's own search
  plays (the score falls whatever is played: no better move to grade them against);
- *error notes on fine moves*: of the moves the coach grades, the share the reference calls
  fine (within 0.2 man of the best; target ≤ 5%);
- the anchor in the same run: the same two shares for the coach before the grades (issue 37's
  error notes: loses, allowed, missed, its deep check bounded by nodes as now), and the time.

Only the moves whose two positions the cache holds at ``--depth`` are counted (the coverage is
printed): a reference still being computed gives figures on the part it has. ``--deeper``
judges by the reference at more depths, on the moves the cache covers there (at 18 the cache
holds the moves the coach graded at 5347f1e or the depth-16 reference calls losing: a share
of recall there is of those).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

from kbdraughts.ai.native_search import make_searcher
from kbdraughts.board import Position, legal_moves
from kbdraughts.eval.heuristic import default_heuristic, heuristic_path, shapes_path
from kbdraughts.fen import fen
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen

HERE = Path(__file__).resolve().parent
PDN = HERE / "data" / "ussr1924.pdn"
CACHE = HERE / "data" / "ussr1924_reference.tsv"
DEPTH = 20
#: Scores at or beyond this (centi-men) are a decided game: clipped there.
DECIDED = 5000
LOST = 50  # half a man: a move the reference says loses
FINE = 20  # a fifth of a man: a move the reference calls fine


def games_of(pdn: str) -> list[Game]:
    from kbdraughts.pdn import load_pdn_file

    return [g.game for g in load_pdn_file(pdn).games]


def weights_digest(text: str) -> str:
    """A short digest of a heuristic file's weights: its lines without their comments, blanks
    left out."""
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    kept = "\n".join(line for line in lines if line and not line.startswith("#"))
    return hashlib.sha256(kept.encode("utf-8")).hexdigest()[:12]


def heuristic_digest() -> str:
    """The digest of the evaluation's weights and regions: a cache line made with others is
    stale (a comment changed is no change)."""
    path = heuristic_path()
    return weights_digest(path.read_text(encoding="utf-8")
                          + shapes_path(path).read_text(encoding="utf-8"))


class Reference:
    """The reference scores, read from and appended to ``path``: (FEN, depth) -> centi-men for
    the side to move, and the search's best move where the line names it (a fifth column)."""

    def __init__(self, path: Path):
        self.path = path
        self.digest = heuristic_digest()
        self.scores: dict[tuple[str, int], int] = {}
        self.best: dict[tuple[str, int], str] = {}
        self.stale = 0  # lines made with another evaluation
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                parts = line.split("\t")
                if len(parts) < 4 or line.startswith("#"):
                    continue
                if parts[3] != self.digest:
                    self.stale += 1
                    continue
                self.scores[parts[0], int(parts[1])] = int(parts[2])
                if len(parts) > 4:
                    self.best[parts[0], int(parts[1])] = parts[4]

    def score(self, pos: Position, depth: int, search: bool = True) -> int | None:
        """``pos``'s score at ``depth`` (searched and appended when not cached and ``search``)."""
        key = (fen(pos), depth)
        if key in self.scores or not search:
            return self.scores.get(key)
        self._search(pos, depth)
        return self.scores[key]

    def best_move(self, pos: Position, depth: int) -> str | None:
        """The move the reference's search of ``pos`` at ``depth`` found best (searched again
        and appended when the cache has the score alone; None where no move is legal)."""
        key = (fen(pos), depth)
        if key not in self.best and legal_moves(pos):
            self._search(pos, depth)
        return self.best.get(key)

    def _search(self, pos: Position, depth: int) -> None:
        self.record(searched((fen(pos), depth))[0])

    def record(self, found: tuple[str, int, int, str]) -> None:
        """A search's answer kept and appended: FEN, depth, score, best move ("" for none)."""
        text, depth, value, best = found
        self.scores[text, depth] = value
        if best:
            self.best[text, depth] = best
        with self.path.open("a", encoding="utf-8") as f:
            f.write(f"{text}\t{depth}\t{value}\t{self.digest}\t{best}\n")


def searched(key: tuple[str, int]) -> list[tuple[str, int, int, str]]:
    """The reference's search of one position (FEN, depth), a fresh table: [(FEN, depth,
    score in centi-men clipped to DECIDED, best move)]; a list, as a task's batch."""
    text, depth = key
    pos = parse_fen(text)
    if not legal_moves(pos):
        return [(text, depth, -DECIDED, "")]
    found = make_searcher(default_heuristic().evaluate).search(pos, max_depth=depth)
    value = int(max(-DECIDED, min(DECIDED, round(found.score))))
    return [(text, depth, value, move_text(found.move) if found.move is not None else "")]


def fill(reference: Reference, games: list[Game], depths: list[int], jobs: int = 1,
         cluster: str | None = None) -> None:
    """Every position of ``games`` not cached yet searched at each of ``depths`` in turn (the
    shallower first, so a run stopped early leaves a whole shallower reference), on ``jobs``
    processes or a Ray cluster; each answer appended as it comes, in the positions' order."""
    from kbdraughts.tune.games import in_batches

    positions = list(dict.fromkeys(fen(p) for g in games for p in g.positions))
    for depth in depths:
        started = time.perf_counter()
        todo = [(text, depth) for text in positions if (text, depth) not in reference.scores]
        for i, found in enumerate(in_batches(searched, todo, jobs, cluster)):
            reference.record(found)
            if i % 100 == 0:
                print(f"depth {depth}: {i}/{len(todo)} left of {len(positions)}, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pdn", default=str(PDN))
    p.add_argument("--depth", type=int, default=DEPTH)
    p.add_argument("--cache", default=str(CACHE))
    p.add_argument("--reference-only", action="store_true")
    p.add_argument("--jobs", type=int, default=1, help="--reference-only: processes")
    p.add_argument("--cluster", metavar="ADDRESS", help="--reference-only: a Ray cluster's")
    p.add_argument("--nodes", type=int, default=None)
    p.add_argument("--games", type=int, default=None, help="the first N games only")
    p.add_argument("--no-anchor", action="store_true")
    p.add_argument("--deeper", type=int, nargs="*", default=[],
                   help="the coach judged by the reference at these depths too, on the moves "
                   "whose two positions the cache holds there")
    args = p.parse_args()
    games = games_of(args.pdn)[:args.games]
    reference = Reference(Path(args.cache))
    if args.reference_only:
        fill(reference, games, sorted({d for d in (16, 18, args.depth) if d <= args.depth}),
             args.jobs, args.cluster)
        return 0
    return report(games, reference, args)


def reference_losses(games: list[Game], reference: Reference, depth: int
                     ) -> dict[tuple[int, int], int]:
    """(game, ply) -> what the move gave away by the reference (centi-men, for the side that
    moved: ``S(P) + S(P')``), for the moves whose two positions are cached."""
    out = {}
    for g, game in enumerate(games):
        for ply in range(len(game.moves)):
            before = reference.score(game.positions[ply], depth, search=False)
            after = reference.score(game.positions[ply + 1], depth, search=False)
            if before is not None and after is not None:
                out[g, ply] = before + after
    return out


def shares(flagged: set[tuple[int, int]], losses: dict[tuple[int, int], int]) -> str:
    """The share of the reference's losing moves among ``flagged``, and of ``flagged`` on
    moves the reference calls fine."""
    losing = {k for k, v in losses.items() if v >= LOST}
    judged = flagged & losses.keys()
    fine = {k for k in judged if losses[k] <= FINE}
    found = len(losing & judged)
    recall = 100 * found / max(1, len(losing))
    return (f"graded {found}/{len(losing)} of the losing moves ({recall:.1f}%); "
            f"{len(fine)}/{len(judged)} notes on fine moves "
            f"({100 * len(fine) / max(1, len(judged)):.1f}%)")


def unavoidable(games: list[Game], reference: Reference, depth: int,
                losses: dict[tuple[int, int], int]) -> set[tuple[int, int]]:
    """The losing moves the reference's own search at ``depth`` plays: the position's score
    falls whatever is played (a threat no move stops, the only move, a score the horizon had
    hidden), so there is no better move to grade them against."""
    return {(g, ply) for (g, ply), v in losses.items() if v >= LOST
            and reference.best_move(games[g].positions[ply], depth)
            == move_text(games[g].moves[ply])}


def judged(games: list[Game], reference: Reference, depth: int, graded: set[tuple[int, int]],
           by_grade: dict[str, set[tuple[int, int]]], label: str) -> None:
    """The coach's shares against the reference at ``depth`` (on the moves it covers)."""
    losses = reference_losses(games, reference, depth)
    if not losses:
        return
    moves = sum(len(g.moves) for g in games)
    print(f"reference at depth {depth}: {len(losses)}/{moves} moves covered; "
          f"{sum(v >= LOST for v in losses.values())} lose >= {LOST / 100} man, "
          f"{sum(v <= FINE for v in losses.values())} fine (within {FINE / 100} man)")
    print(f"  {label}: {shares(graded, losses)}")
    for glyph in ("??", "?", "?!"):
        if glyph in by_grade:
            print(f"    {glyph}: {shares(by_grade[glyph], losses)}")
    gone = unavoidable(games, reference, depth, losses)
    rest = {k: v for k, v in losses.items() if k not in gone}
    print(f"  {len(gone)} of the losing moves are the reference's own best move (the score "
          f"falls whatever is played); without them: {shares(graded, rest).split(';')[0]}")


def report(games: list[Game], reference: Reference, args: argparse.Namespace) -> int:
    from kbdraughts.coach.annotator import ERRORS, annotate
    from kbdraughts.coach.deep_check import DeepCheck
    from kbdraughts.coach.grade import NODES, grade_game
    from kbdraughts.kb.knowledge import load_knowledge_base

    nodes = args.nodes or NODES
    depths = [args.depth] + [d for d in args.deeper if d != args.depth]
    if reference.stale:
        print(f"({reference.stale} cache lines of another evaluation ignored)")
    started, cpu = time.perf_counter(), time.process_time()
    graded: set[tuple[int, int]] = set()
    by_grade: dict[str, set[tuple[int, int]]] = {}
    for g, game in enumerate(games):
        for v in grade_game(game, nodes=nodes):
            if v.grade is not None:
                graded.add((g, v.ply))
                by_grade.setdefault(v.grade.glyph, set()).add((g, v.ply))
    print(f"coach, --nodes {nodes}: {len(graded)} moves graded, "
          f"{time.perf_counter() - started:.0f} s ({time.process_time() - cpu:.0f} s of processor)")
    old: set[tuple[int, int]] = set()
    if not args.no_anchor:
        started, cpu = time.perf_counter(), time.process_time()
        kb = load_knowledge_base()
        old = {(g, n.ply) for g, game in enumerate(games)
               for n in annotate(game, kb=kb, check=DeepCheck()) if n.kind in ERRORS}
        print(f"anchor, the coach before the grades: {len(old)} error notes, "
              f"{time.perf_counter() - started:.0f} s ({time.process_time() - cpu:.0f} s of "
              "processor)")
    for depth in depths:
        judged(games, reference, depth, graded, by_grade, "coach")
        if not args.no_anchor:
            print(f"  anchor: {shares(old, reference_losses(games, reference, depth))}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
