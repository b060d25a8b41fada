"""Perft from the start: kbdraughts beside py-draughts, measured in the same run.

    python bench/perft.py [DEPTH]        # default 8

py-draughts (the fastest Python draughts library) shares the import name ``draughts`` with
pydraughts, our test oracle, so it lives in its own venv, ``bench/.venv-py-draughts``, made on
first use. Both perfts run as whole processes (start-up included) and also report the time
inside the process, so the figures compare like with like.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = HERE / ".venv-py-draughts"

OURS = """
import sys, time
t = time.perf_counter()
from kbdraughts.board import START, perft
n = perft(START, int(sys.argv[1]))
print(n, time.perf_counter() - t)
"""

# py-draughts' own public API: legal_moves / push / pop on a RussianBoard.
THEIRS = """
import sys, time
t = time.perf_counter()
from draughts import RussianBoard
def perft(b, d):
    moves = list(b.legal_moves)
    if d == 1:
        return len(moves)
    n = 0
    for m in moves:
        b.push(m)
        n += perft(b, d - 1)
        b.pop()
    return n
n = perft(RussianBoard(), int(sys.argv[1]))
print(n, time.perf_counter() - t)
"""


def py_draughts_python() -> Path:
    python = VENV / "bin" / "python"
    if not python.exists():
        print("making bench/.venv-py-draughts (once) ...", file=sys.stderr)
        venv.create(VENV, with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "py-draughts"], check=True)
    return python


def run(python: Path | str, code: str, depth: int, env: dict | None = None) -> tuple[int, float, float]:
    """(leaf nodes, seconds inside the process, seconds for the whole process)."""
    t = time.perf_counter()
    out = subprocess.run(
        [str(python), "-c", code, str(depth)], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    whole = time.perf_counter() - t
    return int(out[0]), float(out[1]), whole


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    theirs_python = py_draughts_python()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    best_ours = min((run(sys.executable, OURS, depth, env) for _ in range(3)), key=lambda r: r[2])
    best_theirs = min((run(theirs_python, THEIRS, depth) for _ in range(3)), key=lambda r: r[2])
    print(f"perft {depth} from the start (best of 3 runs each, same machine, same run)")
    for name, (n, inside, whole) in (("kbdraughts", best_ours), ("py-draughts", best_theirs)):
        print(
            f"  {name:12} {n:>9} leaves  {inside:6.3f} s in process  {whole:6.3f} s whole process"
            f"  {n / inside / 1e6:5.2f} M leaves/s"
        )
    print(
        f"  speed-up: {best_theirs[1] / best_ours[1]:.1f}x in process, "
        f"{best_theirs[2] / best_ours[2]:.1f}x whole process"
    )
    if best_ours[0] != best_theirs[0]:
        print(
            f"  counts differ by {best_theirs[0] - best_ours[0]}: kbdraughts merges capture paths "
            "with the same start, end and taken set"
        )


if __name__ == "__main__":
    main()
