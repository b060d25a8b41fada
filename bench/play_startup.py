"""How long ``kbdraughts play`` takes to show its first prompt, beside an anchor.

    python bench/play_startup.py [--runs N]

Starts ``kbdraughts play`` with standard input a pipe (the plain console; the terminal console
imports the same modules), and times from the start of the process to the moment the first
prompt ("1. White to move: ") is written. The knowledge base and the AI load in the background
thread meanwhile. The anchor, measured in the same run, is ``kbdraughts moves`` answering one
FEN: Python's start-up plus the package's command-line import. Medians of N runs each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROMPT = b"1. White to move: "


def first_prompt_seconds(env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kbdraughts.cli", "play"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    seen = b""
    assert proc.stdout is not None and proc.stdin is not None
    while PROMPT not in seen:
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            raise SystemExit(f"play ended before its first prompt:\n{seen.decode()}")
        seen += chunk
    elapsed = time.perf_counter() - start
    proc.stdin.write(b"quit\n")
    proc.stdin.close()
    proc.wait(timeout=60)
    return elapsed


def anchor_seconds(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kbdraughts.cli", "moves", "W:Wc3:Bd4"], env=env,
                   capture_output=True, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "XDG_DATA_HOME": data}
        play = statistics.median(first_prompt_seconds(env) for _ in range(args.runs))
        anchor = statistics.median(anchor_seconds(env) for _ in range(args.runs))
    print(f"kbdraughts play, first prompt: {play * 1000:.0f} ms (median of {args.runs})")
    print(f"anchor, kbdraughts moves FEN:  {anchor * 1000:.0f} ms (median of {args.runs})")
    print(f"play costs {play / anchor:.2f}x the anchor")


if __name__ == "__main__":
    main()
