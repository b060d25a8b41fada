"""The deep search that confirms a note: material only, on the native core, within a budget.

The coach proves a claim exhaustively to a short horizon (:mod:`kbdraughts.ai.proof`); a
man won in 4 plies can be given back in 8 (issue 20). So before a note is written, the same
material count (a man 100, a king 250: :func:`kbdraughts.ai.heuristic.material`) is asked of
the alpha-beta search (:func:`kbdraughts.ai.native_search.make_searcher`; the pure search
where the core is not built, slower and so shallower in the same budget), as deep as the
budget allows:

- :meth:`DeepCheck.screen` scores a position at a fixed small depth: the coach looks
  closer only at the moves whose screen shows a change of material;
- :meth:`DeepCheck.compare` scores given root moves of one position at one common depth
  (the first move deepened within its share of the time, the others searched to the same
  depth): a note compares the move played with another, never two depths.

A check the budget cannot afford returns None and the coach stays silent: no note is ever
written on a shallower search than :data:`MIN_DEPTH`.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8")
>>> check = DeepCheck(seconds=5.0)
>>> shot, quiet = parse_move(pos, "e3-d4"), parse_move(pos, "a3-b4")
>>> scores = check.compare(pos, quiet, [shot]).scores
>>> scores[shot] - scores[quiet] >= 100
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from kbdraughts.ai.heuristic import material
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.proof import GAME
from kbdraughts.ai.search import MATE_ZONE
from kbdraughts.board import Move, Position, legal_moves
from kbdraughts.native import core

__all__ = ["DeepCheck", "Comparison", "SCREEN_DEPTH", "DEEP_DEPTH", "MIN_DEPTH"]

#: The screen's depth: with the native core, a few milliseconds a position.
SCREEN_DEPTH = 6 if core is not None else 3
#: The deepest a confirmation goes (the native core reaches it in ~50 ms in a middle game).
DEEP_DEPTH = 12
#: Shallower than this, a confirmation is no confirmation: the note is not written.
MIN_DEPTH = 8 if core is not None else 4
#: The time one confirmation may take at most (the budget's share may be less).
CHECK_SECONDS = 0.25


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
    """One searcher (its table kept from position to position) and a time budget in
    ``seconds`` (None: unbounded) that confirmations draw on; :meth:`renew` gives it again.
    ``per_check``: the seconds one confirmation takes at most; None: none, each goes to
    ``deep_depth`` whatever it takes (the same answer on a loaded machine: the tests')."""

    def __init__(self, seconds: float | None = None, deep_depth: int = DEEP_DEPTH,
                 screen_depth: int = SCREEN_DEPTH, per_check: float | None = CHECK_SECONDS):
        # no late-move reductions: a reduced line is a guess, and this search is a judge
        self.searcher = make_searcher(material, reductions=False)
        self.seconds, self.deep_depth, self.screen_depth = seconds, deep_depth, screen_depth
        self.per_check = per_check
        self.left = seconds
        self.refused = 0  # confirmations the budget could not afford

    def renew(self) -> None:
        """The whole budget again (a new game)."""
        self.left = self.seconds

    def screen(self, pos: Position) -> tuple[int, Move | None]:
        """The position's material for the side to move at the screen's depth, and the move
        the search prefers."""
        if not legal_moves(pos):
            return -GAME, None
        found = self.searcher.search(pos, max_depth=self.screen_depth)
        return _clip(found.score), found.move

    def share(self, checks: int) -> float | None:
        """The seconds each of ``checks`` confirmations still to come may take: the budget
        left shared equally, at most ``per_check`` (None: no bound)."""
        if self.left is None:
            return self.per_check
        even = self.left / max(1, checks)
        return even if self.per_check is None else min(self.per_check, even)

    def compare(self, pos: Position, first: Move, others: Sequence[Move] = (),
                seconds: float | None = None) -> Comparison | None:
        """``first`` deepened (to ``deep_depth`` at most, within half of ``seconds``, no more
        than the budget left), then the best of ``others`` searched to the same depth (the
        search's root restricted to them): their scores. None when that time cannot reach
        MIN_DEPTH, or the others that depth."""
        started = time.perf_counter()
        share = self.share(1) if seconds is None else seconds
        if share is not None and self.left is not None:
            share = min(share, self.left)
        try:
            if share is not None and share <= 0:
                self.refused += 1
                return None
            one = self.searcher.search(pos, max_depth=self.deep_depth, moves=[first],
                                       movetime_ms=None if share is None else share * 500)
            depth = one.depth
            if depth < MIN_DEPTH and not _decided(one.score):
                self.refused += 1
                return None
            scores = {first: _clip(one.score)}
            rest = [m for m in others if m != first]
            if rest:
                spent = time.perf_counter() - started
                more = self.searcher.search(
                    pos, max_depth=depth, moves=rest,
                    movetime_ms=None if share is None else max(1.0, (share - spent) * 1000))
                if more.depth < depth and not _decided(more.score):
                    # the others reached less: both compared at the depth they reached,
                    # searched again whole to it (the table makes that quick)
                    depth = more.depth
                    if depth < MIN_DEPTH:
                        self.refused += 1
                        return None
                    more = self.searcher.search(pos, max_depth=depth, moves=rest)
                    one = self.searcher.search(pos, max_depth=depth, moves=[first])
                    scores = {first: _clip(one.score)}
                scores[more.move] = _clip(more.score)
            return Comparison(depth, scores)
        finally:
            if self.left is not None:
                self.left -= time.perf_counter() - started

