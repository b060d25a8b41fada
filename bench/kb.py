#!/usr/bin/env python3
"""How fast the knowledge base loads and answers, beside anchors measured in the same run.

    python bench/kb.py [--rules 10000] [--positions 500] [--seed 1]

Generates a rule file of N rules (half exact positions, half wildcard patterns taken from
random games: each fixes the squares its move needs plus a few more, with a piece-count
filter), then prints:

- load: building the knowledge base from the file's compiled cache (target <= 1 s at 10,000
  rules), beside the first load, which parses the text and writes the cache;
- match: ``kb.matches(pos)`` per position (target <= 5 ms), beside the anchor: a brute-force
  pure-Python matcher over the same rules (every rule and its mirror checked square by square);
- naive: the naive pyDatalog encoding (a fact per rule square, a negated conflict predicate,
  ``assert_fact``) at a small N, its load and query cost, scaled to N;
- start-up: a fresh interpreter importing kbdraughts.kb (pyDatalog) and loading the shipped
  knowledge base, with its compile cache filled and empty (target: within the game's 0.5 s),
  beside a fresh interpreter that only imports the rules core;
- motifs: ``kb.firing(pos)`` of the shipped knowledge base with its motifs, p50 and p95 per
  position over positions from random games, beside the same knowledge base without its motifs
  (interleaved, position by position); and the motifs' cold build (compiling every shipped
  motif, target <= 10 s) beside reading them from the compiled cache.

    python bench/kb.py --motifs-only      # the motif figures alone
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kbdraughts.board import SQUARES, Position, legal_moves, START
from kbdraughts.game import random_walk
from kbdraughts.kb.knowledge import load_knowledge_base, read_rule_files
from kbdraughts.kb.rules.pattern import MAX_PIECES, pattern_applies, position_cells, position_states
from kbdraughts.kb.rules.rule import Rule, RuleLayer, make_rule
from kbdraughts.kb.writer import format_rules
from kbdraughts.notation import move_text
from kbdraughts.squares import between

ANY = (0, MAX_PIECES)


def random_positions(rng: random.Random, n: int) -> list[Position]:
    """Positions from random games, 4 to 60 plies in."""
    out = []
    while len(out) < n:
        *_, pos = START, *random_walk(rng, rng.randint(4, 60))
        if legal_moves(pos):
            out.append(pos)
    return out


def bench_rule(rng: random.Random, i: int, pos: Position, exact: bool) -> Rule:
    """Rule ``r{i}`` drawn from ``pos``: exact, or a pattern fixing the squares its move needs
    plus a few more, with a piece-count filter."""
    move = rng.choice(legal_moves(pos))
    priority = rng.randint(0, 3)
    if exact:
        return make_rule(f"r{i}", move_text(move), position=pos, priority=priority)
    fixed = {move.start, *move.path}
    squares = (move.start,) + move.path
    for a, b in zip(squares, squares[1:]):
        fixed.update(between(a, b))
    fixed.update(rng.sample(SQUARES, rng.randint(4, 10)))
    wn, bn = pos.white.bit_count(), pos.black.bit_count()
    pieces = rng.choice([
        (ANY, ANY), ((wn, wn), (bn, bn)), ((max(0, wn - 2), wn), (bn, MAX_PIECES)),
        ((wn, MAX_PIECES), ANY), (ANY, (max(0, bn - 3), bn))])
    return make_rule(f"r{i}", move_text(move), cells=position_cells(pos, keep=fixed),
                     side=pos.side, priority=priority, pieces=pieces)


def brute_force(rules, pos: Position) -> list[str]:
    out = []
    for r in rules:
        for p in r.patterns:
            if pattern_applies(p, pos):
                out.append(r.id)
    return out


def naive_encoding(rules, positions) -> tuple[float, float]:
    """Load seconds and query seconds per position of the naive pyDatalog encoding: a fact per
    constrained square of every rule and a negated conflict predicate, in a Program of its own
    (the same wrapper, so the two encodings differ only in their Datalog)."""
    from kbdraughts.kb.rules.datalog import Program, Var

    t0 = time.perf_counter()
    program = Program("""
kbn_conflict(R, Sq, S) <= kbn_fixed(R, Sq) & kbn_at(Sq, S) & ~kbn_allows(R, Sq, S)
kbn_bad(R) <= kbn_conflict(R, Sq, S)
kbn_applies(R) <= kbn_rule(R, Side) & kbn_side(Side) & ~kbn_bad(R)
""")
    rule_rows, fixed, allows = [], [], []
    for v, r in enumerate(rules):
        for m, p in enumerate(r.patterns):
            name = 2 * v + m
            rule_rows.append((name, p.side))
            for sq in SQUARES:
                allowed = [t for t in range(5) if p.allow[t] >> sq & 1]
                if len(allowed) < 5:
                    fixed.append((name, sq))
                    allows.extend((name, sq, t) for t in allowed)
    program.assert_facts("kbn_rule", rule_rows)
    program.assert_facts("kbn_fixed", fixed)
    program.assert_facts("kbn_allows", allows)
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    for pos in positions:
        at = [(sq, t) for t, bb in enumerate(position_states(pos)) for sq in SQUARES
              if bb >> sq & 1]
        program.ask("kbn_applies", Var("R"), given={"kbn_side": [(pos.side,)], "kbn_at": at})
    query = (time.perf_counter() - t0) / len(positions)
    return load, query


def startup() -> tuple[float, float, float]:
    """Seconds for fresh interpreters: loading the shipped knowledge base with an empty compile
    cache, then with it filled (best of 3), and importing only the rules core (best of 3)."""
    def run(code: str, env: dict) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        return time.perf_counter() - t0

    load = "from kbdraughts.kb.knowledge import load_knowledge_base; load_knowledge_base()"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp)
        cold = run(load, env)
        warm = min(run(load, env) for _ in range(3))
        core = min(run("import kbdraughts.board, kbdraughts.notation", env) for _ in range(3))
    return cold, warm, core


def load_twice(text: str):
    """The knowledge base of ``text`` and the seconds of its first load (parsing, with an empty
    private compile cache), of a second load (from the cache), and of reading the cache alone."""
    saved_data_home = os.environ.get("XDG_DATA_HOME")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp  # a private, empty compile cache
        path = Path(tmp) / "bench.txt"
        path.write_text(text, encoding="utf-8")
        t0 = time.perf_counter()
        kb = load_knowledge_base([path])
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        kb = load_knowledge_base([path])
        warm = time.perf_counter() - t0
        t0 = time.perf_counter()
        read_rule_files([path])
        parse_warm = time.perf_counter() - t0
    if saved_data_home is None:
        del os.environ["XDG_DATA_HOME"]
    else:
        os.environ["XDG_DATA_HOME"] = saved_data_home
    return kb, cold, warm, parse_warm


def motif_timings(n: int, rng: random.Random) -> None:
    """Print the motif figures (see the module's docstring)."""
    from kbdraughts.kb.cache import parse_file_all
    from kbdraughts.kb.knowledge import KnowledgeBase, read_combos
    from kbdraughts.resources import combos_dir

    rules, motifs, warnings, _, files = read_combos()
    with_motifs = KnowledgeBase(rules, warnings, files, motifs)
    without = KnowledgeBase(rules, warnings, files)
    positions = []
    while len(positions) < n:
        positions.extend(p for p in random_walk(rng, rng.randint(20, 160)) if legal_moves(p))
    # Wall time, and this thread's CPU time (not stretched when a loaded machine preempts us).
    wall: dict[str, list[float]] = {"with": [], "without": []}
    cpu: dict[str, list[float]] = {"with": [], "without": []}
    fired = 0
    for pos in positions[:n]:
        legal = legal_moves(pos)
        for name, kb in (("without", without), ("with", with_motifs)):
            t0, c0 = time.perf_counter(), time.thread_time()
            got = kb.firing(pos, legal)
            cpu[name].append(time.thread_time() - c0)
            wall[name].append(time.perf_counter() - t0)
        fired += sum(1 for m in got if m.layer == RuleLayer.MOTIF)

    def pct(xs: list[float], q: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))] * 1000

    print(f"motifs: {len(motifs)} shipped, {sum(len(c.groundings) for _, c in motifs)} "
          f"groundings; {fired} motif moves over {n} positions from random games")
    for label, t in (("wall", wall), ("cpu", cpu)):
        extra = [a - b for a, b in zip(t["with"], t["without"])]
        print(f"  kb.firing with them ({label} time): p50 {pct(t['with'], .5):.2f} ms, p95 "
              f"{pct(t['with'], .95):.2f} ms per position (target p95 <= 3 ms); anchor, the "
              f"same rules without motifs: p50 {pct(t['without'], .5):.2f} ms, p95 "
              f"{pct(t['without'], .95):.2f} ms; the motifs' own share (with - without, "
              f"position by position) p95 {pct(extra, .95):.2f} ms")
    data = (combos_dir() / "motifs.txt").read_bytes()
    saved = os.environ.get("XDG_DATA_HOME")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        t0 = time.perf_counter()
        parse_file_all(data, "motifs.txt")
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        parse_file_all(data, "motifs.txt")
        warm = time.perf_counter() - t0
    if saved is None:
        del os.environ["XDG_DATA_HOME"]
    else:
        os.environ["XDG_DATA_HOME"] = saved
    print(f"motifs cold build: combos/motifs.txt parsed and its motifs compiled in "
          f"{cold * 1000:.0f} ms (target <= 10 s); anchor, read from the compiled cache: "
          f"{warm * 1000:.0f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=int, default=10_000)
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--naive", type=int, default=200, help="rules for the naive encoding")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--motifs-only", action="store_true", help="only the motif figures")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.motifs_only:
        motif_timings(args.positions * 2, rng)
        return 0

    sources = random_positions(rng, args.rules)
    text = format_rules(bench_rule(rng, i, p, exact=i % 2 == 0) for i, p in enumerate(sources))
    # Half the probes are rule positions (so rules do match), half fresh random positions.
    probes = rng.sample(sources, args.positions // 2) + random_positions(rng, args.positions // 2)
    kb, cold, warm, parse_warm = load_twice(text)
    print(f"rules: {len(kb)} ({kb.counts()['exact']} exact, {kb.counts()['patterns']} patterns)")
    print(f"load: {warm * 1000:.0f} ms with the file's compiled cache (target <= 1000 ms), of "
          f"which reading the cache {parse_warm * 1000:.0f} ms and building the pyDatalog "
          f"program the rest; anchor, first load parsing the text: {cold * 1000:.0f} ms")

    t0 = time.perf_counter()
    found = [kb.matches(p) for p in probes]
    per = (time.perf_counter() - t0) / len(probes)
    t0 = time.perf_counter()
    reference = [brute_force(kb.rules, p) for p in probes]
    brute = (time.perf_counter() - t0) / len(probes)
    agree = all(sorted(m.rule.id for m in f) == sorted(r) for f, r in zip(found, reference))
    hits = sum(len(f) for f in found)
    print(f"match: {per * 1000:.2f} ms per position (target <= 5 ms); anchor, brute-force "
          f"pure-Python matcher over the same rules: {brute * 1000:.2f} ms per position; "
          f"{hits} matches over {len(probes)} positions, answers agree: {agree}")

    few = kb.rules[: args.naive]
    nload, nquery = naive_encoding(few, probes[:20])
    scale = len(kb) / len(few)
    print(f"naive encoding at {len(few)} rules: load {nload * 1000:.0f} ms, query "
          f"{nquery * 1000:.1f} ms per position (x{scale:.0f} rules: ~{nload * scale:.1f} s load, "
          f"~{nquery * scale * 1000:.0f} ms per query, if linear)")

    motif_timings(args.positions * 2, rng)
    cold, warm, core = startup()
    shipped = load_knowledge_base()
    print(f"start-up: fresh interpreter importing kbdraughts.kb (pyDatalog) and loading the "
          f"shipped {len(shipped)} rules: {warm * 1000:.0f} ms, {cold * 1000:.0f} ms the first "
          f"time (empty compile cache) (target <= 500 ms); anchor, fresh interpreter importing "
          f"only the rules core: {core * 1000:.0f} ms")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
