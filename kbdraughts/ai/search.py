"""Alpha-beta search: iterative deepening, a transposition table, a time budget, a stop event.

Negamax over legal moves. Captures are compulsory, so a position where the side to move can
capture is never a leaf: the search goes on through the captures (quiescence), which is the
capture tree at the leaves. Quiet leaves are scored by an evaluation function for the side to
move (the heuristic's, or plain material for the ``search:D`` baseline).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from kbdraughts.ai.values import WIN
from kbdraughts.board import Move, Position, captures, legal_moves, play

Evaluate = Callable[[Position], float]

EXACT, LOWER, UPPER = 0, 1, 2
#: Check the clock and the stop event every this many nodes.
CHECK_EVERY = 64
#: Start another iteration only while less than this share of the budget is spent.
NEXT_ITERATION = 0.5
#: Plies of captures a quiescence search follows at most (kings can chase for long).
MAX_QUIESCENCE = 16


class Timeout(Exception):
    """The time budget ran out or the stop event was set."""


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


class Searcher:
    """One search at a time; keeps its transposition table between searches of a game."""

    def __init__(self, evaluate: Evaluate, tt_size: int = 1 << 17):
        self.evaluate = evaluate
        self.tt: dict[Position, tuple[int, float, int, Move | None]] = {}
        self.tt_size = tt_size
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        self._deadline = float("inf")
        self._stop: threading.Event | None = None
        self._path: set[Position] = set()

    # -- public --------------------------------------------------------------------------

    def search(self, pos: Position, max_depth: int = 64, movetime_ms: float | None = None,
               stop: threading.Event | None = None, moves: list[Move] | None = None,
               history: Iterable[Position] = ()) -> SearchResult:
        """Deepen from 1 ply to ``max_depth`` within ``movetime_ms``; the result of the last
        finished iteration (or a better root move found by an unfinished one).

        ``history``: earlier positions of the game that can recur (since the last capture or
        man move); reaching one again, or repeating within the line searched, scores a draw.
        """
        start = time.perf_counter()
        self._path = set(history)
        self._path.add(pos)
        self._deadline = start + movetime_ms / 1000 if movetime_ms else float("inf")
        self._stop = stop
        self.nodes = 0
        if len(self.tt) > self.tt_size:
            self.tt.clear()
        root = list(moves) if moves is not None else legal_moves(pos)
        if not root:
            return SearchResult(None, -WIN, 0)
        best = SearchResult(root[0], self.evaluate(pos), 0)
        for depth in range(1, max_depth + 1):
            try:
                score, move = self._root(pos, root, depth, best.move)
            except Timeout as t:
                partial = t.args[0] if t.args else None
                if partial is not None:
                    best.move, best.score = partial
                best.complete = False
                break
            best = SearchResult(move, score, depth, nodes=self.nodes)
            if abs(score) >= WIN - 1000:
                break  # a forced win or loss found: deeper will not change it
            if movetime_ms and (time.perf_counter() - start) * 1000 > NEXT_ITERATION * movetime_ms:
                break  # the next iteration takes several times longer: it would not finish
        best.line = self._pv(pos, best.move)
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - start
        return best

    # -- internals -----------------------------------------------------------------------

    def _tick(self) -> None:
        if time.perf_counter() > self._deadline or (self._stop is not None and self._stop.is_set()):
            raise Timeout()

    def _root(self, pos: Position, moves: list[Move], depth: int, first: Move | None
              ) -> tuple[float, Move]:
        ordered = self._order(pos, moves, first)
        alpha, beta = -WIN - 1, WIN + 1
        best_move = ordered[0]
        for i, m in enumerate(ordered):
            try:
                if i == 0:
                    score = -self._negamax(play(pos, m), depth - 1, -beta, -alpha, 1)
                else:  # a null window first: most root moves only need to be shown worse
                    score = -self._negamax(play(pos, m), depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._negamax(play(pos, m), depth - 1, -beta, -alpha, 1)
            except Timeout:
                raise Timeout((best_move, alpha) if i > 0 else None) from None
            if score > alpha:
                alpha, best_move = score, m
        self._store(pos, depth, alpha, EXACT, best_move, 0)
        return alpha, best_move

    def _store(self, pos: Position, depth: int, score: float, flag: int, move: Move | None,
               ply: int) -> None:
        # A won or lost score counts plies from the root; kept from the position itself, so
        # a later search (from another root) reads its own distance, not a stale one.
        self.tt[pos] = (depth, _from_node(score, ply), flag, move)

    def _order(self, pos: Position, moves: list[Move], first: Move | None) -> list[Move]:
        hist = self.history

        def key(m: Move) -> tuple:
            return (m != first, -m.captured.bit_count(), not m.crowned,
                    -hist.get((m.start, m.end), 0))

        return sorted(moves, key=key)

    def _negamax(self, pos: Position, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._tick()
        if pos in self._path:
            return 0  # a repetition: heading for a draw
        caps = captures(pos)
        if depth <= 0 and not caps:
            return self.evaluate(pos)
        if depth <= -MAX_QUIESCENCE:
            return self.evaluate(pos)
        entry = self.tt.get(pos)
        tt_move = None
        if entry is not None:
            d, s, flag, tt_move = entry
            s = _from_root(s, ply)
            if d >= depth:
                if flag == EXACT:
                    return s
                if flag == LOWER and s >= beta:
                    return s
                if flag == UPPER and s <= alpha:
                    return s
        moves = caps or legal_moves(pos)
        if not moves:
            return -WIN + ply  # no move: lost; sooner is worse
        alpha0 = alpha
        path = self._path
        path.add(pos)
        try:
            best, best_move = self._moves(pos, moves, tt_move, depth, alpha, beta, ply)
        finally:
            path.discard(pos)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self._store(pos, max(depth, 0), best, flag, best_move, ply)
        return best

    def _moves(self, pos: Position, moves: list[Move], tt_move: Move | None, depth: int,
               alpha: float, beta: float, ply: int) -> tuple[float, Move | None]:
        best = -WIN - 1
        best_move = None
        for m in self._order(pos, moves, tt_move):
            score = -self._negamax(play(pos, m), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not m.captured:
                            k = (m.start, m.end)
                            self.history[k] = self.history.get(k, 0) + depth * depth
                        break
        return best, best_move

    def _pv(self, pos: Position, first: Move | None, limit: int = 12) -> list[Move]:
        """The principal line, read back from the transposition table."""
        line: list[Move] = []
        seen = set()
        m = first
        while m is not None and len(line) < limit and pos not in seen:
            seen.add(pos)
            line.append(m)
            pos = play(pos, m)
            entry = self.tt.get(pos)
            m = entry[3] if entry else None
            if m is not None and m not in legal_moves(pos):
                break
        return line


def _from_node(score: float, ply: int) -> float:
    """A score found ``ply`` plies below the root, as counted from its own position."""
    if score >= WIN - 1000:
        return score + ply
    if score <= -WIN + 1000:
        return score - ply
    return score


def _from_root(score: float, ply: int) -> float:
    """A score kept from its own position, as counted from a root ``ply`` plies above."""
    return _from_node(score, -ply)
