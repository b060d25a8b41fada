"""Checking a rule file's defines (issue 12 of the defects: 4,000 took 45 s, 50,000 over two
minutes and 2.5 GB), beside the anchor of 400 measured in the same run.

    python bench/defines.py [--sizes 400 4000 50000] [--shapes chain tree flat] [--runs 3]

Each file holds N defines and a motif calling the last: ``chain``, each define calling the one
before it (all but the first 32 past the depth limit, one error); ``tree``, define i calling
define (i - 1) // 2 (some 16 deep at 50,000); ``flat``, none calling another. Each file is
parsed and checked (``kbdraughts.kb.combos.parse_combos``, what loading a changed file does
before its motifs compile) in a process of its own, so its peak memory is its own (the
kernel's, from ``wait4``); the best of ``--runs`` runs is kept, the machine being shared. A row
gives the seconds and the microseconds per define beside the anchor's: checking is linear when
they stay alike.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = """
import sys, time
from kbdraughts.kb.combos import parse_combos
text = open(sys.argv[1], encoding="utf-8").read()
start = time.perf_counter()
parse_combos(text, sys.argv[1])
print(time.perf_counter() - start)
"""


def make(shape: str, n: int) -> str:
    """A rule file of ``n`` defines of ``shape`` and a motif calling the last."""
    body = {"chain": lambda i: f"d{i - 1}(X)", "tree": lambda i: f"our_man(X), d{(i - 1) // 2}(X)",
            "flat": lambda i: "our_man(X)"}[shape]
    lines = ["define d0(X) :- our_man(X)"] + [f"define d{i}(X) :- {body(i)}" for i in range(1, n)]
    lines += ["motif m", "  play: S-T",
              f"  when: d{n - 1}(S), next(S, T, fl), empty(T), step(S, T)",
              "  gain: 1", "  status: draft"]
    return "\n".join(lines) + "\n"


def measure(path: Path) -> tuple[float, float]:
    """(seconds, peak MB) of checking the file at ``path`` in a process of its own."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout is not None
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"checking {path.name} failed (exit status {child.returncode})")
    return float(out), usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[400, 4_000, 50_000],
                        help="the numbers of defines; the first is the anchor")
    parser.add_argument("--shapes", nargs="+", default=["chain", "tree", "flat"],
                        choices=["chain", "tree", "flat"])
    parser.add_argument("--runs", type=int, default=3, help="runs of each file (the best kept)")
    args = parser.parse_args()
    print(f"{'shape':<6} {'defines':>8} {'seconds':>8} {'us/define':>10} {'x anchor':>9} "
          f"{'peak MB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes:
            anchor = None
            for n in args.sizes:
                path = Path(tmp) / f"{shape}-{n}.txt"
                path.write_text(make(shape, n), encoding="utf-8")
                seconds, mb = min(measure(path) for _ in range(args.runs))
                per = seconds / n * 1e6
                anchor = anchor or per
                print(f"{shape:<6} {n:>8,} {seconds:>8.2f} {per:>10.1f} {per / anchor:>9.2f} "
                      f"{mb:>8.0f}", flush=True)


if __name__ == "__main__":
    main()
