"""The two consoles: NO_COLOR, lines wrapped at spaces on a terminal (never inside a word or a
move), a long typed line not echoed back whole in a pipe."""

from __future__ import annotations

import io
import re

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.vt100 import Vt100_Output

from kbdraughts.ui.console import ECHO_LIMIT, PlainConsole, PromptConsole
from kbdraughts.ui.render import UNICODE


def test_no_color_turns_colour_off(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert PromptConsole(glyphs=UNICODE, interactive=False).colour is False
    monkeypatch.setenv("NO_COLOR", "")  # empty: as if not set (no-color.org)
    assert PromptConsole(glyphs=UNICODE, interactive=False).colour is True


def test_a_terminal_wraps_long_lines_at_spaces():
    screen = io.StringIO()
    out = Vt100_Output(screen, lambda: Size(rows=24, columns=30), term="dumb")
    console = PromptConsole(glyphs=UNICODE, interactive=False, output=out, colour=False)
    record = "1. c3-d4 b6-a5 2. g3-h4 a5-b4 3. a3:c5 d6:b4 4. h4-g5 h6:f4"
    console.show([("", record)])
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue()).replace("\r", "")
    shown = [line.rstrip() for line in text.splitlines() if line.strip()]
    assert all(len(line) <= 30 for line in shown), shown
    assert " ".join(shown) == record  # broken only where there was a space
    assert console.transcript == [record]  # the transcript keeps the line as written


def test_a_pipe_does_not_echo_a_long_line_whole():
    out = io.StringIO()
    console = PlainConsole(stdin=io.StringIO("x" * 5000 + "\n"), stdout=out, glyphs=UNICODE)
    assert console.read([("", "1. White to move: ")]) == "x" * 5000  # the line itself is whole
    echoed = out.getvalue().splitlines()[0]
    assert echoed == "1. White to move: " + "x" * (ECHO_LIMIT - 1) + "…"
