"""``analyse`` through a pipe (issue "defects", item 15): ``kbdraughts play`` with standard input
a pipe stops an analysis at its depth, at the next line, or at the end of input; it never runs
on until depth 40 while the lines after it wait.

Each test drives the real command in a process of its own; a timeout only stops a hang (the
analysis to depth 40 took for ever before), nothing here is timed."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
import time

from kbdraughts.ui.app import GameApp
from kbdraughts.ui.console import PlainConsole
from kbdraughts.ui.render import UNICODE
from kbdraughts.ui.session import HUMAN, Session
from ui_driver import PacedInput, factory

#: A generous bound for what must end promptly.
HANG_S = 60


def start_play() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kbdraughts.cli", "play", "--level", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=os.environ.copy())


def test_the_end_of_input_stops_analyse_40() -> None:
    proc = start_play()
    try:
        out, err = proc.communicate("analyse 40\n", timeout=HANG_S)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 0, err
    assert re.search(r"Analysis stopped at depth \d+\.", out), out[-2000:]
    assert re.search(r"Depth \d+: ", out)  # a finished depth is always reported


def test_the_next_line_stops_analyse_40_and_is_carried_out() -> None:
    proc = start_play()
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        # Input left open: only the next line can stop the analysis, not the end of input.
        proc.stdin.write("analyse 40\nmoves\n")
        proc.stdin.flush()
        deadline = time.monotonic() + HANG_S
        while "Legal moves for White" not in "".join(out) and time.monotonic() < deadline:
            time.sleep(0.1)
        shown = "".join(out)
        assert "Legal moves for White (7): " in shown, shown[-2000:]
        proc.stdin.close()  # and now the end of input ends the game
        assert proc.wait(timeout=HANG_S) == 0
    finally:
        proc.kill()
        proc.wait()
    stopped = re.search(r"Analysis stopped at depth \d+\.", shown)
    assert stopped and stopped.start() < shown.index("Legal moves for White")


def test_a_line_that_comes_after_the_analysis_finished_is_read_as_ever() -> None:
    out = io.StringIO()
    console = PlainConsole(PacedInput(["analyse 3", "moves", "quit"], out), out, UNICODE)
    GameApp(console, Session(factory(), [HUMAN, HUMAN])).run()
    shown = out.getvalue()
    assert "Analysis finished at depth 3." in shown
    assert shown.index("Analysis finished") < shown.index("Legal moves for White (7): ")
