"""The search's clock: a hard deadline never passed, and the whole budget used.

``--movetime`` is the time of one move and unused time is not saved for later, so the search
deepens until the deadline: another iteration starts whenever time is left, and the deadline
cuts the last one short. That iteration is not wasted: a root move it shows better than the
last best is played (see :mod:`kbdraughts.ai.search`), and the positions it searched stay in
the table for the next move, searched from a position two plies down the same line.

Measured (``python bench/search.py --old REV``, 30 middle games at 1 s each, both in the same
run): the former policy, starting an iteration only when predicted to finish (from the growth
of the last two, and never past 45-85% of the budget), used about 0.6 s of the second and
finished 10.23 plies on average; this one, with the collector kept out of the search (see
:mod:`kbdraughts.ai.search`), finished 10.63, the level-4 engine using 981 ms of its 1000.

>>> t = TimeBudget(1000, start=0.0)
>>> t.next_iteration(now=0.5)
True
>>> t.next_iteration(now=1.0)
False
>>> TimeBudget(None).next_iteration(now=1e9)
True
"""

from __future__ import annotations

import time


class TimeBudget:
    """One search's time: ``deadline`` (perf_counter seconds, inf without a budget)."""

    def __init__(self, movetime_ms: float | None, start: float | None = None):
        self.start = time.perf_counter() if start is None else start
        self.budget = movetime_ms / 1000 if movetime_ms else float("inf")
        self.deadline = self.start + self.budget

    def next_iteration(self, now: float) -> bool:
        """Whether to start another iteration at ``now``: while any time is left."""
        return now < self.deadline
