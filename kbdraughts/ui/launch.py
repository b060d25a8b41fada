"""Starting a game at the console: the seats, the game to play on, the console for this
terminal (or pipe), then the loop — what ``kbdraughts play`` runs.

:func:`start_game` reads its options as attributes (argparse's namespace will do) and never
prints a usage error nor knows exit codes: a mistake of the person's is a :class:`StartError`
whose message the command line shows. This module loads prompt_toolkit: import it when a game
starts, not while building the command line.
"""

from __future__ import annotations

import random
import sys
from typing import Protocol

from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError
from kbdraughts.board import BLACK, WHITE
from kbdraughts.game import Game
from kbdraughts.notation import FenError, parse_fen
from kbdraughts.pdn import PdnError, read_pdn_file
from kbdraughts.resources import data_dir
from kbdraughts.ui.app import WATCH_DELAY, GameApp, prompt_console
from kbdraughts.ui.autosave import Autosave, last_unfinished
from kbdraughts.ui.console import Console, PlainConsole, history_file
from kbdraughts.ui.players import ai_factory
from kbdraughts.ui.render import glyphs_for
from kbdraughts.ui.session import HUMAN, KB, Session


class StartError(ValueError):
    """The game asked for cannot start: two of --fen/--load/--resume, a bad FEN, a PDN file
    that cannot be read or holds no game. The message is one line for the person."""


class StartOptions(Protocol):
    """What :func:`start_game` reads (the ``play`` command's arguments)."""

    color: str  # the person's side: "white", "black" or "random"
    level: int | None  # the level of every knowledge-based seat
    fen: str | None  # start from this position
    load: str | None  # play on from the end of this PDN file's first game
    resume: bool  # play on with the last unfinished autosaved game
    white: PlayerSpec | None  # who plays White, instead of the colour's choice
    black: PlayerSpec | None
    ascii: bool  # draw with ASCII letters only
    delay: float | None  # seconds between moves when two AIs play (None: by the terminal)


def start_game(options: StartOptions) -> int:
    """Play the game ``options`` ask for until the person leaves; 0 then. StartError when it
    cannot start."""
    game, specs, autosave, note = _opening(options)
    if options.white:
        specs[WHITE] = options.white
    if options.black:
        specs[BLACK] = options.black
    session = Session(ai_factory, specs, game=game, level=options.level, autosave=autosave)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    delay = options.delay if options.delay is not None else (WATCH_DELAY if terminal else 0.0)
    app = GameApp(_console(session, terminal, options.ascii), session, delay=delay)
    if note:
        app.say(note, "dim")
    return app.run()


def _opening(options: StartOptions) -> tuple[Game, list[PlayerSpec], Autosave, str]:
    """The game to play, the seats, its autosave and a note to show first."""
    if sum(bool(x) for x in (options.fen, options.load, options.resume)) > 1:
        raise StartError("choose one of --fen, --load and --resume")
    colour = options.color if options.color != "random" else random.choice(["white", "black"])
    specs = [HUMAN, KB] if colour == "white" else [KB, HUMAN]
    if options.resume:
        return _resumed(specs)
    game = Game()
    if options.load:
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
    return game, specs, Autosave(), ""


def _resumed(specs: list[PlayerSpec]) -> tuple[Game, list[PlayerSpec], Autosave, str]:
    """The last unfinished game with the seats it was saved with (``specs`` where a tag names
    no player), saved on in its own file."""
    found = last_unfinished()
    if found is None:
        return Game(), specs, Autosave(), "No unfinished game to resume; a new game starts."
    path, saved = found
    for side, tag in enumerate(("White", "Black")):
        try:
            specs[side] = PlayerSpec.parse(saved.tags.get(tag, ""))
        except PlayerSpecError:
            pass  # not a player we know: the side keeps its default seat
    return saved.game, specs, Autosave(path=path), f"Resumed {path} ({saved.game.ply} plies)."


def _console(session: Session, terminal: bool, ascii_only: bool) -> Console:
    glyphs = glyphs_for(getattr(sys.stdout, "encoding", None), ascii_only)
    if terminal:
        return prompt_console(session, history=history_file(data_dir()), glyphs=glyphs)
    return PlainConsole(glyphs=glyphs)
