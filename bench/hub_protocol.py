"""What the Hub protocol costs: the loop's time a move beside bestmove's, and how soon ``stop``
is answered.

    python bench/hub_protocol.py [--positions 20] [--stops 20]

Each middle game of bench/data/middlegames.txt is answered at a fixed depth (level 2: 4 plies)
by ``kbdraughts hub`` (pos, level depth=4, go think, until done) and by ``kbdraughts bestmove
--level 2`` (the anchor: one line in, one out), both warm processes on pipes, in the same run;
the difference of the mean round trips is what the protocol adds a move. Then ``go analyze``
on ``level infinite`` is stopped after 0.3 s, ``--stops`` times: the time from ``stop`` to
``done`` (the anchor: a ``ping``'s round trip).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from kbdraughts.match.hub import write_position  # noqa: E402
from kbdraughts.notation import parse_fen  # noqa: E402

PROGRAM = os.path.join(os.path.dirname(sys.executable), "kbdraughts")


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([PROGRAM, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)


def until(proc: subprocess.Popen, command: str) -> str:
    while True:
        line = proc.stdout.readline()
        if not line or line.split(" ")[0].strip() == command:
            return line


def say(proc: subprocess.Popen, *lines: str) -> None:
    proc.stdin.write("".join(line + "\n" for line in lines))
    proc.stdin.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--stops", type=int, default=20)
    args = parser.parse_args()
    fens = [line.split("#")[0].strip() for line in open(HERE / "data" / "middlegames.txt")
            if line.strip() and not line.startswith("#")][:args.positions]
    hub, best = start("hub", "--level=2"), start("bestmove", "--level", "2")
    say(hub, "hub", "init")
    until(hub, "ready")
    ours, theirs = [], []
    for text in fens:  # the same positions in the same order: the same tables' history
        t = time.perf_counter()
        say(hub, f"pos pos={write_position(parse_fen(text))}", "level depth=4", "go think")
        until(hub, "done")
        ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        say(best, text)
        best.stdout.readline()
        theirs.append(time.perf_counter() - t)
    print(f"a move at depth 4, {len(fens)} positions: hub {statistics.mean(ours) * 1000:.2f} ms, "
          f"bestmove (anchor) {statistics.mean(theirs) * 1000:.2f} ms: the protocol adds "
          f"{(statistics.mean(ours) - statistics.mean(theirs)) * 1000:+.2f} ms a move")
    stops, pings = [], []
    say(hub, "set-param name=level value=4", "init")
    until(hub, "ready")
    for text in fens[:args.stops] * (1 + args.stops // max(1, len(fens))):
        if len(stops) == args.stops:
            break
        say(hub, f"pos pos={write_position(parse_fen(text))}", "level infinite", "go analyze")
        time.sleep(0.3)
        t = time.perf_counter()
        say(hub, "ping")
        until(hub, "pong")
        pings.append(time.perf_counter() - t)
        t = time.perf_counter()
        say(hub, "stop")
        until(hub, "done")
        stops.append(time.perf_counter() - t)
    print(f"stop to done, {len(stops)} searches: median {statistics.median(stops) * 1000:.1f} ms, "
          f"worst {max(stops) * 1000:.1f} ms; a ping's round trip (anchor) median "
          f"{statistics.median(pings) * 1000:.1f} ms, worst {max(pings) * 1000:.1f} ms")
    say(hub, "quit")
    best.stdin.close()
    hub.wait(), best.wait()


if __name__ == "__main__":
    main()
