"""``kbdraughts play``'s arguments: the same player specs and messages as ``match``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.cli import build_parser, main

CMD = [sys.executable, "-m", "kbdraughts.cli"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(CMD + list(args), input="", capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", [["play", "--white"], ["play", "--black"],
                                     ["match", "random"]])
def test_a_bad_level_says_so_in_play_and_match(command: list[str]):
    r = run(*command, "kb:7")
    assert r.returncode == 2 and r.stdout == "", r
    assert len(r.stderr.splitlines()) == 1 and "level must be from 1 to 4, got 7" in r.stderr


def test_an_unknown_player_is_named_the_same_way_in_play_and_match():
    play, match = run("play", "--white", "wizard"), run("match", "wizard", "random")
    said = ("unknown player 'wizard': use human, kb[:LEVEL][:nokb][:MSms|:Nnodes], random, "
            "greedy or ")
    assert said in play.stderr and said in match.stderr
    assert play.returncode == match.returncode == 2


def test_match_refuses_a_person():
    r = run("match", "kb:1", "human")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert "a match is played by two AI players, not by 'human'" in r.stderr


def test_play_reads_what_match_reads():
    args = build_parser().parse_args(["play", "--white", "kb:1:nokb:200ms", "--black", "me"])
    assert args.white == PlayerSpec("kb", level=1, use_kb=False, movetime_ms=200)
    assert args.black.is_human and args.level is None


@pytest.mark.parametrize("argv, said", [
    (["play", "--fen", "W:Wz9:B"], "kbdraughts play: bad FEN: "),
    (["--fen", "W:WKa1:BKh8", "--resume"], "kbdraughts play: choose one of --fen, --load and "),
])
def test_a_game_that_cannot_start_is_one_line_and_status_2(argv, said, capsys):
    assert main(argv) == 2  # a bare option means `play`
    err = capsys.readouterr().err
    assert err.startswith(said) and len(err.splitlines()) == 1
