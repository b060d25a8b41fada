"""The answer loop of ``moves``, ``bestmove`` and ``rules match``: one line out per position in.

A program can drive these commands through a pipe: each answer is flushed as soon as it is
written, and a bad position (argument or line) is answered by the line ``error`` (which no
good answer can be) with its reason on stderr, so the reader stays in step; the exit status is
then USAGE_ERROR at the end. A line that carries a game (``bestmove``: ``FEN moves M1 M2 ...``)
with a move that cannot be played is a bad line too (``kbdraughts: bad move: ...``).

Standard input is read as bytes and split on ``\\n`` only (a ``\\r`` before it is dropped):
Python's text layer and ``str.splitlines`` also break at ``\\r``, ``\\x1c``..``\\x1e``, U+0085
and U+2028, which would give one line in two answers. Bytes that are not UTF-8 make a bad line,
not a crash.
"""

from __future__ import annotations

import sys
from typing import BinaryIO, Callable, Iterable, TextIO

from kbdraughts.cli.args import USAGE_ERROR, one_line
from kbdraughts.notation import FenError, MoveError

#: The answer to a position that could not be read.
ERROR_LINE = "error"
#: What surrounds a FEN without being part of it; other characters make a line to answer.
_BLANK = " \t\r\n"


def stdin_lines(stdin: TextIO | BinaryIO) -> Iterable[str]:
    """The lines of ``stdin`` split on ``\\n`` alone, as they come, decoded with errors replaced.

    >>> import io
    >>> list(stdin_lines(io.BytesIO(b"a\\r\\nb\\x1cc\\xe2\\x80\\xa8d\\n\\xff")))
    ['a', 'b\\x1cc\\u2028d', '\\ufffd']
    """
    raw = getattr(stdin, "buffer", stdin)  # a text stream's bytes; a StringIO is read as text
    for line in iter(raw.readline, raw.read(0)):
        if isinstance(line, bytes):
            line = line.decode("utf-8", errors="replace")
        yield line.removesuffix("\n").removesuffix("\r")


def fen_lines(fens: list[str], stdin: TextIO | BinaryIO) -> Iterable[tuple[str, str]]:
    """``(place, text)`` for each FEN given as an argument or, with none, each line of standard
    input that is not blank; ``place`` names it in an error.

    >>> import io
    >>> list(fen_lines([], io.StringIO("W:Wc3:Bd4\\n\\n B:Wa1:Bh8 \\n\\x1c\\n")))
    [('line 1', 'W:Wc3:Bd4'), ('line 3', 'B:Wa1:Bh8'), ('line 4', '\\x1c')]
    >>> list(fen_lines(["W:Wc3:Bd4"], io.StringIO("")))
    [('argument 1', 'W:Wc3:Bd4')]
    """
    if fens:
        for number, text in enumerate(fens, 1):
            yield f"argument {number}", text
        return
    for number, line in enumerate(stdin_lines(stdin), 1):
        if line.strip(_BLANK):
            yield f"line {number}", line.strip(_BLANK)


def answer_each(
    fens: list[str], answer: Callable[[str], str], stdin: TextIO | BinaryIO | None = None,
    stdout: TextIO | None = None, stderr: TextIO | None = None,
) -> int:
    """Print ``answer(fen)`` for each position, flushing per line so a pipe can drive it.

    A bad FEN is answered by ``error``, with ``kbdraughts: bad FEN: PLACE: reason`` on stderr
    (a move of the line that cannot be played: ``bad move``); the run goes on and ends with
    USAGE_ERROR.
    """
    # Looked up at call time, so redirected or captured streams are honoured.
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    status = 0
    for place, text in fen_lines(fens, stdin):
        try:
            line = answer(text)
        except (FenError, MoveError) as e:
            what = "FEN" if isinstance(e, FenError) else "move"
            print(f"kbdraughts: bad {what}: {place}: {one_line(str(e))}", file=stderr,
                  flush=True)
            status = USAGE_ERROR
            line = ERROR_LINE
        print(line, file=stdout, flush=True)
    return status
