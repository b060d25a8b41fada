"""``kbdraughts play``: a game against the AI in the terminal (also what bare ``kbdraughts`` runs).

``register`` imports nothing heavy; prompt_toolkit, the PDN reader and the AI are imported when
the command runs (and the AI is built in the background while the first prompt is shown).
"""

from __future__ import annotations

import argparse
import random
import sys

from kbdraughts.ai.commands import level_argument

USAGE_ERROR = 2


def _is_player(text: str) -> bool:
    """Whether ``text`` names a person or one of the AI's players (``match``'s specs)."""
    from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError
    from kbdraughts.ui.players import is_human

    try:
        return is_human(text) or bool(PlayerSpec.parse(text))
    except PlayerSpecError:
        return False


def _player_spec(text: str) -> str:
    if not _is_player(text):
        raise argparse.ArgumentTypeError(
            f"unknown player {text!r}: use human, kb[:LEVEL][:nokb], random, greedy or "
            "search:DEPTH")
    return text.strip().lower()


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
    from kbdraughts.game import Game
    from kbdraughts.notation import FenError, parse_fen
    from kbdraughts.pdn import PdnError, read_pdn_file
    from kbdraughts.ui.autosave import Autosave, last_unfinished
    from kbdraughts.ui.players import HUMAN, ai_factory, is_human

    def fail(message: str) -> int:
        print(f"kbdraughts play: {message}", file=sys.stderr)
        return USAGE_ERROR

    if sum(bool(x) for x in (args.fen, args.load, args.resume)) > 1:
        return fail("choose one of --fen, --load and --resume")
    colour = args.color if args.color != "random" else random.choice(["white", "black"])
    specs = [HUMAN, "kb"] if colour == "white" else ["kb", HUMAN]
    autosave = Autosave()
    game = None
    note = ""
    if args.resume:
        found = last_unfinished()
        if found is None:
            note = "No unfinished game to resume; a new game starts."
        else:
            path, saved = found
            game = saved.game
            autosave = Autosave(path=path)
            for side, tag in enumerate(("White", "Black")):
                value = saved.tags.get(tag, "")
                if is_human(value):
                    specs[side] = HUMAN
                elif _is_player(value):
                    # --level given again applies to the resumed AI
                    specs[side] = "kb" if args.level and value.startswith("kb") else value
            note = f"Resumed {path} ({game.ply} plies)."
    elif args.load:
        try:
            games = read_pdn_file(args.load)
        except PdnError as e:
            return fail(str(e))
        if not games:
            return fail(f"{args.load}: no game in this file")
        game = games[0].game
    elif args.fen:
        try:
            game = Game(parse_fen(args.fen))
        except FenError as e:
            return fail(f"bad FEN: {e}")
    if args.white:
        specs[0] = args.white
    if args.black:
        specs[1] = args.black

    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    from kbdraughts.ui.app import WATCH_DELAY, GameApp, prompt_console

    delay = args.delay if args.delay is not None else (WATCH_DELAY if terminal else 0.0)
    from kbdraughts.ui.console import PlainConsole, history_file
    from kbdraughts.resources import data_dir
    from kbdraughts.ui.render import glyphs_for

    glyphs = glyphs_for(getattr(sys.stdout, "encoding", None), args.ascii)
    holder: list[GameApp] = []
    if terminal:
        console = prompt_console(lambda: holder[0], history=history_file(data_dir()),
                                 glyphs=glyphs)
    else:
        console = PlainConsole(glyphs=glyphs)
    app = GameApp(console, ai_factory, specs, game=game or Game(), level=args.level,
                  autosave=autosave, delay=delay)
    holder.append(app)
    if note:
        app.say(note, "dim")
    return app.run()

