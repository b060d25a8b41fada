"""Standard output that fails (issue 40, item 11): a full disk (``> /dev/full``), no standard
output (``>&-``), a reader that went away (``| head``). Every command ends with one line on
stderr and exit status 2 (a closed pipe quietly), never a traceback; the Hub too, with its
search thread writing when the pipe closes."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kbdraughts.cli import main
from kbdraughts.cli.output import Guarded, StdoutError, fault_line

COMMAND = [sys.executable, "-m", "kbdraughts.cli"]
FEN = "W:Wa1,c3:Bb6,Kh8"
GAMES = str(Path(__file__).parent / "data" / "games.pdn")
#: The commands the fault campaign saw end in a traceback, and annotate's "cannot write None".
COMMANDS = [
    ["moves", FEN], ["perft", "3"], ["bestmove", "--level", "1", FEN],
    ["egdb", "probe", "W:Wa1:Bh8"], ["rules", "check"], ["annotate", GAMES],
]
needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


def assert_one_line(proc: subprocess.CompletedProcess, *words: str) -> None:
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert len(lines) == 1 and all(w in lines[0] for w in words), proc.stderr


@needs_dev_full
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_full_disk_ends_each_command_with_one_line(args: list[str], endgame_tables):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(COMMAND + args, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=300)
    assert_one_line(proc, f"kbdraughts {args[0]}:", "standard output",
                    "No space left on device")


@pytest.mark.parametrize("args", [["moves", FEN], ["hub"]], ids=["moves", "hub"])
def test_no_standard_output_at_all_is_one_line(args: list[str]):
    proc = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *COMMAND, *args], input="hub\n",
                          stderr=subprocess.PIPE, text=True, timeout=120)
    assert_one_line(proc, f"kbdraughts {args[0]}:", "standard output", "closed")


def test_a_closed_pipe_ends_a_command_quietly():
    r, w = os.pipe()
    os.close(r)  # nobody reads
    proc = subprocess.run(COMMAND + ["moves"] + [FEN] * 2000, stdout=w, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    os.close(w)
    assert proc.returncode == 2 and proc.stderr == "", proc.stderr


def test_the_hub_ends_quietly_when_its_reader_goes_away_mid_search():
    """The search thread writes its ``info`` and ``done`` to a closed pipe: it must not die
    with a traceback, and the loop ends at the next line with exit status 2."""
    proc = subprocess.Popen(COMMAND + ["hub", "--egdb-pieces=0"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write("hub\ninit\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "ready":
        pass
    proc.stdout.close()
    proc.stdin.write("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\nlevel depth=4\ngo analyze\n")
    proc.stdin.flush()
    time.sleep(1.0)  # the search ends and writes into the closed pipe
    try:
        proc.stdin.write("ping\n")
        proc.stdin.flush()
        proc.stdin.close()
    except BrokenPipeError:
        pass  # it has already ended
    assert proc.wait(timeout=60) == 2
    assert proc.stderr.read() == ""


class _Full(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_in_process_the_dispatcher_says_it_once(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _Full())
    assert main(["moves", FEN]) == 2
    assert capsys.readouterr().err == (
        "kbdraughts moves: cannot write to standard output: No space left on device\n")


def test_the_guard_leaves_other_faults_alone():
    out = io.StringIO()
    guarded = Guarded(out)
    guarded.write("é")
    assert out.getvalue() == "é" and not guarded.isatty()
    closed = io.StringIO()
    closed.close()
    with pytest.raises(StdoutError) as caught:
        Guarded(closed).write("x")
    assert fault_line(caught.value) == "cannot write to standard output: it is closed"
    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    with pytest.raises(UnicodeEncodeError):  # not standard output's fault: not said as one
        Guarded(ascii_out).write("Кол")
