"""A ``cmd:`` engine's processes end with it, those that left its session too (issue "defects",
item 21): a child that calls ``setsid`` is in no process group of ours, and a daemon's
grandchild (fork, setsid, fork, exit) is not even a child of the engine's any more."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kbdraughts.game import Game
from kbdraughts.match.command_player import CommandPlayer

#: A generous bound for a process to be gone, or a match to end (not a timing).
GONE_S = 30

#: An engine that first leaves a process behind in a session of its own, its pid written to
#: argv[1]: "setsid" its own child, "daemon" a grandchild whose parent has ended; then it
#: answers each line with the first legal move.
ENGINE = """
import os, sys, time
pid_file, how = sys.argv[1], sys.argv[2]
if how == "setsid":
    pid = os.fork()
    if pid == 0:
        os.setsid()
        time.sleep(600)
        os._exit(0)
else:
    r, w = os.pipe()
    child = os.fork()
    if child == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        os.write(w, str(pid).encode())
        os._exit(0)
    os.waitpid(child, 0)
    pid = int(os.read(r, 64))
with open(pid_file, "w") as f:
    f.write(str(pid))
from kbdraughts.match.line_protocol import read_game_line
from kbdraughts.notation import move_text
for line in sys.stdin:
    moves = read_game_line(line).legal_moves()
    print(move_text(moves[0]) if moves else "none", flush=True)
"""


def engine(tmp_path: Path, how: str) -> tuple[str, Path]:
    """The command of the engine above, and the file its left-behind process's pid goes to."""
    path, pid_file = tmp_path / "engine.py", tmp_path / "left.pid"
    path.write_text(ENGINE, encoding="utf-8")
    words = [sys.executable, str(path), str(pid_file), how]
    return " ".join(shlex.quote(w) for w in words), pid_file


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for init to reap it has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] not in "ZX"
    except FileNotFoundError:
        return False


def gone(pid: int) -> bool:
    """Whether ``pid`` has ended, waiting at most GONE_S (SIGKILL is sent, not yet done)."""
    deadline = time.monotonic() + GONE_S
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not running(pid)


def kill_left(pid_file: Path) -> None:
    """The test's own clean-up: a process the code under test left running is ended here."""
    try:
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
    except (OSError, ValueError):
        pass


needs_proc = pytest.mark.skipif(not Path("/proc/self/environ").exists(),
                                reason="processes are found through /proc")


@needs_proc
@pytest.mark.parametrize("how", ["setsid", "daemon"])
def test_closing_the_player_ends_what_left_the_engine_s_session(tmp_path: Path, how: str):
    command, pid_file = engine(tmp_path, how)
    player = CommandPlayer(command, "leaver")
    try:
        assert player.choose(Game()) is not None
        left = int(pid_file.read_text())
        assert running(left) and os.getsid(left) != player._proc.pid  # not the engine's session
        player.close()
        assert gone(left), f"{how}: the engine's process {left} outlived the player"
    finally:
        player.close()
        kill_left(pid_file)


@needs_proc
def test_a_child_that_calls_setsid_does_not_outlive_the_match(tmp_path: Path):
    command, pid_file = engine(tmp_path, "setsid")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "kbdraughts.cli", "match", "random", f"cmd:{command}",
             "--games", "1", "--opening-plies", "0", "--max-plies", "6"],
            capture_output=True, text=True, timeout=GONE_S * 4)
        assert done.returncode == 0, done.stderr
        assert "random vs cmd:" in done.stdout.splitlines()[-1]
        left = int(pid_file.read_text())
        assert gone(left), "the engine's setsid child outlived the match"
    finally:
        kill_left(pid_file)


@needs_proc
def test_the_other_engine_and_unrelated_processes_are_left_alone(tmp_path: Path):
    """Only the closed engine's processes are ended: not the other player's, nor ours."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one, pid_one = engine(tmp_path / "one", "setsid")
    two, pid_two = engine(tmp_path / "two", "setsid")
    first, second = CommandPlayer(one, "one"), CommandPlayer(two, "two")
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        first.choose(Game())
        second.choose(Game())
        first.close()
        assert gone(int(pid_one.read_text()))
        assert running(int(pid_two.read_text())) and second._proc.poll() is None
        assert bystander.poll() is None
    finally:
        first.close()
        second.close()
        bystander.kill()
        bystander.wait()
        kill_left(pid_one)
        kill_left(pid_two)
