"""Perft from the start: kbdraughts' native core beside its pure-Python path and py-draughts,
measured in the same run.

    python bench/perft.py [DEPTH]        # default 8

The pure path is the same tree run with ``KBDRAUGHTS_PURE=1``; the native core's perft runs
to DEPTH + 2 as well (a tree a hundred times larger), since DEPTH takes it a few milliseconds.

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


def run(python: Path | str, code: str, depth: int, env: dict | None = None
        ) -> tuple[int, float, float]:
    """(leaf nodes, seconds inside the process, seconds for the whole process)."""
    t = time.perf_counter()
    out = subprocess.run(
        [str(python), "-c", code, str(depth)], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    whole = time.perf_counter() - t
    return int(out[0]), float(out[1]), whole


def best(python: Path | str, code: str, depth: int, env: dict | None = None
         ) -> tuple[int, float, float]:
    return min((run(python, code, depth, env) for _ in range(3)), key=lambda r: r[2])


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    theirs_python = py_draughts_python()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("KBDRAUGHTS_PURE", None)
    pure_env = dict(env, KBDRAUGHTS_PURE="1")
    which = subprocess.run([sys.executable, "-c", "from kbdraughts.native import describe; "
                            "print(describe())"], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()
    rows = [
        ("kbdraughts", depth, best(sys.executable, OURS, depth, env)),
        ("kbd native", depth + 2, best(sys.executable, OURS, depth + 2, env)),
        ("kbd pure", depth, best(sys.executable, OURS, depth, pure_env)),
        ("py-draughts", depth, best(theirs_python, THEIRS, depth)),
    ]
    print(f"perft from the start (best of 3 runs each, same machine, same run); {which}")
    for name, d, (n, inside, whole) in rows:
        print(f"  {name:12} perft {d:<2} {n:>11} leaves  {inside:7.3f} s in process  "
              f"{whole:6.3f} s whole process  {n / inside / 1e6:7.2f} M leaves/s")
    ours, big, pure, theirs = (r[2] for r in rows)
    print(f"  native against pure: {big[0] / big[1] / (pure[0] / pure[1]):.0f}x the leaves/s "
          f"(perft {depth + 2} against perft {depth}, in process)")
    print(f"  against py-draughts: {theirs[1] / ours[1]:.1f}x in process, "
          f"{theirs[2] / ours[2]:.1f}x whole process (both perft {depth})")
    if ours[0] != theirs[0]:
        print(f"  counts differ by {theirs[0] - ours[0]}: kbdraughts merges capture paths "
              "with the same start, end and taken set")


if __name__ == "__main__":
    main()
