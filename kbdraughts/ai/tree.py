"""The search tree: negamax with its pruning, the transposition table, the clock's ticks.

:class:`Tree` is the part of :class:`kbdraughts.ai.search.Searcher` below the root. Captures are
compulsory, so a position where the side to move can capture is never a leaf: the tree goes on
through the captures (quiescence, exact), up to MAX_QUIESCENCE plies of them. Each node:

- the table (two dicts keyed by the whole position: the current one and the one before it,
  still read; a full one becomes the old one, so the table ages instead of emptying); the
  table's move is legal there, so it is searched before any move is generated, and a cut-off
  by it costs no move generation;
- the moves in order (:mod:`kbdraughts.ai.ordering`), the first with the full window, the others
  with a null window first (principal-variation search), searched again when they beat it;
- ``reductions`` (the inexact pruning, off for the tests that compare with plain minimax):
  late-move reductions of quiet moves that are no threat (no crowning, no capture left to the
  opponent, after the table's move and both killers), searched again at full depth when they
  beat alpha; and futility one ply from the leaves: far below alpha, a quiet move that crowns
  nothing and gives no capture is not searched;
- ``extensions`` (off by default): a man's step to the rank before crowning costs no ply, and
  with ``forced_extension`` a forced move too, EXT_MAX such plies a line at most. On the shots
  of tests/data/tactics.txt the crowning extension found fewer, a fraction of a ply shallower
  (it extends the defender's steps too, so one line is seen deeper than its siblings); the
  forced-move one took many more nodes to a depth (exchanges are forced moves in draughts) for
  no more shots; in play, both on at the default level scored under the engine against itself:
  they stay off (the figures, dated: docs/benchmarks.md, bench/search.py).

A position with kings can recur (the line's and the game's positions in ``_path``) or meet a
draw rule (:func:`kbdraughts.ai.draw_rules.rule_draw`, with the two counters carried down the
line): both score ``_draw`` for the side to move (zero, or the contempt).

With endgame tables (``_leaves``, :mod:`kbdraughts.egdb.leaves`) a node they cover is not
searched: the tables' value with the draw rules on top
(:func:`kbdraughts.ai.endgame.table_outcome`) scores a draw as ``_draw``, a win as TABLE_WIN
less the plies to its conversion. A quiet leaf without kings is still evaluated (the inline
path of ``_moves``): the nodes above it are read.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from kbdraughts.ai.draw_rules import RULE_PLIES, rule_draw
from kbdraughts.ai.endgame import table_outcome
from kbdraughts.ai.ordering import Ordering
from kbdraughts.board import BB_BOARD, BB_RANK, Move, Position, captures, play, quiet_moves
from kbdraughts.egdb.leaves import Leaves
from kbdraughts.errors import KbdraughtsError
from kbdraughts.values import TABLE_WIN, WIN

Evaluate = Callable[[Position], float]

EXACT, LOWER, UPPER = 0, 1, 2
INF: float = WIN + 1  # a score bound: scores are floats (an evaluation weighs)
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
#: Late-move reductions: from the LMR_FROM-th move on, at depth LMR_DEPTH or more.
LMR_FROM, LMR_DEPTH = 3, 3
#: From this move on, two plies shallower.
LMR_LATER = 6
#: The rank a man steps onto one step before crowning, per side.
PRE_CROWN = (BB_RANK[6], BB_RANK[1])
#: Plies of extensions a line may have at most.
EXT_MAX = 1


class Timeout(KbdraughtsError):
    """The time budget or the node budget ran out, or the stop event was set."""


class Tree:
    """The tree below the root, and what it keeps between searches (table, evaluations,
    history); :class:`kbdraughts.ai.search.Searcher` adds the root and the deepening."""

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
        self.leaves = self.leaf_plies = 0  # the positions evaluated as leaves, their plies
        self._deadline = float("inf")
        self._node_limit: float = float("inf")  # the nodes a search may spend
        self._stop: threading.Event | None = None
        self._path: set[Position] = set()
        self._draw = [0, 0]  # a draw's score for the side to move, by side
        self._contempt = False
        self._bound = 0  # plies a line may reach with its extensions
        self._leaves: Leaves | None = None  # the endgame tables read at the nodes

    def _tick(self) -> None:
        # The node budget is read where the clock is (every CHECK_MASK + 1 nodes), so a search
        # by nodes stops at the same node whatever the load, and at the C search's node.
        if time.perf_counter() > self._deadline or self.nodes >= self._node_limit or (
                self._stop is not None and self._stop.is_set()):
            raise Timeout()

    def _negamax(self, pos: Position, depth: int, alpha: float, beta: float, ply: int,
                 ko: int, sb: int) -> float:
        """The score of ``pos`` for the side to move; ``ko``, ``sb``: the draw rules' counters."""
        self.nodes += 1
        if not self.nodes & CHECK_MASK:
            self._tick()
        kings = pos.kings  # only a position with kings can recur or meet a draw rule
        if kings and (pos in self._path or ((ko >= RULE_PLIES or sb >= RULE_PLIES)
                                            and rule_draw(pos, ko, sb))):
            return self._draw[pos.side]
        leaves = self._leaves
        if leaves is not None and (pos.white | pos.black).bit_count() <= leaves.pieces and (
                known := self._table_score(leaves, pos, ko, sb)) is not None:
            return known
        caps = None
        if depth <= 0:
            # Only positions without a capture are remembered (leaves, futility's nodes).
            score = self._evals.get(pos)
            if score is None and not (caps := captures(pos) if kings or _men_capture(pos)
                                      else None):
                score = self._evals[pos] = self.evaluate(pos)
            if score is not None or depth <= -MAX_QUIESCENCE:  # a leaf
                self.leaves, self.leaf_plies = self.leaves + 1, self.leaf_plies + ply
                return score if score is not None else self.evaluate(pos)
        entry = self.tt.get(pos) or (self.tt_old.get(pos) if self.tt_old else None)
        tt_move = None
        if entry is not None:
            d, s, flag, tt_move = entry
            if d >= depth:
                if s >= MATE_ZONE or s <= -MATE_ZONE:
                    s = _from_root(s, ply)
                if flag == EXACT or (s >= beta if flag == LOWER else s <= alpha):
                    return s
            if depth >= 2 and tt_move is not None:
                s = self._table_move(pos, tt_move, depth, alpha, beta, ply, ko, sb)
                if s >= beta:
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

    def _table_score(self, leaves: Leaves, pos: Position, ko: int, sb: int) -> float | None:
        """The endgame tables' score of ``pos`` with the draw rules on top, or None where they
        do not cover it or the rules' effect is unsure."""
        answer = leaves.probe(pos)
        if answer is None:
            return None
        outcome = table_outcome(pos, ko, sb, *answer)
        if outcome is None:
            return None
        return outcome * (TABLE_WIN - answer[1]) if outcome else self._draw[pos.side]

    def _table_move(self, pos: Position, m: Move, depth: int, alpha: float, beta: float,
                    ply: int, ko: int, sb: int) -> float:
        """The table's move searched before any move is generated (it is legal: the table
        is keyed by the whole position); its score, a cut-off stored when it reaches beta.
        When it does not, the loop over the moves finds its score again in the table."""
        kings = pos.kings
        ck = 0 if m.captured or not kings >> m.start & 1 else ko + 1
        cs = 0 if m.captured or m.crowned else sb + 1
        if kings:
            self._path.add(pos)
        try:
            s = -self._negamax(play(pos, m), depth - 1, -beta, -alpha, ply + 1, ck, cs)
        finally:
            if kings:
                self._path.discard(pos)
        if s >= beta:
            if not m.captured:
                self.ordering.cutoff(m, depth, ply)
            self._store(pos, depth, s, LOWER, m, ply)
        return s

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
        kings, side = pos.kings, pos.side
        quiet = not moves[0].captured
        extend = self.extensions and depth > 0 and ply + depth < self._bound
        # A forced move (one legal move: often the capture a sacrifice compels) costs no ply.
        new_depth = depth if extend and self.forced_extension and len(moves) == 1 else depth - 1
        reduce = quiet and self.reductions and depth >= LMR_DEPTH
        pre_crown = PRE_CROWN[side] if quiet and extend else 0
        negamax, evals, evaluate = self._negamax, self._evals, self.evaluate
        best, best_move = -INF, None
        for i, j in enumerate(self.ordering.order(moves, tt_move, ply)):
            m = moves[j]
            child = play(pos, m)
            start, end, cap, _, crowned = m
            if kings:
                ck = 0 if cap or not kings >> start & 1 else ko + 1
                cs = 0 if cap or crowned else sb + 1
            else:
                ck = cs = 0
            gives = None  # whether the child's side to move has a capture, once asked
            if futile is not None and not crowned:
                gives = _gives_capture(child)
                if not gives:
                    if futile > best:
                        best = futile  # no best move: the table would try it first next time
                    continue
            d = new_depth
            if pre_crown >> end & 1 and not kings >> start & 1:
                d = depth  # a man one step from crowning: look one ply further
            # A leaf without kings: its evaluation unless a capture is pending (the score does
            # not depend on the window: no null window, no second search, no call).
            s = evals.get(child) if d <= 0 and not child.kings else None
            if s is None and d <= 0 and not child.kings and not (
                    gives if gives is not None else _men_capture(child)):
                s = evals[child] = evaluate(child)
            if s is not None:
                s = -s
                self.nodes += 1
                self.leaves, self.leaf_plies = self.leaves + 1, self.leaf_plies + ply + 1
                if not self.nodes & CHECK_MASK:
                    self._tick()
            elif i == 0:
                s = -negamax(child, d, -beta, -alpha, ply + 1, ck, cs)
            else:
                s = self._later(child, i, d, depth, alpha, beta, ply, ck, cs,
                                reduce and not crowned, gives)
            if s > best:
                best, best_move = s, m
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        if quiet:
                            self.ordering.cutoff(m, depth, ply)
                        break
        return best, best_move

    def _later(self, child: Position, i: int, d: int, depth: int, alpha: float, beta: float,
               ply: int, ck: int, cs: int, reducible: bool, gives: bool | None) -> float:
        """The ``i``-th move's score (i >= 1): a null window first, reduced when it is a late
        quiet move that gives no capture (after the table's move and both killers), searched
        again at full depth, then in the full window, as far as it beats alpha."""
        negamax = self._negamax
        r = 0
        if reducible and i >= LMR_FROM and d < depth:
            if gives is None:
                gives = _gives_capture(child)
            if not gives:
                r = 2 if i >= LMR_LATER and d > 2 else 1
        s = -negamax(child, d - r, -alpha - 1, -alpha, ply + 1, ck, cs)
        if r and s > alpha:
            s = -negamax(child, d, -alpha - 1, -alpha, ply + 1, ck, cs)
        if alpha < s < beta:
            s = -negamax(child, d, -beta, -alpha, ply + 1, ck, cs)
        return s

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


def _men_capture(pos: Position) -> bool:
    """Whether a man of the side to move can capture: an opponent next to it with an empty
    square beyond, found with shifts (cheaper than the generator where most have none)."""
    white, black, kings, side = pos
    own, opp = (black, white) if side else (white, black)
    empty = BB_BOARD & ~(white | black)
    return bool(own & ~kings & ((opp >> 4 & empty >> 8) | (opp >> 5 & empty >> 10)
                                | (opp << 4 & empty << 8) | (opp << 5 & empty << 10)))


def _gives_capture(pos: Position) -> bool:
    """Whether the side to move in ``pos`` has a capture: shifts for its men, the generator
    only when it has kings."""
    own_kings = (pos.black if pos.side else pos.white) & pos.kings
    return _men_capture(pos) or bool(own_kings and captures(pos))


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
