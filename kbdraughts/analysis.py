"""``kbdraughts moves`` and ``kbdraughts perft``: the rules core for scripts.

Output formats are relied upon by other programs; keep them exactly.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Iterable, TextIO

from kbdraughts.board import divide, legal_moves, perft
from kbdraughts.notation import FenError, START, move_text, moves_text, parse_fen


def fen_lines(fens: list[str], stdin: TextIO) -> Iterable[str]:
    """The FENs given as arguments or, with none, the lines of standard input as they come."""
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

    A bad FEN is reported on stderr as one line; arguments stop at the first one (exit 2), and
    a line read from stdin is answered with an empty line so the reader stays in step.
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
                return 2
            status = 2
            line = ""
        print(line, file=stdout, flush=True)
    return status


def _moves_line(text: str) -> str:
    return " ".join(moves_text(legal_moves(parse_fen(text))))


def run_moves(args: argparse.Namespace) -> int:
    return answer_each(args.fens, _moves_line)


def run_perft(args: argparse.Namespace) -> int:
    try:
        pos = parse_fen(args.fen) if args.fen else START
    except FenError as e:
        print(f"kbdraughts perft: bad FEN: {e}", file=sys.stderr)
        return 2
    if args.divide and args.depth >= 1:
        rows = divide(pos, args.depth)
        for move, n in sorted(rows, key=lambda r: moves_text([r[0]])):
            print(f"{move_text(move)} {n}")
        print(sum(n for _, n in rows))
    else:
        print(perft(pos, args.depth))
    return 0


def whole_number(what: str, minimum: int = 0) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum``, named ``what`` in its error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what} must be {minimum} or more, got {value}")
        return value

    return parse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "moves", help="legal moves of each position",
        description="One line per position: its legal moves in full-path notation, separated by "
        "spaces (empty when there are none). With no FEN, reads FENs from stdin, one per line.",
    )
    p.add_argument("fens", nargs="*", metavar="FEN")
    p.set_defaults(func=run_moves)
    p = sub.add_parser(
        "perft", help="count the leaf nodes of the move tree",
        description="Print the number of leaf nodes DEPTH plies deep (the last line); --divide "
        "first lists each root move with its count.",
    )
    p.add_argument("depth", type=whole_number("depth"), metavar="DEPTH")
    p.add_argument("--fen", help="start from this position (default: the initial position)")
    p.add_argument("--divide", action="store_true", help="list each root move with its count")
    p.set_defaults(func=run_perft)
