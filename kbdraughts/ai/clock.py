"""The search's clock: a hard deadline never passed, and the whole budget used; and the game
clock (``play --clock 5+3``) with the time manager that shares a side's time over its moves.

``--movetime`` is the time of one move and unused time is not saved for later, so the search
deepens until the deadline: another iteration starts whenever time is left, and the deadline
cuts the last one short. That iteration is not wasted: a root move it shows better than the
last best is played (see :mod:`kbdraughts.ai.search`), and the positions it searched stay in
the table for the next move, searched from a position two plies down the same line.

Against the former policy, which started an iteration only when it was predicted to finish
and left much of the second unused, this one (with the collector kept out of the search: see
:mod:`kbdraughts.ai.search`) finishes more plies in the same second and uses nearly all of it
(``python bench/search.py --old REV``; the figures, dated: docs/benchmarks.md, bench/search.py).

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
from typing import Callable

from kbdraughts.errors import KbdraughtsError


class TimeBudget:
    """One search's time: ``deadline`` (perf_counter seconds, inf without a budget)."""

    def __init__(self, movetime_ms: float | None, start: float | None = None):
        self.start = time.perf_counter() if start is None else start
        self.budget = movetime_ms / 1000 if movetime_ms else float("inf")
        self.deadline = self.start + self.budget

    def next_iteration(self, now: float) -> bool:
        """Whether to start another iteration at ``now``: while any time is left."""
        return now < self.deadline


# -- a game clock ------------------------------------------------------------------------------

#: Own moves a game is expected to last still, at the least: a long game's last moves get a
#: share as if this many were left, so the time never runs down to nothing.
MIN_MOVES_TO_GO = 12
#: Own moves of a whole game as the time manager plans it (Russian draughts: 35-50 a side).
MOVES_PER_GAME = 40
#: Of the time left, the most one move may take: the rest stays for the next moves.
MOST_OF_LEFT = 0.35
#: Seconds kept back from every share: the engine answers and the console plays the move after
#: its deadline, and a move must never cost the game on time.
RESERVE_S = 0.25
#: The least a move is given (the engine's own floor: ``layers.Clock``).
LEAST_MS = 10
#: The longest time control: ten hours (more is a typo).
MAX_MINUTES = 600.0
MAX_INCREMENT_S = 600.0


class TimeControlError(KbdraughtsError, ValueError):
    """A time control that is not ``MINUTES+SECONDS``; the message says what would be."""


class TimeControl:
    """``5+3``: minutes for the game and seconds added after each move (Fischer increment).

    >>> TimeControl.parse("5+3").base_s, str(TimeControl.parse("5+3"))
    (300.0, '5+3')
    >>> str(TimeControl.parse(" 0.5 ")), TimeControl.parse("0.5").increment_s
    ('0.5+0', 0.0)
    >>> try: TimeControl.parse("5+x")
    ... except TimeControlError as e: print(e)
    a clock is MINUTES+SECONDS, e.g. 5+3 (5 minutes, 3 seconds a move), got '5+x'
    """

    __slots__ = ("minutes", "increment_s")

    def __init__(self, minutes: float, increment_s: float = 0.0):
        if not 0 < minutes <= MAX_MINUTES:
            raise TimeControlError(f"the minutes of a clock are above 0 and at most "
                                   f"{MAX_MINUTES:g}, got {minutes:g}")
        if not 0 <= increment_s <= MAX_INCREMENT_S:
            raise TimeControlError(f"the seconds a move adds are 0 to {MAX_INCREMENT_S:g}, "
                                   f"got {increment_s:g}")
        self.minutes = minutes
        self.increment_s = increment_s

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        words = text.strip().split("+")
        try:
            if len(words) > 2 or not all(w.strip().replace(".", "", 1).isdigit()
                                         for w in words):
                raise ValueError
            numbers = [float(w) for w in words]
        except ValueError:
            shown = text.strip()[:40]
            raise TimeControlError("a clock is MINUTES+SECONDS, e.g. 5+3 (5 minutes, 3 seconds "
                                   f"a move), got {shown!r}") from None
        return cls(*numbers)

    @property
    def base_s(self) -> float:
        return self.minutes * 60

    def __str__(self) -> str:
        return f"{self.minutes:g}+{self.increment_s:g}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TimeControl) and (self.minutes, self.increment_s) == (
            other.minutes, other.increment_s)

    def __hash__(self) -> int:
        return hash((self.minutes, self.increment_s))

    def __repr__(self) -> str:
        return f"TimeControl({self.minutes!r}, {self.increment_s!r})"


def move_share_ms(left_s: float, increment_s: float, moves_played: int,
                  moves_to_go: int | None = None) -> int:
    """The time manager: milliseconds for the next move of a side with ``left_s`` seconds on
    its clock that has played ``moves_played`` moves. The time left shared over the moves
    expected still (never fewer than MIN_MOVES_TO_GO; ``moves_to_go`` when a control of so many
    moves in the time says how many), plus most of the increment; never more
    than MOST_OF_LEFT of what is left, less RESERVE_S, so the flag does not fall.

    ``python bench/clock.py`` plays it under a game clock: the flags that fell, the least time
    left, the worst overrun of a share (the figures, dated: docs/benchmarks.md, bench/clock.py).

    >>> move_share_ms(300, 3, 0)  # 5+3, the first move: 300/40 + 0.9 * 3 - 0.25 s
    9950
    >>> move_share_ms(20, 0, 35)  # late and short of time: 20 s over 12 moves
    1416
    >>> move_share_ms(0.2, 0, 50)  # nearly flagged: the least
    10
    >>> move_share_ms(60, 0, 10, moves_to_go=20)  # 20 moves in the minute left: 3 s less 0.25
    2750
    """
    to_go = max(MIN_MOVES_TO_GO, MOVES_PER_GAME - moves_played) if moves_to_go is None \
        else max(1, moves_to_go)
    share = left_s / to_go + 0.9 * increment_s
    share = min(share, MOST_OF_LEFT * left_s) - RESERVE_S
    return max(LEAST_MS, int(share * 1000))


class GameClock:
    """The two sides' clocks of one game: one runs at a time; ``press(side)`` ends a move
    (the increment added while time is left). ``now`` is the time source, seconds (injected by
    tests; the console's is ``time.monotonic``).

    >>> t = [0.0]
    >>> clock = GameClock(TimeControl(1, 2), now=lambda: t[0])
    >>> clock.run(0); t[0] = 10.0; clock.left(0)
    50.0
    >>> clock.press(0); clock.run(1); t[0] = 70.0; clock.left(0), clock.left(1), clock.flagged(1)
    (52.0, 0.0, True)
    """

    def __init__(self, control: TimeControl, now: Callable[[], float] = time.monotonic):
        self.control = control
        self.now = now
        self._left = [control.base_s, control.base_s]
        self.running: int | None = None  # the side whose clock runs
        self._since = 0.0

    def reset(self) -> None:
        """Both clocks back to the full time, stopped (a new game)."""
        self._left = [self.control.base_s, self.control.base_s]
        self.running = None

    def left(self, side: int) -> float:
        """Seconds ``side`` has left now (0 once its flag fell)."""
        left = self._left[side]
        if self.running == side:
            left -= self.now() - self._since
        return max(0.0, left)

    def flagged(self, side: int) -> bool:
        return self.left(side) <= 0

    def run(self, side: int) -> None:
        """``side``'s clock runs (the other stops, without increment); nothing if it runs."""
        if self.running == side:
            return
        self.stop()
        self.running, self._since = side, self.now()

    def stop(self) -> None:
        """No clock runs (the game is paused or over); the time used so far is kept."""
        if self.running is not None:
            self._left[self.running] = self.left(self.running)
            self.running = None

    def press(self, side: int) -> None:
        """``side`` has moved: its time stops and it gains the increment (not once flagged)."""
        if self.running == side:
            self.stop()
        if self._left[side] > 0:
            self._left[side] += self.control.increment_s

    def share_ms(self, side: int, moves_played: int) -> int:
        """What the time manager gives ``side``'s next move now (see :func:`move_share_ms`)."""
        return move_share_ms(self.left(side), self.control.increment_s, moves_played)


def clock_text(seconds: float) -> str:
    """A clock's face: ``4:05``, tenths under ten seconds (``0:07.3``), ``1:02:00`` past an hour.

    >>> clock_text(245), clock_text(7.34), clock_text(3720), clock_text(0)
    ('4:05', '0:07.3', '1:02:00', '0:00.0')
    """
    if seconds < 10:
        return f"0:{int(seconds * 10) / 10:04.1f}"
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"
