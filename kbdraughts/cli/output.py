"""Standard output that can fail: a reader that went away (``| head``), a full disk, a file-size
limit, or no standard output at all (``>&-``). The dispatcher (``cli.main``) runs each command
with :func:`guarded` standard output, so that every command ends the same way, once: one line
on stderr and exit status 2 (a closed pipe quietly, as ``head`` expects), never a traceback.

>>> import io
>>> class Full(io.StringIO):
...     def write(self, text): raise OSError(errno.ENOSPC, "No space left on device")
>>> out = Guarded(Full())
>>> try:
...     print("a line", file=out)
... except StdoutError as e:
...     print(fault_line(e))
cannot write to standard output: No space left on device
>>> fault_line(StdoutError(errno.EPIPE, "Broken pipe")) is None  # a closed pipe: quietly
True
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import contextmanager
from typing import Any, Iterable, Iterator

from kbdraughts.errors import KbdraughtsError


class StdoutError(KbdraughtsError, OSError):
    """Standard output failed (its errno and reason kept): the command cannot go on. A command
    that catches OSError for its own files lets this one through to the dispatcher."""


class Guarded:
    """``stream`` (standard output, text or its binary buffer; None when it is closed) whose
    writes raise StdoutError instead of the stream's own OSError or ValueError (a closed file).
    Everything else is the stream's."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, data: Any) -> int:
        with _faults(self._stream):
            return self._live().write(data)

    def writelines(self, lines: Iterable[Any]) -> None:
        with _faults(self._stream):
            self._live().writelines(lines)

    def flush(self) -> None:
        if self._stream is not None:
            with _faults(self._stream):
                self._stream.flush()

    @property
    def buffer(self) -> Guarded:
        return Guarded(getattr(self._live(), "buffer", None))

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._live(), name)

    def _live(self) -> Any:
        if self._stream is None:
            raise StdoutError(errno.EBADF, "it is closed")
        return self._stream


@contextmanager
def _faults(stream: Any) -> Iterator[None]:
    """A write's OSError, or the ValueError of a closed ``stream``, as StdoutError."""
    try:
        yield
    except StdoutError:
        raise
    except OSError as e:
        raise StdoutError(e.errno or errno.EIO, e.strerror or str(e)) from None
    except ValueError:
        if not getattr(stream, "closed", False):
            raise  # not the stream's fault (text it cannot encode, say)
        raise StdoutError(errno.EBADF, "it is closed") from None


def fault_line(error: StdoutError) -> str | None:
    """The one line a failed standard output ends a command with; None for a closed pipe,
    which ends it quietly."""
    if error.errno == errno.EPIPE:
        return None
    return f"cannot write to standard output: {error.strerror or error}"


class guarded:
    """``with guarded():`` standard output is :class:`Guarded` within, the stream itself again
    after. When it failed, the process's standard output is pointed at the null device, so
    that the interpreter's last flush at exit finds nothing to complain of."""

    def __enter__(self) -> Guarded:
        self._saved = sys.stdout
        sys.stdout = Guarded(self._saved)
        return sys.stdout

    def __exit__(self, kind: type | None, error: BaseException | None, tb: object) -> None:
        sys.stdout = self._saved
        if isinstance(error, StdoutError) and self._saved is sys.__stdout__ \
                and self._saved is not None:
            _to_null(self._saved)


def _to_null(stream: Any) -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
