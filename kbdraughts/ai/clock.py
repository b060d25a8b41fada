"""The search's clock: a hard deadline never passed, and when to start another iteration.

Each iteration of the deepening takes several times the one before (the *growth*, measured from
the last two). Another one starts only when it can finish within the budget at that growth, and
only while less than a share of the budget is spent: a small share when the best move has been
the same for several iterations, a larger one when it just changed or the score fell (a
position that needs thought gets it).

>>> t = TimeBudget(1000, start=0.0)
>>> t.next_iteration(now=0.1, took=0.05, before=0.01, changed=False, fell=False)
True
>>> t.next_iteration(now=0.5, took=0.3, before=0.1, changed=False, fell=False)
False
"""

from __future__ import annotations

import time

#: Shares of the budget after which no iteration starts: the best move stable for STABLE
#: iterations, the usual case, and after a change of the best move or a fall of the score.
STABLE_SHARE, USUAL_SHARE, UNSTABLE_SHARE = 0.45, 0.6, 0.85
STABLE = 4
#: A fall of the score (in hundredths of a man) that counts as trouble.
FALL = 30
#: The next iteration is assumed to take at least, and at most, this many times the last.
GROWTH = (1.5, 6.0)


class TimeBudget:
    """One search's time: ``deadline`` (perf_counter seconds, inf without a budget)."""

    def __init__(self, movetime_ms: float | None, start: float | None = None):
        self.start = time.perf_counter() if start is None else start
        self.budget = movetime_ms / 1000 if movetime_ms else float("inf")
        self.deadline = self.start + self.budget
        self.stable = 0  # iterations in a row with the same best move

    def next_iteration(self, now: float, took: float, before: float, changed: bool,
                       fell: bool) -> bool:
        """Whether to start another iteration at ``now``, the last having taken ``took``
        seconds and the one before it ``before``."""
        if self.budget == float("inf"):
            return True
        self.stable = 0 if changed else self.stable + 1
        spent = now - self.start
        share = (UNSTABLE_SHARE if changed or fell else
                 STABLE_SHARE if self.stable >= STABLE else USUAL_SHARE)
        if spent > share * self.budget:
            return False
        growth = took / before if before > 0 else GROWTH[1]
        growth = min(max(growth, GROWTH[0]), GROWTH[1])
        # One that cannot finish is not started, unless the position is in trouble: then a
        # part of the next iteration may still find a better move.
        return spent + took * growth <= self.budget or ((changed or fell) and spent < 0.5
                                                        * self.budget)
