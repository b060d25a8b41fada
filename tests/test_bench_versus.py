"""bench/versus.py plays an earlier commit's own package: the archive is that commit's code, the
engine started from it imports the archive (not the checkout it was started from), and an
engine that cannot read a game line is found out before the match."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSUS = ROOT / "bench" / "versus.py"


def _versus():
    spec = importlib.util.spec_from_file_location("versus", VERSUS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _in_git() -> bool:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT,
                          capture_output=True).returncode == 0


@pytest.mark.skipif(not _in_git(), reason="needs the project's git history")
def test_the_archived_engine_runs_its_own_package_and_reads_game_lines(tmp_path):
    v = _versus()
    v.export("HEAD", tmp_path)
    assert (tmp_path / "kbdraughts" / "cli" / "__init__.py").is_file()
    words = v.engine_words(tmp_path, 50, 1, False)
    # Started from the checkout, as match starts it: the archive's package is the one imported.
    probe = words[:words.index("-P") + 1] + [
        "-c", "import kbdraughts, kbdraughts.native as n; print(kbdraughts.__file__); "
        "print(n.core.__file__ if n.core else '')"]
    out = subprocess.run(probe, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    package, core = out.splitlines()
    assert Path(package).resolve().is_relative_to(tmp_path.resolve())
    # Its own native core, not this tree's (which an editable install would hand it).
    assert not core or Path(core).resolve().is_relative_to(tmp_path.resolve()), core
    assert v.warm(words, tmp_path) is True


def test_an_engine_that_stops_at_a_game_line_gets_the_position_alone(tmp_path):
    v = _versus()
    old = tmp_path / "old_engine.py"
    old.write_text("import sys\n"
                   "for line in sys.stdin:\n"
                   "    if ' moves ' in line:\n"
                   "        sys.exit('bad FEN')\n"
                   "    print('c3-d4', flush=True)\n")
    assert v.warm([sys.executable, str(old)], tmp_path) is False


def test_the_ballots_open_the_games_instead_of_a_seed():
    v = _versus()
    args = v.argparse.Namespace(level=4, movetime=300, no_kb=False, games=40, seed=1, jobs=2,
                                balanced=False, pdn=None, fens="bench/data/ballots.txt",
                                nodes=None)
    cmd = v.match_command(args, ["old-engine"], True)
    assert cmd[3:7] == ["match", "kb:4:300ms", "cmd:old-engine", "--fens"]
    assert Path(cmd[7]) == (Path.cwd() / "bench" / "data" / "ballots.txt").resolve()
    assert "--games" not in cmd and "--seed" not in cmd
    seeded = v.match_command(v.argparse.Namespace(**{**vars(args), "fens": None}), ["e"], False)
    assert seeded[6:10] == ["--games", "40", "--seed", "1"] and seeded[-1] == "--cmd-fen"
