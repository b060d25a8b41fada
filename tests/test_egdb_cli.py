"""``kbdraughts egdb build|probe|verify`` as a script sees it."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from kbdraughts.cli import main
from kbdraughts.egdb import build, store
from kbdraughts.egdb.index import Material, materials


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("egdb")
    build.build(3, folder)
    return folder


@pytest.fixture
def folder(built: Path) -> Path:
    """The tables of up to 3 pieces in this test's own data folder."""
    target = build.default_folder()
    shutil.copytree(built, target)
    return target


def test_probe_answers_each_fen_in_words(folder, capsys) -> None:
    assert main(["egdb", "probe", "W:WKa1:BKh8", "W:WKc1,Ke1:BKa1", "B:Wc3:Bb4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("loss 2  # Black wins: 2 plies")
    assert lines[1] == "draw  # drawn with best play: 2 kings v 1 king"
    assert lines[2].startswith("win 1  # Black wins: 1 ply")


def test_probe_reads_stdin_and_answers_a_bad_fen_with_error(folder, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("W:WKa1:BKh8\nnonsense\n\nW:Wa1,c3,e3:Bb6,d6,f6\n"))
    assert main(["egdb", "probe"]) == 2
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("loss 2") and lines[1] == "error"
    assert lines[2] == "unknown  # 6 pieces: the tables hold at most 5"
    assert "bad FEN: line 2" in err


def test_probe_says_when_a_table_is_not_built(folder, capsys) -> None:
    (folder / "w0m1k-b0m1k.egdb").unlink()
    # Up to 4 pieces are built at first need, with a note; 5 are left to the command.
    assert main(["egdb", "probe", "W:WKa1:BKh8"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("loss 2") and "building the endgame tables" in err
    # the time as measured (issue 28, item 34: the pure path said "some seconds" and took 67)
    assert f"(once; {build.BUILD_TIME[build.native_solves()]})" in err
    assert build.BUILD_TIME[False] == "about a minute"
    assert main(["egdb", "probe", "W:WKa1,Kc1:BKh8,Kf8,Kd8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("unknown  # the table w0m2k-b0m3k (2 kings v 3 kings) is not built")


def test_build_counts_each_table_and_reads_the_whole_ones(folder, capsys) -> None:
    assert main(["egdb", "build", "--pieces", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(materials(3)) + 1
    assert out[0].startswith("w0m1k-b0m1k  1 king v 1 king  1,984 positions  win ")
    assert all(line.endswith("read") for line in out[:-1])
    assert out[-1].startswith(f"total: {len(materials(3))} tables, 399,040 positions")


def test_verify_passes_and_then_names_a_damaged_table(folder, capsys) -> None:
    assert main(["egdb", "verify", "--pieces", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "w0m1k-b0m1k ok" and out[-1].endswith("0 with a fault or not checked")
    path = store.path_for(folder, Material(1, 0, 1, 0))
    path.write_bytes(path.read_bytes()[:-3])
    assert main(["egdb", "verify", "--pieces", "3"]) == 1
    out = capsys.readouterr().out
    assert f"w1m0k-b1m0k not checked: {path}: truncated" in out
    assert "w1m0k-b2m0k not checked: a table it depends on" in out


def test_verify_sample_checks_each_table_against_the_search(folder, capsys) -> None:
    assert main(["egdb", "verify", "--sample", "300", "--pieces", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(materials(3)) + 1
    assert out[0].startswith("w0m1k-b0m1k  300 checked  0 disagree  ")
    assert out[-1].startswith(f"total: {len(materials(3))} tables, 4,800 checked, 0 disagree, ")


def test_verify_sample_names_a_whole_table_that_lies(folder, capsys) -> None:
    # A table whose checksum is right but whose distances are not, as a solver's fault would
    # write it: the consistency pass and the sampled check both see it.
    m = Material(0, 2, 0, 1)
    table = store.read(store.path_for(folder, m))
    distances = bytearray(table.distances)
    won = [i for i in range(len(distances)) if table.value(i) == store.WIN]
    for i in won:
        distances[i] += 2
    store.write(folder, store.Table(m, table.values, bytes(distances)))
    assert main(["egdb", "verify", "--sample", "1000", "--pieces", "3"]) == 1
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith(m.name))
    assert " 1,000 checked  " in line and " 0 disagree" not in line
    assert "(first: W:WK" in line and "the table says win " in line
    assert "w0m1k-b0m2k  1,000 checked  0 disagree" in out
    assert out.splitlines()[-1].startswith("total: 16 tables, ")


@pytest.mark.parametrize("argv", [["egdb"], ["egdb", "build", "--pieces", "6"],
                                  ["egdb", "verify", "--pieces", "x"],
                                  ["egdb", "verify", "--sample", "0"]])
def test_usage_errors_exit_2_without_a_traceback(argv, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        status = main(argv)
        raise SystemExit(status)
    assert e.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def drawn_by_the_count(db) -> str:
    """A game line of three kings against one where the lone king survives long enough that
    the board's win no longer fits in the 15 moves (a seeded walk, no repetition, no king
    given away)."""
    import random

    from kbdraughts.game import Game
    from kbdraughts.notation import parse_fen

    for seed in range(50):
        line = _walk(db, random.Random(seed), Game(parse_fen("W:WKa1,Kc1,Ke1:BKd8")))
        if line:
            return line
    raise AssertionError("no walk found one")


def _walk(db, rng, game) -> str | None:
    from kbdraughts.ai.draw_rules import game_counters
    from kbdraughts.ai.endgame import judge
    from kbdraughts.match.line_protocol import game_line

    while True:
        verdict = judge(game.position, *game_counters(game), prober=db.probe)
        assert verdict is not None and game.result is None
        if verdict.by_rules:
            return game_line(game)
        moves = [m for m in game.legal_moves() if not m.captured]
        rng.shuffle(moves)
        for move in moves:
            game.push(move)
            found = db.probe(game.position)
            if game.repetitions() == 1 and found is not None and found[0] != 3:
                break
            game.pop()
        else:
            return None  # stuck: every move repeats, gives a king away, or must capture


def test_probe_applies_the_draw_counters_of_a_game_line(folder, capsys) -> None:
    from kbdraughts.egdb.probe import Database

    if not build.native_solves():
        pytest.skip("4-piece tables need the native core")
    line = drawn_by_the_count(Database(build.default_folder()))
    assert main(["egdb", "probe", line, line.split(" moves")[0]]) == 0
    with_moves, fresh = capsys.readouterr().out.splitlines()
    board = with_moves.split("  #")[0]
    assert board.split()[0] in ("win", "loss")  # the board's value comes first, unchanged
    assert "; drawn by the 15-move rule of three kings against a lone king, White having made" \
        in with_moves
    assert "drawn by" not in fresh


def test_build_says_reading_when_every_table_is_read_and_building_when_some_are_missing(
        folder, capsys) -> None:
    """Issue 28, item 33: "building 9 tables" when each was read from disk."""
    n = len(materials(3))
    assert main(["egdb", "build", "--pieces", "3"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"reading {n} tables (built already), ") and "building" not in err
    store.path_for(folder, materials(2)[0]).unlink()
    assert main(["egdb", "build", "--pieces", "3"]) == 0
    assert capsys.readouterr().err.startswith(f"building 1 table and reading {n - 1}, ")
