"""``kbdraughts moves`` and ``kbdraughts perft`` as scripts see them: real processes and pipes."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

from kbdraughts.board import legal_moves
from kbdraughts.notation import moves_text, parse_fen

COMMAND = [sys.executable, "-m", "kbdraughts.cli"]
START_FEN = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
START_MOVES = "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4"
TIMEOUT = 60


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        COMMAND + list(args), input=stdin, capture_output=True, text=True, timeout=TIMEOUT,
    )


def assert_one_line_error(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for w in words:
        assert w in lines[0], lines[0]


# --- moves ----------------------------------------------------------------------------------


def test_moves_one_line_per_fen_argument():
    fens = [START_FEN, "W:WKa1:Bc3,e5", "W:Wa1:Bb2,c3", "B:Wd4:Bc5,e5"]
    result = run("moves", *fens)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.split("\n") == [
        START_MOVES,
        "a1:d4:f6 a1:d4:g7 a1:d4:h8",
        "",  # no legal move: an empty line
        "c5:e3 e5:c3",
        "",
    ]


def test_moves_lines_match_the_library():
    fens = ["W:WKg1,a3,Kd4:Bb6,c7,Kh8", "W:Wb6,d6,f6:BKg1,a7,c7", "B:Wa1,c1,Ke3:Bd4,f4,d6,f6,Kh8"]
    lines = run("moves", *fens).stdout.splitlines()
    assert lines == [" ".join(moves_text(legal_moves(parse_fen(f)))) for f in fens]


def test_moves_reads_stdin_when_no_fen_is_given():
    result = run("moves", stdin=f"{START_FEN}\n\nW:WKa1:Bc3,e5\n")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [START_MOVES, "a1:d4:f6 a1:d4:g7 a1:d4:h8"]


def _read_line(proc: subprocess.Popen, timeout: float = TIMEOUT) -> str:
    """One line of the process's output, failing (not hanging) if none comes in time."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "no answer within the timeout: is the output flushed per line?"
    return proc.stdout.readline()


def test_moves_answers_a_pipe_line_by_line():
    """A driving program writes one FEN, reads the answer, then writes the next."""
    proc = subprocess.Popen(
        COMMAND + ["moves"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, bufsize=1,
    )
    try:
        questions = [
            (START_FEN, START_MOVES),
            ("W:Wa1:Bb2,c3", ""),
            ("B:WKa1:B", ""),
            ("W:Wb6:Bc7,e7", "b6:d8:h4 b6:d8:g5 b6:d8:f6"),  # ordered by rank, then file
        ]
        for fen, answer in questions:
            proc.stdin.write(fen + "\n")
            proc.stdin.flush()
            assert _read_line(proc) == answer + "\n"
        # A bad line is answered by `error` (and one line on stderr): still in step.
        proc.stdin.write("W:Wa2:Bb6\n")
        proc.stdin.flush()
        assert _read_line(proc) == "error\n"
        proc.stdin.write("W:WKa1:Bc3,e5\n")
        proc.stdin.flush()
        assert _read_line(proc) == "a1:d4:f6 a1:d4:g7 a1:d4:h8\n"
        proc.stdin.close()
        assert proc.wait(timeout=TIMEOUT) == 2  # a bad FEN was seen
        err = proc.stderr.read()
        assert len(err.splitlines()) == 1 and "a2" in err and "Traceback" not in err
        assert "line 5" in err
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()


def test_moves_bad_fen_argument_exits_2_with_one_line():
    result = run("moves", START_FEN, "W:Wa1:Ba1", "W:WKa1:Bh8")
    assert_one_line_error(result, "a1", "both sides", "argument 2")
    # Answered like a line of stdin: `error`, and the run goes on.
    assert result.stdout.splitlines() == [START_MOVES, "error", "a1-b2 a1-c3 a1-d4 a1-e5 a1-f6 a1-g7"]


@pytest.mark.parametrize("bad", ["garbage", "X:Wa1:Bb6", "W:Wb8:Bb6", "W:Wa1"])
def test_moves_every_kind_of_bad_fen_is_one_line(bad: str):
    assert_one_line_error(run("moves", bad), "FEN")


# --- perft ----------------------------------------------------------------------------------


def test_perft_prints_the_count_as_the_last_line():
    result = run("perft", "4")
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "1469"
    assert run("perft", "0").stdout.splitlines()[-1] == "1"


def test_perft_from_a_fen():
    result = run("perft", "4", "--fen", "W:WKg1,a3,Kd4:Bb6,c7,Kh8")
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "681"


def test_perft_divide_lists_each_root_move_then_the_total():
    result = run("perft", "3", "--divide")
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines[-1] == "302"
    rows = [line.split() for line in lines[:-1]]
    assert [r[0] for r in rows] == START_MOVES.split()
    assert all(len(r) == 2 and r[1].isdigit() for r in rows)
    assert sum(int(r[1]) for r in rows) == 302


def test_perft_divide_of_a_capture_position():
    lines = run("perft", "1", "--divide", "--fen", "W:WKa1:Bc3,e5").stdout.splitlines()
    assert lines == ["a1:d4:f6 1", "a1:d4:g7 1", "a1:d4:h8 1", "3"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["perft", "3", "--fen", "W:Wa2:Bb6"], ["a2", "light square"]),
        (["perft", "x"], ["depth", "whole number"]),
        (["perft", "-1"], ["depth"]),
        (["perft"], ["DEPTH"]),
        (["perft", "3", "--bogus"], ["--bogus"]),
    ],
)
def test_perft_bad_arguments_exit_2_with_one_line(args: list[str], words: list[str]):
    assert_one_line_error(run(*args), *words)


def test_no_traceback_when_the_reader_goes_away():
    """`kbdraughts moves ... | head -1`: the closed pipe is not an error of ours."""
    r, w = os.pipe()
    os.close(r)  # nobody reads
    proc = subprocess.run(
        COMMAND + ["moves"] + [START_FEN] * 2000, stdout=w, stderr=subprocess.PIPE, text=True,
        timeout=TIMEOUT,
    )
    os.close(w)
    assert "Traceback" not in proc.stderr
