"""``kbdraughts hub``: the engine behind Scan's Hub protocol (version 2), one line at a time.

The client's lines are read by :meth:`HubEngine.serve`; a search runs in a thread of its own
(:mod:`kbdraughts.match.hub_search`), so ``ping``, ``stop`` and ``ponder-hit`` are answered
while it thinks. Bad input (an unknown command, a position or move that cannot be read, a
search with no position) is answered ``error message="..."`` and the loop goes on, as Scan's
``hub_loop`` does: nothing a client sends reaches the engine unchecked.

>>> import io
>>> out = io.StringIO()
>>> HubEngine(out).serve(["ping", "fly", "pos pos=X"])
0
>>> print(out.getvalue(), end="")
pong
error message="unknown command 'fly': hub, set-param, init, ping, new-game, pos, level, go, ponder-hit, stop, quit"
error message="a position is W or B and 32 of w b W B e, got 'X' (1 characters)"
"""  # noqa: E501 (the doctest's output lines are as long as they are)

from __future__ import annotations

import threading
from typing import Callable, Iterable, TextIO

from kbdraughts import __version__
from kbdraughts.ai.engine import Engine
from kbdraughts.game import Game
from kbdraughts.match.hub import (
    HubError, HubLine, check_numbering, read_game, read_line, write_line,
)
from kbdraughts.match.hub_params import MIN_TT_SIZE, PARAMS, Params, declare
from kbdraughts.match.hub_search import Limit, Search, read_limit
from kbdraughts.notation import MoveError

#: What the engine says of itself after ``hub``.
IDENTITY = {"name": "kbdraughts", "version": __version__, "author": "the kbdraughts authors"}
#: The commands a client may send while a search runs (the protocol's three, and ``quit``).
_WHILE_SEARCHING = ("ping", "ponder-hit", "stop", "quit")


class HubEngine:
    """One client's session: the parameters, the engine (made at ``init``), the game of the
    last ``pos``, the limit of the last ``level``, and the search running, if any."""

    def __init__(self, out: TextIO, params: Params | None = None,
                 made: Callable[[Engine], object] | None = None):
        """``made`` is told each engine made (at ``init``, or the first search after a
        parameter changed): the command line names the rules it skipped on stderr."""
        self.out = out
        self.params = params or Params()
        self.made = made
        self.engine: Engine | None = None
        self.game: Game | None = None
        self.limit = Limit()
        self.search: Search | None = None
        #: The output's fault, once a write failed (the session ends at the next line).
        self.fault: OSError | ValueError | None = None
        self._lock = threading.Lock()
        self._commands: dict[str, Callable[[HubLine], None]] = {
            "hub": self._hub, "set-param": self._set_param, "init": self._init,
            "ping": lambda line: self.say("pong"), "new-game": self._new_game, "pos": self._pos,
            "level": self._level, "go": self._go, "ponder-hit": self._ponder_hit,
            "stop": lambda line: self.stop(),
        }

    def serve(self, lines: Iterable[str]) -> int:
        """Answer each line until ``quit`` or the end of the input; the exit status (0). When
        the output fails (a closed pipe, a full disk), the loop ends at the next line and
        raises that fault: nothing more can reach the client."""
        try:
            for text in lines:
                if not self.handle(text) or self.fault is not None:
                    break
        finally:
            self.stop()
        if self.fault is not None:
            raise self.fault
        return 0

    def handle(self, text: str) -> bool:
        """Answer one line; False for ``quit``."""
        try:
            line = read_line(text)
            if line.command == "quit":
                return False
            if not line.command:
                return True
            if self.searching() and line.command not in _WHILE_SEARCHING:
                self._wait(line.command)
            command = self._commands.get(line.command)
            if command is None:
                raise HubError(f"unknown command {line.command[:40]!r}: "
                               f"{', '.join(self._commands)}, quit")
            command(line)
        except (HubError, MoveError) as e:
            self.say(write_line("error", message=str(e)))
        return True

    def say(self, line: str) -> None:
        """Write one line and flush it (the search thread writes too: one line at a time).
        A write that fails is kept in ``fault`` for the loop to end on, and nothing more is
        written: the search thread must not die of it, nor the next line try again."""
        with self._lock:
            if self.fault is not None:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except OSError as e:
                self.fault = e
            except ValueError as e:  # I/O on a closed file; other ValueErrors are bugs
                if not getattr(self.out, "closed", False):
                    raise
                self.fault = e

    def searching(self) -> bool:
        return self.search is not None and self.search.running()

    def _wait(self, command: str) -> None:
        """Let a search that ends by itself end before ``command`` (a script may send its
        lines at once); HubError for one that never does (pondering, infinite)."""
        assert self.search is not None
        if not self.search.ends_alone():
            raise HubError(f"{command!r} while searching without a limit: only ping, "
                           "ponder-hit, stop and quit until the search is done")
        self.search.wait()

    def stop(self) -> None:
        """End the search, if one runs; it says ``done`` before this returns."""
        if self.search is not None:
            self.search.stop()
            self.search = None

    # -- the commands ------------------------------------------------------------------------

    def _hub(self, line: HubLine) -> None:
        self.say(write_line("id", **IDENTITY))
        for p in PARAMS:
            self.say(declare(p))
        self.say("wait")

    def _set_param(self, line: HubLine) -> None:
        if "name" not in line.args or "value" not in line.args:
            raise HubError("set-param needs name=... and value=...")
        if self.params.set(line.args["name"], line.args["value"]):
            self.engine = None  # made again, with the new value, at the next search

    def _init(self, line: HubLine) -> None:
        try:
            self._engine()
        except HubError as e:  # said before ready, which the client waits for, and it goes on
            self.say(write_line("error", message=str(e)))
        self.say("ready")

    def _engine(self) -> Engine:
        if self.engine is None:
            try:
                self.engine = self.params.engine()
            except (ValueError, ImportError) as e:  # a rule file's fault, a missing folder, a
                # pyDatalog of another version: said, and the client may set other values
                raise HubError(str(e).splitlines()[0]) from None
            except MemoryError:
                raise HubError("not enough memory for the engine, even with the smallest "
                               f"search table (tt-size {MIN_TT_SIZE})") from None
            if self.made is not None:
                self.made(self.engine)
            asked = 1 << int(self.params.values["tt-size"])
            if self.engine.tt_size != asked:  # said, and the engine plays on with less
                self.say(write_line("error", message=f"not enough memory for a search table "
                                    f"of 2**{asked.bit_length() - 1} positions: it holds "
                                    f"2**{(self.engine.tt_size or 1).bit_length() - 1}"))
        return self.engine

    def _new_game(self, line: HubLine) -> None:
        if self.engine is not None:
            self.engine.new_game()

    def _pos(self, line: HubLine) -> None:
        self.game = None  # a bad position leaves none to search, not the last one
        if "pos" not in line.args:
            raise HubError('pos needs pos=... (W or B and 32 squares) and may have moves="..."')
        numbering = check_numbering(self.params.values["numbering"])
        self.game = read_game(line.args["pos"], line.args.get("moves", ""), numbering)

    def _level(self, line: HubLine) -> None:
        self.limit = read_limit(line.args)

    def _go(self, line: HubLine) -> None:
        mode = next((m for m in ("think", "ponder", "analyze") if m in line.args), None)
        if mode is None:
            raise HubError("go needs think, ponder or analyze")
        if self.game is None:
            raise HubError("go without a position: send pos pos=... first")
        if not self.game.legal_moves():  # the protocol's GUI never asks; Scan answers so
            self.say("done")
            return
        self.search = Search(self._engine(), self.game, self.limit, mode, self.say,
                             self.params.values["numbering"])
        self.search.start()

    def _ponder_hit(self, line: HubLine) -> None:
        if self.search is not None:
            self.search.ponder_hit()
