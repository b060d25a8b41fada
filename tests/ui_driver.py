"""A console session driven by typed keys, for the UI's tests: prompt_toolkit's pipe input and
DummyOutput around a small deterministic player (the first legal move in text order)."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kbdraughts.ai.clock import GameClock
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import Move
from kbdraughts.game import Game
from kbdraughts.notation import moves_text, parse_fen
from kbdraughts.ui.app import GameApp, prompt_console
from kbdraughts.ui.autosave import Autosave
from kbdraughts.ui.render import UNICODE
from kbdraughts.ui.session import HUMAN, Session


class Pick(NamedTuple):
    move: Move
    layer: str
    reason: str
    short: str
    words: str = ""  # a player's words, when the test gives them


#: The seat of the test player below: a kind of its own, which only this factory builds.
FIRST = PlayerSpec("first")


class FirstMove:
    """Plays the first legal move in sorted text order; accepts a draw when told to.

    ``movetime_ms`` is the time it was last given (the console sets it from a clock);
    ``think`` is called as it chooses (a test's fake time passes there)."""

    def __init__(self, spec: PlayerSpec = FIRST, accepts: bool = False,
                 think: Callable[[], None] | None = None, words: str = ""):
        self.name = str(spec)
        self.words = words
        self.accepts = accepts
        self.calls = 0
        self.movetime_ms: int | None = None
        self.given: list[int | None] = []  # movetime_ms at each choice
        self.think = think

    def choose(self, game: Game, stop: threading.Event | None = None) -> Pick | None:
        self.calls += 1
        self.given.append(self.movetime_ms)
        if self.think is not None:
            self.think()
        legal = game.legal_moves()
        if not legal:
            return None
        first = moves_text(legal)[0]
        move = next(m for m in legal if moves_text([m])[0] == first)
        return Pick(move, "test", f"the first legal move of {len(legal)}", "first legal move",
                    self.words)

    def accepts_draw(self, game: Game, side: int) -> bool:
        return self.accepts


def factory(accepts: bool = False, think: Callable[[], None] | None = None,
            built: list[FirstMove] | None = None, words: str = ""):
    """A factory of FirstMove players (saying ``words``); each one built is added to
    ``built``."""

    def build(spec: PlayerSpec) -> FirstMove:
        player = FirstMove(spec, accepts, think, words)
        if built is not None:
            built.append(player)
        return player

    return build


def play_session(
    keys: str,
    tmp_path: Path,
    fen: str | None = None,
    specs: Sequence[PlayerSpec] = (HUMAN, FIRST),
    accepts: bool = False,
    clock: GameClock | None = None,
    think: Callable[[], None] | None = None,
    built: list[FirstMove] | None = None,
    words: str = "",
    game: Game | None = None,
    players: Callable[[PlayerSpec], object] | None = None,
) -> tuple[GameApp, str]:
    """Run a whole session on typed ``keys`` ("\\r" is Enter); returns the app and everything
    it showed, prompts and answers included. ``clock``: the game's clock (with a fake time
    source); ``think``: called whenever a test player chooses; ``built`` gets the players;
    ``words``: the reason the players give, in a player's words; ``game``: a game already under
    way (else one from ``fen``); ``players``: the factory of the AI seats (else
    :class:`FirstMove`)."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()  # the end of the keys is the end of input (Ctrl-D) for the session
        if game is None:
            game = Game(parse_fen(fen)) if fen else Game()
        session = Session(players or factory(accepts, think, built, words), specs, game=game,
                          autosave=Autosave(tmp_path / "games"), clock=clock)
        console = prompt_console(session, input=pipe, output=DummyOutput(),
                                 glyphs=UNICODE, interactive=False)
        app = GameApp(console, session)
        assert app.run() == 0
    return app, "\n".join(console.transcript)


def loaded_session(text: str, keys: str, tmp_path: Path) -> tuple[GameApp, str, Path]:
    """A session that loads a PDN file holding ``text`` (``v.pdn`` in ``tmp_path``) first,
    then takes ``keys`` (``OUT`` in them names ``out.pdn`` beside it); the app, everything it
    showed, and the file loaded."""
    source = tmp_path / "v.pdn"
    source.write_text(text)
    keys = keys.replace("OUT", str(tmp_path / "out.pdn"))
    app, shown = play_session(f"load {source}\r{keys}", tmp_path)
    return app, shown, source


#: The longest a paced line waits for its prompt (a guard against a hang, not a timing).
PACE_LIMIT_S = 60


class PacedInput:
    """A plain console's input typed as a person types: each line once the console shows a
    prompt (its output ends without a line break), never while it is busy; a line already
    waiting would stop an analysis, as a key does."""

    def __init__(self, lines: list[str], shown: io.StringIO) -> None:
        self.lines, self.shown = list(lines), shown

    def readline(self) -> str:
        deadline = time.monotonic() + PACE_LIMIT_S
        while self.shown.getvalue().endswith("\n") and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.lines.pop(0) + "\n" if self.lines else ""
