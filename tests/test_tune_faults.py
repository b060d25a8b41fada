"""kbdraughts tune under faults (issue 40, items 2, 6-8 and 12): the fitted pair of files
written as a pair or not at all, devices and FIFOs refused, a data file cut by a kill resumed,
too little data and broken lines named in words, and the data reader fed hostile lines."""

from __future__ import annotations

import math
import os
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbdraughts.board import WHITE, legal_moves
from kbdraughts.cli import main
from kbdraughts.eval.heuristic import material, position_features
from kbdraughts.eval.terms import POSITION_FEATURES
from kbdraughts.game import random_walk
from kbdraughts.notation import fen
from kbdraughts.tune.fit import DataError, read_data

TERMS = "# a test heuristic\nvalue centre 0 per centre_men\n"
CENTRE = POSITION_FEATURES.index("centre_men")


def _data_file(path: Path, n: int = 1500, per_game: int = 1) -> Path:
    """Positions whose results follow material and 30 a centre man (the fit finds it)."""
    rng = random.Random(4)
    lines = []
    while len(lines) < n:
        pos = list(random_walk(rng, rng.randrange(6, 40)))[-1]
        if not legal_moves(pos) or legal_moves(pos)[0].captured or abs(material(pos)) > 100:
            continue
        sign = 1 if pos.side == WHITE else -1
        e = sign * (material(pos) + 30 * position_features(pos)[CENTRE])
        result = float(rng.random() < 1 / (1 + math.exp(-0.01 * e)))
        game = len(lines) // per_game
        lines.append(f"{fen(pos)} {result:g} 0 {game}\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    h = tmp_path / "heuristic.txt"
    h.write_text(TERMS, encoding="utf-8")
    shapes = tmp_path / "shapes.txt"  # a region of two squares, below a long comment
    shapes.write_text("# the test's shapes\n" * 100 + "region pair c3 e3\n  ..  0\n  w.  0\n"
                      "  .w  0\n  ww  0\n", encoding="utf-8")
    return h, shapes


def _fit_under_limit(data: Path, h: Path, limit: int) -> subprocess.CompletedProcess:
    """``tune fit --write`` in a process that may write no file larger than ``limit``."""
    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run(
        [sys.executable, "-m", "kbdraughts.cli", "tune", "fit", str(data), "--heuristic",
         str(h), "--write", "--l2", "0", "--target", "result"],
        preexec_fn=limited, capture_output=True, text=True, timeout=240)


def test_a_fit_that_cannot_write_its_shapes_leaves_both_files(tmp_path):
    data = _data_file(tmp_path / "games.txt")
    h, shapes = _pair(tmp_path)
    before = h.read_bytes(), shapes.read_bytes()
    # room for the new heuristic file, not for the new shapes file (its comment is longer)
    run = _fit_under_limit(data, h, 1000)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "not written" in run.stderr and "Traceback" not in run.stderr
    assert (h.read_bytes(), shapes.read_bytes()) == before  # the old pair, both whole
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    # with room for both, both are written
    assert main(["tune", "fit", str(data), "--heuristic", str(h), "--write", "--l2", "0",
                 "--target", "result"]) == 0
    assert h.read_bytes() != before[0] and shapes.read_bytes() != before[1]
    assert "# tune: weights fitted" in shapes.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [
    ["tune", "fit", "/dev/zero"],
    ["tune", "fit", "DATA", "--heuristic", "/dev/zero"],
    ["tune", "fit", "DATA", "--shapes", "/dev/zero"],
    ["tune", "shapes", "--template", "diamond", "--out", "/dev/full"],
    ["tune", "games", "--out", "/dev/full", "--games", "1", "--depth", "1"],
    ["tune", "games", "--out", "FIFO", "--games", "1", "--depth", "1"],
    ["tune", "shapes", "--template", "diamond", "--out", "FIFO"],
])
def test_devices_and_fifos_are_refused_at_once(argv, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    data = _data_file(tmp_path / "d.txt", 20)
    argv = [{"FIFO": str(fifo), "DATA": str(data)}.get(a, a) for a in argv]

    def limited() -> None:  # a reader without bound fails here, not the machine
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
    run = subprocess.run([sys.executable, "-m", "kbdraughts.cli", *argv], preexec_fn=limited,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "not a regular file" in run.stderr and run.stderr.count("\n") == 1


def test_games_go_on_after_a_cut_line_and_a_blank_line(tmp_path):
    out = tmp_path / "d.txt"
    more = ["tune", "games", "--out", str(out), "--depth", "2", "--opening", "4", "--jobs", "1"]
    assert main(more + ["--games", "3"]) == 0
    whole = out.read_text(encoding="utf-8")
    last = max(g for *_, g in read_data(out))
    # a kill mid-line: the cut game's lines go and it is played again, the same lines
    out.write_text(whole[:whole.rindex(f" {last}\n") - 5], encoding="utf-8")
    assert main(more + ["--games", "1"]) == 0
    assert out.read_text(encoding="utf-8") == whole
    # a blank line at the end is passed over: the next game follows
    out.write_text(whole + "\n", encoding="utf-8")
    assert main(more + ["--games", "1"]) == 0
    assert max(g for *_, g in read_data(out)) > last
    assert out.read_text(encoding="utf-8").startswith(whole + "\n")


def _rewrite(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_broken_games_file_is_named_not_resumed(tmp_path, capsys):
    out = tmp_path / "d.txt"
    out.write_text("# header\nW:W21:B12 1 0 zero\nW:W21:B12 1 0 1\n", encoding="utf-8")
    assert main(["tune", "games", "--out", str(out), "--games", "1", "--depth", "1"]) == 2
    assert capsys.readouterr().err.startswith(f"kbdraughts tune games: {out}:2: error: not a line")


@pytest.mark.parametrize("per_game, limit", [(40, None), (20, 10)])
def test_too_little_data_is_said_not_a_zero_division(per_game, limit, tmp_path, capsys):
    data = _data_file(tmp_path / "d.txt", 40, per_game)  # one game, or the first of two
    argv = ["tune", "fit", str(data)] + (["--limit", str(limit)] if limit else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "a fit needs games to fit and games to hold out" in err and err.count("\n") == 1


@pytest.mark.parametrize("line, says", [
    ("line", "expected 'FEN RESULT [SCORE GAME]', got 1 word"),
    ("W:W21:B12 line", "the result 'line' is not 1, 0.5 or 0"),
    ("W:W21:B12 1 inf 3", "the score 'inf' is not a number"),
    ("W:W21:B12 1 1e308 3", "the score '1e308' is not a number"),
    ("W:W21:B12 1 nan 3", "the score 'nan' is not a number"),
    ("W:W21:B12 1 0 x", "the game 'x' is not a whole number"),
    ("W:W21:B12 1 0 3 4", "got 5 words"),
    ("W:W33:B12 1 0 3", "error: "),
])
def test_a_bad_data_line_says_what_is_wrong(line, says, tmp_path):
    data = _rewrite(tmp_path / "d.txt", f"W:W21:B12 1 0 1\n{line}\n")
    with pytest.raises(DataError) as e:
        read_data(data)
    assert str(e.value).startswith(f"{data}:2: error: ") and says in str(e.value)
    assert "list index" not in str(e.value) and "could not convert" not in str(e.value)


@settings(max_examples=200, deadline=2000, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.one_of(
    st.sampled_from(["W:W21:B12", "B:W21,K5:B12", "1", "0.5", "0", "-3", "inf", "1e308", "x",
                     "#", "\t", "", "W:", "12", "99999999999999999999"]),
    st.text(max_size=6)), max_size=8), lines=st.integers(1, 4))
def test_any_data_line_is_read_or_named(words, lines, tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "d.txt"
    path.write_text((" ".join(words) + "\n") * lines, encoding="utf-8", errors="replace")
    try:
        rows = read_data(path)
    except DataError as e:
        assert str(e).startswith(f"{path}:")
        return
    assert all(r in (0, 0.5, 1) and not abs(s) >= 1e6 for _, r, s, _ in rows)


def test_a_line_without_end_is_refused_not_read_whole(tmp_path):
    data = tmp_path / "d.txt"
    with data.open("w", encoding="utf-8") as f:
        f.write("W:W21:B12 1 0 1\n" + "0" * 20_000_000)
    start = time.monotonic()
    with pytest.raises(DataError, match=":2: error: a line of more than"):
        read_data(data)
    assert time.monotonic() - start < 10


def test_a_heuristic_of_too_many_patterns_is_named_at_its_line(tmp_path, capsys):
    h = _rewrite(tmp_path / "h.txt", TERMS + "".join(
        f"pattern p{i} 1 c1=w e1=w\n" for i in range(4097)))
    out = tmp_path / "d.txt"
    assert main(["tune", "games", "--out", str(out), "--heuristic", str(h), "--games", "1",
                 "--depth", "1", "--jobs", "1"]) == 2
    assert capsys.readouterr().err == (
        f"kbdraughts tune games: {h}:4099: error: pattern 'p4096' is pattern 4,097: a heuristic "
        "file holds at most 4,096 (the evaluator's tables)\n")
    assert not out.exists()


def test_data_from_a_pipe_is_streamed(tmp_path):
    data = _data_file(tmp_path / "d.txt", 30)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{data}' > '{fifo}'"])
    try:
        assert read_data(fifo) == read_data(data)  # tune fit <(zcat games.txt.gz)
    finally:
        writer.wait(timeout=30)


def test_games_under_a_full_disk_leave_whole_lines(tmp_path):
    out = tmp_path / "d.txt"

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails: a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))
    run = subprocess.run(
        [sys.executable, "-m", "kbdraughts.cli", "tune", "games", "--out", str(out), "--games",
         "8", "--depth", "1", "--opening", "4", "--jobs", "1"],
        preexec_fn=limited, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    text = out.read_text(encoding="utf-8")
    assert text.endswith("\n") and 0 < len(text) <= 3000
    assert all(len(line.split()) == 4 for line in text.splitlines()[1:])
