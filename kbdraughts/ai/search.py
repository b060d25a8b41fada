"""Alpha-beta search: iterative deepening, principal-variation search, a transposition table,
a time budget, a stop event, and the game's draw rules.

Negamax over legal moves. Captures are compulsory, so a position where the side to move can
capture is never a leaf: the search goes on through the captures (quiescence), which is the
capture tree at the leaves. Quiet leaves are scored by an evaluation function for the side to
move (the heuristic's, or plain material for the ``search:D`` baseline).

What makes it reach deeper, each switchable for the tests that compare it with plain minimax:

- principal-variation search (a null window for every move after the first) and aspiration
  windows at the root, both exact: a move that beats the window is searched again;
- move ordering (:mod:`kbdraughts.ai.ordering`): the table's move, killers, history;
- ``reductions``: a late quiet move that is no threat (it leaves the opponent no capture, is
  no crowning, no killer and not the table's move) is searched a ply shallower first, and
  again at full depth when it beats alpha;
- ``extensions`` (off by default): a man's step to the rank before crowning costs no ply
  (EXT_MAX such plies a line at most); with ``forced_extension`` too, a forced move (one legal
  move: the capture a sacrifice compels) costs none either. Measured on the bench's middle
  games and the shots of tests/data/tactics.txt (200 ms each, twice): the crowning extension
  found 161 of 204 against 166 without, a fraction of a ply shallower (it extends the
  defender's steps too, so one line is seen deeper than its siblings); the forced-move one
  took twice the nodes to a depth (exchanges are forced moves in draughts) for no more shots.
  Captures are resolved at the leaves in any case (the quiescence), which is where a
  sacrifice's forced replies are followed.

Repetitions (of the game's ``history`` or within the line) and the draw rules' counters
(:mod:`kbdraughts.ai.draw_rules`) score a draw, worth a little less than zero to the side that
is better at the root (``contempt``) and a little more to the side that is worse.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from kbdraughts.ai.clock import FALL, TimeBudget
from kbdraughts.ai.draw_rules import RULE_PLIES, contempt as draw_contempt, rule_draw
from kbdraughts.ai.ordering import Ordering, root_order
from kbdraughts.ai.values import WIN
from kbdraughts.board import (
    BB_BOARD, BB_RANK, Move, Position, captures, legal_moves, play, quiet_moves,
)

Evaluate = Callable[[Position], float]

EXACT, LOWER, UPPER = 0, 1, 2
INF = WIN + 1
#: Scores beyond this are a won or lost game (counted in plies from where they were found).
MATE_ZONE = WIN - 1000
#: Check the clock and the stop event every this many nodes (a power of two, less one).
CHECK_MASK = 63
#: Plies of captures a quiescence search follows at most (kings can chase for long).
MAX_QUIESCENCE = 16
#: Evaluations kept between searches at most (a quarter of the leaves recur in a search).
EVALS_KEPT = 1 << 18
#: Futility at the frontier: a quiet move one ply from the leaves is taken to change the
#: evaluation by less than this (the heuristic's terms for one man's step are a few tens).
FUTILITY = 60
#: The root's aspiration window either side of the last iteration's score.
WINDOW = 35
#: Late-move reductions: from the LMR_FROM-th move on, at depth LMR_DEPTH or more.
LMR_FROM, LMR_DEPTH = 3, 3
#: From this move on, two plies shallower.
LMR_LATER = 6
#: The rank a man steps onto one step before crowning, per side.
PRE_CROWN = (BB_RANK[6], BB_RANK[1])
#: Plies of extensions a line may have at most.
EXT_MAX = 1


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
    """One search at a time; keeps its transposition table between searches of a game.

    The table is two dicts: the current one, and the one before it, still read; when the
    current one is full it becomes the old one (so a full table ages instead of emptying).
    """

    def __init__(self, evaluate: Evaluate, tt_size: int = 1 << 17, reductions: bool = True,
                 extensions: bool = False, forced_extension: bool = False):
        self.evaluate = evaluate
        self.tt: dict[Position, tuple[int, float, int, Move | None]] = {}
        self.tt_old: dict[Position, tuple[int, float, int, Move | None]] = {}
        self.tt_size = tt_size
        self.reductions = reductions
        self.extensions = extensions
        self.forced_extension = forced_extension
        self._evals: dict[Position, float] = {}
        self.ordering = Ordering()
        self.nodes = 0
        self._deadline = float("inf")
        self._stop: threading.Event | None = None
        self._path: set[Position] = set()
        self._draw = [0, 0]  # a draw's score for the side to move, by side
        self._contempt = False
        self._bound = 0  # plies a line may reach with its extensions

    # -- public --------------------------------------------------------------------------

    def search(self, pos: Position, max_depth: int = 64, movetime_ms: float | None = None,
               stop: threading.Event | None = None, moves: list[Move] | None = None,
               history: Iterable[Position] = (), prefer: Sequence[Move] = (),
               counters: tuple[int, int] = (0, 0), contempt: bool = False) -> SearchResult:
        """Deepen from 1 ply to ``max_depth`` within ``movetime_ms``; the result of the last
        finished iteration (or a better root move found by an unfinished one).

        ``history``: earlier positions of the game that can recur (since the last capture or
        man move); reaching one again, or repeating within the line searched, scores a draw.
        ``counters``: the game's ``(kings_only, since_balance)`` plies
        (:func:`kbdraughts.ai.draw_rules.game_counters`), so a line reaching a draw rule
        scores a draw. ``prefer``: root moves to try first, in order, after the best one of
        the last search from here (and, from the second iteration on, the last iteration's).
        ``contempt``: a draw is worth a little less than zero to the side better at the root,
        a little more to the side worse (without it, every draw scores zero).
        """
        clock = TimeBudget(movetime_ms)
        self._path = {p for p in history if p.kings}
        if pos.kings:
            self._path.add(pos)
        self._deadline, self._stop, self.nodes = clock.deadline, stop, 0
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
        took = before = 0.0
        for depth in range(1, max_depth + 1):
            started = time.perf_counter()
            try:
                score, move = self._aspirate(pos, root, depth, best.score if depth > 1 else None,
                                             counters)
            except Timeout as t:
                if t.args and t.args[0] is not None:
                    best.move, best.score = t.args[0]
                best.complete = False
                break
            changed, fell = move != best.move, depth > 1 and score < best.score - FALL
            best = SearchResult(move, score, depth, nodes=self.nodes)
            root.remove(move)
            root.insert(0, move)
            if abs(score) >= MATE_ZONE:
                break  # a forced win or loss found: deeper will not change it
            now = time.perf_counter()
            took, before = now - started, took
            if not clock.next_iteration(now, took, before, changed, fell):
                break
        best.line = self._pv(pos, best.move)
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - clock.start
        return best

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

    # -- the tree ------------------------------------------------------------------------

    def _tick(self) -> None:
        if time.perf_counter() > self._deadline or (self._stop is not None and self._stop.is_set()):
            raise Timeout()

    def _negamax(self, pos: Position, depth: int, alpha: float, beta: float, ply: int,
                 ko: int, sb: int) -> float:
        """The score of ``pos`` for the side to move; ``ko`` and ``sb`` are the draw rules'
        counters (kings-only plies, plies since a capture or crowning) when it has kings."""
        self.nodes += 1
        if not self.nodes & CHECK_MASK:
            self._tick()
        kings = pos.kings
        if kings:  # only a position with kings can recur or meet a draw rule
            if pos in self._path or ((ko >= RULE_PLIES or sb >= RULE_PLIES)
                                     and rule_draw(pos, ko, sb)):
                return self._draw[pos.side]
        caps = None
        if depth <= 0:
            # Only positions without a capture are remembered (leaves, futility's nodes).
            score = self._evals.get(pos)
            if score is not None:
                return score
            caps = captures(pos)
            if not caps:
                score = self._evals[pos] = self.evaluate(pos)
                return score
            if depth <= -MAX_QUIESCENCE:
                return self.evaluate(pos)
        entry = self.tt.get(pos)
        if entry is None and self.tt_old:
            entry = self.tt_old.get(pos)
        tt_move = None
        if entry is not None:
            d, s, flag, tt_move = entry
            if d >= depth:
                if s >= MATE_ZONE or s <= -MATE_ZONE:
                    s = _from_root(s, ply)
                if flag == EXACT or (s >= beta if flag == LOWER else s <= alpha):
                    return s
        moves = caps or captures(pos) or quiet_moves(pos)
        if not moves:
            return -WIN + ply  # no move: lost; sooner is worse
        futile = None
        if depth == 1 and self.reductions and not moves[0].captured:
            static = self._static(pos)
            if static + FUTILITY <= alpha:
                futile = static + FUTILITY
        if kings:
            self._path.add(pos)
            try:
                best, best_move = self._moves(pos, moves, tt_move, depth, alpha, beta, ply, ko,
                                              sb, futile)
            finally:
                self._path.discard(pos)
        else:
            best, best_move = self._moves(pos, moves, tt_move, depth, alpha, beta, ply, 0, 0,
                                          futile)
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self._store(pos, depth if depth > 0 else 0, best, flag, best_move, ply)
        return best

    def _static(self, pos: Position) -> float:
        """The evaluation of a position without a capture, remembered: a quarter of the leaves
        recur in a search."""
        score = self._evals.get(pos)
        if score is None:
            score = self._evals[pos] = self.evaluate(pos)
        return score

    def _moves(self, pos: Position, moves: list[Move], tt_move: Move | None, depth: int,
               alpha: float, beta: float, ply: int, ko: int, sb: int, futile: float | None
               ) -> tuple[float, Move | None]:
        """The moves of a node in order, each searched (or pruned); the best score and move.
        ``futile``: the bound a quiet move that crowns nothing and gives no capture is taken to
        score at most, without a search (futility at the frontier)."""
        kings = pos.kings
        quiet = not moves[0].captured
        extend = self.extensions and depth > 0 and ply + depth < self._bound
        # A forced move (one legal move: often the capture a sacrifice compels) costs no ply.
        new_depth = depth if extend and self.forced_extension and len(moves) == 1 else depth - 1
        reduce = quiet and self.reductions and depth >= LMR_DEPTH
        pre_crown = PRE_CROWN[pos.side] if quiet and extend else 0
        negamax = self._negamax
        best, best_move = -INF, None
        for i, j in enumerate(self.ordering.order(moves, tt_move, ply)):
            m = moves[j]
            child = play(pos, m)
            if kings:
                ck = 0 if m.captured or not kings >> m.start & 1 else ko + 1
                cs = 0 if m.captured or m.crowned else sb + 1
            else:
                ck = cs = 0
            if futile is not None and not m.crowned and not _gives_capture(child):
                if futile > best:
                    best = futile  # no best move: the table would try it first next time
                continue
            d = new_depth
            if pre_crown >> m.end & 1 and not kings >> m.start & 1:
                d = depth  # a man one step from crowning: look one ply further
            if i == 0:
                s = -negamax(child, d, -beta, -alpha, ply + 1, ck, cs)
            else:
                # i >= LMR_FROM: after the table's move and both killers.
                r = 0
                if (reduce and i >= LMR_FROM and d < depth and not m.crowned
                        and not _gives_capture(child)):
                    r = 2 if i >= LMR_LATER and d > 2 else 1
                s = -negamax(child, d - r, -alpha - 1, -alpha, ply + 1, ck, cs)
                if r and s > alpha:
                    s = -negamax(child, d, -alpha - 1, -alpha, ply + 1, ck, cs)
                if alpha < s < beta:
                    s = -negamax(child, d, -beta, -alpha, ply + 1, ck, cs)
            if s > best:
                best, best_move = s, m
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        if quiet:
                            self.ordering.cutoff(m, depth, ply)
                        break
        return best, best_move

    def _store(self, pos: Position, depth: int, score: float, flag: int, move: Move | None,
               ply: int) -> None:
        # A won or lost score counts plies from the root; kept from the position itself, so
        # a later search (from another root) reads its own distance, not a stale one.
        tt = self.tt
        if len(tt) >= self.tt_size:
            self.tt_old, self.tt = tt, {}
            tt = self.tt
        if score >= MATE_ZONE or score <= -MATE_ZONE:
            score = _from_node(score, ply)
        tt[pos] = (depth, score, flag, move)

    def _pv(self, pos: Position, first: Move | None, limit: int = 12) -> list[Move]:
        """The principal line, read back from the transposition table."""
        line: list[Move] = []
        seen = set()
        m = first
        while m is not None and len(line) < limit and pos not in seen:
            seen.add(pos)
            line.append(m)
            pos = play(pos, m)
            entry = self.tt.get(pos) or self.tt_old.get(pos)
            m = entry[3] if entry else None
            if m is not None and m not in legal_moves(pos):
                break
        return line


def _gives_capture(pos: Position) -> bool:
    """Whether the side to move in ``pos`` has a capture: shifts for its men (a man next to an
    opponent with an empty square beyond), the generator only when it has kings."""
    white, black, kings, side = pos
    own, opp = (black, white) if side else (white, black)
    empty = BB_BOARD & ~(white | black)
    if own & ~kings & ((opp >> 4 & empty >> 8) | (opp >> 5 & empty >> 10)
                       | (opp << 4 & empty << 8) | (opp << 5 & empty << 10)):
        return True
    return bool(own & kings) and bool(captures(pos))


def _from_node(score: float, ply: int) -> float:
    """A score found ``ply`` plies below the root, as counted from its own position."""
    if score >= MATE_ZONE:
        return score + ply
    if score <= -MATE_ZONE:
        return score - ply
    return score


def _from_root(score: float, ply: int) -> float:
    """A score kept from its own position, as counted from a root ``ply`` plies above."""
    return _from_node(score, -ply)
