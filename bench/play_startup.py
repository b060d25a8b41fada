"""How long ``kbdraughts play`` takes to show its first prompt, and ``kbdraughts moves`` to answer,
each beside an anchor measured in the same run.

    python bench/play_startup.py [--runs N] [--moves-only]

Start-up: the whole process of ``kbdraughts moves FEN`` (Python's start-up plus the command
line's imports, both through ``python -m kbdraughts.cli`` and through the installed
``kbdraughts`` console script) beside a bare interpreter, ``python -c pass``; the target is at
most 4x the bare interpreter. The three are timed in turn in each repetition, so a machine busy
with something else slows all three alike. They run as an installed program does, with its
modules' compiled bytecode (pip compiles it at install): PYTHONDONTWRITEBYTECODE is dropped
from their environment and one untimed run of each writes the bytecode first.

First prompt: starts ``kbdraughts play`` with standard input a pipe (the plain console; the
terminal console imports the same modules), and times from the start of the process to the
moment the first prompt ("1. White to move: ") is written; the knowledge base and the AI load
in the background thread meanwhile. Its anchor is ``kbdraughts moves`` above. With tmux
installed it also times the terminal console: from starting the command in a tmux pane to the
prompt appearing on its screen (polled every 10 ms). Medians of N runs each.
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


FEN = "W:Wc3:Bd4"
#: The start-up target of issue 10: ``kbdraughts moves`` within 4x a bare interpreter.
TARGET = 4.0


def process_seconds(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def console_script() -> str | None:
    """The installed ``kbdraughts`` script beside this interpreter (not a shell shim on PATH)."""
    beside = os.path.join(os.path.dirname(sys.executable), "kbdraughts")
    return beside if os.access(beside, os.X_OK) else shutil.which("kbdraughts")


def startup_medians(env: dict[str, str], runs: int) -> dict[str, float]:
    """Median seconds of each command, timed in turn in every repetition."""
    commands = {"python -c pass": [sys.executable, "-c", "pass"],
                "python -m kbdraughts.cli moves FEN": [sys.executable, "-m", "kbdraughts.cli",
                                                       "moves", FEN]}
    script = console_script()
    if script:
        commands[f"{script} moves FEN"] = [script, "moves", FEN]
    times: dict[str, list[float]] = {name: [] for name in commands}
    for command in commands.values():  # untimed: writes the bytecode a real install has
        process_seconds(command, env)
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(process_seconds(command, env))
    return {name: statistics.median(t) for name, t in times.items()}


def report_startup(medians: dict[str, float], runs: int) -> None:
    bare = medians["python -c pass"]
    for name, t in medians.items():
        ratio = "" if t is bare else f" = {t / bare:.1f}x the bare interpreter"
        print(f"{name}: {t * 1000:.0f} ms{ratio} (median of {runs})")
    worst = max(medians.values()) / bare
    print(f"start-up target: moves within {TARGET:.0f}x python -c pass: "
          f"{'met' if worst <= TARGET else 'NOT met'} ({worst:.1f}x at worst)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--moves-only", action="store_true",
                        help="time the start-up of `kbdraughts moves` only, not `play`")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "XDG_DATA_HOME": data}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # time the program as installed: compiled
        medians = startup_medians(env, args.runs)
        report_startup(medians, args.runs)
        if args.moves_only:
            return
        anchor = medians["python -m kbdraughts.cli moves FEN"]
        play = statistics.median(first_prompt_seconds(env) for _ in range(args.runs))
        tty = (statistics.median(terminal_prompt_seconds(env, i) for i in range(args.runs))
               if shutil.which("tmux") else None)
    print(f"kbdraughts play, first prompt: {play * 1000:.0f} ms (median of {args.runs})")
    if tty is not None:
        print(f"  in a terminal (tmux):        {tty * 1000:.0f} ms (median of {args.runs})")
    print(f"play costs {play / anchor:.2f}x the anchor, kbdraughts moves FEN")


if __name__ == "__main__":
    main()
