"""Fuzz the command line: random argument lists built from the real options, with good, junk
and hostile values, run through ``kbdraughts.cli.main`` in this process.

Each run must end by a return or SystemExit (no other exception), with status 0 or 2 (1 for
``rules check`` with errors), and a status 2 says why in one stderr line per fault: one line,
or one per ``error`` answer. Values are chosen so no run computes for long: small games, depths
and times, players that answer at once, and ``play`` given ``quit`` on stdin.
"""

from __future__ import annotations

import io
import random

import pytest

from kbdraughts.cli import main

CASES = 280  # 35 a command maker
SEED = 20261123

JUNK = ["", " ", "-", "--", "x", "²", "١٢", "٣", "1.5", "-1", "0", "99999999999",
        "9" * 400, "1e9", "nan", "inf", "\x1b[2J", "\t", "a\nb", "\x1c", "\u2028", "\u0085",
        "\udcff", "--help-me", "-5", "+3", "1_0", "０"]
FENS = ["W:Wc3:Bd4", "B:Wa1:Bh8", "W:WKa1:BKh8", "W:Wa1:B", "W:Wa1:Ba1", "W:Wz9", "", "\x1c",
        "W:Wc3:Bd4\nW:Wa1:Bh8", "w:wc3:bd4", "W:W" + ",".join(["c3"] * 300) + ":Bd4"]
SMALL = ["0", "1", "2", "3"]
PLAYERS = ["random", "greedy", "search:1", "human", "kb:9", "search:x", "search:99", "kb:1:fast",
           "alphazero", "", "²", "RANDOM"]


def pick(rng: random.Random, *pools: list[str]) -> str:
    return rng.choice(rng.choice(pools))


def fens(rng: random.Random) -> list[str]:
    return [pick(rng, FENS, JUNK) for _ in range(rng.randrange(1, 4))]


def moves(rng: random.Random) -> list[str]:
    return ["moves", *fens(rng)]


def perft(rng: random.Random) -> list[str]:
    argv = ["perft", pick(rng, SMALL, JUNK, ["21", "1100"])]
    if rng.random() < 0.5:
        argv += ["--fen", pick(rng, ["W:WKa1:BKh8", "W:Wc3:Bd4"], FENS, JUNK)]
    if rng.random() < 0.3:
        argv.append("--divide")
    return argv


def bestmove(rng: random.Random) -> list[str]:
    argv = ["bestmove", *fens(rng), "--no-kb"]
    options = {"--level": [["1", "2"], JUNK, ["5", "9"]],
               "--movetime": [["10", "1"], JUNK, ["3600001"]], "--seed": [SMALL, JUNK]}
    for name, pools in options.items():
        if rng.random() < 0.6:
            argv += [name, pick(rng, *pools)]
    if rng.random() < 0.3:
        argv.append("--explain")
    if rng.random() < 0.2:
        argv += ["--rules", pick(rng, JUNK, ["no/such/file.txt"])]
    return argv


def match(rng: random.Random) -> list[str]:
    argv = ["match", pick(rng, PLAYERS[:3], PLAYERS), pick(rng, PLAYERS[:3], PLAYERS)]
    options = {"--games": [["1", "2"], JUNK], "--seed": [SMALL, JUNK],
               "--jobs": [["1"], ["0", "x", "-2", "²"]], "--max-plies": [["4", "10"], JUNK],
               "--opening-plies": [SMALL, JUNK, ["101"]]}
    for name, pools in options.items():
        if rng.random() < 0.6 or name in ("--games", "--max-plies"):
            value = pick(rng, *pools)
            if name in ("--games", "--max-plies") and value.strip().isdigit() and len(value) > 1:
                value = "0"  # a valid large count would play for long: keep it a usage error
            argv += [name, value]
    return argv


def rules(rng: random.Random) -> list[str]:
    action = rng.choice(["check", "match", "show", "bogus", ""])
    argv = ["rules"] + ([action] if action else [])
    if action == "check":
        argv.append(pick(rng, JUNK, ["no/such/dir"]))  # no path: the whole shipped base
    elif action in ("match", "show"):
        argv += fens(rng) if action == "match" else [pick(rng, JUNK, ["push-d4"])]
        argv += ["--rules", pick(rng, JUNK, ["no/such/file.txt"])]
    return argv


def play(rng: random.Random) -> list[str]:
    argv = ["play"] if rng.random() < 0.7 else []  # bare options mean play
    options = {"--color": [["white", "black", "random"], JUNK], "--level": [["1"], JUNK],
               "--fen": [FENS, JUNK], "--load": [JUNK, ["no/such.pdn"]],
               "--white": [["human"], PLAYERS[3:]], "--black": [["human"], PLAYERS[3:]],
               "--delay": [["0", "0.01"], JUNK, ["61"]]}
    for name, pools in options.items():
        if rng.random() < 0.3:
            argv += [name, pick(rng, *pools)]
    if rng.random() < 0.2:
        argv.append(rng.choice(["--ascii", "--resume", "--version", "--help", "--bogus"]))
    if not argv:
        argv = ["--ascii"]
    if "--color" not in argv and "--white" not in argv and "--black" not in argv:
        argv += ["--color", "white"]  # else the AI's first move at level 4 takes a second
    return argv


def annotate(rng: random.Random) -> list[str]:
    argv = ["annotate", pick(rng, JUNK, ["no/such.pdn"])]
    options = {"--side": [["white", "black"], JUNK], "--game": [SMALL, JUNK],
               "-o": [JUNK], "--rules": [JUNK, ["no/such/file.txt"]]}
    for name, pools in options.items():
        if rng.random() < 0.4:
            argv += [name, pick(rng, *pools)]
    return argv


def misc(rng: random.Random) -> list[str]:
    return [pick(rng, JUNK, ["--version", "-h", "--help", "nosuchcommand"])
            for _ in range(rng.randrange(1, 3))]


MAKERS = [moves, perft, bestmove, match, rules, play, annotate, misc]


def run_once(argv: list[str], capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"quit\n"), encoding="utf-8"))
    try:
        status = main(argv)
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("maker", MAKERS, ids=[m.__name__ for m in MAKERS])
def test_cli_arguments_fuzz(maker, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # play's autosave goes here
    monkeypatch.chdir(tmp_path)  # junk --pdn names and the like land here
    rng = random.Random(f"{SEED}:{maker.__name__}")
    for _ in range(CASES // len(MAKERS)):
        argv = maker(rng)
        status, out, err = run_once(argv, capsys, monkeypatch)
        assert "Traceback" not in err, (argv, err)
        allowed = {0, 2, 1} if argv[:2] == ["rules", "check"] else {0, 2}
        assert status in allowed, (argv, status, err)
        if status == 2:
            errors = out.split("\n").count("error")
            assert len(err.splitlines()) == max(errors, 1), (argv, out, err)
