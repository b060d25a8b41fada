"""A run's outputs never write over its inputs, and a file a command adds to is left whole
under a full disk (issue 40, items 1 and 10): kbdraughts/cli/paths.py, match --pdn."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts.cli import main
from kbdraughts.pdn import read_pdn_file

GAMES = """[Event "a"]
1. c3-d4 f6-g5 2. b2-c3 1-0

[Event "b"]
1. c3-b4 b6-a5 *

[Event "c"]
1. a3-b4 f6-e5 0-1
"""


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "g.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


@pytest.mark.parametrize("argv", [
    ["annotate", "G", "--unnamed", "G", "-o", os.devnull],  # the campaign's: 3 games lost
    ["annotate", "G", "--unnamed", "LINK"],  # the input through a symbolic link
    ["annotate", "G", "--unnamed", "OUT", "-o", "OUT"],  # two outputs, one file
    ["annotate", "G", "-o", "RULES", "--rules", "RULES"],  # a rule file read, then replaced
    ["match", "random", "greedy", "--fens", "G", "--pdn", "G", "--append"],
    ["tune", "games", "--out", "G", "--heuristic", "G"],
    ["tune", "fit", "G", "--heuristic", "G", "--write"],
])
def test_an_output_onto_an_input_is_refused_and_nothing_written(argv, games, tmp_path, capsys):
    link = tmp_path / "link.pdn"
    link.symlink_to(games)
    rules = tmp_path / "rules.txt"
    rules.write_text("# no rule\n", encoding="utf-8")
    names = {"G": str(games), "LINK": str(link), "OUT": str(tmp_path / "out.pdn"),
             "RULES": str(rules)}
    argv = [names.get(a, a) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "choose another file" in err and err.count("\n") == 1
    assert games.read_text(encoding="utf-8") == GAMES
    assert rules.read_text(encoding="utf-8") == "# no rule\n"
    assert not (tmp_path / "out.pdn").exists()


def test_annotate_onto_its_input_still_keeps_every_game(games, capsys):
    assert main(["annotate", str(games), "-o", str(games), "--budget", "1"]) == 0
    assert [g.tags["Event"] for g in read_pdn_file(games)] == ["a", "b", "c"]


def _match(pdn: str, limit: int | None) -> subprocess.CompletedProcess:
    def limited() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails: a full disk
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run(
        [sys.executable, "-m", "kbdraughts.cli", "match", "random", "greedy", "--games", "6",
         "--pdn", pdn], preexec_fn=limited, capture_output=True, text=True, timeout=120)


def test_match_pdn_under_a_full_disk_keeps_whole_games_and_says_one_line(tmp_path):
    pdn = tmp_path / "m.pdn"
    run = _match(str(pdn), 1024)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.startswith(f"kbdraughts match: cannot write {pdn}: File too large")
    games = read_pdn_file(pdn)  # every game in the file whole, none cut
    assert 1 <= len(games) < 6
    assert pdn.read_text(encoding="utf-8").rstrip().endswith(("1-0", "0-1", "1/2-1/2"))


def test_match_pdn_to_dev_full_is_one_line(tmp_path):
    run = _match("/dev/full", None)
    assert run.returncode == 2
    assert run.stderr == ("kbdraughts match: cannot write /dev/full: No space left on device; "
                          "the match stopped at game 1, the games before it whole in the file\n")


def test_a_game_appended_under_a_full_disk_is_added_whole_or_not_at_all(games):
    before = games.read_bytes()
    code = ("import signal, resource, sys\n"
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before) + 40}, {len(before) + 40}))\n"
            "from kbdraughts.game import Game\n"
            "from kbdraughts.pdn import write_pdn_file\n"
            "from kbdraughts.notation import parse_move\n"
            "g = Game()\n"
            "for m in ['c3-d4', 'f6-g5', 'b2-c3', 'g7-f6']:\n"
            "    g.push(parse_move(g.position, m))\n"
            "try:\n"
            f"    write_pdn_file({str(games)!r}, g, {{'Event': 'x' * 30}}, append=True)\n"
            "except OSError as e:\n"
            "    sys.exit(3)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 3, run.stderr
    assert games.read_bytes() == before  # not half a game after the three
