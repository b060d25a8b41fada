"""Issue 38's target for the HTML report: ``kbdraughts annotate GAME.pdn --html REPORT.html`` on a
long game within 2× the time of plain ``annotate`` (the anchor), both measured in the same run.

    python bench/annotate_html.py [--game 7] [--runs 3]

The game is one of bench/data/ussr1924.pdn: by default game 7, the file's longest (45 moves,
89 plies; the file holds no 60-move game). Each command is a whole process (``python -m
kbdraughts.cli annotate FILE --game N -o OUT``, with ``--html REPORT`` for the second),
timed from start to exit (wall) and by the processor time it used (user and system, which a
busy machine moves less), the two in turn in each run; medians of ``--runs`` runs, and the
ratios of the medians.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = Path(__file__).parent / "data" / "ussr1924.pdn"
#: The issue's target: the report within this many times plain annotate.
TARGET = 2.0


def annotate(game: int, out: Path, html: Path | None = None) -> tuple[float, float]:
    """Wall and processor seconds of ``annotate GAMES --game game -o out`` (``--html html``
    when given)."""
    command = [sys.executable, "-m", "kbdraughts.cli", "annotate", str(GAMES), "--game",
               str(game), "-o", str(out)]
    if html is not None:
        command += ["--html", str(html)]
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed (exit {run.returncode}):\n{run.stderr}")
    if html is not None and not html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>"):
        raise SystemExit(f"{html}: no report written")
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=int, default=7, help="the game of ussr1924.pdn")
    parser.add_argument("--runs", type=int, default=3, help="runs of each command")
    args = parser.parse_args()
    plain, report = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out, html = Path(tmp) / "out.pdn", Path(tmp) / "report.html"
        for _ in range(args.runs):
            plain.append(annotate(args.game, out))
            report.append(annotate(args.game, out, html))
        size = html.stat().st_size
    a, b = (statistics.median(w for w, _ in plain), statistics.median(w for w, _ in report))
    ca, cb = (statistics.median(c for _, c in plain), statistics.median(c for _, c in report))
    print(f"anchor: annotate {GAMES.name} --game {args.game}          {a:7.2f} s wall "
          f"{ca:7.2f} s processor")
    print(f"annotate {GAMES.name} --game {args.game} --html R   {b:7.2f} s wall "
          f"{cb:7.2f} s processor  ({size / 1024:.0f} KB report)")
    print(f"ratio {b / a:.2f} wall, {cb / ca:.2f} processor (target: within {TARGET:g}), "
          f"medians of {args.runs} runs")


if __name__ == "__main__":
    main()
