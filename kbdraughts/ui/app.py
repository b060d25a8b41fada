"""The read-move loop: whose turn it is, the person's moves and commands, the AI's replies,
draw offers, the end of the game and the autosave after every move.

:class:`GameApp` holds the state of a session (the game, the seats, the view) and talks only to
a console (``console.PromptConsole`` for a terminal, ``console.PlainConsole`` for a pipe), so
the same loop runs in a terminal, under tests with prompt_toolkit's pipe input, and in scripts.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable, Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.board import BLACK, START, WHITE, Move, Side
from kbdraughts.game import Game
from kbdraughts.notation import MoveError, move_text, moves_text, parse_move, side_name
from kbdraughts.ui import commands
from kbdraughts.ui.autosave import Autosave
from kbdraughts.ui.completer import GameCompleter
from kbdraughts.ui.console import Console, PromptConsole
from kbdraughts.ui.players import HUMAN, AIThread, LazyPlayer, PlayerFactory, is_human, think
from kbdraughts.ui.render import ASCII, board_fragments, material_text
from kbdraughts.ui.toolbar import ToolbarInfo, make_toolbar

#: Seconds between moves when two AIs play, so people can watch.
WATCH_DELAY = 0.8


class QuitGame(Exception):
    """Raised by ``quit`` to leave the loop."""


def score_text(pdn: str, ascii_only: bool = False) -> str:
    if ascii_only:
        return pdn
    return {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½"}.get(pdn, pdn)


def is_king_duel(game: Game) -> bool:
    """Exactly one king on each side and nothing else."""
    return game.position.counts() == (0, 1, 0, 1)


class GameApp:
    """One session at the board: a game between two seats, each a person or an AI player.

    ``specs`` are the seats' player specs, White's first (``"human"``, ``"kb"``, ``"kb:3"``,
    ``"random"`` ...); ``factory`` builds an AI player from a spec (injected so tests can use a
    small deterministic player and the shipped game the real engine).
    """

    def __init__(
        self,
        console: Console,
        factory: PlayerFactory,
        specs: Sequence[str] = (HUMAN, "kb"),
        game: Game | None = None,
        level: int | None = None,
        autosave: Autosave | None = None,
        delay: float = 0.0,
        bottom: Side | None = None,
    ):
        self.console = console
        self.factory = factory
        self.level = level
        self.game = game or Game()
        self.autosave = autosave
        self.delay = delay
        self.ai_thread = AIThread()
        self.specs: list[str] = [self._with_level(s) for s in specs]
        self.players: list[LazyPlayer | None] = [self._player(s) for s in self.specs]
        self.bottom: Side = bottom if bottom is not None else self._person_side()
        self._hint_player: LazyPlayer | None = None
        self.choices: dict[int, Any] = {}  # ply index of an AI move -> its Choice
        self.running = True
        self.paused = False  # the AI waits for Enter (after Ctrl-C stopped it)
        self.board_shown = False  # the board on screen shows the current position
        self.result_announced = False
        self.draw_offered = False  # the AI offered a draw in this king duel already
        self.saved_error_shown = False

    # --- seats ------------------------------------------------------------------------------

    def _with_level(self, spec: str) -> str:
        if is_human(spec):
            return HUMAN
        if spec == "kb" and self.level is not None:
            return f"kb:{self.level}"
        return spec

    def _player(self, spec: str) -> LazyPlayer | None:
        return None if spec == HUMAN else LazyPlayer(spec, self.factory, self.ai_thread)

    def is_human(self, side: Side) -> bool:
        return self.specs[side] == HUMAN

    def _person_side(self) -> Side:
        return BLACK if self.is_human(BLACK) and not self.is_human(WHITE) else WHITE

    def seat_name(self, side: Side) -> str:
        """``White (you)``, ``Black (kb:3)``."""
        spec = self.specs[side]
        who = "you" if spec == HUMAN and not all(self.is_human(s) for s in (WHITE, BLACK)) \
            else spec
        return f"{side_name(side)} ({who})"

    def shown_level(self) -> int | None:
        """The level of the (first) knowledge-based AI playing, if any."""
        for spec, player in zip(self.specs, self.players):
            if player is None:
                continue
            if spec.startswith("kb:") and spec[3:].isdigit():
                return int(spec[3:])
            built = player.ready
            level = getattr(getattr(built, "engine", built), "level", None)
            if isinstance(level, int):
                return level
        return self.level

    # --- output -----------------------------------------------------------------------------

    def say(self, text: str, kind: str = "info") -> None:
        self.console.show([(f"class:msg.{kind}", text)])

    def info(self, text: str) -> None:
        self.say(text, "info")

    def error(self, text: str) -> None:
        self.say(text, "error")

    def show_board(self) -> None:
        game = self.game
        last = game.moves[-1] if game.moves else None
        top = 1 - self.bottom
        panel: list[StyleAndTextTuples] = [[] for _ in range(8)]
        panel[0] = [("class:board.panel.side", self.seat_name(top))]
        panel[7] = [("class:board.panel.side", self.seat_name(self.bottom))]
        panel[3] = [("class:board.panel", material_text(game.position))]
        if last is not None:
            who = side_name(1 - game.side)
            panel[4] = [("class:board.panel", f"Last move: {who} {move_text(last)}")]
        if self.console.columns() < 78:  # the panel would wrap; the board alone fits
            panel = []
        glyphs = self.console.glyphs
        self.console.show(board_fragments(
            game.position, bottom=self.bottom, last=last, glyphs=glyphs,
            marks=not self.console.colour, panel=panel,
        ))
        self.board_shown = True

    def prompt(self) -> StyleAndTextTuples:
        game = self.game
        number = self.move_number()
        dots = "." if game.side == WHITE else "..."
        if game.result is not None:
            return [("class:prompt.number", f"Game over ({game.result.pdn}). "),
                    ("", "Command (new, undo, save, quit): ")]
        if not self.is_human(game.side):
            return [("class:prompt.number", f"{number}{dots} "),
                    ("class:prompt.side", side_name(game.side)),
                    ("", " to move (the AI is paused; Enter lets it move): ")]
        return [("class:prompt.number", f"{number}{dots} "),
                ("class:prompt.side", side_name(game.side)),
                ("", " to move: ")]

    def move_number(self) -> int:
        return 1 + (self.game.ply + (self.game.start.side == BLACK)) // 2

    def toolbar_info(self) -> ToolbarInfo:
        game = self.game
        result = game.result
        choice = self.last_choice()
        return ToolbarInfo(
            move_number=self.move_number(),
            side=side_name(game.side) if result is None else "Game over:",
            material=material_text(game.position),
            level=self.shown_level() if any(p is not None for p in self.players) else None,
            reason=getattr(choice, "short", "") if choice is not None else "",
            status="to move" if result is None else str(result),
        )

    def last_choice(self) -> Any:
        """The Choice of the last AI move still in the game."""
        for ply in range(self.game.ply - 1, -1, -1):
            if ply in self.choices:
                return self.choices[ply]
        return None

    # --- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        self.greet()
        self.ai_thread.start()
        while self.running:
            try:
                self.step()
            except (EOFError, QuitGame):
                break
            except KeyboardInterrupt:  # Ctrl-C between prompts never ends the game
                self.say("(Interrupted.)", "dim")
        self.farewell()
        return 0

    def greet(self) -> None:
        self.show_board()
        people = [s for s in (WHITE, BLACK) if self.is_human(s)]
        if len(people) == 1:
            you = people[0]
            text = f"You play {side_name(you)} against {self.specs[1 - you]}."
        elif people:
            text = "Two people play at this board."
        else:
            text = f"{self.specs[WHITE]} (White) plays {self.specs[BLACK]} (Black); Ctrl-C pauses."
        self.info(f"kbdraughts — Russian draughts. {text}")
        if people:
            self.say("Type a move like c3-d4 (Tab lists the legal moves), or 'help'.", "dim")

    def step(self) -> None:
        game = self.game
        if game.result is not None:
            if not self.result_announced:
                self.announce_result()
            else:
                self.read_line()
            return
        if self.offer_king_duel_draw():
            return
        if self.is_human(game.side) or self.paused:
            if not self.board_shown:
                self.show_board()
            self.read_line()
        else:
            self.ai_move()

    def read_line(self) -> None:
        try:
            line = self.console.read(self.prompt())
        except KeyboardInterrupt:
            self.say("(Ctrl-C clears the line. To leave, type 'quit' or press Ctrl-D; "
                     "the game is saved.)", "dim")
            return
        self.handle(line)

    def handle(self, line: str) -> None:
        """A line the person typed: a command, a move, or a mistake explained."""
        text = line.strip()
        game = self.game
        if not text:
            if self.paused:
                self.paused = False
            return
        word, _, arg = text.partition(" ")
        cmd = commands.lookup(word)
        if cmd is not None:
            cmd.handler(self, arg)
            return
        if re.fullmatch(r"[A-Za-z]+", text) and not re.fullmatch(r"[a-hA-H][1-8]", text):
            maybe = commands.suggest(word)
            hint = f" Did you mean '{maybe}'?" if maybe else ""
            self.error(f"{text!r} is not a move or a command.{hint} Type 'help' for the list, "
                       "or a move like c3-d4.")
            return
        if game.result is not None:
            self.error(f"The game is over ({game.result}). Type 'new' for another game, "
                       "'undo' to take moves back, or 'quit'.")
            return
        if re.fullmatch(r"[a-hA-H][1-8]", text):
            self.piece_moves(text)
            return
        # A move copied from a score sheet: "12. c3-d4", "12... f6-g5!", "c3:e5?!".
        text = re.sub(r"^\d+\s*(?:\.\.\.|\.|…)\s*(?=[a-hA-H])", "", text)
        text = re.sub(r"(?<=[1-8])[!?]+$", "", text)
        if not self.is_human(game.side):
            self.error(f"It is {side_name(game.side)}'s move and the AI plays it: press Enter "
                       "to let it move, or type a command.")
            return
        try:
            move = parse_move(game.position, text, game.legal_moves())
        except MoveError as e:
            self.error(commands.capitalised(str(e)))
            return
        self.play(move)

    def piece_moves(self, name: str) -> None:
        """A square alone: what the piece on it can play (the person is choosing a move)."""
        from kbdraughts.notation import parse_square

        try:
            square = parse_square(name)
        except ValueError as e:
            self.error(commands.capitalised(str(e)) + ".")
            return
        legal = self.game.legal_moves()
        own = moves_text([m for m in legal if m.start == square])
        piece = self.game.position.piece_at(square)
        if own:
            self.info(f"The piece on {name.lower()} can play {', '.join(own)}.")
        elif piece is None or piece[0] != self.game.side:
            self.error(f"There is no {side_name(self.game.side)} piece on {name.lower()}; "
                       "type a whole move like c3-d4 (Tab lists them).")
        elif legal and legal[0].captured:
            self.error(f"The piece on {name.lower()} cannot move: you must capture: "
                       f"{', '.join(moves_text(legal))}.")
        else:
            self.error(f"The piece on {name.lower()} cannot move; "
                       f"legal moves: {', '.join(moves_text(legal))}.")

    def play(self, move: Move, choice: Any = None) -> None:
        """Push a move; remember the AI's reason; save."""
        if choice is not None:
            self.choices[self.game.ply] = choice
        self.game.push(move)
        self.board_shown = False
        self.save_now()

    def ai_move(self) -> None:
        game = self.game
        side = game.side
        player = self.players[side]
        assert player is not None
        watching = not any(self.is_human(s) for s in (WHITE, BLACK))
        if watching and self.delay and game.ply:
            try:
                time.sleep(self.delay)
            except KeyboardInterrupt:
                self.pause("Paused.")
                return
        label = f"{side_name(side)} ({self.specs[side]}) is thinking… Ctrl-C: move now"
        try:
            choice, interrupted = think(
                self.ai_thread, lambda stop: player.choose(game, stop), self.console.spin, label)
        except Exception as e:  # a fault in the AI must not end the person's game
            self.console.unspin()
            self.pause(f"The AI ({self.specs[side]}) failed: {type(e).__name__}: {e}.")
            return
        self.console.unspin()
        if player.warning:
            self.error(f"Note: {player.warning}.")
            player.warning = ""
        if choice is None or getattr(choice, "move", None) not in game.legal_moves():
            self.pause("Stopped before the AI chose a move." if interrupted
                       else f"The AI ({self.specs[side]}) gave no legal move.")
            return
        self.play(choice.move, choice)
        self.show_board()
        short = getattr(choice, "short", "") or getattr(choice, "reason", "")
        self.console.show([
            ("class:msg.ai.move", f"{side_name(side)} plays {move_text(choice.move)}"),
            ("class:msg.ai", f" — {short}" if short else ""),
            ("class:msg.dim", "  (moved now: Ctrl-C)" if interrupted else ""),
        ])
        if watching and interrupted:
            self.pause("Paused.")

    def pause(self, why: str) -> None:
        self.paused = True
        self.say(f"{why} Press Enter to let the AI move, or type a command (undo, quit …).",
                 "dim")

    # --- draws and results --------------------------------------------------------------------

    def offer_king_duel_draw(self) -> bool:
        """In a king duel the AI offers a draw once; True when it did (the loop goes on)."""
        game = self.game
        if not is_king_duel(game):
            self.draw_offered = False
            return False
        if self.draw_offered:
            return False
        ai_sides = [s for s in (WHITE, BLACK) if not self.is_human(s)]
        if not ai_sides:
            return False
        self.draw_offered = True
        if not self.board_shown:
            self.show_board()
        offerer = 1 - game.side if len(ai_sides) == 2 else ai_sides[0]
        receiver = 1 - offerer
        if self.is_human(receiver):
            accepted = self.ask_yes_no(
                f"{side_name(offerer)} offers a draw. Accept? [y/n] ")
        else:
            player = self.players[receiver]
            accepted = bool(player and player.accepts_draw(game, receiver))
            self.say(f"{side_name(offerer)} offers a draw; {side_name(receiver)} "
                     f"{'accepts' if accepted else 'declines'}.", "ai")
        if accepted:
            game.agree_draw()
            self.save_now()
        elif self.is_human(receiver):
            self.info("Draw declined; play on.")
        return True

    def ask_yes_no(self, question: str) -> bool:
        while True:
            try:
                answer = self.console.ask([("class:msg.title", question)]).strip().lower()
            except KeyboardInterrupt:
                return False
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            if answer in ("quit", "exit", "q"):
                raise QuitGame
            self.error("Please answer y (yes) or n (no).")

    def announce_result(self) -> None:
        game = self.game
        result = game.result
        assert result is not None
        self.result_announced = True
        if not self.board_shown:
            self.show_board()
        score = score_text(result.pdn, self.console.glyphs is ASCII)
        people = [s for s in (WHITE, BLACK) if self.is_human(s)]
        verdict = ""
        if len(people) == 1:
            if result.winner is None:
                verdict = " A draw."
            else:
                verdict = " You win!" if result.winner == people[0] else " You lose."
        self.console.show([("class:msg.result", f"Game over: {result}, {score}."),
                           ("class:msg.good", verdict)])
        self.save_now()
        if self.ask_yes_no("New game? [y/n] "):
            self.new_game(None)
        else:
            self.say("Type 'new' for another game, 'undo' to take moves back, 'save FILE', "
                     "or 'quit'.", "dim")

    def offer_draw(self) -> None:
        game = self.game
        if game.result is not None:
            self.error(f"The game is over ({game.result}).")
            return
        me = game.side if self.is_human(game.side) else self._person_side()
        other = 1 - me
        if self.is_human(other):
            accepted = self.ask_yes_no(f"{side_name(me)} offers a draw. "
                                       f"{side_name(other)}, accept? [y/n] ")
        else:
            player = self.players[other]
            assert player is not None
            try:
                answer, interrupted = think(
                    self.ai_thread, lambda stop: player.accepts_draw(game, other),
                    self.console.spin, f"{side_name(other)} considers your offer…")
            except Exception as e:
                self.console.unspin()
                self.error(f"The AI could not judge the offer: {type(e).__name__}: {e}.")
                return
            self.console.unspin()
            accepted = bool(answer) and not interrupted
            self.say(f"{side_name(other)} {'accepts' if accepted else 'declines'} the draw"
                     f"{'.' if accepted else '; play on.'}", "ai")
        if accepted:
            game.agree_draw()
            self.save_now()

    def resign(self) -> None:
        game = self.game
        if game.result is not None:
            self.error(f"The game is over ({game.result}).")
            return
        side = game.side if self.is_human(game.side) else self._person_side()
        game.resign(side)
        self.info(f"{side_name(side)} resigns.")
        self.save_now()

    # --- commands that change the game --------------------------------------------------------

    def _changed(self) -> None:
        self.board_shown = False
        self.result_announced = False
        # Watching two AIs, stay paused so the position can be looked at; Enter goes on.
        self.paused = self.paused and not any(self.is_human(s) for s in (WHITE, BLACK))

    def undo(self) -> None:
        game = self.game
        if not game.moves:
            self.error("Nothing to undo: no move has been played yet.")
            return
        taken: list[str] = []
        people = any(self.is_human(s) for s in (WHITE, BLACK))
        while game.moves:
            move = game.pop()
            self.choices.pop(game.ply, None)
            taken.append(move_text(move))
            if not people or self.is_human(game.side):
                break
        self._changed()
        self.save_now()
        self.info(f"Took back {' and '.join(reversed(taken))}.")
        self.show_board()

    def new_game(self, colour: str | None) -> None:
        if colour == "random":
            import random

            colour = random.choice(["white", "black"])
        if colour is not None and sum(self.is_human(s) for s in (WHITE, BLACK)) == 1:
            you = WHITE if colour == "white" else BLACK
            if not self.is_human(you):
                self.specs.reverse()
                self.players.reverse()
            self.bottom = you
        self.game = Game(START)
        self.choices.clear()
        self.draw_offered = False
        if self.autosave:
            self.autosave.restart()
        self._changed()
        self.info(f"New game: {self.seat_name(WHITE)} against {self.seat_name(BLACK)}.")

    def save(self, name: str) -> None:
        from pathlib import Path

        from kbdraughts.pdn import game_to_pdn

        path = Path(name).expanduser()
        try:
            path.write_text(game_to_pdn(self.game, self.tags()), encoding="utf-8")
        except OSError as e:
            self.error(f"Cannot write {path}: {e.strerror or e}.")
            return
        self.info(f"Saved to {path} ({self.game.ply} plies).")

    def load(self, name: str) -> None:
        from pathlib import Path

        from kbdraughts.pdn import PdnError, read_pdn_file

        try:
            games = read_pdn_file(Path(name).expanduser())
        except PdnError as e:
            self.error(f"{e}")
            return
        if not games:
            self.error(f"{name}: no game in this file.")
            return
        self.game = games[0].game
        self.choices.clear()
        self.draw_offered = False
        if self.autosave:
            self.autosave.restart()
        self._changed()
        more = f" (the first of {len(games)})" if len(games) > 1 else ""
        self.info(f"Loaded {name}{more}: {self.game.ply} plies, "
                  f"{side_name(self.game.side)} to move.")
        self.save_now()

    def set_level(self, text: str) -> None:
        from kbdraughts.ai.engine import MAX_LEVEL as max_level

        if not text:
            level = self.shown_level()
            self.info(f"The AI plays at level {level if level is not None else 'default'} "
                      f"(1–{max_level}); 'level N' changes it.")
            return
        if not text.isdigit() or not 1 <= int(text) <= max_level:
            self.error(f"Level must be a whole number from 1 to {max_level}, got {text!r}.")
            return
        self.level = int(text)
        changed = False
        for side in (WHITE, BLACK):
            spec = self.specs[side]
            if spec == "kb" or spec.startswith("kb:"):
                self.specs[side] = f"kb:{self.level}"
                self.players[side] = self._player(self.specs[side])
                changed = True
        self._hint_player = None
        self.info(f"Level {self.level}." + ("" if changed else
                                            " (No knowledge-based AI plays in this game.)"))

    def teach(self, move: Move) -> None:
        from kbdraughts.ui.teach import teach

        try:
            taught = teach(self.game.position, move)
        except OSError as e:
            self.error(f"Cannot write the rule: {e.strerror or e}.")
            return
        if not taught.ok:
            self.error(f"The rule was not kept: {taught.checked}")
            return
        if not taught.written:
            self.info(f"Already taught: rule {taught.rule_id} at {taught.path}:{taught.line}.")
            return
        # Rebuild the knowledge-based players so the new rule counts from the next move.
        for side in (WHITE, BLACK):
            if self.players[side] is not None and self.specs[side].startswith("kb"):
                self.players[side] = self._player(self.specs[side])
        self._hint_player = None
        self.info(f"Taught rule {taught.rule_id}: {side_name(self.game.side)} plays "
                  f"{move_text(move)} here. Written to {taught.path}:{taught.line}; "
                  f"{taught.checked}. The AI knows it from now on.")

    # --- hint, why --------------------------------------------------------------------------

    def hint(self) -> None:
        game = self.game
        if game.result is not None:
            self.error(f"The game is over ({game.result}).")
            return
        player = self._hint_engine()
        label = "Thinking about a hint… Ctrl-C: stop"
        try:
            choice, interrupted = think(
                self.ai_thread, lambda stop: player.choose(game, stop), self.console.spin, label)
        except Exception as e:
            self.console.unspin()
            self.error(f"No hint: the AI failed ({type(e).__name__}: {e}).")
            return
        self.console.unspin()
        if choice is None:
            self.error("No hint: stopped before the AI chose." if interrupted
                       else "No hint: there is no legal move.")
            return
        reason = getattr(choice, "reason", "") or getattr(choice, "short", "")
        self.console.show([("class:msg.ai.move", f"Hint: {move_text(choice.move)}"),
                           ("class:msg.ai", f" — {reason}" if reason else "")])

    def _hint_engine(self) -> LazyPlayer:
        for spec, player in zip(self.specs, self.players):
            if player is not None and (spec == "kb" or spec.startswith("kb")):
                return player
        if self._hint_player is None:
            spec = f"kb:{self.level}" if self.level is not None else "kb"
            self._hint_player = LazyPlayer(spec, self.factory, self.ai_thread)
        return self._hint_player

    def why(self) -> None:
        for ply in range(self.game.ply - 1, -1, -1):
            if ply in self.choices:
                choice = self.choices[ply]
                side = self.game.positions[ply].side
                reason = getattr(choice, "reason", "") or "no reason given"
                self.console.show([
                    ("class:msg.ai.move", f"{side_name(side)} played {move_text(choice.move)}"),
                    ("class:msg.ai", f": {reason}"),
                ])
                return
        self.error("The AI has not moved yet in this game.")

    # --- saving and leaving -----------------------------------------------------------------

    def tags(self) -> dict[str, str]:
        return {
            "Event": "kbdraughts game",
            "Date": time.strftime("%Y.%m.%d"),
            "White": "You" if self.is_human(WHITE) else self.specs[WHITE],
            "Black": "You" if self.is_human(BLACK) else self.specs[BLACK],
        }

    def save_now(self) -> None:
        if self.autosave is None:
            return
        self.autosave.save(self.game, self.tags())
        if self.autosave.error and not self.saved_error_shown:
            self.saved_error_shown = True
            self.error(f"Note: {self.autosave.error}; the game goes on unsaved.")

    def quit(self) -> None:
        self.running = False
        raise QuitGame

    def farewell(self) -> None:
        path = self.autosave.path if self.autosave else None
        if self.game.result is None and path is not None:
            self.say(f"Game saved to {path}; 'kbdraughts --resume' continues it. Bye!", "dim")
        else:
            self.say("Bye!", "dim")


def prompt_console(get_app: Callable[[], GameApp], **kwargs: Any) -> PromptConsole:
    """A terminal console whose completer and toolbar read the app's game when asked."""
    completer = GameCompleter(lambda: moves_text(get_app().game.legal_moves()),
                              commands.completion_table)
    toolbar = make_toolbar(lambda: get_app().toolbar_info())
    return PromptConsole(completer=completer, toolbar=toolbar, **kwargs)

