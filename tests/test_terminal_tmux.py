"""The game in a real terminal: tmux runs ``kbdraughts play`` and the test types into it and
reads the screen (``capture-pane``), as a person would.

On failure the message shows the text waited for, the screen as it was, and the whole log of
keys sent and screens seen, plus the program's stderr.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text

from kbdraughts.ui.commands import help_fragments

TMUX = shutil.which("tmux")


class Terminal:
    """A tmux pane on a private server running one command."""

    def __init__(self, tmp: Path, args: list[str], width: int = 110, height: int = 40):
        if TMUX is None:
            pytest.fail("tmux is not installed: .ci/run installs it; locally run "
                        "'apt-get install -y tmux'", pytrace=False)
        self.socket = f"kbdraughts-test-{os.getpid()}-{id(self)}"
        self.stderr = tmp / "stderr.log"
        self.log: list[str] = []
        env = {"XDG_DATA_HOME": str(tmp / "xdg"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "TERM": "xterm-256color"}
        cmd = " ".join(
            [f"{k}={shlex.quote(v)}" for k, v in env.items()]
            + [shlex.quote(sys.executable), "-m", "kbdraughts.cli"]
            + [shlex.quote(a) for a in args]
            + [f"2>{shlex.quote(str(self.stderr))}", "; echo EXITED $?; sleep 60"]
        )
        self.tmux("new-session", "-d", "-s", "game", "-x", str(width), "-y", str(height),
                  "env " + cmd)
        self.log.append(f"$ {' '.join(args)}")

    def tmux(self, *args: str) -> str:
        out = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                             timeout=20)
        return out.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "game")

    def send(self, *keys: str) -> None:
        self.log.append(f">>> send {keys!r}")
        self.tmux("send-keys", "-t", "game", *keys)

    def type(self, line: str) -> None:
        self.send("-l", line)
        self.send("Enter")

    def wait_for(self, text: str, *also: str, timeout: float = 30) -> str:
        """The screen once ``text`` (and each of ``also``) shows on it; prompt_toolkit may draw
        the prompt a moment before the bottom toolbar."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            # capture-pane drops trailing spaces
            if all(t.rstrip() in screen for t in (text, *also)):
                self.log.append(f"--- saw {text!r}:\n{screen}")
                return screen
            time.sleep(0.1)
        stderr = self.stderr.read_text() if self.stderr.exists() else "(none)"
        log = "\n".join(self.log)
        pytest.fail(f"expected on screen: {(text, *also)!r}\n\n=== actual screen ===\n{screen}\n"
                    f"=== log ===\n{log}\n=== stderr ===\n{stderr}", pytrace=False)

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def terminal(tmp_path: Path):
    opened: list[Terminal] = []

    def start(*args: str, width: int = 110) -> Terminal:
        t = Terminal(tmp_path, list(args), width=width)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def test_play_a_move_see_the_reply_fen_garbage_and_quit(terminal):
    t = terminal("play", "--level", "1")
    screen = t.wait_for("1. White to move: ", "Move 1")
    assert "a  b  c  d  e  f  g  h" in screen and "Move 1" in screen  # board and toolbar
    t.type("c3-d4")
    t.wait_for("Black plays ")
    screen = t.wait_for("2. White to move: ", "Move 2")
    assert "Move 2" in screen and "Level 1" in screen and "AI: " in screen
    t.type("fen")
    t.wait_for(":Wa1,c1,e1,g1,")
    t.send("-l", "g3")
    t.send("Tab")
    t.wait_for("g3-f4")  # the completion menu lists the legal moves from g3
    t.send("C-c")  # clears the half-typed line, the game goes on
    t.type("garbage")
    t.wait_for("'garbage' is not a move or a command.")
    t.type("quit")
    screen = t.wait_for("EXITED 0")
    assert "Traceback" not in screen
    assert "--resume' continues it" in screen


def test_king_duel_draw_offer_accepted(terminal):
    t = terminal("play", "--fen", "W:WKc1:BKh8", "--level", "1")
    t.wait_for("Black offers a draw (")  # with its reason
    t.wait_for("Accept? [y/n] ")
    t.type("y")
    t.wait_for("Game over: Draw (draw agreed), ½–½.")
    t.wait_for("New game from the set-up position? [y/n; i: from the initial position] ")
    t.type("n")
    t.type("quit")
    t.wait_for("EXITED 0")


def test_walk_back_with_the_arrows_and_analyse_until_a_key(terminal):
    t = terminal("play", "--level", "1")
    t.wait_for("1. White to move: ")
    t.type("c3-d4")
    t.wait_for("2. White to move: ")
    t.send("Left")  # on an empty line: back
    t.wait_for("1... Black to move (after 1. c3-d4 in the game;")
    t.send("F2")  # analyse, live until a key
    t.wait_for("Analysing… any key stops.")
    screen = t.wait_for("Black's best moves (scores for Black, in men): ")
    assert "men from White's point of view" in screen and "Best line: 1... " in screen
    t.send("x")
    t.wait_for("Analysis stopped at depth ")
    t.send("End")  # back to the game's last position
    t.wait_for("The game's last position: play goes on here.", "2. White to move: ")
    t.type("quit")
    screen = t.wait_for("EXITED 0")
    assert "Traceback" not in screen


def test_ctrl_c_makes_the_thinking_ai_move_now_and_the_game_goes_on(terminal):
    # Out of the opening book, so the default level searches for its full second.
    t = terminal("play", "--fen", "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                 "Ba5,b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8")
    t.wait_for("1. White to move: ")
    t.type("g3-h4")
    t.wait_for("is thinking… Ctrl-C: move now")  # the spinner
    t.send("C-c")
    t.wait_for("(moved now: Ctrl-C)")
    t.wait_for("2. White to move: ")
    t.type("quit")
    t.wait_for("EXITED 0")


def test_the_move_list_beside_the_board_and_the_summary_when_narrow(terminal):
    t = terminal("play", "--level", "1")
    t.wait_for("1. White to move: ", "Move 1")
    t.type("c3-d4")
    screen = t.wait_for("2. White to move: ", "Move 2")
    rank6 = next(line for line in screen.splitlines()[::-1] if line.startswith(" 6 "))
    assert re.search(r" 6   1\. c3-d4 [a-h][1-8][-:][a-h][1-8]$", rank6.rstrip()), rank6
    assert "White 12 men, Black 12 men" in screen and "Black (kb:1)" in screen
    t.type("quit")
    t.wait_for("EXITED 0")
    narrow = terminal("play", "--level", "1", width=48)
    narrow.wait_for("1. White to move: ")
    narrow.type("c3-d4")
    screen = narrow.wait_for("2. White to move: ")
    assert "White (you) 12 · Black (kb:1) 12 · 1... " in screen
    assert all(len(line.rstrip()) <= 48 for line in screen.splitlines())
    narrow.type("help")
    screen = narrow.wait_for("Ctrl-D quits")
    top = screen.rfind("to move: help")  # the help is longer than the screen: maybe gone
    shown = screen[max(top, 0):screen.rindex("Ctrl-D quits")].splitlines()[1 if top >= 0 else 0:]
    words = set(fragment_list_to_text(help_fragments()).split())
    cut = [w for line in shown for w in line.split() if w not in words]
    assert not cut, f"words cut by the line's end: {cut}\n{screen}"
    narrow.type("quit")
    narrow.wait_for("EXITED 0")


#: A middle game with a king each: the material has its longest words ("3 men 1 king").
KINGS_FEN = "W:WKa1,c3,e3,g3:Bb6,d6,f6,Kh8"


def toolbar_line(screen: str) -> str:
    """The bottom toolbar: the last line with the toolbar's separators."""
    return next(line for line in screen.splitlines()[::-1] if " │ " in line).strip()


def ai_words(screen: str) -> str:
    """The reason of the AI's last move as the message gives it whole (wrapped lines joined)."""
    lines = screen.splitlines()
    at = max(i for i, line in enumerate(lines) if line.startswith("Black plays "))
    said = []
    for line in lines[at:]:
        if "to move:" in line:
            break
        said.append(line.strip())
    return " ".join(said).split(" — ", 1)[1]


@pytest.mark.parametrize("width", [40, 60, 80, 100])
def test_the_screen_drops_words_never_numbers_at_any_width(terminal, width: int):
    t = terminal("play", "--level", "1", "--fen", KINGS_FEN, "--clock", "5+3", width=width)
    t.wait_for("1. White to move: ")
    t.type("c3-d4")
    screen = t.wait_for("2. White to move: ", " │ ")  # the toolbar may come a moment later
    assert "Traceback" not in screen
    assert all(len(line.rstrip()) <= width for line in screen.splitlines()), screen
    bar = toolbar_line(screen)
    # The numbers: the move, the material of each side, the level, both clocks.
    assert re.match(r"(Move 2|2\.) │ ", bar), bar
    assert re.search(r"3( men 1 king|\+1K)\b.*3( men 1 king|\+1K)\b", bar), bar
    assert re.search(r"│ (Level 1|L1)\b", bar), bar
    assert len(re.findall(r"\b\d+:\d\d(?:\.\d)?\b", bar)) == 2, bar
    # The AI's reason, when shown, is whole or cut after a whole word with "…".
    if "AI: " in bar:
        shown = bar.split("AI: ", 1)[1]
        words = ai_words(screen)
        if shown.endswith(" …"):
            kept = shown[:-2]
            assert words.startswith(kept) and words[len(kept)] == " ", (shown, words)
        else:
            assert shown == words, (shown, words)
    # The panel beside the board from 60 columns, a king on the board or not; narrower, the
    # one-line summary with the same numbers.
    rank7 = next(line for line in screen.splitlines()[::-1] if line.startswith(" 7 "))
    if width >= 60:
        assert re.search(r"White 3( men 1 king|\+1K), Black 3( men 1 king|\+1K)", rank7), screen
    else:
        assert "White (you) 3+1K · Black (kb:1) 3+1K · 1... " in " ".join(screen.split()), \
            screen  # wrapped at a space
    t.type("quit")
    t.wait_for("EXITED 0")
