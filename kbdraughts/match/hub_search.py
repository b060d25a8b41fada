"""One Hub search: its limit (``level``), the thread that thinks, ponders or analyses, and the
``info`` and ``done`` lines it ends with.

``level time=T inc=I`` shares the time over the game as ``play --clock`` does
(:func:`kbdraughts.ai.clock.move_share_ms`; the protocol adds the increment before the move, so
the clock reads ``T + I``). ``go ponder`` searches without a deadline; ``ponder-hit`` gives it
the move's share from then on, and its search becomes the move. ``level nodes=N`` and ``go
analyze`` deepen one ply at a time, an ``info`` line after each, until the nodes are spent or
``stop`` comes (the last depth's search is given what is left of N as its node budget, so the
search stops at N nodes, within a tick, and its move depends on no clock or load); an analysis
searches every position (no book, rule or forced move answers first) and scores a draw zero
(no contempt), so its scores are the position's.

>>> read_limit({"time": "59", "inc": "1"}).budget_ms(ply=0)  # 60/40 + 0.9 - 0.25 s
2150.0
>>> read_limit({"move-time": "0.3"}).budget_ms(ply=10), read_limit({"infinite": ""}).budget_ms(0)
(300.0, None)
>>> men(250), men(-99_993), men(50_000)
('+2.50', '-99.93', '+89.99')
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from kbdraughts.ai.clock import move_share_ms
from kbdraughts.ai.engine import Choice, Engine
from kbdraughts.ai.explain import MATE_ZONE, score_text
from kbdraughts.ai.spec import MOVETIME_MS
from kbdraughts.game import Game
from kbdraughts.match.hub import HubError, flag, move_word, numbered, whole, write_line
from kbdraughts.values import MAN_VALUE, WIN

#: A search without a deadline (ponder, analyze, depth, nodes) still has one: a day.
NO_DEADLINE_MS = 86_400_000
#: The deepest search asked for (the engine's own bound).
MAX_DEPTH = 64
#: Scores at or past 90 men are wins to pydraughts (100 less the plies, in hundredths).
WIN_MEN, MOST_MEN = 100.0, 89.99


@dataclass(frozen=True)
class Limit:
    """What bounds a search: a time per move, a game clock (``time_s`` left, ``inc_s`` a move,
    ``moves`` to the next control), a depth, a number of nodes, or nothing (``infinite``)."""

    movetime_s: float | None = MOVETIME_MS / 1000
    time_s: float | None = None
    inc_s: float = 0.0
    moves: int | None = None
    depth: int | None = None
    nodes: int | None = None

    def budget_ms(self, ply: int) -> float | None:
        """Milliseconds for the move at ``ply`` of the game; None: no deadline."""
        if self.time_s is not None:
            return float(move_share_ms(self.time_s + self.inc_s, self.inc_s, ply // 2,
                                       self.moves))
        return None if self.movetime_s is None else self.movetime_s * 1000


def read_limit(args: Mapping[str, str]) -> Limit:
    """The limit of a ``level`` line; HubError for a value out of range or no limit at all."""
    if flag(args, "infinite"):
        return Limit(movetime_s=None)
    if "time" in args:
        moves = whole(args, "moves", 1, 1000) if "moves" in args else None
        inc = numbered(args, "inc", 0, 600) if "inc" in args else 0.0
        # pydraughts sends the time less the increment (the protocol adds it before the
        # move): a nearly flagged side's is below 0, but the clock, T + I, never is.
        return Limit(None, numbered(args, "time", 0.0 - inc, 36_000), inc, moves)
    if "move-time" in args:
        return Limit(numbered(args, "move-time", 0.001, NO_DEADLINE_MS / 1000))
    if "depth" in args:
        return Limit(movetime_s=None, depth=whole(args, "depth", 1, MAX_DEPTH))
    if "nodes" in args:
        return Limit(movetime_s=None, nodes=whole(args, "nodes", 1, 10**12))
    raise HubError("level needs move-time=S, time=S [inc=S] [moves=N], depth=N, nodes=N or "
                   "infinite")


def men(score: float) -> str:
    """A search score in men as the Hub gives it; a win in N plies is 100 - N/100 men."""
    if abs(score) >= WIN - MATE_ZONE:
        value = WIN_MEN - (WIN - abs(score)) / 100
    else:
        value = min(abs(score) / MAN_VALUE, MOST_MEN)  # the tables' wins too: not a mate
    return f"{value if score >= 0 else -value:+.2f}"


class Search:
    """A search in a thread of its own; it writes its ``info`` lines and ``done`` by ``say``."""

    def __init__(self, engine: Engine, game: Game, limit: Limit, mode: str,
                 say: Callable[[str], None], numbering: str):
        self.engine, self.game, self.limit, self.mode = engine, game, limit, mode
        self.say, self.numbering = say, numbering
        self._stop = threading.Event()
        self._released = threading.Event()  # set but while pondering: done may be said
        self._timer: threading.Timer | None = None
        self._started = time.perf_counter()
        self._thread = threading.Thread(target=self._run, daemon=True, name="hub-search")

    def start(self) -> None:
        if self.mode != "ponder":
            self._released.set()
        self._thread.start()

    def running(self) -> bool:
        return self._thread.is_alive()

    def ends_alone(self) -> bool:
        """Whether the search ends without ``stop``: it thinks within a time, depth or nodes."""
        return self.mode != "ponder" and (self.limit.budget_ms(self.game.ply) is not None
                                         or self.limit.depth is not None
                                         or self.limit.nodes is not None)

    def wait(self) -> None:
        self._thread.join()

    def stop(self) -> None:
        """Stop now (the search says ``done`` with its best so far) and wait for it."""
        self._stop.set()
        self._released.set()
        if self._timer is not None:
            self._timer.cancel()
        self._thread.join()

    def ponder_hit(self) -> None:
        """The predicted move was played: the move's time runs from now."""
        if self.mode != "ponder" or self._released.is_set():
            return
        self.mode = "think"
        budget = self.limit.budget_ms(self.game.ply)
        if budget is not None:
            self._timer = threading.Timer(budget / 1000, self._stop.set)
            self._timer.daemon = True
            self._timer.start()
        self._started = time.perf_counter()
        self._released.set()

    def _run(self) -> None:
        try:
            choice, told = self._think()
        except Exception as e:  # noqa: BLE001 (a bug of ours must not leave the client waiting)
            self._released.wait()
            self.say(write_line("error", message=f"internal error: {type(e).__name__}: {e}"))
            self.say(write_line("done", move=move_word(self.game.legal_moves()[0],
                                                       self.numbering)))
            return
        self._released.wait()
        if not told:
            self.say(self.info(choice))
        self.say(self.done(choice))

    def _think(self) -> tuple[Choice, bool]:
        """The move, and whether its ``info`` was said already."""
        if self.mode == "analyze" or self.limit.nodes is not None or (
                self.mode != "ponder" and self.limit.budget_ms(self.game.ply) is None
                and self.limit.depth is None):
            return self._deepen(), True
        budget = None if self.mode == "ponder" else self.limit.budget_ms(self.game.ply)
        self.engine.max_depth = self.limit.depth
        self.engine.movetime_ms = int(budget or NO_DEADLINE_MS)
        choice = self.engine.choose(self.game, self._stop)
        assert choice is not None  # the engine loop searches no position without a move
        return choice, False

    def _deepen(self) -> Choice:
        """One ply deeper at a time, an ``info`` line after each, until stopped, the nodes are
        spent, the depth is reached or no search decides (a rule, the tables, one move)."""
        budget = self.limit.budget_ms(self.game.ply)
        self.engine.movetime_ms = int(budget or NO_DEADLINE_MS)
        deadline = time.perf_counter() + self.engine.movetime_ms / 1000
        nodes, choice, own = 0, None, self.engine.nodes
        for depth in range(1, (self.limit.depth or MAX_DEPTH) + 1):
            self.engine.max_depth = depth
            if self.limit.nodes is not None:  # what is left: the last depth stops at the sum
                self.engine.nodes = self.limit.nodes - nodes
            try:  # an analysis is the search's own view: no book or rule answers, no contempt
                found = (self.engine.analyse if self.mode == "analyze" else self.engine.choose)(
                    self.game, self._stop)
            finally:
                self.engine.nodes = own
            assert found is not None
            if choice is not None and self._stop.is_set():
                break  # cut short: the last whole depth stands
            choice = found
            res = choice.searched
            nodes += res.nodes if res is not None else 0
            self.say(self.info(choice, nodes))
            if res is None or res.depth < depth or self._stop.is_set() \
                    or time.perf_counter() >= deadline \
                    or (self.limit.nodes is not None and nodes >= self.limit.nodes):
                break
            self.engine.movetime_ms = max(1, int((deadline - time.perf_counter()) * 1000))
        assert choice is not None
        return choice

    def info(self, choice: Choice, nodes: int | None = None) -> str:
        """The ``info`` line of ``choice``: depth, the mean depth of the leaves, score in men,
        nodes, time, speed in millions of nodes a second, the line played out, and the reason
        (a key clients ignore). ``nodes`` is the whole search's so far when it deepens a ply at
        a time (each depth a search of its own): as Scan's, nodes and speed count since ``go``,
        as the time does."""
        seconds = max(time.perf_counter() - self._started, 1e-6)
        res = choice.searched
        line = res.line if res is not None and res.line[:1] == [choice.move] else [choice.move]
        args: dict[str, object] = {}
        reason = choice.reason
        total = 0
        if res is not None:  # in Scan's order: clients read the line with a pattern
            total = res.nodes if nodes is None else nodes
            args = {"depth": res.depth, "mean-depth": f"{res.mean_depth:.2f}",
                    "score": men(res.score), "nodes": total}
            said = score_text(res.score)  # the console's words, in hundredths of a man
            if said.startswith("score "):  # in men, as the score key's (a win stays words)
                reason = reason.replace(said, f"score {men(res.score)}", 1)
        args.update(time=f"{seconds:.3f}")
        if res is not None:
            args["nps"] = f"{total / seconds / 1e6:.3f}"
        args["pv"] = " ".join(move_word(m, self.numbering) for m in line)
        args["reason"] = reason.replace("=", ":")  # pydraughts splits a key at each =
        return write_line("info", **args)

    def done(self, choice: Choice) -> str:
        """``done move=X``, with ``ponder=Y``, the reply the search expects, when it has one."""
        res = choice.searched
        move = move_word(choice.move, self.numbering)
        if res is not None and len(res.line) > 1 and res.line[0] == choice.move:
            return write_line("done", move=move, ponder=move_word(res.line[1], self.numbering))
        return write_line("done", move=move)
