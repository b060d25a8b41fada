"""Analysis of a position for a person: the best candidate moves with their scores and lines,
one report per depth, deepened until stopped, and the endgame tables' verdict where they reach.

Each depth starts a search afresh, as the engine's search to that depth is: its move and score
are the best candidate, the move the AI's search plays when it stops there. The same
search then looks again without that move for the second best, and so on (multi-PV by
exclusion through the search's ``moves=``), and the candidates are reported best first. A
search that prunes judges a move by the window it is searched in, so a move looked at without
the best one can score a little above it, though the search of all the moves found it no
better: such a candidate is reported at the best's score, as a move as good as the best at
that depth. A depth cut short by ``stop`` is not reported: every report is a finished depth.
The search knows the game (the positions that can recur, the draw rules' counters), as the
engine's does.

>>> from kbdraughts.eval.heuristic import material
>>> import threading
>>> reports = list(analyse(Game(), threading.Event(), evaluate=material, max_depth=2))
>>> [r.depth for r in reports], [len(r.candidates) for r in reports]
([1, 2], [3, 3])
>>> from kbdraughts.values import TABLE_WIN
>>> men_text(-125), men_text(WIN - 7), men_text(TABLE_WIN - 5)
('-1.25', 'wins', 'wins')
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Iterator, Sequence

from kbdraughts.ai import endgame
from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.ai.layers import recurring_positions
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.search import MATE_ZONE, Evaluate
from kbdraughts.board import WHITE, Move, Position, Side, legal_moves, play
from kbdraughts.egdb import leaves
from kbdraughts.egdb import probe as egdb_probe
from kbdraughts.game import Game
from kbdraughts.ai.explain import by_tables
from kbdraughts.values import WIN  # noqa: F401 (for the doctest above)

__all__ = ["Candidate", "Report", "analyse", "legal_line", "men_text", "CANDIDATES"]

#: Candidate moves reported at each depth.
CANDIDATES = 3


@dataclass(frozen=True)
class Candidate:
    """A root move, its score in hundredths of a man for the side to move, and its line (the
    move first)."""

    move: Move
    score: float
    line: tuple[Move, ...]


@dataclass(frozen=True)
class Report:
    """A finished depth: the candidates best first, the side to move, the work done, and the
    endgame tables' verdict in words ("" where they do not reach)."""

    depth: int
    side: Side
    candidates: tuple[Candidate, ...]
    nodes: int
    seconds: float
    verdict: str = ""

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def for_white(self, score: float) -> float:
        """A score for the side to move as White sees it."""
        return score if self.side == WHITE else -score


def men_text(score: float) -> str:
    """A score in hundredths of a man as a player reads it: ``+0.35``, or ``wins``/``loses``
    for a forced win found, on the board or by the endgame tables."""
    if score >= MATE_ZONE or by_tables(score):
        return "wins" if score > 0 else "loses"
    if score <= -MATE_ZONE:
        return "loses"
    hundredths = round(score)
    return f"{hundredths / 100:+.2f}" if hundredths else "0.00"


def legal_line(pos: Position, line: Sequence[Move], first: Move) -> tuple[Move, ...]:
    """``line`` from ``pos`` as far as its moves are legal (a line read from the search's table
    may end in a move of another position that shares its key), ``first`` at least."""
    if not line or line[0] != first:
        line = [first]
    out: list[Move] = []
    for move in line:
        if move not in legal_moves(pos):
            break
        out.append(move)
        pos = play(pos, move)
    return tuple(out)


def analyse(game: Game, stop: threading.Event, evaluate: Evaluate | None = None,
            candidates: int = CANDIDATES, max_depth: int = 64) -> Iterator[Report]:
    """Reports on ``game``'s position, one per finished depth from 1 to ``max_depth``, until
    ``stop`` is set; nothing when the side to move has no move."""
    pos = game.position
    legal = game.legal_moves()
    if not legal:
        return
    evaluate = evaluate or default_heuristic().evaluate
    counters, history = game_counters(game), recurring_positions(game)
    judged = endgame.judge(pos, *counters, legal=legal)
    verdict = judged.words(pos) if judged is not None else ""
    tables = leaves.for_root(egdb_probe.default(), pos)
    started = time.perf_counter()
    nodes = 0
    for depth in range(1, max_depth + 1):
        searcher = make_searcher(evaluate)  # afresh: the engine's search to this depth
        found: list[Candidate] = []
        rest = list(legal)
        while rest and len(found) < candidates:
            res = searcher.search(pos, max_depth=depth, stop=stop, moves=rest, history=history,
                                  counters=counters, tables=tables)
            nodes += res.nodes
            if stop.is_set() or not res.complete or res.move is None:
                return  # a depth cut short: its scores are not all exact
            score = min(res.score, found[0].score) if found else res.score
            found.append(Candidate(res.move, score, legal_line(pos, res.line, res.move)))
            rest.remove(res.move)
        found[1:] = sorted(found[1:], key=lambda c: -c.score)  # stable: ties keep search order
        yield Report(depth, pos.side, tuple(found), nodes, time.perf_counter() - started,
                     verdict)
