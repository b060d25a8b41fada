"""``kbdraughts play``: a game against the AI in the terminal (also what bare ``kbdraughts`` runs).

``register`` imports nothing heavy; prompt_toolkit, the PDN reader and the AI are imported when
the command runs (and the AI is built in the background while the first prompt is shown).
"""

from __future__ import annotations

import argparse
import sys

from kbdraughts.ai.commands import level_argument
from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError

USAGE_ERROR = 2


def _player_spec(text: str) -> PlayerSpec:
    try:
        return PlayerSpec.parse(text)
    except PlayerSpecError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, got {text!r}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play a game against the AI in the terminal (the default command)",
        description="Play Russian draughts against the knowledge-based AI. Type moves like "
        "c3-d4 or c3:e5; 'help' at the prompt lists the commands. Every game is autosaved.",
    )
    p.add_argument("--color", "--colour", choices=["white", "black", "random"], default="white",
                   help="the side you play (default: white)")
    p.add_argument("--level", type=level_argument, help="the AI's level (default: the engine's default)")
    p.add_argument("--fen", help="start from this position (PDN FEN, e.g. W:WKa1:BKh8)")
    p.add_argument("--load", metavar="FILE.pdn", help="play on from the end of a PDN game")
    p.add_argument("--resume", action="store_true", help="continue the last unfinished game")
    p.add_argument("--white", type=_player_spec, metavar="P",
                   help="who plays White: human, kb, kb:LEVEL, random, greedy, search:DEPTH")
    p.add_argument("--black", type=_player_spec, metavar="P", help="who plays Black (as --white)")
    p.add_argument("--ascii", action="store_true", help="draw the board with ASCII letters only")
    p.add_argument("--delay", type=_seconds, metavar="SECONDS",
                   help="pause between moves when two AIs play (default 0.8 on a terminal, "
                   "0 in a pipe)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kbdraughts.ui.launch import StartError, start_game

    try:
        return start_game(args)
    except StartError as e:
        print(f"kbdraughts play: {e}", file=sys.stderr)
        return USAGE_ERROR
