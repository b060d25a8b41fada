"""Alpha-beta search: iterative deepening from the root, aspiration windows, a time budget, a
stop event, and the game: its repetitions, its draw rules' counters, contempt for a draw.

Negamax over legal moves; the tree below the root, its pruning and its table are
:mod:`kbdraughts.ai.tree`. Quiet leaves are scored by an evaluation function for the side to
move (the heuristic's, or plain material for the ``search:D`` baseline). Each iteration searches
the root in a window around the last one's score (aspiration), again in the full window when
the score falls outside; the root's moves go in the order of :func:`~kbdraughts.ai.ordering.
root_order`, the last iteration's best first. The clock (:mod:`kbdraughts.ai.clock`) starts
another iteration while time is left; the one the deadline cuts short still gives its better
root move.

Repetitions (of the game's ``history`` or within the line) and the draw rules' counters
(:mod:`kbdraughts.ai.draw_rules`) score a draw, worth a little less than zero to the side that
is better at the root (``contempt``) and a little more to the side that is worse.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from kbdraughts.ai.clock import TimeBudget
from kbdraughts.ai.draw_rules import contempt as draw_contempt
from kbdraughts.ai.ordering import root_order
from kbdraughts.ai.tree import (  # noqa: F401 (re-exported: the search's names)
    EVALS_KEPT, EXACT, EXT_MAX, INF, MATE_ZONE, MAX_QUIESCENCE, Evaluate, Timeout, Tree,
)
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.collector import paused_gc
from kbdraughts.egdb.leaves import Leaves
from kbdraughts.values import WIN

#: The root's aspiration window either side of the last iteration's score.
WINDOW = 35


@dataclass
class SearchResult:
    """The best move found, its score for the side to move and the principal line."""

    move: Move | None
    score: float
    depth: int
    line: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    complete: bool = True  # False when the last iteration was cut short
    native: bool = False  # searched by the native core (kbdraughts._core)
    mean_depth: float = 0.0  # the mean ply of the leaves of the last whole iteration


class Searcher(Tree):
    """One search at a time; keeps its transposition table between searches of a game.

    ``reductions`` and ``extensions`` (see :mod:`kbdraughts.ai.tree`) switch the inexact
    pruning and the extensions; without them the search scores as plain minimax does.
    """

    # -- public --------------------------------------------------------------------------

    def search(self, pos: Position, max_depth: int = 64, movetime_ms: float | None = None,
               stop: threading.Event | None = None, moves: list[Move] | None = None,
               history: Iterable[Position] = (), prefer: Sequence[Move] = (),
               counters: tuple[int, int] = (0, 0), contempt: bool = False,
               tables: Leaves | None = None, nodes: int | None = None) -> SearchResult:
        """Deepen from 1 ply to ``max_depth`` within ``movetime_ms``; the result of the last
        finished iteration (or a better root move found by an unfinished one).
        ``nodes``: stop once this many nodes are spent, as at the deadline (checked with the
        clock, every CHECK_MASK + 1 nodes): without a ``movetime_ms`` the same position and
        table give the same move on any load, on either core.

        ``history``: earlier positions of the game that can recur (since the last capture or
        man move); reaching one again, or repeating within the line searched, scores a draw.
        ``counters``: the game's ``(kings_only, since_balance)`` plies
        (:func:`kbdraughts.ai.draw_rules.game_counters`), so a line reaching a draw rule
        scores a draw. ``prefer``: root moves to try first, in order, after the best one of
        the last search from here (and, from the second iteration on, the last iteration's).
        ``contempt``: a draw is worth a little less than zero to the side better at the root,
        a little more to the side worse (without it, every draw scores zero).
        ``tables``: endgame tables to read at the nodes they cover
        (:func:`kbdraughts.egdb.leaves.for_root`).
        """
        clock = TimeBudget(movetime_ms)
        self._leaves = tables
        self._path = {p for p in history if p.kings}
        if pos.kings:
            self._path.add(pos)
        self._deadline, self._stop, self.nodes = clock.deadline, stop, 0
        self._node_limit = nodes if nodes else float("inf")
        self.ordering.new_search()
        if len(self._evals) > EVALS_KEPT:
            self._evals.clear()
        root = list(moves) if moves is not None else legal_moves(pos)
        if not root:
            return SearchResult(None, -WIN, 0)
        entry = self.tt.get(pos) or self.tt_old.get(pos)
        root = root_order(root, prefer, entry[3] if entry else None)
        best = SearchResult(root[0], self.evaluate(pos), 0)
        # Contempt from the root's own evaluation, kept for the whole search: a score that
        # already counts a draw would talk itself out of it.
        self._contempt = contempt
        self._set_contempt(pos.side, best.score)
        # The cyclic garbage collector stays out of a timed search: a full collection walks
        # every entry of the table and of the evaluations kept, a pause of 100-450 ms a few
        # times a game (measured with an engine kept for 20 positions at 1 s: 14 of them,
        # one move 294 ms over its budget). The search makes no cycles; what it leaves is
        # frozen (never walked again, still freed when the table drops it), so no collection
        # after it walks the table either.
        with paused_gc(freeze=True):
            self._deepen(pos, root, max_depth, clock, counters, best)
            best.line = self._pv(pos, best.move)
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - clock.start
        return best

    def _deepen(self, pos: Position, root: list[Move], max_depth: int, clock: TimeBudget,
                counters: tuple[int, int], best: SearchResult) -> None:
        """Iterations from 1 ply on, each updating ``best`` in place, until the clock, the
        depth or a forced win or loss says stop."""
        for depth in range(1, max_depth + 1):
            self.leaves = self.leaf_plies = 0
            try:
                score, move = self._aspirate(pos, root, depth, best.score if depth > 1 else None,
                                             counters)
            except Timeout as t:
                if t.args and t.args[0] is not None:
                    best.move, best.score = t.args[0]
                best.complete = False
                return
            best.move, best.score, best.depth = move, score, depth
            best.mean_depth = self.leaf_plies / self.leaves if self.leaves else depth
            root.remove(move)
            root.insert(0, move)
            if abs(score) >= MATE_ZONE:
                return  # a forced win or loss found: deeper will not change it
            if not clock.next_iteration(time.perf_counter()):
                return

    # -- the root ------------------------------------------------------------------------

    def _set_contempt(self, side: int, score: float) -> None:
        c = draw_contempt(score) if self._contempt else 0
        self._draw[side], self._draw[1 - side] = c, -c

    def _aspirate(self, pos: Position, root: list[Move], depth: int, guess: float | None,
                  counters: tuple[int, int]) -> tuple[float, Move]:
        """The root searched in a window around ``guess``; again in the full window when the
        score falls outside it."""
        self._bound = depth + EXT_MAX
        if guess is not None and abs(guess) < MATE_ZONE:
            lo, hi = guess - WINDOW, guess + WINDOW
            score, move = self._root(pos, root, depth, lo, hi, counters)
            if lo < score < hi:
                return score, move
        return self._root(pos, root, depth, -INF, INF, counters)

    def _root(self, pos: Position, moves: list[Move], depth: int, alpha: float, beta: float,
              counters: tuple[int, int]) -> tuple[float, Move]:
        best, best_move, a = -INF, moves[0], alpha
        kings = pos.kings
        ko, sb = counters
        for i, m in enumerate(moves):
            child = play(pos, m)
            ck = 0 if m.captured or not kings >> m.start & 1 else ko + 1
            cs = 0 if m.captured or m.crowned else sb + 1
            try:
                if i == 0:
                    s = -self._negamax(child, depth - 1, -beta, -a, 1, ck, cs)
                else:  # a null window first: most root moves only need to be shown worse
                    s = -self._negamax(child, depth - 1, -a - 1, -a, 1, ck, cs)
                    if a < s < beta:
                        s = -self._negamax(child, depth - 1, -beta, -a, 1, ck, cs)
            except Timeout:
                raise Timeout((best_move, best) if best > alpha else None) from None
            if s > best:
                best, best_move = s, m
                if s > a:
                    a = s
                    if a >= beta:
                        break
        if alpha < best < beta:
            self._store(pos, depth, best, EXACT, best_move, 0)
        return best, best_move

    @property
    def table_counts(self) -> tuple[int, int]:
        """Positions in the table's current and old halves."""
        return len(self.tt), len(self.tt_old)

    def _pv(self, pos: Position, first: Move | None) -> list[Move]:
        return principal_line(pos, first, self._next_move)

    def _next_move(self, pos: Position) -> Move | None:
        entry = self.tt.get(pos) or self.tt_old.get(pos)
        m = entry[3] if entry else None
        return m if m is not None and m in legal_moves(pos) else None


def principal_line(pos: Position, first: Move | None,
                   next_move: Callable[[Position], Move | None], limit: int = 12) -> list[Move]:
    """The principal line, read back from a table: ``next_move(pos)`` is the table's legal
    move there (None when it has none), until a position recurs."""
    line: list[Move] = []
    seen = set()
    m = first
    while m is not None and len(line) < limit and pos not in seen:
        seen.add(pos)
        line.append(m)
        pos = play(pos, m)
        m = next_move(pos)
    return line
