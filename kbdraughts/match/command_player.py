"""An external engine as a player: a program speaking ``kbdraughts bestmove``'s line protocol.

``match`` plays ``cmd:PROGRAM ARGS`` this way: the program is started at its first move and
kept running between moves; each move it is sent one game line (``kbdraughts.match.line_protocol``:
the game's start FEN and its moves, or with ``history=False`` the FEN of the position alone)
and answers one move line. An answer that is not a legal move, no answer within the timeout,
or a program that ends is a ``PlayerFault`` (the match counts it as an illegal move, saying
what happened); a program that ended or was stopped is started again at the next move.
"""

from __future__ import annotations

import os
import queue
import secrets
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO

from kbdraughts.ai.layers import Choice, LayerName
from kbdraughts.errors import KbdraughtsError
from kbdraughts.match.line_protocol import game_line, read_answer
from kbdraughts.ai.spec import command_words
from kbdraughts.game import Game
from kbdraughts.notation import MoveError, move_text

#: Seconds an external engine has to answer a move (its start included) by default.
COMMAND_TIMEOUT_S = 60.0
#: How often a wait for an answer looks at the stop event, in seconds.
_POLL_S = 0.05
#: A running engine's stderr is read out when nothing new came for this long (a fault's message).
_SETTLE_S = 0.02
#: The longest answer line read, and the most lines held unread: an engine that floods its
#: output is stopped by the pipe (the reader waits), not by our memory (857 MB in 4.6 s
#: measured before). A longer line is read to its end and dropped, then answered as a fault.
MAX_LINE_BYTES = 16_384
MAX_QUEUED_LINES = 64
#: Stands in the queue for a line longer than MAX_LINE_BYTES.
TOO_LONG = "\x00too long"
#: The start of the environment variable that marks an engine's processes, one per engine.
MARK_PREFIX = "KBDRAUGHTS_ENGINE_"
#: Rounds of killing the marked processes, at most (each round sees what forked in the last).
MARK_ROUNDS = 20


class PlayerFault(KbdraughtsError):
    """A player that could not give a move: its answer was no move, it did not answer, or it
    ended. The message says which, in one line."""


@dataclass(frozen=True)
class CommandOptions:
    """How external engines are driven: the time each move may take, and whether each line
    carries the game so far (``FEN moves ...``) or the position's FEN alone."""

    timeout_s: float = COMMAND_TIMEOUT_S
    history: bool = True
    hub_movetime_s: float = 1.0  # a Hub engine's time a move (``level move-time``)


class CommandPlayer:
    """An external engine: ``command`` is its program and arguments (split the shell's way)."""

    def __init__(self, command: str, name: str, options: CommandOptions = CommandOptions()):
        self.command = command
        self.argv = command_words(command)
        self.name = name
        self.options = options
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue[str | None] = queue.Queue(MAX_QUEUED_LINES)
        self._reading = threading.Event()  # cleared: the reader of the last process stops
        self._stderr: _Tail | None = None
        self._mark = ""  # NAME=1 in the environment of each process of the running program

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        """The engine's answer to ``game``; PlayerFault when it gives none that can be read
        (a legal move, or ``none``); None when ``stop`` is set first."""
        self._send(game_line(game, self.options.history))
        answer = self._answer(stop)
        if answer is None:
            return None
        try:
            move = read_answer(game.position, answer)
        except MoveError as e:
            raise PlayerFault(f"answered {_short(answer, 80)!r}: {_short(str(e), 200)}"
                              f"{self._said()}") from None
        if move is None:
            return None
        why = f"{self.name}: {answer.strip()}"
        return Choice(move, LayerName.ENGINE, why, move_text(move))

    def close(self) -> None:
        """End the program (it is sent end of input first, then stopped), and every process
        it started: its process group is killed whole, then (on Linux) every process that
        left the group (setsid, a daemon's double fork), found by the mark it inherited."""
        proc, self._proc = self._proc, None
        self._reading.clear()
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        _kill_group(proc.pid)
        _kill_marked(self._mark)
        self._stderr = None  # its reader ends with the pipe

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # at interpreter exit the modules may be gone
            pass

    # -- the process --------------------------------------------------------------------------

    def _send(self, line: str) -> None:
        """Write ``line`` to the program, started now if it is not running; PlayerFault when
        it has ended."""
        proc = self._process()
        try:
            assert proc.stdin is not None
            proc.stdin.write(line.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except OSError:  # a broken pipe: it has ended
            raise PlayerFault(self._ended()) from None

    def _process(self) -> subprocess.Popen:
        """The running program, started now if it is not running."""
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self.close()
        # A session of its own: its children share its process group, ended with it. Those
        # that leave it (setsid, a daemon's double fork) keep the mark in their environment.
        # A variable of its own (not a value): an engine that runs engines keeps ours too.
        name = f"{MARK_PREFIX}{secrets.token_hex(12).upper()}"
        self._mark = f"{name}=1"
        env = {**os.environ, name: "1"}
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True, env=env)
        except OSError as e:
            raise PlayerFault(f"cannot start {self.argv[0]!r}: {e.strerror or e}") from None
        self._proc = proc
        assert proc.stderr is not None
        self._stderr = _Tail(proc.stderr)
        self._lines = lines = queue.Queue[str | None](MAX_QUEUED_LINES)
        self._reading = reading = threading.Event()
        reading.set()
        threading.Thread(target=_read_lines, args=(proc.stdout, lines, reading),
                         daemon=True).start()
        return proc

    def _answer(self, stop: threading.Event | None) -> str | None:
        """The next line the program writes; None when ``stop`` is set first."""
        waited = 0.0
        while True:
            try:
                line = self._lines.get(timeout=_POLL_S)
                break
            except queue.Empty:
                waited += _POLL_S
            if stop is not None and stop.is_set():
                self.close()  # its answer would come a move late
                return None
            if waited >= self.options.timeout_s:
                self.close()
                raise PlayerFault(f"no answer within {self.options.timeout_s:g} s (stopped)")
        if line is None:
            raise PlayerFault(self._ended())
        if line == TOO_LONG:
            raise PlayerFault(f"answered a line of more than {MAX_LINE_BYTES:,} bytes")
        return line.rstrip("\r\n")

    def _ended(self) -> str:
        """What to say of a program that has ended (it is started again at the next move)."""
        proc = self._proc
        status = None
        if proc is not None:
            try:
                status = proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        said = self._said()
        self.close()
        how = "ended" if status is None else f"ended with status {status}"
        return f"{how} without an answer{said}"

    def _said(self) -> str:
        """``: LAST LINE`` of what the program wrote on stderr, or nothing."""
        if self._stderr is None:
            return ""
        ended = self._proc is None or self._proc.poll() is not None
        said = self._stderr.text(wait=1.0) if ended else self._stderr.text(settle=0.5)
        lines = said.strip().splitlines()
        last = lines[-1].strip() if lines else ""
        return f" (it said: {_short(last, 200)})" if last else ""


class _Tail:
    """The last bytes a program writes on a stream, read as they come by a thread of its own:
    what an engine says on stderr is kept for a fault's message, and a program that floods
    it costs neither memory nor disk."""

    KEEP = 4000

    def __init__(self, stream: IO[bytes]):
        self._data = b""
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while chunk := stream.read1(65536):  # type: ignore[attr-defined]
                self._data = (self._data + chunk)[-self.KEEP:]
        except (OSError, ValueError):  # closed under us
            pass

    def text(self, wait: float = 0.0, settle: float = 0.0) -> str:
        """What was kept, decoded; ``wait``: seconds to let a program that ended be read out;
        ``settle``: at most that long for a running program's stream to fall quiet (the
        reader may be behind what it wrote before its answer)."""
        if wait:
            self._thread.join(wait)
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline:
            seen = self._data
            time.sleep(_SETTLE_S)
            if self._data is seen:  # nothing new in that while: read out
                break
        return self._data.decode("utf-8", "replace")


def _short(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters for a one-line fault (an answer may be 16 KiB)."""
    return text if len(text) <= limit else text[:limit] + "..."


def _kill_group(pgid: int) -> None:
    """Kill the process group ``pgid`` (the engine's children), if any of it is left."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (OSError, AttributeError):  # gone already; or no process groups here
        pass


def _kill_marked(mark: str) -> None:
    """Kill every process whose environment holds ``mark`` (``VARIABLE=VALUE``), until none is
    left: the processes an engine started that left its process group. Where there is no
    /proc (not Linux), the process group alone is ended.

    Why not PR_SET_CHILD_SUBREAPER: orphans would become our children, to be reaped by a
    waitpid(-1) that races subprocess's own; and which engine each came from would be lost.
    A cgroup needs rights a user seldom has. The mark is inherited through fork, setsid and
    exec; only a process that clears its environment escapes it."""
    if not mark or not os.path.isdir("/proc"):
        return
    needle = mark.encode()
    for _ in range(MARK_ROUNDS):  # a process may fork while it is being killed: seen next round
        killed = False
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                killed |= _kill_if_marked(int(entry), needle)
        if not killed:
            return


def _kill_if_marked(pid: int, needle: bytes) -> bool:
    """SIGKILL ``pid`` if its environment holds ``needle``; whether it did."""
    try:  # a pidfd first: the pid cannot be another process's by the time it is signalled
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            if needle not in f.read().split(b"\0"):
                return False
        if fd is not None:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
        return True
    except OSError:  # gone, or not ours to read
        return False
    finally:
        if fd is not None:
            os.close(fd)


def _read_lines(stream: IO[bytes], lines: queue.Queue, reading: threading.Event) -> None:
    """Each line of ``stream`` into ``lines`` (TOO_LONG for one past MAX_LINE_BYTES), then
    None at its end. Waits while ``lines`` is full; stops when ``reading`` is cleared."""

    def put(item: str | None) -> bool:
        while reading.is_set():
            try:
                lines.put(item, timeout=_POLL_S)
                return True
            except queue.Full:
                pass
        return False

    try:
        while reading.is_set():
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n") and reading.is_set():  # dropped
                    raw = stream.readline(MAX_LINE_BYTES)
                if not put(TOO_LONG):
                    return
            elif not put(raw.decode("utf-8", "replace")):
                return
    except (OSError, ValueError):  # closed under us
        pass
    put(None)
