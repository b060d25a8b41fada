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
from dataclasses import replace
from typing import Protocol

from kbdraughts.ai.clock import GameClock, TimeControl
from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError
from kbdraughts.board import BLACK, WHITE
from kbdraughts.errors import KbdraughtsError
from kbdraughts.game import Game
from kbdraughts.notation import FenError, parse_fen
from kbdraughts.pdn import PdnError, PdnGame, load_pdn_file
from kbdraughts.resources import data_dir
from kbdraughts.ui.app import WATCH_DELAY, GameApp, prompt_console
from kbdraughts.ui.autosave import Autosave, GameOpen, resume, seats_of, skipped_note
from kbdraughts.ui.console import Console, PlainConsole, history_file
from kbdraughts.ui.loading import game_lines, loaded_line, pick, variation_notes
from kbdraughts.ui.players import ai_factory
from kbdraughts.ui.render import glyphs_for
from kbdraughts.ui.session import HUMAN, KB, Session
from kbdraughts.wording import plural


class StartError(KbdraughtsError, ValueError):
    """The game asked for cannot start: two of --fen/--load/--resume, a bad FEN, a PDN file
    that cannot be read or holds no game. The message is one line for the person."""


class StartOptions(Protocol):
    """What :func:`start_game` reads (the ``play`` command's arguments)."""

    color: str  # the person's side: "white", "black" or "random"
    level: int | None  # the level of every knowledge-based seat
    fen: str | None  # start from this position
    load: str | None  # play on from the end of a game of this PDN file
    game: int | None  # which game of the --load file (from 1; None: the first)
    resume: bool  # play on with the last unfinished autosaved game
    white: PlayerSpec | None  # who plays White, instead of the colour's choice
    black: PlayerSpec | None
    ascii: bool  # draw with ASCII letters only
    delay: float | None  # seconds between moves when two AIs play (None: by the terminal)
    movetime: int | None  # the AI's time a move, in milliseconds (None: its spec's)
    clock: TimeControl | None  # the game's clock (None: no clock)


def start_game(options: StartOptions) -> int:
    """Play the game ``options`` ask for until the person leaves; 0 then. StartError when it
    cannot start."""
    game, specs, autosave, notes = _opening(options)
    record = game if isinstance(game, PdnGame) else None
    movetime = getattr(options, "movetime", None)
    control = getattr(options, "clock", None)
    if movetime is not None and control is not None:
        raise StartError("--movetime and --clock both set the AI's time: use one")
    chosen = seats(specs, options.white, options.black)
    if movetime is not None:
        chosen = [with_movetime(spec, movetime) for spec in chosen]
    session = Session(ai_factory, chosen,
                      game=game.game if isinstance(game, PdnGame) else game, level=options.level,
                      autosave=autosave, record=record,
                      clock=GameClock(control) if control is not None else None)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    delay = options.delay if options.delay is not None else (WATCH_DELAY if terminal else 0.0)
    app = GameApp(_console(session, terminal, options.ascii), session, delay=delay)
    for kind, note in notes:
        app.say(note, kind)
    try:
        return app.run()
    finally:
        autosave.close()  # another kbdraughts may resume the game from now on


def seats(specs: list[PlayerSpec], white: PlayerSpec | None,
          black: PlayerSpec | None) -> list[PlayerSpec]:
    """The seats, White's first: ``specs`` (from the colour, or a resumed game) with the
    players given on the command line. One AI given alone plays the person, who takes the other
    side; one person given alone plays the knowledge-based AI.

    >>> [str(s) for s in seats([HUMAN, KB], PlayerSpec.parse("random"), None)]
    ['random', 'human']
    >>> [str(s) for s in seats([KB, HUMAN], None, PlayerSpec.parse("kb:2"))]
    ['human', 'kb:2']
    """
    chosen = list(specs)
    for side, given in ((WHITE, white), (BLACK, black)):
        if given is not None:
            chosen[side] = given
    if (white is None) != (black is None):
        given_side = WHITE if white is not None else BLACK
        chosen[1 - given_side] = KB if chosen[given_side].is_human else HUMAN
    return chosen


def with_movetime(spec: PlayerSpec, movetime_ms: int) -> PlayerSpec:
    """``spec`` thinking ``movetime_ms`` a move when it is the engine; others as they are.

    >>> str(with_movetime(KB, 250)), str(with_movetime(HUMAN, 250))
    ('kb:4:250ms', 'human')
    """
    return replace(spec, movetime_ms=movetime_ms) if spec.kind == "kb" else spec


Notes = list[tuple[str, str]]  # (kind, text): what to show before the game, "dim" or "error"


def _opening(options: StartOptions
             ) -> tuple[Game | PdnGame, list[PlayerSpec], Autosave, Notes]:
    """The game to play (the file's game, for --load), the seats, its autosave and notes to
    show first."""
    if sum(bool(x) for x in (options.fen, options.load, options.resume)) > 1:
        raise StartError("choose one of --fen, --load and --resume")
    colour = options.color or "white"
    colour = colour if colour != "random" else random.choice(["white", "black"])
    specs = [HUMAN, KB] if colour == "white" else [KB, HUMAN]
    if options.resume:
        return _resumed(specs)
    if getattr(options, "game", None) is not None and not options.load:
        raise StartError("--game chooses a game of the --load file; say the file")
    game: Game | PdnGame = Game()
    notes: Notes = []
    if options.load:
        game, notes = _loaded(options.load, getattr(options, "game", None))
    elif options.fen:
        try:
            game = Game(parse_fen(options.fen))
        except FenError as e:
            raise StartError(f"bad FEN: {e}") from None
    return game, specs, Autosave(), notes


def _loaded(name: str, number: int | None) -> tuple[PdnGame, Notes]:
    """Game ``number`` (default the first) of a PDN file, and notes: the file's warnings, and
    the list of its games when it holds several and none was chosen."""
    try:
        read = load_pdn_file(name)
        chosen = pick(read, 1 if number is None else number, name)
    except (PdnError, ValueError) as e:
        raise StartError(str(e)) from None
    notes: Notes = [("info", loaded_line(name, number, len(read), chosen.game))]
    notes += [("dim", f"Note: {w}") for w in read.warnings]
    if number is None and len(read) > 1:
        notes.append(("dim", f"{name} holds {len(read)} games; the first is loaded "
                      "('--game N' or 'load FILE --game N' for another):\n"
                      + "\n".join(game_lines(read))))
    return chosen, notes + variation_notes(chosen)


def _resumed(specs: list[PlayerSpec]
             ) -> tuple[Game | PdnGame, list[PlayerSpec], Autosave, Notes]:
    """The last unfinished game no other kbdraughts has open, with the seats it was saved
    with (``specs`` where a tag names no player), saved on in its own file; files passed over
    are named in the notes."""
    found, skipped = resume()
    notes: Notes = [("error", f"Note: {skipped_note(reason)}") for reason in skipped]
    if found is None:
        other = " other" if any(isinstance(r, GameOpen) for r in skipped) else ""
        notes.append(("dim", f"No{other} unfinished game to resume; a new game starts."))
        return Game(), specs, Autosave(), notes
    saved = found.saved
    for side, seat in enumerate(seats_of(saved.tags)):
        try:
            specs[side] = PlayerSpec.parse(seat)
        except PlayerSpecError:
            pass  # not a player we know: the side keeps its default seat
    notes.append(("dim", f"Resumed {found.path} ({plural(saved.game.ply, 'ply')})."))
    return saved, specs, found.autosave, notes  # its comments kept as it is saved on


def _console(session: Session, terminal: bool, ascii_only: bool) -> Console:
    glyphs = glyphs_for(getattr(sys.stdout, "encoding", None), ascii_only)
    if terminal:
        return prompt_console(session, history=history_file(data_dir()), glyphs=glyphs)
    return PlainConsole(glyphs=glyphs)
