"""Terminal I/O for the game: a prompt_toolkit console for people, a plain one for pipes.

Both offer the same verbs — ``show`` fragments, ``read`` a line at a prompt, ``ask`` a
short question, ``spin``/``unspin`` a thinking indicator, ``watch`` a status that changes until
a key — so the game loop never knows which one it talks to. The plain console writes no escape codes
at all: a script can drive the game through a pipe and read the transcript.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path
from typing import Callable, Protocol, TextIO

from prompt_toolkit import Application, PromptSession
from prompt_toolkit.completion import Completer
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples, fragment_list_to_text
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.output import Output
from prompt_toolkit.shortcuts import print_formatted_text

from kbdraughts.errors import KbdraughtsError
from kbdraughts.files import printable_lines
from kbdraughts.ui.keys import game_key_bindings
from kbdraughts.ui.render import ASCII, Glyphs, cut_text, glyphs_for, wrap_fragments
from kbdraughts.ui.style import STYLE

Fragments = StyleAndTextTuples

SPINNER_UNICODE = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_ASCII_PUNCTUATION = str.maketrans({"—": "-", "–": "-", "…": "...", "½": "1/2", "│": "|",
                                    "·": ".", "×": "x", "’": "'"})


def ascii_text(text: str) -> str:
    """``text`` for a terminal that shows ASCII only: dashes, ellipses and ½ spelled out."""
    return text.translate(_ASCII_PUNCTUATION).encode("ascii", "replace").decode("ascii")


def ascii_fragments(fragments: Fragments) -> Fragments:
    # A fragment's other items (a mouse handler) kept as they came: beyond what mypy follows.
    return [(style, ascii_text(text), *rest)  # type: ignore[misc]
            for style, text, *rest in fragments]


def safe_fragments(fragments: Fragments) -> Fragments:
    """``fragments`` with the control characters a file or a typed line brought (a PDN tag's
    escape sequence) written as escapes: only line breaks and tabs reach the screen."""
    # A fragment's other items (a mouse handler) kept as they came: beyond what mypy follows.
    return [(style, printable_lines(text), *rest)  # type: ignore[misc]
            for style, text, *rest in fragments]
SPINNER_ASCII = "|/-\\"
#: A line read is echoed (pipe) or kept in the transcript cut to this many characters.
ECHO_LIMIT = 200


class TimeUp(KbdraughtsError):
    """Raised by ``read`` when the time given (``time_left``) ran out before the line came:
    the person's flag fell at the prompt."""


#: Seconds between checks of a running clock while the person thinks at the prompt.
FLAG_CHECK_S = 0.25
#: Seconds between looks at a watched status (the analysis' latest depth).
WATCH_S = 0.1


class Console(Protocol):
    """What the game loop needs from a terminal or a pipe."""

    glyphs: Glyphs
    colour: bool  # styles show; without colour the board marks the last move with [ ] and x
    interactive: bool  # a person watches: spinner, delays
    transcript: list[str]  # everything shown, as plain text

    def show(self, fragments: Fragments, wrap: bool = True) -> None: ...
    # EOFError at the end, KeyboardInterrupt; TimeUp once ``time_left()`` reaches 0 (a console
    # that cannot stop a read checks the clock after it)
    def read(self, prompt: Fragments,
             time_left: Callable[[], float] | None = None) -> str: ...
    def ask(self, question: Fragments) -> str: ...
    def spin(self, frame: int, text: str) -> None: ...
    def unspin(self) -> None: ...
    def columns(self) -> int: ...
    # ``status()`` shown as it changes until ``done()`` or a key (True: a key ended it)
    def watch(self, status: Callable[[], Fragments], done: Callable[[], bool]) -> bool: ...


class PromptConsole:
    """A person at a terminal: colours, completion, history, the bottom toolbar, a spinner.

    ``input``/``output`` default to the real terminal; tests pass ``create_pipe_input()`` and
    ``DummyOutput()``, and read what was shown from ``transcript`` (its lines as the program
    wrote them: the screen breaks long ones at spaces to the terminal's width). ``colour``
    defaults to on unless ``NO_COLOR`` is set; without it the board marks the last move.
    ``refresh_interval``: seconds between redraws of the toolbar while the prompt waits (a
    running clock ticks); 0 redraws only on a key.
    """

    def __init__(
        self,
        completer: Completer | None = None,
        toolbar: Callable[[], Fragments] | None = None,
        history: History | None = None,
        input: Input | None = None,
        output: Output | None = None,
        glyphs: Glyphs | None = None,
        interactive: bool = True,
        colour: bool | None = None,
        refresh_interval: float = 0,
    ):
        self.glyphs = glyphs or glyphs_for(getattr(sys.stdout, "encoding", None))
        self._fit = ascii_fragments if self.glyphs is ASCII else (lambda f: f)
        if toolbar is not None:
            toolbar = (lambda bar: lambda: self._fit(bar()))(toolbar)
        self.session: PromptSession[str] = PromptSession(
            completer=completer, complete_while_typing=False, bottom_toolbar=toolbar,
            history=history or InMemoryHistory(), key_bindings=game_key_bindings(),
            style=STYLE, include_default_pygments_style=False, input=input, output=output,
            reserve_space_for_menu=6, refresh_interval=refresh_interval,
        )
        self._questions: PromptSession[str] = PromptSession(
            style=STYLE, include_default_pygments_style=False, input=input, output=output,
        )
        self.output = self.session.output
        self.interactive = interactive
        # NO_COLOR as prompt_toolkit reads it (https://no-color.org): set and not empty.
        self.colour = not os.environ.get("NO_COLOR") if colour is None else colour
        self.transcript: list[str] = []
        self._spinning = False

    def show(self, fragments: Fragments, wrap: bool = True) -> None:
        """Print ``fragments``; ``wrap`` breaks long lines at spaces, never inside a word or
        a move (the board is drawn to fit and not wrapped)."""
        self.unspin()
        if self.interactive:  # start clean after an echoed ^C
            self.output.write_raw("\r")
            self.output.erase_end_of_line()
        fragments = self._fit(safe_fragments(fragments))
        self.transcript.append(fragment_list_to_text(fragments))
        if wrap:
            fragments = wrap_fragments(fragments, max(20, self.columns() - 1))
        print_formatted_text(
            FormattedText(fragments), style=STYLE, output=self.output,
            include_default_pygments_style=False,
        )

    def columns(self) -> int:
        try:
            return self.output.get_size().columns
        except Exception:  # an output that cannot tell: assume a common terminal
            return 80

    def read(self, prompt: Fragments, time_left: Callable[[], float] | None = None) -> str:
        self.unspin()
        prompt = self._fit(prompt)
        pre_run = None
        if time_left is not None:
            app = self.session.app

            async def watch() -> None:  # the flag falls at the prompt, not at the next key
                while (left := time_left()) > 0:
                    await asyncio.sleep(min(left, FLAG_CHECK_S))
                if app.is_running and not app.is_done:  # not when Enter came at this moment
                    app.exit(exception=TimeUp())

            def pre_run() -> None:
                app.create_background_task(watch())

        line = self.session.prompt(FormattedText(prompt), pre_run=pre_run)
        self.transcript.append(fragment_list_to_text(prompt) + cut_text(line, ECHO_LIMIT))
        return line

    def ask(self, question: Fragments) -> str:
        self.unspin()
        question = self._fit(question)
        line = self._questions.prompt(FormattedText(question))
        self.transcript.append(fragment_list_to_text(question) + line)
        return line

    def spin(self, frame: int, text: str) -> None:
        """Draw frame ``frame`` of the thinking indicator on the current line."""
        if not self.interactive:
            return
        chars = SPINNER_ASCII if self.glyphs is ASCII else SPINNER_UNICODE
        self.output.write_raw("\r" + chars[frame % len(chars)] + " " + text)
        self.output.erase_end_of_line()
        self.output.flush()
        self._spinning = True

    def unspin(self) -> None:
        if self._spinning:
            self.output.write_raw("\r")
            self.output.erase_end_of_line()
            self.output.flush()
            self._spinning = False

    def watch(self, status: Callable[[], Fragments], done: Callable[[], bool]) -> bool:
        """Show ``status()`` below the text, redrawn as it changes, until ``done()`` or any
        key (Ctrl-C too); whether a key ended it. The last status stays on the screen; keys
        typed after the first wait for the next prompt."""
        self.unspin()
        keys = KeyBindings()

        @keys.add(Keys.Any)
        @keys.add("c-c")
        def _(event) -> None:
            event.app.exit(result=True)

        control = FormattedTextControl(lambda: wrap_fragments(  # at spaces, as show does
            self._fit(safe_fragments(status())), max(20, self.columns() - 1)))
        app: Application[bool] = Application(
            layout=Layout(Window(control, wrap_lines=True)), key_bindings=keys, style=STYLE,
            include_default_pygments_style=False, input=self.session.input,
            output=self.output, erase_when_done=True)

        async def until_done() -> None:
            while not done():
                await asyncio.sleep(WATCH_S)
                app.invalidate()
            if app.is_running and not app.is_done:
                app.exit(result=False)

        def watch() -> None:
            app.create_background_task(until_done())

        keyed = bool(app.run(pre_run=watch))
        self.show(status())
        return keyed


#: A line read ahead: the reader, what it read (the line, "" at the end, the error), and set once
#: it has.
_Ahead = tuple[threading.Thread, list[str | Exception], threading.Event]


class PlainConsole:
    """Standard input is not a terminal: plain lines in, plain text out, no escape codes.

    The line read is echoed after its prompt so the transcript reads like a session.
    """

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 glyphs: Glyphs | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.glyphs = glyphs or glyphs_for(getattr(self.stdout, "encoding", None))
        self._fit = ascii_text if self.glyphs is ASCII else (lambda t: t)
        self.interactive = False
        self.colour = False
        self.transcript: list[str] = []
        #: The next line, read by a thread of its own since a watch began.
        self._ahead: _Ahead | None = None

    def show(self, fragments: Fragments, wrap: bool = True) -> None:
        # a transcript: never wrapped; no control character but line breaks and tabs
        text = self._fit(printable_lines(fragment_list_to_text(fragments)))
        self.transcript.append(text)
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self, prompt: Fragments, time_left: Callable[[], float] | None = None) -> str:
        text = self._fit(fragment_list_to_text(prompt))
        self.stdout.write(text)
        self.stdout.flush()
        line = self._next_line()
        if not line:
            self.stdout.write("\n")
            self.stdout.flush()
            raise EOFError
        line = line.rstrip("\r\n")
        echo = cut_text(line, ECHO_LIMIT)
        self.stdout.write(echo + "\n")
        self.stdout.flush()
        self.transcript.append(text + echo)
        return line

    def ask(self, question: Fragments) -> str:
        return self.read(question)

    def columns(self) -> int:
        return 100  # a transcript, not a screen: always room for the panel

    def spin(self, frame: int, text: str) -> None:
        pass

    def unspin(self) -> None:
        pass

    def watch(self, status: Callable[[], Fragments], done: Callable[[], bool]) -> bool:
        """Every new ``status()`` written as it comes, until ``done()`` or until the next line,
        or the end of input, is there (True then): a pipe has no key, its next line stops the
        watch as a key does at a terminal, and is read by the next ``read``."""
        arrived = self._look_ahead()
        last = None
        while True:
            finished, keyed = done(), arrived.is_set()
            now = status()
            if fragment_list_to_text(now) != last:
                self.show(now)
                last = fragment_list_to_text(now)
            if finished or keyed:
                return not finished
            arrived.wait(WATCH_S)

    def _look_ahead(self) -> threading.Event:
        """Start reading the next line in a thread of its own (a read blocks, and a line
        already read into stdin's buffer is seen by no select): set once it is there."""
        if self._ahead is not None:  # the line an earlier watch began to read is not read yet
            return self._ahead[2]
        arrived = threading.Event()
        box: list[str | Exception] = []

        def read() -> None:
            try:
                box.append(self.stdin.readline())
            except Exception as e:  # given to the read that takes the line, as it was
                box.append(e)
            arrived.set()

        reader = threading.Thread(target=read, daemon=True, name="plain-console-next-line")
        self._ahead = (reader, box, arrived)
        reader.start()
        return arrived

    def _next_line(self) -> str:
        """The next line of input ("" at its end): the one read ahead, when a watch began it."""
        if self._ahead is None:
            return self.stdin.readline()
        reader, box, _ = self._ahead
        reader.join()  # as long as a readline would have waited
        self._ahead = None
        if isinstance(box[0], Exception):
            raise box[0]
        return box[0]


def history_file(directory: Path) -> History:
    """Moves and commands typed in earlier games (Up arrow), kept in the user's data directory."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        return FileHistory(str(directory / "history"))
    except OSError:
        return InMemoryHistory()
