"""The state the console's commands act on: the game, the two seats, the AI's level, the side
shown at the bottom, the AI's reasons and the autosave. No terminal in it: the loop
(``app``) and the commands (``commands``) show what it holds and ask it to change.

>>> from kbdraughts.ai.spec import PlayerSpec
>>> session = Session(lambda spec: None, [HUMAN, PlayerSpec.parse("kb:1:nokb")])
>>> session.seat_name(0), session.seat_name(1)
('White (you)', 'Black (kb:1:nokb)')
>>> session.set_level(3), str(session.specs[1])  # the level changes, the options stay
(True, 'kb:3:nokb')
"""

from __future__ import annotations

import random
import time
from typing import Any, NamedTuple, Sequence

from kbdraughts.ai.clock import GameClock
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import BLACK, START, WHITE, Move, Position, Side
from kbdraughts.files import printable
from kbdraughts.game import Game, Reason, Result
from kbdraughts.notation import side_name
from kbdraughts.pdn import PdnGame
from kbdraughts.ui.autosave import SEAT_TAGS, Autosave
from kbdraughts.ui.players import AIThread, LazyPlayer, PlayerFactory
from kbdraughts.variations import Variations

HUMAN = PlayerSpec("human")
KB = PlayerSpec("kb")
#: The endings the players decide (or a file's record says), which ``undo`` takes back first.
BY_WORD = (Reason.RESIGNATION, Reason.AGREEMENT, Reason.RECORDED)


def ending_name(result: Result) -> str:
    """What ``undo`` takes back of an ending by word: ``resignation``, ``draw agreement``,
    ``recorded result``."""
    if result.reason is Reason.RECORDED:
        return "recorded result"
    return "resignation" if result.winner is not None else "draw agreement"


class Promoted(NamedTuple):
    """The game before a ``promote``: its moves, variations, loaded ply, the AI's reasons and
    the board shown; ``undo`` puts them back while the person has played nothing since."""

    game: Game
    variations: Variations
    loaded_ply: int
    choices: dict[int, Any]
    path: tuple[Move, ...]


class Session:
    """One game at the board between two seats, each a person or an AI player.

    ``specs`` are the seats, White's first; ``factory`` builds an AI player from a spec
    (injected so tests can use a small deterministic player and the shipped game the real
    engine). ``level``, when given, is the level of every knowledge-based seat. ``clock``: the
    game's clock (``play --clock``), run by the loop for the side it waits for.

    ``game`` is the game as played, to its last move; ``shown`` is the game as far as the
    board shown, which walking back (``show``) moves without taking any move back, and
    ``variations`` the lines tried at earlier positions (:mod:`kbdraughts.ui.walking`).
    """

    def __init__(
        self,
        factory: PlayerFactory,
        specs: Sequence[PlayerSpec] = (HUMAN, KB),
        game: Game | None = None,
        level: int | None = None,
        autosave: Autosave | None = None,
        bottom: Side | None = None,
        record: PdnGame | None = None,
        clock: GameClock | None = None,
    ):
        self.factory = factory
        self.level = level
        self.game = game or Game()
        #: Where a new game starts: the position set up (``--fen``, ``setup FEN``), if any.
        self.start: Position = self.game.start if record is None else START
        self.autosave = autosave
        self.clock = clock
        self.ai_thread = AIThread()
        self.specs: list[PlayerSpec] = [
            s if level is None else s.with_level(level) for s in specs]
        self.players: list[LazyPlayer | None] = [self._player(s) for s in self.specs]
        self.bottom: Side = bottom if bottom is not None else self.person_side()
        self.choices: dict[int, Any] = {}  # ply index of an AI move -> its Choice
        #: The material (``Position.counts()``) in which the AI offered a draw already (or, in
        #: a king duel, said why not), and the position in which it last weighed one.
        self.draw_offered: tuple[int, int, int, int] | None = None
        self.draw_weighed: tuple[Any, int, Any] | None = None
        self._hint_player: LazyPlayer | None = None
        self._save_failed = False
        self.record: PdnGame | None = None  # the file's game, when one was loaded
        self.loaded_ply = -1  # the ply the loaded game had
        #: The lines tried instead of the game's moves; the board shown, when it is not the
        #: game's last position (``view``, reached by the moves ``path``).
        self.variations = Variations()
        self.path: tuple[Move, ...] | None = None
        self.view: Game | None = None
        self.promoted: Promoted | None = None  # what 'undo' puts back after 'promote'
        self.loaded_size = (0, 0)  # the loaded game's variations and their moves
        if record is not None:
            self._remember(record)

    # --- seats ------------------------------------------------------------------------------

    def _player(self, spec: PlayerSpec) -> LazyPlayer | None:
        return None if spec.is_human else LazyPlayer(spec, self.factory, self.ai_thread)

    def is_human(self, side: Side) -> bool:
        return self.specs[side].is_human

    def people(self) -> list[Side]:
        """The sides people play."""
        return [s for s in (WHITE, BLACK) if self.is_human(s)]

    def person_side(self) -> Side:
        """The side of the person, White when both or neither are people."""
        return BLACK if self.is_human(BLACK) and not self.is_human(WHITE) else WHITE

    def seat_name(self, side: Side) -> str:
        """``White (you)``, ``Black (kb:3)``; while a loaded game's own moves stand, the
        file's player (``White (Medkov)``): they played them, not the seats."""
        player = self.recorded_player(side)
        if player is not None and player != self.seat_names()[side]:  # (a resumed game's own
            return f"{side_name(side)} ({player})"  # tags name the seats: said as the seats)
        who = "you" if self.is_human(side) and len(self.people()) == 1 else str(self.specs[side])
        return f"{side_name(side)} ({who})"

    def recorded_player(self, side: Side) -> str | None:
        """The loaded file's player of ``side`` (safe to show) while the game stands within
        the file's moves; None otherwise or when the file names none."""
        record = self.record
        if record is None or record.game is not self.game or self.game.ply > self.loaded_ply:
            return None
        name = record.tags.get("White" if side == WHITE else "Black", "").strip()
        return printable(name) if name and name != "?" else None

    def shown_level(self) -> int | None:
        """The level of the (first) knowledge-based AI playing, else the level asked for."""
        for spec in self.specs:
            if spec.kind == "kb":
                return spec.level
        return self.level

    def set_level(self, level: int) -> bool:
        """Every knowledge-based seat plays at ``level`` from now on, its other options kept;
        False when no seat is one."""
        self.level = level
        changed = False
        for side, spec in enumerate(self.specs):
            if spec.kind == "kb":
                self.specs[side] = spec.with_level(level)
                self.players[side] = self._player(self.specs[side])
                changed = True
        self._hint_player = None
        return changed

    def rebuild_kb_players(self) -> None:
        """Build the knowledge-based players again (a rule was taught: it counts from now)."""
        for side, spec in enumerate(self.specs):
            if spec.kind == "kb":
                self.players[side] = self._player(spec)
        self._hint_player = None

    def hint_player(self) -> LazyPlayer:
        """The knowledge-based AI playing, else one at the session's level for hints."""
        for spec, player in zip(self.specs, self.players):
            if player is not None and spec.kind == "kb":
                return player
        if self._hint_player is None:
            spec = KB if self.level is None else KB.with_level(self.level)
            self._hint_player = LazyPlayer(spec, self.factory, self.ai_thread)
        return self._hint_player

    # --- the game ---------------------------------------------------------------------------

    def move_number(self) -> int:
        shown = self.shown
        return 1 + (shown.ply + (shown.start.side == BLACK)) // 2

    # --- walking through the game -------------------------------------------------------------

    @property
    def shown(self) -> Game:
        """The game as far as the board shown: the game itself at its last position, else the
        moves to the position looked at (of the main line or a variation)."""
        return self.view if self.view is not None else self.game

    def walking(self) -> bool:
        """Whether the board shows another position than the game's last."""
        return self.view is not None

    def shown_path(self) -> tuple[Move, ...]:
        return self.path if self.path is not None else tuple(self.game.moves)

    def show(self, path: tuple[Move, ...]) -> None:
        """Show the position the moves ``path`` reach (legal from the start: the tree's or
        the game's); the game's own moves are all kept."""
        if path == tuple(self.game.moves):
            self.path = self.view = None
            return
        view = self.view
        if view is not None and self.path is not None and path[:-1] == self.path and path:
            view.push(path[-1])  # one step forward: no replay
        else:
            view = Game(self.game.start)
            for move in path:
                view.push(move)
        self.path, self.view = path, view

    def play(self, move: Move, choice: Any = None) -> None:
        """Push a move, remembering the AI's Choice when it played it; the mover's clock
        stops and gains its increment. A person's move makes a ``promote`` before it stand;
        the AI's reply to one is taken back with it."""
        if choice is None:
            self.promoted = None
        if choice is not None:
            self.choices[self.game.ply] = choice
        if self.clock is not None:
            self.clock.press(self.game.side)
        self.game.push(move)

    def flag_fell(self) -> bool:
        """Whether the side to move has run out of time: the game is then lost on time (True
        once, when it ends so)."""
        clock, game = self.clock, self.game
        if clock is None or game.result is not None or not clock.flagged(game.side):
            return False
        clock.stop()
        game.lose_on_time(game.side)
        return True

    def moves_played(self, side: Side) -> int:
        """The moves ``side`` has played in this game (the time manager's count)."""
        first = self.game.start.side
        return (self.game.ply + (side == first)) // 2

    def move_time_ms(self, side: Side) -> int | None:
        """What the time manager gives ``side``'s move now; None without a clock."""
        if self.clock is None:
            return None
        return self.clock.share_ms(side, self.moves_played(side))

    def last_choice(self) -> tuple[int, Any] | None:
        """The ply and Choice of the last AI move still in the game."""
        for ply in range(self.game.ply - 1, -1, -1):
            if ply in self.choices:
                return ply, self.choices[ply]
        return None

    def _last_own_ply(self) -> int | None:
        """The ply of the last move a person played (any move when no person plays)."""
        game, watching = self.game, not self.people()
        for ply in range(game.ply - 1, -1, -1):
            if watching or self.is_human(game.positions[ply].side):
                return ply
        return None

    def can_undo(self) -> bool:
        """Whether ``undo`` has anything to take back: an ending by the players' word, or a
        move of a person's."""
        return self.ended_by_word() is not None or self._last_own_ply() is not None

    def ended_by_word(self) -> Result | None:
        """The resignation or agreed draw that ended the game, or None."""
        result = self.game.result
        return result if result is not None and result.reason in BY_WORD else None

    def take_back_ending(self) -> Result | None:
        """Take back a resignation or an agreed draw (the game goes on); what was taken back."""
        ended = self.ended_by_word()
        if ended is not None:
            self.game.undo()
        return ended

    def undo(self) -> list[Move]:
        """Take back the last move of a person's and the AI's replies after it (with no person
        at the board, the last move); the moves taken back, the last first. Nothing when no
        person has moved yet: the AI would only play its move again."""
        own = self._last_own_ply()
        self.promoted = None
        taken: list[Move] = []
        while own is not None and self.game.ply > own:
            taken.append(self.game.pop())
            self.choices.pop(self.game.ply, None)
        self.variations.prune(self.game.ply)  # those of the moves taken back go with them
        return taken

    def new_game(self, colour: str | None = None, start: Position | None = None) -> None:
        """A new game from ``start`` (default: the position set up, else the initial one);
        ``colour`` ("white", "black", "random") is the person's side when one person plays
        (the seats change places if needed)."""
        if colour == "random":
            colour = random.choice(["white", "black"])
        if colour is not None and len(self.people()) == 1:
            you = WHITE if colour == "white" else BLACK
            if not self.is_human(you):
                self.specs.reverse()
                self.players.reverse()
            self.bottom = you
        self.load_game(Game(self.start if start is None else start))

    def load_game(self, game: Game, record: PdnGame | None = None) -> None:
        """Play on with ``game``, saved to a new file from its next move; ``record`` is the
        file's game it came from (its tags, comments and variations kept when saved)."""
        self.game = game
        self.record = self.promoted = None
        self.loaded_ply = -1
        self.variations = Variations()
        self.path = self.view = None
        if record is not None:
            self._remember(record)
        self.choices.clear()
        self.draw_offered = self.draw_weighed = None
        if self.clock is not None:  # a new game starts with full clocks
            self.clock.reset()
        if self.autosave:
            self.autosave.restart()

    def _remember(self, record: PdnGame) -> None:
        self.record = record
        self.game = record.game
        self.loaded_ply = record.game.ply
        self.variations = record.variations  # made here: saved with the file's game
        self.loaded_size = self.variations.size()

    def as_loaded(self) -> bool:
        """Whether the game is the loaded file's, nothing played, taken back or added to it
        yet: a record to study, not a game of the person's to autosave."""
        return self.record is not None and self.record.game is self.game \
            and self.game.ply == self.loaded_ply and self.promoted is None \
            and self.variations.size() == self.loaded_size

    def shows_the_record(self) -> bool:
        """Whether the game stands as it was loaded, ended: its result is the record's, not
        a result of this session's play."""
        return self.record is not None and self.game.ply == self.loaded_ply \
            and self.record.game is self.game and self.game.result is not None \
            and self.game.result.pdn == self.record.result

    # --- saving -----------------------------------------------------------------------------

    def saved_game(self) -> Game | PdnGame:
        """What ``save`` writes: the loaded file's game, moves as they stand now, with all the
        file had (tags, comments, variations); else the game, for :meth:`tags` (with the
        variations made here, when there are some)."""
        if self.record is not None and self.record.game is self.game:
            return self.record
        if len(self.variations):
            return PdnGame(self.tags(), self.game, variations=self.variations)
        return self.game

    def seat_names(self) -> tuple[str, str]:
        """Who sits at each side, White's first, as a saved game names them: ``You`` or the
        AI's spec."""
        return tuple("You" if self.is_human(side)  # type: ignore[return-value]
                     else str(self.specs[side]) for side in (WHITE, BLACK))

    def tags(self) -> dict[str, str]:
        """The PDN tags of the game (with a clock, its TimeControl: seconds+increment)."""
        white, black = self.seat_names()
        tags = {"Event": "kbdraughts game", "Date": time.strftime("%Y.%m.%d"),
                "White": white, "Black": black}
        if self.clock is not None:
            control = self.clock.control
            tags["TimeControl"] = f"{control.base_s:g}+{control.increment_s:g}"
        return tags

    def save_now(self) -> str | None:
        """Autosave the game; a note to show when saving failed for the first time."""
        if self.autosave is None or self.autosave.path is None and self.as_loaded():
            return None  # a master game is not saved as the person's until they change it
        saved = self.saved_game()
        # a loaded file's game keeps its own tags; the seats go beside them for resume
        tags = (dict(zip(SEAT_TAGS, self.seat_names())) if saved is self.record
                else self.tags())
        self.autosave.save(saved, tags)
        if self.autosave.error and not self._save_failed:
            self._save_failed = True
            return f"Note: {self.autosave.error}; the game goes on unsaved."
        return None
