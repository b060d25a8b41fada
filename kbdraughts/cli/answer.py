"""The answer loop of ``moves``, ``bestmove`` and ``rules match``: one line out per position in.

A program can drive these commands through a pipe: each answer is flushed as soon as it is
written, and a bad line read from stdin is answered by an empty line so the reader stays in step.
"""

from __future__ import annotations

import sys
from typing import Callable, Iterable, TextIO

from kbdraughts.cli.args import USAGE_ERROR
from kbdraughts.notation import FenError


def fen_lines(fens: list[str], stdin: TextIO) -> Iterable[str]:
    """The FENs given as arguments or, with none, the lines of standard input as they come.

    >>> import io
    >>> list(fen_lines([], io.StringIO("W:Wc3:Bd4\\n\\nB:Wa1:Bh8\\n")))
    ['W:Wc3:Bd4', 'B:Wa1:Bh8']
    """
    if fens:
        yield from fens
        return
    for line in iter(stdin.readline, ""):
        if line.strip():
            yield line.strip()


def answer_each(
    fens: list[str], answer: Callable[[str], str], stdin: TextIO | None = None,
    stdout: TextIO | None = None, stderr: TextIO | None = None,
) -> int:
    """Print ``answer(fen)`` for each position, flushing per line so a pipe can drive it.

    A bad FEN is reported on stderr as one line; arguments stop at the first one (exit
    USAGE_ERROR), and a line read from stdin is answered with an empty line.
    """
    # Looked up at call time, so redirected or captured streams are honoured.
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    status = 0
    for text in fen_lines(fens, stdin):
        try:
            line = answer(text)
        except FenError as e:
            print(f"kbdraughts: bad FEN: {e}", file=stderr, flush=True)
            if fens:
                return USAGE_ERROR
            status = USAGE_ERROR
            line = ""
        print(line, file=stdout, flush=True)
    return status
