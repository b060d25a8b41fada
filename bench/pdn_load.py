"""Issue 28's target for large PDN files: ``play --load FILE --game N`` within 10 s and 300 MB
on a file of 50 MB, beside the anchor of the same command on a small file, measured in the
same run.

    python bench/pdn_load.py [--mb 50] [--runs 3]

The large file is made of the 29 games of bench/data/ussr1924.pdn (the 1924 championship)
copied until it holds ``--mb`` megabytes, each copy's Event tag numbered; the game asked for
is one in its middle. Each command is a whole process (``python -m kbdraughts.cli play``, its
standard input a pipe that says ``quit``), timed from start to exit; its peak resident memory
is the kernel's (``wait4``), this process kept small so that a forked child's peak is its
own. The anchor is game 1 of bench/data/ussr1924.pdn (19 KB). Medians of ``--runs`` runs,
the two commands timed in turn in each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SMALL = Path(__file__).parent / "data" / "ussr1924.pdn"
#: The targets of issue 28 for a 50 MB file.
TARGET_SECONDS, TARGET_MB = 10.0, 300.0


def make_large(path: Path, megabytes: float) -> int:
    """Write copies of the small file's games to ``path`` until it holds ``megabytes``; the
    number of games written. Written a copy at a time: this process stays small, and so do
    the children it starts (a forked child's peak counts the parent's size before exec)."""
    text = SMALL.read_text(encoding="utf-8")
    per_copy, copies, size = text.count("[Event "), 0, 0
    with path.open("w", encoding="utf-8") as f:
        while size < megabytes * 2**20:
            copy = text.replace('[Event "1st USSR Championship"]', f'[Event "copy {copies}"]')
            size += f.write(("\n" if copies else "") + copy)
            copies += 1
    return per_copy * copies


def play_load(path: Path, game: int, env: dict[str, str]) -> tuple[float, float]:
    """Seconds and peak resident megabytes of ``play --load path --game game``."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kbdraughts.cli", "play", "--load", str(path), "--game",
         str(game)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write(b"quit\n")
    proc.stdin.close()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    errors = proc.stderr.read().decode(errors="replace")
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"play --load {path} --game {game} failed:\n{errors}")
    return seconds, usage.ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=50.0, help="the large file's size")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "XDG_DATA_HOME": home}  # the autosave goes there
        large = Path(home) / "large.pdn"
        games = make_large(large, args.mb)
        middle = games // 2 + 1
        small_runs, large_runs = [], []
        for _ in range(args.runs):
            small_runs.append(play_load(SMALL, 1, env))
            large_runs.append(play_load(large, middle, env))
    for name, runs in ((f"anchor: {SMALL.name} (19 KB), --game 1", small_runs),
                       (f"large: {args.mb:g} MB, {games} games, --game {middle}", large_runs)):
        seconds = statistics.median(s for s, _ in runs)
        peak = statistics.median(m for _, m in runs)
        print(f"{name:<45} {seconds:6.2f} s  {peak:6.0f} MB peak")
    print(f"target for 50 MB: within {TARGET_SECONDS:g} s and {TARGET_MB:g} MB")


if __name__ == "__main__":
    main()
