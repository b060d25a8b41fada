"""The read-move loop: whose turn it is, the person's moves and commands, the AI's replies,
draw offers, the end of the game and the autosave after every move.

:class:`GameApp` runs a :class:`~kbdraughts.ui.session.Session` (the game, the seats) and
talks only to a console (``console.PromptConsole`` for a terminal, ``console.PlainConsole`` for
a pipe), so the same loop runs in a terminal, under tests with prompt_toolkit's pipe input, and
in scripts. The commands (``commands``) are whole in themselves; the loop looks them up.
"""

from __future__ import annotations

import re
import time
from typing import Any, Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.ai.explain import said_for
from kbdraughts import native
from kbdraughts.board import BLACK, WHITE, Move
from kbdraughts.game import Game
from kbdraughts.notation import (
    MoveError, move_text, moves_text, parse_move, parse_square, side_name)
from kbdraughts.ui import commands, ending, loading, walking
from kbdraughts.ui.commands import QuitGame, capitalised
from kbdraughts.ui.completer import GameCompleter
from kbdraughts.ui.console import Console, PromptConsole, TimeUp
from kbdraughts.ui.clock import run_clock, say_flag_fell
from kbdraughts.ui.draws import offer_draw, warn_of_draw
from kbdraughts.ui.knowledge import faulty_blocks, start_note
from kbdraughts.ui.players import think
from kbdraughts.ui.panel import (
    duration_text, panel_columns, panel_width, side_panel, summary_line)
from kbdraughts.ui.render import ASCII, board_fragments, cut_text
from kbdraughts.ui.session import Session
from kbdraughts.ui.toolbar import choice_words, make_toolbar, session_info

#: Seconds between moves when two AIs play, so people can watch.
WATCH_DELAY = 0.8
#: A typed line is quoted back in a message cut to this many characters.
QUOTE_LIMIT = 40


def score_text(pdn: str, ascii_only: bool = False) -> str:
    if ascii_only:
        return pdn
    return {"1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½"}.get(pdn, pdn)


class GameApp:
    """The loop of one session at the board, shown on ``console``; ``delay`` is the pause
    between moves when two AIs play."""

    def __init__(self, console: Console, session: Session, delay: float = 0.0):
        self.console = console
        self.session = session
        self.delay = delay
        self.paused = False  # the AI waits for Enter (after Ctrl-C stopped it)
        self.board_shown = False  # the board on screen shows the current position
        self.result_announced = False
        self.warned: tuple[Game, int, Any] | None = None  # the position warned of a draw
        self.kb_noted = False  # the start said which blocks of the knowledge base were skipped
        self._timed: Game | None = None  # the game the clock below runs for
        self._started = time.monotonic()

    @property
    def game(self) -> Game:
        return self.session.game

    # --- output -----------------------------------------------------------------------------

    def say(self, text: str, kind: str = "info") -> None:
        self.console.show([(f"class:msg.{kind}", text)])

    def info(self, text: str) -> None:
        self.say(text, "info")

    def error(self, text: str) -> None:
        self.say(text, "error")

    def show_board(self) -> None:
        """The board with the side panel (seats, material, draw counts, the move list) when
        the terminal is wide enough, else the board and a one-line summary."""
        session, game = self.session, self.session.shown
        last = game.moves[-1] if game.moves else None
        marks = not self.console.colour
        columns = self.console.columns()
        panel = side_panel(session, marks, panel_width(columns))
        narrow = columns < panel_columns(panel)
        self.console.show(board_fragments(
            game.position, bottom=session.bottom, last=last, glyphs=self.console.glyphs,
            marks=marks, panel=[] if narrow else panel,
        ), wrap=False)
        if narrow:
            self.console.show(summary_line(session, marks))
        self.board_shown = True

    def prompt(self) -> StyleAndTextTuples:
        game = self.game
        if self.session.walking():
            return walking.prompt(self.session)
        dots = "." if game.side == WHITE else "..."
        if game.result is not None:
            return [("class:prompt.number", f"Game over ({game.result.pdn}). "),
                    ("", f"Command ({', '.join(ending.after_game_words(self.session))}): ")]
        wait = "" if self.session.is_human(game.side) else \
            " (the AI is paused; Enter lets it move)"
        return [("class:prompt.number", f"{self.session.move_number()}{dots} "),
                ("class:prompt.side", side_name(game.side)),
                ("", f" to move{wait}: ")]

    def changed(self) -> None:
        """The game changed under the view (undo, new, load): draw and announce it anew."""
        self.board_shown = False
        self.result_announced = False
        # Watching two AIs, stay paused so the position can be looked at; Enter goes on.
        self.paused = self.paused and not self.session.people()

    def save_now(self) -> None:
        note = self.session.save_now()
        if note:
            self.error(note)

    def ask_ai(self, work: Callable[[Any], Any], label: str,
               failed: Callable[[Exception], None]) -> tuple[Any, bool] | None:
        """``work(stop)`` in the AI thread behind the spinner: ``(answer, interrupted)``, or
        None after ``failed(error)`` reported the AI's fault (which never ends the game)."""
        try:
            answer = think(self.session.ai_thread, work, self.console.spin, label)
        except Exception as e:
            self.console.unspin()
            failed(e)
            return None
        self.console.unspin()
        return answer

    # --- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        self.greet()
        self.session.ai_thread.start()
        while True:
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
        specs, people = self.session.specs, self.session.people()
        if len(people) == 1:
            text = f"You play {side_name(people[0])} against {specs[1 - people[0]]}."
        elif people:
            text = "Two people play at this board."
        else:
            text = f"{specs[WHITE]} (White) plays {specs[BLACK]} (Black); Ctrl-C pauses."
        self.info(f"kbdraughts — Russian draughts. {text}")
        if native.core is None:  # the AI plays weaker than it could: a player should know
            self.say(f"Note: {native.describe()}.", "dim")
        if people:
            self.say("Type a move like c3-d4 (Tab lists the legal moves), or 'help'.", "dim")
        if any(spec.uses_kb for spec in specs):  # before the AI thread starts loading
            note = start_note(faulty_blocks())
            if note:
                self.error(note)
                self.kb_noted = True

    def step(self) -> None:
        game = self.game
        if game is not self._timed:  # a new or loaded game: its clock starts now
            self._timed, self._started = game, time.monotonic()
        if self.session.flag_fell():
            say_flag_fell(self)
        run_clock(self)
        if self.session.walking():  # an earlier position: no AI, no draw offer, no result
            return self.read_line() if self.board_shown else self.show_board()
        if game.result is not None:
            if not self.result_announced:
                self.announce_result()
            else:
                self.read_line()
            return
        if offer_draw(self):  # the AI's offer, where the moment is one
            return
        if self.session.is_human(game.side) or self.paused:
            if not self.board_shown:
                self.show_board()
            warn_of_draw(self)
            self.read_line()
        else:
            if not self.session.people():
                warn_of_draw(self)
            self.ai_move()

    def read_line(self) -> None:
        clock, side = self.session.clock, self.game.side
        left = (lambda: clock.left(side)) if clock is not None and clock.running == side else None
        try:
            line = self.console.read(self.prompt(), left)
        except TimeUp:
            if self.session.flag_fell():
                say_flag_fell(self)
            return
        except KeyboardInterrupt:
            self.say("(Ctrl-C clears the line. To leave, type 'quit' or press Ctrl-D; "
                     "the game is saved.)", "dim")
            return
        self.handle(line)

    def handle(self, line: str) -> None:
        """A line the person typed: a command, a move, or a mistake explained."""
        text = line.strip()
        game, walked = self.session.shown, self.session.walking()
        if self.session.flag_fell():  # the line came after the time was up
            say_flag_fell(self)
            return
        if not text:
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
            self.error(f"{cut_text(text, QUOTE_LIMIT)!r} is not a move or a command.{hint} "
                       "Type 'help' for the list, or a move like c3-d4.")
        elif game.result is not None and not walked:
            self.error(f"The game is over ({game.result}). "
                       + ending.game_over_hint(self.session))
        elif re.fullmatch(r"[a-hA-H][1-8]", text):
            self.piece_moves(text)
        elif not self.session.is_human(game.side) and not walked:
            self.error(f"It is {side_name(game.side)}'s move and the AI plays it: press Enter "
                       "to let it move, or type a command.")
        else:
            self.person_move(text)

    def person_move(self, text: str) -> None:
        # A move copied from a score sheet: "12. c3-d4", "12... f6-g5!", "c3:e5?!".
        text = re.sub(r"^\d+\s*(?:\.\.\.|\.|…)\s*(?=[a-hA-H])", "", text)
        text = re.sub(r"(?<=[1-8])[!?]+$", "", text)
        try:
            move = parse_move(self.session.shown.position, text,
                              self.session.shown.legal_moves())
        except MoveError as e:  # the message quotes the line: a long one is cut
            self.error(capitalised(str(e).replace(text, cut_text(text, QUOTE_LIMIT))))
            return
        self.play(move)

    def piece_moves(self, name: str) -> None:
        """A square alone: what the piece on it can play (the person is choosing a move)."""
        game = self.session.shown
        try:
            square = parse_square(name)
        except ValueError as e:
            self.error(capitalised(str(e)) + ".")
            return
        legal = game.legal_moves()
        own = moves_text([m for m in legal if m.start == square])
        piece = game.position.piece_at(square)
        if own:
            self.info(f"The piece on {name.lower()} can play {', '.join(own)}.")
        elif piece is None or piece[0] != game.side:
            self.error(f"There is no {side_name(game.side)} piece on {name.lower()}; "
                       "type a whole move like c3-d4 (Tab lists them).")
        elif legal and legal[0].captured:
            self.error(f"The piece on {name.lower()} cannot move: you must capture: "
                       f"{', '.join(moves_text(legal))}.")
        else:
            self.error(f"The piece on {name.lower()} cannot move; "
                       f"legal moves: {', '.join(moves_text(legal))}.")

    def play(self, move: Move, choice: Any = None) -> None:
        """Push a move; remember the AI's reason; save. Away from the game's last position,
        the move goes along the line shown or into a variation."""
        if self.session.walking():
            return walking.play_walked(self, move)
        self.session.play(move, choice)
        self.board_shown = False
        self.save_now()

    def ai_move(self) -> None:
        session, game = self.session, self.game
        side = game.side
        player, spec = session.players[side], session.specs[side]
        assert player is not None
        watching = not session.people()
        if watching and self.delay and game.ply:
            try:
                time.sleep(self.delay)
            except KeyboardInterrupt:
                self.pause("Paused.")
                return
        if session.clock is not None:
            session.clock.run(side)
        answer = self.ask_ai(  # the clock's share is reckoned once the player is built
            lambda stop: player.choose(game, stop, lambda: session.move_time_ms(side)),
            f"{side_name(side)} ({spec}) is thinking… Ctrl-C: move now",
            lambda e: self.pause(f"The AI ({spec}) failed: {type(e).__name__}: {e}."))
        if answer is None:
            return
        choice, interrupted = answer
        if session.flag_fell():
            say_flag_fell(self)
            return
        if player.warning:
            if not (player.skipped and self.kb_noted):  # not said again
                self.error(f"Note: {player.warning}.")
            player.warning = ""
        if choice is None or getattr(choice, "move", None) not in game.legal_moves():
            self.pause("Stopped before the AI chose a move." if interrupted
                       else f"The AI ({spec}) gave no legal move.")
            return
        self.play(choice.move, choice)
        self.show_board()
        short = said_for(choice_words(choice), side_name(side))
        self.console.show([  # Ctrl-C's note by the move: the words after it may wrap
            ("class:msg.ai.move", f"{side_name(side)} plays {move_text(choice.move)}"),
            ("class:msg.dim", " (moved now: Ctrl-C)" if interrupted else ""),
            ("class:msg.ai", f" — {short}" if short else ""),
        ])
        if watching and interrupted:
            self.pause("Paused.")

    def pause(self, why: str) -> None:
        self.paused = True
        self.say(f"{why} Press Enter to let the AI move, or type a command (undo, quit …).",
                 "dim")

    # --- draws and results --------------------------------------------------------------------

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
        result = self.game.result
        assert result is not None
        self.result_announced = True
        if not self.board_shown:
            self.show_board()
        score = score_text(result.pdn, self.console.glyphs is ASCII)
        people = self.session.people()
        verdict = ""
        if self.session.shows_the_record():
            verdict = " " + loading.record_verdict(result.winner)
        elif len(people) == 1:
            if result.winner is None:
                verdict = " A draw."
            else:
                verdict = " You win!" if result.winner == people[0] else " You lose."
        self.save_now()  # first: the block below says where the game is
        self.console.show([("class:msg.result", f"Game over: {result}, {score}."),
                           ("class:msg.good", verdict),
                           ("class:msg.dim", "\n" + self.end_summary())])
        ending.after_game(self)

    def end_summary(self) -> str:
        """The second line of the end block: moves, time used, where the game was saved."""
        game, autosave = self.game, self.session.autosave
        n = (game.ply + 1) // 2  # moves as the record numbers them, a move of each side
        used = duration_text(time.monotonic() - self._started)
        text = f"{n} move{'s' if n != 1 else ''} in {used}"
        path = autosave.path if autosave is not None and not autosave.error else None
        return text + (f"; saved to {path}" if path else ending.unsaved(self.session)) + "."

    def farewell(self) -> None:
        path = self.session.autosave.path if self.session.autosave else None
        if self.game.result is None and path is not None:
            self.say(f"Game saved to {path}; 'kbdraughts --resume' continues it. Bye!", "dim")
        else:
            self.say("Bye!", "dim")


def prompt_console(session: Session, **kwargs: Any) -> PromptConsole:
    """A terminal console whose completer and toolbar read the session's game when asked."""
    completer = GameCompleter(lambda: moves_text(session.shown.legal_moves()),
                              commands.completion_table)
    toolbar = make_toolbar(lambda: session_info(session))
    # A running clock ticks on the toolbar while the person thinks.
    kwargs.setdefault("refresh_interval", 0.5 if session.clock is not None else 0)
    return PromptConsole(completer=completer, toolbar=toolbar, **kwargs)
