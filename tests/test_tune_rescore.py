"""'tune rescore': a data file's positions scored again by a deeper search, the games and their
results kept; a function of the old lines and the depth, whatever the run's split or processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.ai.native_search import SHORT_TT_SIZE, make_searcher
from kbdraughts.ai.search import MATE_ZONE
from kbdraughts.cli import main
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.notation import parse_fen
from kbdraughts.tune.games import Settings, play_game


@pytest.fixture(scope="module")
def shallow(tmp_path_factory) -> Path:
    """Six games played at depth 2: scores a deeper search will often not share."""
    path = tmp_path_factory.mktemp("rescore") / "d2.txt"
    settings = Settings(depth=2, opening_plies=4, max_plies=40)
    lines = [line for n in range(6) for line in play_game(settings, n)]
    path.write_text("# made at depth 2\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def _rows(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


def test_the_scores_are_the_deeper_search_s_and_the_rest_stays(shallow, tmp_path):
    out = tmp_path / "d5.txt"
    assert main(["tune", "rescore", str(shallow), "--out", str(out), "--depth", "5",
                 "--games", "6", "--jobs", "1"]) == 0
    old, new = _rows(shallow), _rows(out)
    by_fen = {(r[0], r[3]): r for r in old}
    assert new and all((r[0], r[3]) in by_fen and by_fen[r[0], r[3]][1] == r[1] for r in new)
    # each score is a depth-5 search's, one searcher a game, its positions in order
    searcher, game, differ = None, None, 0
    for r in new:
        if r[3] != game:
            searcher, game = make_searcher(default_heuristic().evaluate,
                                           tt_size=SHORT_TT_SIZE), r[3]
        score = searcher.search(parse_fen(r[0]), max_depth=5).score
        assert int(r[2]) == round(score) and abs(score) < MATE_ZONE
        differ += int(r[2]) != int(by_fen[r[0], r[3]][2])
    assert differ > len(new) // 10  # depth 5 is no copy of depth 2


def test_cut_in_runs_or_spread_over_processes_it_writes_the_same_file(shallow, tmp_path):
    whole, split = tmp_path / "whole.txt", tmp_path / "split.txt"
    assert main(["tune", "rescore", str(shallow), "--out", str(whole), "--depth", "4",
                 "--games", "6", "--jobs", "1"]) == 0
    assert main(["tune", "rescore", str(shallow), "--out", str(split), "--depth", "4",
                 "--games", "2", "--jobs", "2"]) == 0
    assert {r[3] for r in _rows(split)} == {"0", "1"}
    assert main(["tune", "rescore", str(shallow), "--out", str(split), "--depth", "4",
                 "--games", "10", "--jobs", "2"]) == 0
    assert split.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_a_line_that_is_no_data_is_named_with_its_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("W:Wc3:Bf6 0.5 3 0\nW:Wc3:Bf6 0.5\n", encoding="utf-8")
    assert main(["tune", "rescore", str(bad), "--out", str(tmp_path / "o.txt"),
                 "--games", "5", "--jobs", "1"]) == 2
    assert f"{bad}:2: error: not a line of 'tune games'" in capsys.readouterr().err
