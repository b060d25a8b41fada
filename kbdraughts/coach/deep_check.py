"""The deep search that confirms a note: material only, on the native core, within a budget.

The coach proves a claim exhaustively to a short horizon (:mod:`kbdraughts.proof`); a
man won in 4 plies can be given back in 8 (issue 20). So before a note is written, the same
material count (a man 100, a king 250: :func:`kbdraughts.eval.heuristic.material`) is asked of
the alpha-beta search (:func:`kbdraughts.ai.native_search.make_searcher`; the pure search
where the core is not built, slower, so less deep):

- :meth:`DeepCheck.screen` scores a position at a small depth: the coach looks closer only
  at the moves whose screen shows a change of material;
- :meth:`DeepCheck.compare` scores given moves of one position at one common depth,
  ``depth`` plies (the move searched first; the others to the depth it reached): a note
  compares the move played with another, never two depths;
- :meth:`DeepCheck.line` is the line the search expects after a move, the proof a note shows;
- :meth:`DeepCheck.deeper` gives the depths past ``depth`` a confirmed note is searched again
  at while the budget lasts, to ``deepest`` (on 29 games of the 1st USSR championship, 1924,
  7 of the 52 notes confirmed at depth 10 were refuted at depth 12 to 14: a man won back, or
  the loser crowning, past the horizon).

The budget is counted in positions searched (nodes), never in seconds, so the same file gets
the same notes on a busy machine as on an idle one, byte for byte: a check searches one ply
deeper at a time until its depth, or until it has spent ``per_check`` nodes (then to the depth
reached, not less than :data:`MIN_DEPTH`). A check the budget cannot afford returns None and
the coach stays silent.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8")
>>> check = DeepCheck(nodes=10_000_000)
>>> shot, quiet = parse_move(pos, "e3-d4"), parse_move(pos, "a3-b4")
>>> found = check.compare(pos, quiet, [shot])
>>> found.depth, found.scores[shot] - found.scores[quiet] >= 100
(10, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kbdraughts.eval.heuristic import material
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.search import MATE_ZONE, SearchResult
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.native import core
from kbdraughts.proof import GAME
from kbdraughts.values import WIN

__all__ = ["DeepCheck", "Comparison", "SCREEN_DEPTH", "DEEP_DEPTH", "HUNT_DEPTH",
           "DEEPEST_DEPTH", "MIN_DEPTH", "CHECK_NODES"]

#: The screen's depth: the longest proof's (the move, 4 plies after it, then the captures);
#: with the native core about 0.3 ms a position (depth 6: 0.5 ms, a third of the whole run).
SCREEN_DEPTH = 5 if core is not None else 3
#: A confirmation's depth: the native core's search takes ~7 ms there in a middle game, so a
#: note (two or three such searches) costs ~15 ms; depth 12 takes seven times as long.
DEEP_DEPTH = 10 if core is not None else 6
#: The depth every move is searched at, once the notes proved are confirmed, for the losses of
#: material no short proof shows: of the 66 moves of the 29 games of 1924 that lose a man at
#: depth 14, a search 5 plies deep flags 19, 10 plies 32 (2.8 ms a move), 14 plies all
#: (42 ms). None: no hunt (the pure search is too slow to look past the proofs' horizon on
#: every move).
HUNT_DEPTH: int | None = 12 if core is not None else None
#: The deepest a confirmed note is searched again while the budget allows: on the native core
#: a claim of the 29 games of 1924 costs about 3 ms at depth 10, 45 ms at 14, 170 ms at 16.
DEEPEST_DEPTH = 16 if core is not None else 8
#: Shallower than this, a confirmation is no confirmation: the note is not written.
MIN_DEPTH = 8 if core is not None else 5
#: The nodes one confirmation may take at most (many kings make a search explode): on the
#: native core's material search about a second.
CHECK_NODES = 4_000_000 if core is not None else 200_000


@dataclass(frozen=True)
class Comparison:
    """Root moves' scores (material for the side to move, centi-men) at one ``depth``."""

    depth: int
    scores: dict[Move, int]


def _decided(score: float) -> bool:
    """A won or lost game: the search stops deepening there, and deeper cannot change it."""
    return abs(score) >= MATE_ZONE


def _clip(score: float) -> int:
    """A search score as centi-men; a won or lost game is GAME."""
    return int(max(-GAME, min(GAME, score)))


class DeepCheck:
    """One searcher (its table kept from position to position) and a budget of ``nodes``
    positions (None: unbounded) that confirmations draw on; :meth:`renew` gives it again.
    Each confirmation searches ``depth`` plies, ``per_check`` nodes at most (None: whatever
    it takes); a confirmed note is searched again deeper, to ``deepest`` plies, while the
    budget lasts; every move is then searched ``hunt`` plies deep (None: not) for the losses
    no short proof shows. Nodes, not seconds: the same notes on any machine load."""

    def __init__(self, nodes: int | None = None, depth: int = DEEP_DEPTH,
                 screen_depth: int = SCREEN_DEPTH, per_check: int | None = CHECK_NODES,
                 deepest: int = DEEPEST_DEPTH, hunt: int | None = HUNT_DEPTH):
        # no late-move reductions: a reduced line is a guess, and this search is a judge
        self.searcher = make_searcher(material, reductions=False)
        self.nodes, self.depth, self.screen_depth = nodes, depth, screen_depth
        self.deepest = max(depth, deepest)
        self.hunt = hunt
        self.per_check = per_check
        self.left = nodes
        self.refused = 0  # confirmations the budget could not afford
        self.refuted = 0  # claims proved at their horizon that the deep search did not confirm
        self.confirmed = 0
        self.hunted = 0  # claims the hunt proved (and so confirmed) at its depth

    def renew(self) -> None:
        """The whole budget again (a new game)."""
        self.left = self.nodes

    @property
    def spent(self) -> bool:
        """Whether the budget is spent: no search may start."""
        return self.left is not None and self.left <= 0

    def deeper(self, beyond: int = 0) -> range:
        """The depths a confirmed note is searched again at, in turn: two plies more each
        time (a side's move and the reply), to ``deepest`` (and ``beyond`` plies more)."""
        return range(self.depth + 2, self.deepest + beyond + 1, 2)

    def screen(self, pos: Position) -> tuple[int, Move | None]:
        """The position's material for the side to move at the screen's depth, and the move
        the search prefers."""
        if not legal_moves(pos):
            return -GAME, None
        found = self.searcher.search(pos, max_depth=self.screen_depth)
        return _clip(found.score), found.move

    def line(self, pos: Position, move: Move, depth: int) -> list[Move]:
        """``move`` and the line the search expects after it, ``depth`` plies from ``pos``
        (read from its table, so at once after :meth:`compare` searched it); counted in the
        budget."""
        child = play(pos, move)
        if not legal_moves(child):
            return [move]
        return [move, *self._search(child, max(1, depth - 1), None)[1].line]

    def _search(self, pos: Position, depth: int, cap: int | None) -> tuple[int, SearchResult]:
        """``pos`` searched one ply deeper at a time to ``depth``, or until ``cap`` nodes are
        spent (then the last whole depth's result): the nodes spent (taken from the budget)
        and the result. Without a cap, one search to ``depth``."""
        if cap is None:
            found = self.searcher.search(pos, max_depth=depth)
            spent = found.nodes
        else:
            spent, reached = 0, 0
            while reached < max(1, depth):
                reached += 1
                found = self.searcher.search(pos, max_depth=reached)
                spent += found.nodes
                if spent >= cap or _decided(found.score):
                    break
        if self.left is not None:
            self.left -= spent
        return spent, found

    def compare(self, pos: Position, first: Move, others: Sequence[Move] = (),
                depth: int | None = None) -> Comparison | None:
        """``first`` searched ``depth`` plies (default: the check's; less if ``per_check``
        nodes run out first), then the best of ``others`` to the same depth: their scores
        (when ``others`` are every other legal move: the best of them, or none when
        ``first`` is the best). None when the budget is spent, or the search cannot reach
        MIN_DEPTH.

        Each move is searched as the position after it, never as a root restricted to some
        moves: the table keeps a root's score as the position's, and a restricted root's is
        not (the same position met later in another search would take it)."""
        if self.spent:
            self.refused += 1
            return None
        cap = self.per_check
        spent, depth, score = self._after(pos, first, self.depth if depth is None else depth,
                                          None if cap is None else cap // 2)
        if depth < MIN_DEPTH and not _decided(score):
            self.refused += 1
            return None
        scores = {first: _clip(score)}
        rest = [m for m in others if m != first]
        if rest:
            more = None if cap is None else max(1, cap - spent)
            reached, found = self._best_of(pos, first, rest, depth, more)
            if reached < depth:  # the others reached less: both compared at that depth
                if reached < MIN_DEPTH:
                    self.refused += 1
                    return None
                _, depth, score = self._after(pos, first, reached, None)  # the table's
                scores = {first: _clip(score)}
            scores.update(found)
        return Comparison(depth, scores)

    def _after(self, pos: Position, move: Move, depth: int, cap: int | None
               ) -> tuple[int, int, float]:
        """The nodes spent, the depth reached (from ``pos``) and the score of ``move`` for
        the side to move: the position after it searched one ply less."""
        child = play(pos, move)
        if not legal_moves(child):
            return 0, depth, WIN
        spent, found = self._search(child, depth - 1, cap)
        return spent, found.depth + 1, -found.score

    def _best_of(self, pos: Position, first: Move, rest: list[Move], depth: int,
                 cap: int | None) -> tuple[int, dict[Move, int]]:
        """The depth reached (``depth`` at most) and the best of ``rest`` with its score
        there: the whole position searched when ``rest`` is every other move (nothing when
        its best move is ``first``), else each of them after it."""
        if set(rest) | {first} == set(legal_moves(pos)):
            _, found = self._search(pos, depth, cap)
            reached = depth if _decided(found.score) else found.depth
            best_move = found.move  # None only where no move is legal
            return reached, ({} if best_move in (None, first) else {best_move: _clip(found.score)})
        best: dict[Move, int] = {}
        reached, left = depth, cap
        for m in rest:
            spent, got, score = self._after(pos, m, reached, left)
            if left is not None:
                left = max(1, left - spent)
            if got < reached and not _decided(score):
                return 0, {}  # too few nodes for all of them: no comparison
            if not best or _clip(score) > max(best.values()):
                best = {m: _clip(score)}
        return reached, best
