"""Texel-style tuning of the evaluation's `value` weights in combos/heuristic.txt.

    python tools/tune.py games --out FILE [--games N] [--seed S] [--depth D]
        self-play games of a fixed-depth search with the current heuristic, varied by random
        opening plies; writes each quiet position (no capture pending) with the game's result
        for White (1, 0.5, 0), "FEN RESULT" a line.
    python tools/tune.py fit FILE [--heuristic PATH] [--write]
        fits the `value` weights: first the scale K of sigmoid(K * eval) to the results, then
        coordinate descent on the weights minimising the mean squared error (the Texel loss);
        prints the old and new loss and the weights; --write puts the new numbers in the file,
        keeping its comments and layout.
    python tools/tune.py match NEW OLD [--games N] [--level L] [--seed S]
        a paired match of two heuristic files at a level (colours alternate, each pair of
        games opens with the same random plies): NEW's score with its noise.

The evaluation is linear in the weights (material + each applicable term's weight times its
`per` feature), so each position's term vector is computed once and the fit is arithmetic.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kbdraughts.ai.heuristic import Heuristic, material, position_features  # noqa: E402
from kbdraughts.board import WHITE, Position, legal_moves  # noqa: E402
from kbdraughts.game import Game  # noqa: E402
from kbdraughts.kb.terms import POSITION_FEATURES, Term  # noqa: E402
from kbdraughts.notation import fen, parse_fen  # noqa: E402
from kbdraughts.resources import combos_dir  # noqa: E402

#: Plies after which a self-play game is adjudicated: the side ahead by this much material
#: (a man and a half) wins, else a draw.
MAX_PLIES = 160
ADJUDICATE = 150


# --- games ----------------------------------------------------------------------------------


def self_play(heuristic: Heuristic, rng: random.Random, depth: int,
              opening_plies: int = 6, noise: float = 0.02) -> tuple[list[Position], float]:
    """One game of a ``depth``-ply search against itself after ``opening_plies`` random plies
    (and a random move with probability ``noise`` later): its quiet positions after the
    opening, and the result for White."""
    from kbdraughts.ai.search import Searcher

    searcher = Searcher(heuristic.evaluate)
    game = Game()
    quiet: list[Position] = []
    while game.result is None and game.ply < MAX_PLIES:
        pos = game.position
        legal = legal_moves(pos)
        if game.ply >= opening_plies and not legal[0].captured:
            quiet.append(pos)
        if game.ply < opening_plies or rng.random() < noise:
            move = rng.choice(legal)
        else:
            move = searcher.search(pos, max_depth=depth).move or legal[0]
        game.push(move)
    result = game.result
    if result is not None:
        white = 0.5 if result.winner is None else (1.0 if result.winner == WHITE else 0.0)
    else:
        m = material(game.position) * (1 if game.position.side == WHITE else -1)
        white = 1.0 if m >= ADJUDICATE else 0.0 if m <= -ADJUDICATE else 0.5
    return quiet, white


def make_games(out: Path, games: int, seed: int, depth: int, heuristic: Heuristic,
               opening_plies: int = 6, noise: float = 0.02) -> int:
    """Play ``games`` games and write their quiet positions to ``out``; the count written."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    n = 0
    start = time.perf_counter()
    with out.open("w", encoding="utf-8") as f:
        f.write(f"# tools/tune.py games: {games} self-play games, depth {depth}, seed {seed}, "
                f"{opening_plies} random opening plies, random moves {noise:g}\n")
        for g in range(games):
            positions, result = self_play(heuristic, rng, depth, opening_plies, noise)
            for pos in positions:
                if pos not in seen:
                    seen.add(pos)
                    f.write(f"{fen(pos)} {result:g}\n")
                    n += 1
            print(f"game {g + 1}/{games}: {result:g}, {n} positions, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    return n


def read_data(path: Path) -> list[tuple[Position, float]]:
    """The (position, result for White) lines of a games file."""
    data = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            text, result = line.rsplit(None, 1)
            data.append((parse_fen(text), float(result)))
    return data


# --- fit ------------------------------------------------------------------------------------


@dataclass
class Data:
    """Per position: its result for White, its material and its `value` terms' per-unit
    values (White's view, sparse), and per term the positions it touches."""

    results: list[float]
    base: list[float]
    columns: list[list[tuple[int, float]]]  # per term: (position index, per-unit value)


def term_vectors(heuristic: Heuristic, data: Sequence[tuple[Position, float]]) -> Data:
    """The linear form of the evaluation on ``data``, computed once."""
    value_terms = [t for t in heuristic.terms if t.kind == "value"]
    index = {t.name: j for j, t in enumerate(value_terms)}
    columns: list[list[tuple[int, float]]] = [[] for _ in value_terms]
    results, base = [], []
    for i, (pos, result) in enumerate(data):
        sign = 1 if pos.side == WHITE else -1
        values = position_features(pos)
        sig = sum(1 << k for k, v in enumerate(values) if v)
        for name, _w, per in heuristic.applicable("value", sig):
            x = values[per] if per is not None else 1
            if x:
                columns[index[name]].append((i, sign * x))
        results.append(result)
        base.append(sign * material(pos))
    return Data(results, base, columns)


def _sq(r: float, k: float, e: float) -> float:
    return (r - 1 / (1 + math.exp(max(-500.0, min(500.0, -k * e))))) ** 2


def evals(d: Data, weights: Sequence[float]) -> list[float]:
    e = list(d.base)
    for col, w in zip(d.columns, weights):
        for i, x in col:
            e[i] += w * x
    return e


def loss(d: Data, weights: Sequence[float], k: float) -> float:
    """The mean squared error of sigmoid(k * eval) against the results."""
    return sum(_sq(r, k, e) for r, e in zip(d.results, evals(d, weights))) / len(d.results)


def fit_k(d: Data, weights: Sequence[float]) -> float:
    """The scale K that fits the evaluation with ``weights`` best (a log-scale search)."""
    lo, hi = math.log(1e-4), math.log(0.2)
    e = evals(d, weights)
    def f(lk: float) -> float:
        k = math.exp(lk)
        return sum(_sq(r, k, x) for r, x in zip(d.results, e))
    for _ in range(40):  # golden-section on log K
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if f(a) < f(b):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def _rows(d: Data) -> list[list[tuple[int, float]]]:
    rows: list[list[tuple[int, float]]] = [[] for _ in d.results]
    for j, col in enumerate(d.columns):
        for i, x in col:
            rows[i].append((j, x))
    return rows


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a is small)."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for c in reversed(range(n)):
        if abs(m[c][c]) >= 1e-12:
            x[c] = (m[c][n] - sum(m[c][k] * x[k] for k in range(c + 1, n))) / m[c][c]
    return x


def fit(d: Data, weights: Sequence[float], k: float, limit: float = 10_000,
        rounds: int = 60, prior: float = 0.0,
        anchor: Sequence[float] | None = None) -> list[float]:
    """The weights minimising :func:`loss` from ``weights``: Levenberg-Marquardt steps (the
    terms are few, so each step solves their small normal equations). ``prior`` > 0 adds
    ``prior * sum(((w - anchor) / 100) ** 2)`` (anchor: the start): a man's worth of change
    costs ``prior``."""
    w = list(weights)
    anchor = list(anchor) if anchor is not None else list(weights)
    n = len(w)
    rows = _rows(d)
    tie = prior * len(d.results) / 1e4  # the prior in the scale of the normal equations

    def cost(ws: Sequence[float]) -> float:
        return loss(d, ws, k) + prior * sum(((a - b) / 100) ** 2 for a, b in zip(ws, anchor))

    best = cost(w)
    damping = 1e-3
    for _ in range(rounds):
        g = [0.0] * n
        h = [[0.0] * n for _ in range(n)]
        for row, r, e in zip(rows, d.results, evals(d, w)):
            if not row:
                continue
            p = 1 / (1 + math.exp(max(-500.0, min(500.0, -k * e))))
            s = p * (1 - p) * k
            for j, x in row:
                g[j] += (p - r) * s * x
                for jj, xx in row:
                    h[j][jj] += s * s * x * xx
        for j in range(n):
            g[j] += tie * (w[j] - anchor[j])
            h[j][j] += tie
        for _ in range(20):
            a = [[h[i][j] + (damping * h[i][i] + 1e-12 if i == j else 0.0) for j in range(n)]
                 for i in range(n)]
            step = _solve(a, [-v for v in g])
            trial = [max(-limit, min(limit, wi + si)) for wi, si in zip(w, step)]
            now = cost(trial)
            if now < best:
                w, best, damping = trial, now, damping / 3
                break
            damping *= 4
        else:
            break  # no step lowers the loss: a minimum
        if max(abs(si) for si in step) < 1e-3:
            break
    return w


def fit_all(d: Data, weights: Sequence[float], rounds: int = 5,
            prior: float = 0.0) -> tuple[float, list[float]]:
    """K for ``weights`` first, then the weights for K, then K again... until K settles (the
    material, whose value is fixed, sets the scale)."""
    k = fit_k(d, weights)
    w = list(weights)
    for _ in range(rounds):
        w = fit(d, w, k, prior=prior, anchor=weights)
        k2 = fit_k(d, w)
        settled = abs(k2 - k) <= 0.01 * k
        k = k2
        if settled:
            break
    return k, w


def number(w: float) -> str:
    """A weight as the file writes it: a whole number when it is one, else one or two
    decimals."""
    w = round(w, 2)
    return str(int(w)) if w == int(w) else f"{w:g}"


def write_weights(text: str, terms: Sequence[Term], weights: dict[str, float]) -> str:
    """``text`` with the numbers of the `value` terms in ``weights`` replaced, every other
    character kept."""
    lines = text.split("\n")
    for t in terms:
        if t.kind == "value" and t.name in weights:
            pattern = re.compile(rf"^(\s*value\s+{re.escape(t.name)}\s+)([-+]?\d+(?:\.\d+)?)")
            lines[t.line - 1] = pattern.sub(lambda m: m[1] + number(weights[t.name]),
                                            lines[t.line - 1], count=1)
    return "\n".join(lines)


def run_fit(data_path: Path, heuristic_path: Path, write: bool,
            prior: float = 0.0) -> dict[str, float]:
    """Fit the value weights of ``heuristic_path`` to ``data_path``, print, maybe write."""
    heuristic = Heuristic.from_file(heuristic_path)
    data = read_data(data_path)
    d = term_vectors(heuristic, data)
    names = [t.name for t in heuristic.terms if t.kind == "value"]
    old = [t.weight for t in heuristic.terms if t.kind == "value"]
    k0 = fit_k(d, old)
    k, new = fit_all(d, old, prior=prior)
    print(f"{len(data)} positions, K = {k0:.5f} for the old weights, {k:.5f} for the new")
    print(f"loss: old {loss(d, old, k0):.6f}, new {loss(d, new, k):.6f}")
    for name, a, b, col in zip(names, old, new, d.columns):
        print(f"  value {name:16s} {number(a):>8s} -> {number(b):>8s}   ({len(col)} positions)")
    fitted = dict(zip(names, new))
    if write:
        text = heuristic_path.read_text(encoding="utf-8")
        heuristic_path.write_text(write_weights(text, heuristic.terms, fitted), encoding="utf-8")
        print(f"wrote {heuristic_path}")
    return fitted


# --- a paired match of two heuristic files -----------------------------------------------------


def run_match(new: Path, old: Path, games: int, level: int, seed: int,
              movetime_ms: int | None = None) -> tuple[float, float]:
    """NEW's score (0..1) against OLD and its standard error, colours alternating."""
    from kbdraughts.ai.engine import Engine
    from kbdraughts.match.runner import opening, play_game
    from kbdraughts.match.players import EnginePlayer
    from kbdraughts.ai.rulebook import load_default_kb

    kb = load_default_kb()
    timing = {"movetime_ms": movetime_ms} if movetime_ms else {}
    a, b = (EnginePlayer(Engine(level=level, seed=seed, kb=kb, heuristic=Heuristic.from_file(p),
                                **timing), name) for p, name in ((new, "new"), (old, "old")))
    scores = []
    tally = [0, 0, 0]
    for g in range(games):
        white, black = (a, b) if g % 2 == 0 else (b, a)
        game, _reason, _note = play_game(white, black, opening(seed, g // 2, 4), 300)
        winner = game.result.winner if game.result else None
        s = 0.5 if winner is None else float((winner == WHITE) == (white is a))
        scores.append(s)
        tally[0 if s == 1 else 1 if s == 0.5 else 2] += 1
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1))
    err = sd / math.sqrt(len(scores))
    print(f"{new} vs {old}, level {level}: +{tally[0]} ={tally[1]} -{tally[2]}, "
          f"score {100 * mean:.1f}% ± {200 * err:.1f}% (two standard errors)")
    return mean, err


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/tune.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games", help="self-play games to a FEN RESULT file")
    g.add_argument("--out", type=Path, required=True)
    g.add_argument("--games", type=int, default=20)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--depth", type=int, default=5)
    g.add_argument("--heuristic", type=Path, default=combos_dir() / "heuristic.txt")
    g.add_argument("--opening", type=int, default=6, help="random plies that open each game")
    g.add_argument("--noise", type=float, default=0.02, help="share of random moves later")
    f = sub.add_parser("fit", help="fit the value weights to a games file")
    f.add_argument("data", type=Path)
    f.add_argument("--heuristic", type=Path, default=combos_dir() / "heuristic.txt")
    f.add_argument("--write", action="store_true", help="write the fitted numbers back")
    f.add_argument("--prior", type=float, default=0.0,
                   help="pull toward the file's weights: the loss a man's worth of change costs")
    m = sub.add_parser("match", help="a paired match of two heuristic files")
    m.add_argument("new", type=Path)
    m.add_argument("old", type=Path)
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--level", type=int, default=1)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--movetime", type=int, default=None, help="ms a move (searching levels)")
    args = parser.parse_args(argv)
    if args.command == "games":
        n = make_games(args.out, args.games, args.seed, args.depth,
                       Heuristic.from_file(args.heuristic), args.opening, args.noise)
        print(f"{n} positions written to {args.out}")
    elif args.command == "fit":
        run_fit(args.data, args.heuristic, args.write, args.prior)
    else:
        run_match(args.new, args.old, args.games, args.level, args.seed, args.movetime)
    return 0


if __name__ == "__main__":
    sys.exit(main())
