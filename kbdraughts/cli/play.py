"""``kbdraughts play``: a game against the AI in the terminal (also what bare ``kbdraughts`` runs).

Only the arguments live here; the game is started by ``kbdraughts.ui.launch.start_game``, which
is imported when the command runs (prompt_toolkit, the PDN reader and the AI come with it).
"""

from __future__ import annotations

import argparse

from kbdraughts.cli.args import (
    fail, fen_option, level, player, positive, seconds, whole_number)
from kbdraughts.cli.engine import MAX_MOVETIME_MS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play a game against the AI in the terminal (the default command)",
        description="Play Russian draughts against the knowledge-based AI. Type moves like "
        "c3-d4 or c3:e5; 'help' at the prompt lists the commands. Every game is autosaved.",
    )
    p.add_argument("--color", "--colour", choices=["white", "black", "random"], default=None,
                   help="the side you play: white, black or random (default: white); not "
                   "with --white/--black")
    p.add_argument("--level", type=level, help="the AI's level, 1..4 (default: 4)")
    p.add_argument("--fen", type=fen_option, help="start from this position (PDN FEN, e.g. "
                   "W:WKa1:BKh8; default: the initial position)")
    p.add_argument("--load", metavar="FILE.pdn",
                   help="play on from the end of a PDN game (default: none); a file of "
                   "several games lists them and loads the first, or --game N")
    p.add_argument("--game", type=positive("game"), default=None, metavar="N",
                   help="with --load: the N-th game of the file, 1 or more (default: the "
                   "first)")
    p.add_argument("--resume", action="store_true",
                   help="continue the last unfinished game (default: a new game)")
    p.add_argument("--white", type=player, metavar="P",
                   help="who plays White: human, kb[:LEVEL][:nokb][:MSms|:Nnodes], random, greedy, "
                   "search:DEPTH (default: you, or the AI when you play Black)")
    p.add_argument("--black", type=player, metavar="P",
                   help="who plays Black, as --white (default: the AI, or you with --color "
                   "black)")
    p.add_argument("--ascii", action="store_true",
                   help="draw the board with ASCII letters only (default: Unicode pieces)")
    p.add_argument("--delay", type=seconds, metavar="SECONDS",
                   help="pause between moves when two AIs play, 0..60 (default 0.8 on a "
                   "terminal, 0 in a pipe)")
    p.add_argument("--movetime", type=whole_number("movetime", 1, MAX_MOVETIME_MS),
                   default=None, metavar="MS", help="the AI's time a move, 1.."
                   f"{MAX_MOVETIME_MS} milliseconds (default 1000); not with --clock")
    p.add_argument("--clock", type=time_control, default=None, metavar="MIN+SEC",
                   help="play with a clock: minutes for the game and seconds added after each "
                   "move, e.g. 5+3 (default: no clock); a side whose time runs out loses, and "
                   "the AI shares its time over the game")
    p.set_defaults(func=run)


def time_control(text: str) -> object:
    """``--clock``'s value: a TimeControl (``5+3``), or the usage error saying what is one."""
    from kbdraughts.ai.clock import TimeControl, TimeControlError

    try:
        return TimeControl.parse(text)
    except TimeControlError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    from kbdraughts.ui.launch import StartError, start_game

    if args.color is not None and (args.white or args.black):
        return fail("play", "--color and --white/--black both choose the seats: use one")
    args.color = args.color or "white"

    try:
        return start_game(args)
    except StartError as e:
        return fail("play", str(e))
