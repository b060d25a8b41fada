"""The ``kbdraughts`` command: argparse wiring only; each group of commands has its module.

Each module in ``COMMANDS`` has ``register(subparsers)``, which adds its sub-command(s) and
sets ``func(args) -> int`` on them. Registration imports only argparse-level things
(``cli.args``, ``ai.spec``); each command imports the work when it runs, so ``kbdraughts moves``
starts without pyDatalog or prompt_toolkit.

>>> build_parser().parse_args(["bestmove", "--rules", "a.txt", "--rules", "b", "W:Wc3:Bd4"]).rules
['a.txt', 'b']
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import Sequence

from kbdraughts import __version__
from kbdraughts.cli import analysis, annotate, egdb, engine, hub, play, rules, tune
from kbdraughts.cli.args import USAGE_ERROR, ArgumentParser, fail
from kbdraughts.cli.output import StdoutError, fault_line, guarded
from kbdraughts.native import describe

#: rules check|match|show; moves, perft; bestmove, match; hub; annotate; egdb build|probe|verify;
#: tune games|fit|shapes; play (the default command).
COMMANDS = [rules, analysis, engine, hub, annotate, egdb, tune, play]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="kbdraughts",
        description="A knowledge-based AI for Russian draughts. With no command: play a game.",
        epilog="'kbdraughts COMMAND --help' gives each command's options with their ranges and "
        "defaults; options without a command are play's ('kbdraughts play --help').",
    )
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show the version and which core runs, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for module in COMMANDS:
        module.register(sub)
    return parser


class _Version(argparse.Action):
    """``--version``: one line, never wrapped (argparse's own wraps it at the terminal's
    width): ``kbdraughts 0.1.0, native core: C (kbdraughts._core)``."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"kbdraughts {__version__}, {describe()}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0].startswith("-")
                         and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "play")  # bare `kbdraughts [--resume ...]` plays
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return USAGE_ERROR
    _forgiving_stdin()
    try:
        with guarded() as stdout:
            status = int(args.func(args) or 0)
            stdout.flush()  # what is still buffered fails here, not at the interpreter's exit
            return status
    except KeyboardInterrupt:
        return 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
    except StdoutError as e:  # a closed pipe (quietly), a full disk, no standard output
        said = fault_line(e)
        if said is not None:
            try:
                fail(args.command, said)
            except (OSError, ValueError):
                pass  # nowhere left to say it
        return USAGE_ERROR


def _forgiving_stdin() -> None:
    """Read text from stdin (``play`` in a pipe) with bytes that are not UTF-8 replaced, not
    raising, and lines split at ``\n`` alone, as ``cli.answer`` reads FEN streams (Python also
    splits at a lone ``\r``). Leaves a stream it cannot change (a test's StringIO) alone."""
    if not isinstance(sys.stdin, io.TextIOWrapper):
        return
    try:
        sys.stdin.reconfigure(errors="replace", newline="\n")
    except (AttributeError, ValueError, OSError):
        pass
