"""How long ``kbdraughts play`` takes to show its first prompt, beside an anchor.

    python bench/play_startup.py [--runs N]

Starts ``kbdraughts play`` with standard input a pipe (the plain console; the terminal console
imports the same modules), and times from the start of the process to the moment the first
prompt ("1. White to move: ") is written. The knowledge base and the AI load in the background
thread meanwhile. The anchor, measured in the same run, is ``kbdraughts moves`` answering one
FEN: Python's start-up plus the package's command-line import. Medians of N runs each.
With tmux installed it also times the terminal console: from starting the command in a tmux
pane to the prompt appearing on its screen (polled every 10 ms).
"""

from __future__ import annotations

import argparse
import os
import shutil
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


def terminal_prompt_seconds(env: dict[str, str], run: int) -> float:
    # A fresh server per run: reusing a socket just killed races with the old server's exit.
    tmux = [shutil.which("tmux") or "tmux", "-L", f"kbdraughts-bench-{os.getpid()}-{run}"]
    command = (f"env XDG_DATA_HOME={env['XDG_DATA_HOME']} {sys.executable} -m kbdraughts.cli "
               "play; sleep 30")
    start = time.perf_counter()
    subprocess.run([*tmux, "new-session", "-d", "-x", "100", "-y", "30", command], check=True)
    try:
        while True:
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True).stdout
            if PROMPT.rstrip() in screen:
                return time.perf_counter() - start
            if time.perf_counter() - start > 30:
                raise SystemExit(f"no prompt in the terminal:\n{screen.decode()}")
            time.sleep(0.01)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


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
        tty = (statistics.median(terminal_prompt_seconds(env, i) for i in range(args.runs))
               if shutil.which("tmux") else None)
    print(f"kbdraughts play, first prompt: {play * 1000:.0f} ms (median of {args.runs})")
    if tty is not None:
        print(f"  in a terminal (tmux):        {tty * 1000:.0f} ms (median of {args.runs})")
    print(f"anchor, kbdraughts moves FEN:  {anchor * 1000:.0f} ms (median of {args.runs})")
    print(f"play costs {play / anchor:.2f}x the anchor")


if __name__ == "__main__":
    main()
