"""Issue 11 for scripts: bad lines and arguments, raw bytes on stdin, bounds on numbers,
lazy and bounded matches, a --pdn file written game by game and never emptied, --help."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts.cli import build_parser, main

COMMAND = [sys.executable, "-m", "kbdraughts.cli"]
TIMEOUT = 120


def run_bytes(args: list[str], data: bytes, tmp_path: Path) -> subprocess.CompletedProcess:
    # Strict decoding, as in a UTF-8 locale (the C locale's UTF-8 mode would escape the bytes).
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONIOENCODING="utf-8:strict")
    return subprocess.run(COMMAND + args, input=data, capture_output=True, timeout=TIMEOUT,
                          env=env)


# --- 1. one rule for bad input: `error`, the place on stderr, go on, exit 2 ----------------


@pytest.mark.parametrize("command", [["moves"], ["bestmove", "--no-kb", "--level", "1"],
                                     ["rules", "match"]])
def test_bad_lines_and_arguments_answer_error_and_go_on(command, tmp_path):
    good = "W:Wc3:Bd4"
    fed = run_bytes(command, f"{good}\nW:Wz9\n{good}\nnonsense\n".encode(), tmp_path)
    given = run_bytes(command + [good, "W:Wz9", good, "nonsense"], b"", tmp_path)
    alone = run_bytes(command + [good], b"", tmp_path).stdout.decode()
    for r, places in ((fed, ["line 2", "line 4"]), (given, ["argument 2", "argument 4"])):
        assert r.returncode == 2, r
        out = r.stdout.decode().splitlines()
        assert out == [alone.strip(), "error", alone.strip(), "error"]
        err = r.stderr.decode().splitlines()
        assert len(err) == 2 and "Traceback" not in r.stderr.decode()
        assert all(p in e and e.startswith("kbdraughts: bad FEN: ") for p, e in zip(places, err))


def test_an_argument_with_a_line_break_is_one_error_line(capsys):
    assert main(["moves", "W:Wz9\nW:Wc3:Bd4\x1b[2J", "W:Wc3:Bd4"]) == 2
    out = capsys.readouterr()
    assert out.out == "error\nc3:e5\n" and len(out.err.splitlines()) == 1
    assert "\x1b" not in out.err


# --- 2. stdin is bytes: split on \n only, non-UTF-8 is a bad line --------------------------


@pytest.mark.parametrize("command", [["moves"], ["rules", "match"]])
def test_odd_bytes_on_stdin_get_one_answer_each(command, tmp_path):
    lines = [b"W:Wc3:Bd4", b"\x1c", "\u0085".encode(), "\u2028".encode(), b"\xff\xfe",
             b"W:Wc3:Bd4\r", "W:Wc3:Bd4\u2028W:Wa1:Bh8".encode(), b"\x0c", b"W:Wc3:Bd4"]
    r = run_bytes(command, b"\n".join(lines) + b"\n", tmp_path)
    out = r.stdout.decode().split("\n")
    assert out[-1] == "" and len(out) - 1 == len(lines), out
    assert out[:-1] == [out[0], "error", "error", "error", "error", out[0], "error", "error",
                        out[0]]
    assert r.returncode == 2 and "Traceback" not in r.stderr.decode()
    assert len(r.stderr.decode().splitlines()) == 6


def test_play_in_a_pipe_takes_bytes_that_are_not_utf8(tmp_path):
    r = run_bytes(["play", "--white", "human", "--black", "random"],
                  b"\xff\xfe\nc3-d4\xc0\n\x1c\nquit\n", tmp_path)
    assert r.returncode == 0, r.stderr
    assert b"Traceback" not in r.stderr and b"is not a move" in r.stdout


def test_the_cli_reads_stdin_with_errors_replaced(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(b"\xffc3-d4\r\n"), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["rules", "show", "nothing-by-this-name"]) == 2
    assert stdin.readline() == "\ufffdc3-d4\r\n"


# --- 3. numbers within bounds --------------------------------------------------------------


@pytest.mark.parametrize("depth", ["1100", "99999999999", "21", "-1", "²", "١", "9" * 5000])
def test_perft_depth_out_of_range_is_a_usage_error(depth, capsys):
    with pytest.raises(SystemExit) as e:
        main(["perft", depth])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "depth must be" in err and len(err) < 200


@pytest.mark.parametrize("argv", [["play", "--delay", "nan"], ["play", "--delay", "inf"],
                                  ["bestmove", "--movetime", "1" + "0" * 30, "W:Wc3:Bd4"],
                                  ["match", "random", "random", "--max-plies", "10" * 20],
                                  ["match", "random", "random", "--opening-plies", "101"],
                                  ["match", "random", "random", "--seed", "7" * 5000]])
def test_numbers_beyond_sense_are_usage_errors(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and len(capsys.readouterr().err.splitlines()) == 1


# --- 4. matches: lazy jobs, bounded work in flight, --jobs capped --------------------------


def test_a_huge_match_starts_at_once():
    from kbdraughts.match.runner import run_match

    first = next(run_match("random", "random", 10**12, seed=1, max_plies=4, opening_plies=0))
    assert first.index == 0


class InstantPool:
    """A process pool that runs each job at once, in this process."""

    def apply_async(self, func, args, callback, error_callback):
        callback(func(*args))


def test_the_pool_is_fed_a_few_jobs_at_a_time(monkeypatch):
    from kbdraughts.match import runner as match

    taken = []
    monkeypatch.setattr(match, "run_game", lambda job: job)

    def jobs():
        for i in itertools.count():
            taken.append(i)
            yield i

    results = match._pooled(InstantPool(), jobs(), window=4)
    assert list(itertools.islice(results, 10)) == list(range(10))
    assert len(taken) <= 10 + 4


def test_jobs_above_the_cpus_are_capped_with_a_note(tmp_path):
    cpus = os.cpu_count() or 1
    r = run_bytes(["match", "random", "random", "--games", "2", "--max-plies", "6",
                   "--jobs", str(cpus + 5)], b"", tmp_path)
    assert r.returncode == 0, r.stderr
    err = r.stderr.decode()
    assert f"--jobs {cpus + 5}" in err and f"playing in {cpus}" in err
    assert len(err.splitlines()) == 1


# --- 5. --pdn: game by game, never emptied -------------------------------------------------


def _stop_after(n: int, monkeypatch) -> None:
    """Make the match stop (as by Ctrl-C) after ``n`` games."""
    from kbdraughts.match import runner as match

    real = match.run_match

    def games(*args, **kwargs):
        yield from itertools.islice(real(*args, **kwargs), n)
        raise KeyboardInterrupt

    monkeypatch.setattr(match, "run_match", games)


def test_match_writes_each_game_as_it_ends(tmp_path, monkeypatch):
    from kbdraughts.pdn import read_pdn_file

    pdn = tmp_path / "games.pdn"
    _stop_after(3, monkeypatch)
    assert main(["match", "random", "random", "--games", "50", "--max-plies", "20",
                 "--pdn", str(pdn)]) == 130
    games = read_pdn_file(str(pdn))
    assert [g.tags["Round"] for g in games] == ["1", "2", "3"]


def test_match_refuses_a_pdn_file_with_games_unless_append(tmp_path, capsys):
    pdn = tmp_path / "games.pdn"
    pdn.write_text("[Event \"mine\"]\n1. c3-d4 *\n", encoding="utf-8")
    before = pdn.read_bytes()
    argv = ["match", "random", "random", "--games", "2", "--max-plies", "10", "--pdn", str(pdn)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--append" in err and pdn.read_bytes() == before
    assert main(argv + ["--append"]) == 0
    text = pdn.read_text(encoding="utf-8")
    assert text.startswith(before.decode()) and text.count("[Round ") == 2
    empty = tmp_path / "empty.pdn"
    empty.touch()
    assert main(argv[:-1] + [str(empty)]) == 0 and empty.read_text().count("[Round ") == 2


# --- 6. play's seats, and every option's range and default in --help ----------------------


@pytest.mark.parametrize("seat", [["--white", "random"], ["--black", "kb:1"]])
def test_play_color_with_a_seat_is_a_usage_error(seat, capsys):
    assert main(["play", "--color", "black", *seat]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--color" in err


def _parsers():
    """(name, parser) of every command and action."""
    import argparse

    todo = [("kbdraughts", build_parser())]
    while todo:
        name, parser = todo.pop()
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo += [(f"{name} {n}", p) for n, p in action.choices.items()]


def test_every_option_says_its_default():
    for name, parser in _parsers():
        for action in parser._actions:
            if action.dest in ("help", "version", "command", "rules_command", "egdb_command") \
                    or action.required:
                continue  # a required argument has no default
            assert "default" in (action.help or ""), (name, action.option_strings, action.dest)


@pytest.mark.parametrize("command, says", [
    (["perft"], ["0..20"]), (["bestmove"], ["1..4", "default: 4", "default 1000", "1..3600000"]),
    (["play"], ["1..4", "default: 4", "0..60", "default: white"]),
    (["match"], ["default 20", "default 1)", "number of CPUs", "default 300", "0..100",
                 "default 4", "--append"]),
    ([], ["COMMAND --help"])])
def test_help_gives_ranges_and_defaults(command, says, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # one option a line
    with pytest.raises(SystemExit):
        main(command + ["--help"])
    out = capsys.readouterr().out
    for word in says:
        assert word in out, (command, word)
