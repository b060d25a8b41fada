"""The AI's seats and thinking off the UI thread.

An AI player is anything with ``choose(game, stop) -> Choice | None`` (the AI package's
``Engine`` and ``make_player`` players); ``accepts_draw(game, side)`` is used when present.
Players are built from a :class:`~kbdraughts.ai.spec.PlayerSpec` by an injected factory in the
AI thread, so the first prompt appears before the knowledge base and the AI have loaded.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable, Protocol

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.game import Game


class Player(Protocol):
    def choose(self, game: Game, stop: threading.Event | None = None) -> Any: ...


PlayerFactory = Callable[[PlayerSpec], Player]


def ai_factory(spec: PlayerSpec) -> Player:
    """The shipped players (``kb``, ``kb:N``, ``random``, ``greedy``, ``search:D``)."""
    # Imported here: the engine loads in the AI thread while the first prompt is shown.
    from kbdraughts.match.players import make_player

    return make_player(spec)


def _warm_up(player: Any) -> list:
    """Load what the player loads lazily (the knowledge base) now, in the background; the
    faults of the rules it skipped (``path:line: error: ...``)."""
    engine = getattr(player, "engine", player)
    kb = getattr(engine, "kb", None)  # the Engine loads its knowledge base on first access
    if hasattr(engine, "warm"):
        engine.warm()  # the search's table, before the first move's clock
    return list(getattr(kb, "errors", None) or ())


def set_movetime(player: Any, movetime_ms: int) -> None:
    """The time ``player`` thinks from its next move (the engine's, or a test player's
    ``movetime_ms``); a player that takes no time (random, greedy, search:D) is left as it is."""
    for target in (getattr(player, "engine", None), player):
        if target is not None and hasattr(target, "movetime_ms"):
            target.movetime_ms = movetime_ms
            return


class AIThread:
    """The one thread all AI work runs in.

    The work is serialised here so the UI thread stays responsive while the AI loads and
    thinks, and a player's build, its choices and its draw judgements run in the order asked.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        # A daemon: leaving the game never waits for a knowledge base still loading.
        self._thread = threading.Thread(target=self._serve, daemon=True, name="kbdraughts-ai")

    def start(self) -> None:
        """Begin the queued work. The app calls this once the board is on the screen, so
        loading the AI does not compete for the interpreter with drawing the first screen."""
        if not self._thread.is_alive() and self._thread.ident is None:
            self._thread.start()

    def _serve(self) -> None:
        while True:
            future, fn, args = self._jobs.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as e:  # handed to whoever waits on the future
                future.set_exception(e)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future: Future = Future()
        self._jobs.put((future, fn, args))
        return future


class LazyPlayer:
    """An AI player built (and warmed up) in the AI thread at once; ``choose`` and
    ``accepts_draw`` are called there too (they queue behind the build)."""

    def __init__(self, spec: PlayerSpec, factory: PlayerFactory, thread: AIThread):
        self.spec = spec
        self.name = str(spec)
        self.thread = thread
        self.warning = ""  # set when the player had to be built in a lesser way
        self.skipped: list = []  # the faults of the rules its knowledge base skipped
        self._built: Future = thread.submit(self._build, factory)

    def _build(self, factory: PlayerFactory) -> Player:
        player = factory(self.spec)
        try:
            skipped = self.skipped = _warm_up(player)
            if skipped:  # a faulty rule of the person's costs that rule alone: say which
                from kbdraughts.kb.knowledge import skipped_summary

                self.warning = skipped_summary(skipped)
        except Exception as e:
            # Most likely a mistake in the person's own rule file: play on without the
            # knowledge base rather than not at all, and say why.
            if not self.spec.uses_kb:
                raise
            self.warning = f"{e}; the AI plays without its knowledge base"
            player = factory(self.spec.without_kb())
        return player

    @property
    def ready(self) -> Player | None:
        """The player if it has been built, else None (never waits)."""
        if self._built.done() and self._built.exception() is None:
            return self._built.result()
        return None

    def get(self) -> Player:
        """The player (call in the AI thread; raises the factory's error)."""
        return self._built.result()

    def choose(self, game: Game, stop: threading.Event | None = None,
               movetime_ms: int | Callable[[], int | None] | None = None) -> Any:
        """The player's choice in ``game``; ``movetime_ms`` (or a callable asked once the
        player is built, so a clock's share counts the build's time) is the time of this
        move, for a player that takes one."""
        player = self.get()
        ms = movetime_ms() if callable(movetime_ms) else movetime_ms
        if ms is not None:
            set_movetime(player, ms)
        return player.choose(game, stop)

    def accepts_draw(self, game: Game, side: int) -> bool:
        judge = getattr(self.get(), "accepts_draw", None)
        return bool(judge(game, side)) if judge else False


#: Seconds the AI may think before the spinner shows.
SPINNER_AFTER = 0.3


def think(
    thread: AIThread,
    work: Callable[[threading.Event], Any],
    spin: Callable[[int, str], None],
    label: str,
) -> tuple[Any, bool]:
    """Run ``work(stop)`` in the AI thread while the UI thread waits and shows a spinner.

    Ctrl-C (KeyboardInterrupt in the UI thread) sets ``stop``: the player answers with the best
    it has so far (or None). Returns ``(answer, interrupted)``; the player's own exception is
    raised here.
    """
    stop = threading.Event()
    future = thread.submit(work, stop)
    started = time.monotonic()
    frame = 0
    interrupted = False
    while True:
        try:  # Ctrl-C may come while the spinner is drawn too: the outer try catches it there
            try:
                return future.result(timeout=0.08), interrupted
            except FutureTimeout:
                if time.monotonic() - started >= SPINNER_AFTER:
                    spin(frame, label + (" — stopping…" if interrupted else ""))
                    frame += 1
        except KeyboardInterrupt:
            interrupted = True
            stop.set()
