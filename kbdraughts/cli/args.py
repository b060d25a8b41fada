"""What every command shares: the exit status for a usage error and the argument types.

Light on purpose: building the parser imports this module and argparse, nothing of the AI, so
that ``kbdraughts moves`` pays neither for pyDatalog and prompt_toolkit nor for ``ai.spec``'s
dataclasses (which brings ``inspect``: 5 to 10 ms measured, where a bare interpreter starts in
15); the types that need ``ai.spec`` import it when an option is read.

>>> whole_number("depth")("3"), level("2"), seconds("0.5"), str(player("KB:1:nokb"))
(3, 2, 0.5, 'kb:1:nokb')
>>> level("7")
Traceback (most recent call last):
argparse.ArgumentTypeError: level must be from 1 to 4, got 7
>>> player("kb:7")
Traceback (most recent call last):
argparse.ArgumentTypeError: level must be from 1 to 4, got 7
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, NoReturn

if TYPE_CHECKING:
    from kbdraughts.ai.spec import PlayerSpec

#: Exit status for a mistake the person can fix (a bad FEN, argument or file).
USAGE_ERROR = 2


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, with the width read from os: argparse's own imports shutil (and with it bz2
    and lzma, some 5 ms) for the width, and builds a formatter at every ``add_argument``."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         width if width is not None else terminal_columns() - 2)


def terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it: $COLUMNS, stdout's, or 80."""
    try:
        if (columns := int(os.environ.get("COLUMNS", ""))) > 0:
            return columns
    except ValueError:
        pass
    if sys.__stdout__ is None:  # no console at all (pythonw)
        return 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status USAGE_ERROR."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {one_line(message)} (see --help)\n")


def fail(command: str, message: str) -> int:
    """Report a usage error of ``kbdraughts COMMAND`` as one line on stderr; USAGE_ERROR."""
    print(f"kbdraughts {command}: {one_line(message)}", file=sys.stderr, flush=True)
    return USAGE_ERROR


def one_line(text: str, limit: int = 1000) -> str:
    """``text`` with its control characters (line breaks, escapes) written as ``\\xNN``: an
    argument or a line of input quoted in a message keeps it one line and leaves the terminal
    alone. Past ``limit`` characters it is cut, saying how long it was (a message that quotes
    a huge input whole would fill the screen).

    >>> one_line("bad\\nline\\x1b[2J\\u2028 ok")
    'bad\\\\x0aline\\\\x1b[2J\\\\u2028 ok'
    >>> one_line("W:W" + "a1," * 5000, limit=12)
    'W:Wa1,a1,a1,... (15,003 characters)'
    """
    cut = f"... ({len(text):,} characters)" if len(text) > limit else ""
    return "".join(c if c.isprintable() or c == " " else _escape(c) for c in text[:limit]) + cut


def fen_option(text: str) -> str:
    """A ``--fen`` value: any text but an empty one (an empty FEN names no position; taking it
    for the default start position would hide the mistake).

    >>> fen_option(" ")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: empty FEN: expected something like W:Wa1,c3:Bb6,Kh8
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("empty FEN: expected something like W:Wa1,c3:Bb6,Kh8")
    return text


def _escape(c: str) -> str:
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


# --- argument types: each turns the text into a value or says in one line what is wrong --------


def integer(text: str, what: str = "") -> int:
    """Any whole number (a seed) of at most MAX_DIGITS ASCII digits, with an optional sign."""
    digits = text.strip().removeprefix("-").removeprefix("+").replace("_", "")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS):
        said = f"{what} must be a whole number" if what else "expected a whole number"
        raise argparse.ArgumentTypeError(f"{said}, got {_short(text)!r}")
    try:
        return int(text)
    except ValueError:  # misplaced underscores
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_short(text)!r}") from None


#: Digits of the longest number read (Python refuses str<->int beyond 4300 digits).
MAX_DIGITS = 100


def _short(value: object, limit: int = 40) -> str:
    """``value`` as text, cut to ``limit`` characters for a one-line message."""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit] + "..."


def whole_number(what: str, minimum: int = 0, maximum: int | None = None
                 ) -> Callable[[str], int]:
    """A whole number from ``minimum`` to ``maximum`` (None: no bound), named ``what`` in its
    error. Written in ASCII digits: ``int`` would also take ``'\u0663'`` (Arabic-Indic 3).

    >>> whole_number("depth", 0, 20)("99999999999")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: depth must be from 0 to 20, got 99999999999
    """

    def parse(text: str) -> int:
        value = integer(text, what)
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"{minimum} or more" if maximum is None else f"from {minimum} to {maximum}"
            raise argparse.ArgumentTypeError(f"{what} must be {bound}, got {_short(value)}")
        return value

    return parse


def positive(what: str) -> Callable[[str], int]:
    """A whole number of at least 1 (games, jobs, milliseconds)."""
    return whole_number(what, 1)


def level(text: str) -> int:
    """An AI level, 1..MAX_LEVEL."""
    from kbdraughts.ai.spec import PlayerSpecError, check_level

    value = positive("level")(text)
    try:
        return check_level(value)
    except PlayerSpecError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


#: The longest pause asked for, in seconds.
MAX_SECONDS = 60.0


def seconds(text: str) -> float:
    """A duration in seconds, 0 to MAX_SECONDS (``nan`` and ``inf`` are not durations).

    >>> seconds("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected seconds from 0 to 60, got 'nan'
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {_short(text)!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, got {_short(text)!r}")
    if not value <= MAX_SECONDS:  # also nan
        raise argparse.ArgumentTypeError(
            f"expected seconds from 0 to {MAX_SECONDS:g}, got {_short(text)!r}")
    return value


def player(text: str) -> PlayerSpec:
    """A player spec (``human``, ``kb:2:nokb``, ``search:4``): what ``play`` and ``match`` read."""
    from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError

    try:
        return PlayerSpec.parse(text)
    except PlayerSpecError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


# --- arguments several commands take ----------------------------------------------------------


def add_fens(parser: argparse.ArgumentParser) -> None:
    """Positions as arguments; with none the command reads them from stdin (see cli.answer)."""
    parser.add_argument("fens", nargs="*", metavar="FEN",
                        help="a position, e.g. W:Wa1,c3:Bb6,Kh8 (default: read them from "
                        "stdin, one a line)")


def add_rules(parser: argparse.ArgumentParser, help: str) -> None:
    """``--rules PATH``, once per path: it takes one value, so FENs after it stay FENs."""
    parser.add_argument("--rules", action="append", metavar="PATH",
                        help=help + " (default: the shipped knowledge base)")


def add_strict(parser: argparse.ArgumentParser) -> None:
    """``--strict``: a fault in a rule file stops the command (else its rule is skipped)."""
    parser.add_argument("--strict", action="store_true",
                        help="refuse to run when a rule file has a fault (default: skip the "
                        "faulty rule, name it on stderr, and go on with the rest)")


#: The largest node budget a move (ai.spec.MAX_NODES; not imported: start-up stays light).
MAX_NODES = 10**12


def add_nodes(parser: argparse.ArgumentParser, what: str) -> None:
    """``--nodes N``: a node budget a move instead of the time; ``what`` says whose."""
    parser.add_argument("--nodes", type=whole_number("nodes", 1, MAX_NODES), default=None,
                        metavar="N", help=f"{what}, so that a move does not depend on the "
                        "machine's load (the same position, the same move), "
                        f"1..{MAX_NODES} (default: by time)")


def report_skipped(kb: object, command: str, strict: bool) -> int | None:
    """Name on stderr each rule the knowledge base ``kb`` skipped (its ``errors``, ``path:line:
    error: ...``) and say so in a last line; USAGE_ERROR with ``strict``, else None (go on)."""
    errors = getattr(kb, "errors", None) or ()
    if not errors:
        return None
    for d in errors:
        print(one_line(str(d)), file=sys.stderr)
    n = len(errors)
    what = f"{n} error{'s' if n != 1 else ''} in the rule files"
    if strict:
        return fail(command, f"{what} (--strict: nothing was run; see 'kbdraughts rules check')")
    print(f"kbdraughts {command}: {what}: the rules with them were skipped, the rest of the "
          "knowledge base loaded (see 'kbdraughts rules check')", file=sys.stderr, flush=True)
    return None
