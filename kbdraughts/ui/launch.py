"""Start a console game from the options of ``kbdraughts play`` (TEMPORARY SHIM).

The UI room writes the real ``start_game``; this copy of the old ``ui/cli.run`` body lets the
``cli`` branch run its tests meanwhile, and is replaced at the merge.
"""

from __future__ import annotations

import random
import sys
from typing import Any


class StartError(ValueError):
    """Options that cannot start a game; the message says why, in one line."""


def _is_player(text: str) -> bool:
    from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError

    try:
        return bool(PlayerSpec.parse(text))
    except PlayerSpecError:
        return False


def _start(options: Any) -> tuple[Any, list[str], Any, str]:
    """(game or None, seat specs, autosave, note) of the options."""
    from kbdraughts.game import Game
    from kbdraughts.notation import FenError, parse_fen
    from kbdraughts.pdn import PdnError, read_pdn_file
    from kbdraughts.ui.autosave import Autosave, last_unfinished
    from kbdraughts.ui.players import HUMAN, is_human

    if sum(bool(x) for x in (options.fen, options.load, options.resume)) > 1:
        raise StartError("choose one of --fen, --load and --resume")
    colour = options.color if options.color != "random" else random.choice(["white", "black"])
    specs = [HUMAN, "kb"] if colour == "white" else ["kb", HUMAN]
    autosave, game, note = Autosave(), None, ""
    if options.resume:
        found = last_unfinished()
        if found is None:
            note = "No unfinished game to resume; a new game starts."
        else:
            path, saved = found
            game, autosave = saved.game, Autosave(path=path)
            for side, tag in enumerate(("White", "Black")):
                value = saved.tags.get(tag, "")
                if is_human(value):
                    specs[side] = HUMAN
                elif _is_player(value):
                    specs[side] = "kb" if options.level and value.startswith("kb") else value
            note = f"Resumed {path} ({game.ply} plies)."
    elif options.load:
        try:
            games = read_pdn_file(options.load)
        except PdnError as e:
            raise StartError(str(e)) from None
        if not games:
            raise StartError(f"{options.load}: no game in this file")
        game = games[0].game
    elif options.fen:
        try:
            game = Game(parse_fen(options.fen))
        except FenError as e:
            raise StartError(f"bad FEN: {e}") from None
    for side, spec in enumerate((options.white, options.black)):
        if spec is not None:
            specs[side] = str(spec)
    return game, specs, autosave, note


def start_game(options: Any) -> int:
    """Play the game the options describe; StartError when they describe none."""
    game, specs, autosave, note = _start(options)
    from kbdraughts.game import Game
    from kbdraughts.resources import data_dir
    from kbdraughts.ui.app import WATCH_DELAY, GameApp, prompt_console
    from kbdraughts.ui.console import PlainConsole, history_file
    from kbdraughts.ui.players import ai_factory
    from kbdraughts.ui.render import glyphs_for

    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    delay = options.delay if options.delay is not None else (WATCH_DELAY if terminal else 0.0)
    glyphs = glyphs_for(getattr(sys.stdout, "encoding", None), options.ascii)
    holder: list[GameApp] = []
    if terminal:
        console = prompt_console(lambda: holder[0], history=history_file(data_dir()),
                                 glyphs=glyphs)
    else:
        console = PlainConsole(glyphs=glyphs)
    app = GameApp(console, ai_factory, specs, game=game or Game(), level=options.level,
                  autosave=autosave, delay=delay)
    holder.append(app)
    if note:
        app.say(note, "dim")
    return app.run()
