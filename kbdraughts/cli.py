"""The ``kbdraughts`` command: argparse wiring only; every command lives in its own module.

Each module in ``COMMAND_MODULES`` has ``register(subparsers)``, which adds its sub-command(s)
and sets ``func(args) -> int`` on them. Registration imports nothing heavy, so start-up stays
fast; the work is imported when a command runs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn, Sequence

COMMAND_MODULES = [
    "kbdraughts.kb.commands",  # rules check|match|show
    "kbdraughts.analysis",  # moves, perft
    "kbdraughts.ai.commands",  # bestmove, match
    "kbdraughts.ui.cli",  # play (the default command)
]

#: Exit status for a mistake the person can fix (a bad FEN, argument or file).
USAGE_ERROR = 2


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(
        prog="kbdraughts",
        description="A knowledge-based AI for Russian draughts. With no command: play a game.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list.insert(0, "play")  # bare `kbdraughts [--resume ...]` plays
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return USAGE_ERROR
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error of ours.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
