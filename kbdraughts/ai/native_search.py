"""The search on the native core: :class:`kbdraughts.ai.search.Searcher`'s interface, its tree
in C (``kbdraughts._core.Searcher``, which follows ``ai/tree.py`` and the root of
``ai/search.py`` node for node), and :func:`make_searcher`, the one place that chooses.

The C search runs without the GIL. It stops at its deadline, when ``stop`` is set (a watcher
thread passes the event on to the core's halt flag at once), or on Ctrl-C when it runs on the
main thread. Its table is four times the Python one's and ages the same way: at the C
search's many more nodes a second, that searched deeper in a second than the Python size did,
though with fewer nodes a second (the figures, dated: docs/benchmarks.md, bench/search.py).

>>> from kbdraughts.eval.heuristic import material
>>> from kbdraughts.board import START
>>> make_searcher(material).search(START, max_depth=3).depth
3
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterable, Sequence

from kbdraughts.eval.heuristic import Heuristic, material
from kbdraughts.ai.ordering import root_order
from kbdraughts.ai.search import MATE_ZONE, Evaluate, Searcher, SearchResult, principal_line
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.egdb.leaves import Leaves
from kbdraughts.native import core
from kbdraughts.values import WIN

#: Positions the native table keeps in each of its two halves (32 MB each: 2**20 slots of 32
#: bytes, at most half full).
NATIVE_TT_SIZE = 1 << 19
#: The table of a short one-off search (a rule's check, a draw judgement: a few plies): 1 MB,
#: not the 64 MB a game's search sets up in tens of milliseconds when it is made.
SHORT_TT_SIZE = 1 << 14
#: Moves of the principal line reported at most.
LINE = 12
#: How often the stop watcher looks at its own end (it wakes at once when ``stop`` is set).
_WATCH_SECONDS = 0.05


def native_evaluator(evaluate: Evaluate):  # -> kbdraughts._core.Evaluator | None
    """The core's evaluator computing exactly ``evaluate``, or None when it cannot (no core,
    or an evaluation it does not know: then the pure search runs)."""
    if core is None:
        return None
    if evaluate is material:
        return core.Evaluator(material=True)
    owner = getattr(evaluate, "__self__", None)
    if isinstance(owner, Heuristic) and getattr(evaluate, "__func__", None) is Heuristic.evaluate:
        return owner.native_evaluator()
    return None


def make_searcher(evaluate: Evaluate, **options) -> Searcher | NativeSearcher:
    """The native search when the core is built and knows ``evaluate``, else the pure one;
    ``options`` are :class:`Searcher`'s (``tt_size``, ``reductions``, ``extensions``,
    ``forced_extension``)."""
    ev = native_evaluator(evaluate)
    if ev is None:
        return Searcher(evaluate, **options)
    return NativeSearcher(evaluate, ev, **options)


class NativeSearcher:
    """:class:`Searcher`'s search on the native core: the same arguments and result."""

    def __init__(self, evaluate: Evaluate, evaluator, tt_size: int = NATIVE_TT_SIZE,
                 reductions: bool = True, extensions: bool = False,
                 forced_extension: bool = False):
        assert core is not None
        self.evaluate = evaluate
        self.nodes = 0
        self._core = core.Searcher(evaluator, tt_size, reductions, extensions, forced_extension)
        self._leaves: Leaves | None = None

    def search(self, pos: Position, max_depth: int = 64, movetime_ms: float | None = None,
               stop: threading.Event | None = None, moves: list[Move] | None = None,
               history: Iterable[Position] = (), prefer: Sequence[Move] = (),
               counters: tuple[int, int] = (0, 0), contempt: bool = False,
               tables: Leaves | None = None, nodes: int | None = None) -> SearchResult:
        """As :meth:`Searcher.search`."""
        start = time.perf_counter()
        root = list(moves) if moves is not None else legal_moves(pos)
        if not root:
            return SearchResult(None, -WIN, 0)
        root = root_order(root, prefer, self._table_move(pos, root))
        budget = -1.0
        if movetime_ms:
            budget = max(0.0, movetime_ms / 1000 - (time.perf_counter() - start))
        if tables is not self._leaves:  # the same bytes, read by the C search
            self._core.set_tables(tables.buffers() if tables is not None else {})
            self._leaves = tables
        self._core.clear_halt()
        done = threading.Event()
        if stop is not None:
            threading.Thread(target=_watch, args=(stop, done, self._core.halt),
                             daemon=True).start()
        try:
            index, score, depth, complete, nodes, mean_depth = self._core.search(
                pos, root, min(max_depth, 200), budget, list(history), counters, contempt,
                nodes or 0)
        finally:
            done.set()
        self.nodes = nodes
        move = root[index]
        return SearchResult(move, _score(score), depth, self._line(pos, move), nodes,
                            time.perf_counter() - start, bool(complete), native=True,
                            mean_depth=mean_depth)

    def _line(self, pos: Position, first: Move) -> list[Move]:
        """The principal line the core kept (a triangular line: at its speed the table's
        entries of a line are overwritten within a second), read on from the table where a
        cut-off by the table ended it."""
        kept = self._core.line()[:LINE]
        if not kept or kept[0] != (first.start, first.end, first.captured):
            return principal_line(pos, first, self._next_move, LINE)
        line, at = [first], play(pos, first)  # the root's moves are not generated again
        for start, end, captured in kept[1:]:
            m = next((m for m in legal_moves(at) if m.start == start and m.end == end
                      and m.captured == captured), None)
            if m is None:
                break
            line.append(m)
            at = play(at, m)
        return line + principal_line(at, self._next_move(at), self._next_move, LINE - len(line))

    @property
    def table_counts(self) -> tuple[int, int]:
        """Positions in the table's current and old halves."""
        return self._core.table_counts

    def _table_move(self, pos: Position, moves: Sequence[Move]) -> Move | None:
        """The table's best move in ``pos``, if it is one of ``moves``."""
        entry = self._core.probe(pos)
        if entry is None or entry[3] is None:
            return None
        start, end, captured = entry[3]
        return next((m for m in moves
                     if m.start == start and m.end == end and m.captured == captured), None)

    def _next_move(self, pos: Position) -> Move | None:
        return self._table_move(pos, legal_moves(pos))


#: Either search: what the engine and the layers hold.
AnySearcher = Searcher | NativeSearcher


def _score(score: float) -> float:
    """A won or lost score as an int, as the pure search gives it (``WIN - plies``)."""
    return int(score) if abs(score) >= MATE_ZONE and score.is_integer() else score


def _watch(stop: threading.Event, done: threading.Event, halt: Callable[[], None]) -> None:
    """Passes ``stop`` on to the core's halt flag while the search runs."""
    while not done.is_set():
        if stop.wait(_WATCH_SECONDS):
            if not done.is_set():
                halt()
            return
