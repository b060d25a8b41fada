"""Shots from real games: the share of them the default level finds in 1 s.

    python bench/tactics.py [--movetime MS] [--level N] [--limit N]
    python bench/tactics.py --make [--games G] [--nodes N]     # writes tests/data/tactics.txt

``tests/data/tactics.txt`` holds quiet positions from level-1 self-play games where the side to
move wins material within P plies (P odd, at most 9, the fewest that do) and is still ahead
after 9 plies against any defence: a piece or more by
the referee's count (``kbdraughts.referee.resolve``: P plies, then every forced capture to
its end; men and kings alike) and a man's worth or more with a king worth 2.5 men (``value``;
a man won for a king given is no shot). Both are exhaustive material minimaxes computed by
``Prover``: the referee's minimax with alpha-beta cuts (exact: the cuts skip only lines that
cannot change the value) and a table of proved positions. Each line lists the first moves that
win within P plies. A position whose proof needs more than ``--nodes`` nodes is left out (the
count is in the file's header). The bench plays the level's engine (knowledge base included,
fresh per position) for ``--movetime`` ms in each position; it *finds* the shot when its move
is listed, or when the provers show that its move also wins material within 9 plies. The
anchor, in the same run: the level-1 engine (the knowledge base's layers alone) on the set.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from kbdraughts.referee import LOST, balance
from kbdraughts.board import Move, Position, captures, legal_moves, play
from kbdraughts.notation import fen, move_text, parse_fen

ROOT = Path(__file__).resolve().parent.parent
TACTICS = ROOT / "tests" / "data" / "tactics.txt"
MAX_PLIES = 9
SEED = 9
#: Nodes one position's proofs may take at most when the set is made.
NODES = 400_000


class OutOfNodes(Exception):
    """The proof's node budget ran out."""


def value(pos: Position, us: int) -> int:
    """Our material minus theirs in half men, a king worth 2.5 men (as the AI counts it)."""
    k = pos.kings
    ours, theirs = (pos.black, pos.white) if us else (pos.white, pos.black)
    return 2 * ((ours & ~k).bit_count() - (theirs & ~k).bit_count()) + 5 * (
        (ours & k).bit_count() - (theirs & k).bit_count())


class Prover:
    """Whether ``us`` can force ``count`` (the referee's piece ``balance`` unless told) to at
    least ``target``."""

    def __init__(self, us: int, target: int, nodes: int = NODES, count=balance):
        self.us, self.target, self.budget, self.count = us, target, nodes, count
        self.nodes = 0
        self.known: dict[tuple[Position, int], bool] = {}

    def wins(self, pos: Position, plies: int) -> bool:
        """``resolve(pos, us, plies) >= target``, by an AND-OR search (a null window)."""
        plies = max(plies, 0)  # below 0 only captures go on: the same question as at 0
        key = (pos, plies)
        hit = self.known.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes()
        moves = legal_moves(pos)
        if not moves:
            result = (LOST if pos.side != self.us else -LOST) >= self.target
        elif plies == 0 and not moves[0].captured:
            result = self.count(pos, self.us) >= self.target
        elif pos.side == self.us:
            result = any(self.wins(play(pos, m), plies - 1) for m in _ordered(pos, moves))
        else:
            result = all(self.wins(play(pos, m), plies - 1) for m in _ordered(pos, moves))
        self.known[key] = result
        return result


def _ordered(pos: Position, moves: list[Move]) -> list[Move]:
    """Moves that leave the opponent a capture first: shots are sacrifices."""
    return sorted(moves, key=lambda m: not captures(play(pos, m)))


def prove(pos: Position, us: int, plies: int, target: int, nodes: int = NODES) -> bool:
    """``referee.resolve(pos, us, plies) >= target``; OutOfNodes past ``nodes`` nodes.

    >>> pos = parse_fen("W:Wc3,g3:Bd4,f6,h8")
    >>> prove(pos, 0, 0, 0), prove(pos, 0, 0, 1)
    (True, False)
    """
    return Prover(us, target, nodes).wins(pos, plies)


def shot(pos: Position, nodes: int = NODES) -> tuple[int, list[Move]] | None:
    """(P, the first moves winning material within P plies) for the fewest odd P <= MAX_PLIES
    with such a move, or None; OutOfNodes when the proofs take more than ``nodes`` nodes.

    Winning material: a piece by the referee's count, and a man's worth by ``value`` (a shot
    that takes a man but gives a king away is not one); a gain that the defence wins back
    before MAX_PLIES is none: the moves must still be ahead at MAX_PLIES plies."""
    provers = provers_for(pos, nodes)
    if not all(p.wins(pos, MAX_PLIES) for p in provers):
        return None  # no gain that still stands at the horizon
    for plies in range(1, MAX_PLIES + 1, 2):
        if all(p.wins(pos, plies) for p in provers):
            moves = [m for m in legal_moves(pos) if all(
                p.wins(play(pos, m), plies - 1) and p.wins(play(pos, m), MAX_PLIES - 1)
                for p in provers)]
            if moves:
                return plies, moves
    return None


def provers_for(pos: Position, nodes: int = NODES) -> tuple[Prover, Prover]:
    """The two proofs a shot needs: a piece more, and a man's worth more."""
    us = pos.side
    return (Prover(us, balance(pos, us) + 1, nodes),
            Prover(us, value(pos, us) + 2, nodes, count=value))


# -- the set ---------------------------------------------------------------------------------


def candidates(games: int, seed: int = SEED) -> list[tuple[Position, int, int]]:
    """Quiet positions (no capture pending, 10 pieces or more, two moves or more, ply 8-60) of
    ``games`` level-1 self-play games from ``match.opening(seed, i)``: (position, game, ply)."""
    from kbdraughts.match.runner import opening, play_game
    from kbdraughts.match.players import make_player
    from kbdraughts.ai.rulebook import load_default_kb

    kb = load_default_kb()
    out, seen = [], set()
    for i in range(games):
        white = make_player("kb:1", seed * 1000 + 2 * i, kb=kb)
        black = make_player("kb:1", seed * 1000 + 2 * i + 1, kb=kb)
        game, _, _ = play_game(white, black, opening(seed, i), 61)
        for ply, p in enumerate(game.positions):
            if (8 <= ply and p not in seen and (p.white | p.black).bit_count() >= 10
                    and not captures(p) and len(legal_moves(p)) >= 2):
                seen.add(p)
                out.append((p, i, ply))
    return out


def make(games: int, nodes: int, path: Path = TACTICS) -> None:
    found, unproved, t = [], 0, time.perf_counter()
    cands = candidates(games)
    for pos, game, ply in cands:
        try:
            s = shot(pos, nodes)
        except OutOfNodes:
            unproved += 1
            continue
        if s is not None:
            found.append(f"{fen(pos)} | {s[0]} | {' '.join(move_text(m) for m in s[1])}"
                         f"  # game {game} ply {ply}")
    head = [
        f"# Shots from {games} level-1 self-play games (bench/tactics.py --make, seed {SEED}).",
        "# FEN | P | moves: the side to move wins a piece or more, and a man's worth with a king",
        "# worth 2.5, within P plies (the fewest; odd, <= 9) with any of the moves, and is still",
        "# ahead after 9 plies against any defence; proved by bench/tactics.py's Prover (the",
        "# referee's material minimax with alpha-beta cuts); the piece won in the short ones is",
        "# proved again by the referee itself in tests/test_bench_data.py.",
        f"# {len(cands)} quiet positions tried, {unproved} left out (proof over {nodes} nodes).",
    ]
    path.write_text("\n".join(head + found) + "\n")
    print(f"{len(found)} shots of {len(cands)} positions ({unproved} unproved) in "
          f"{time.perf_counter() - t:.0f} s; wrote {path}")


def read_tactics(path: Path = TACTICS) -> list[tuple[Position, int, list[str]]]:
    """(position, P, the winning moves' texts) of each line of the set."""
    out = []
    for line in path.read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            f, plies, moves = (x.strip() for x in text.split("|"))
            out.append((parse_fen(f), int(plies), moves.split()))
    return out


# -- the bench -------------------------------------------------------------------------------


def finds(level: int, movetime_ms: int, pos: Position, winning: list[str], kb
          ) -> tuple[bool, float]:
    """Whether the level's move wins material (listed, or proved within MAX_PLIES), and its
    time."""
    from kbdraughts.ai.engine import Engine
    from kbdraughts.game import Game

    engine = Engine(level=level, movetime_ms=movetime_ms, kb=kb)
    t = time.perf_counter()
    move = engine.choose(Game(pos)).move
    used = time.perf_counter() - t
    if move_text(move) in winning:
        return True, used
    try:
        return all(p.wins(play(pos, move), MAX_PLIES - 1) for p in provers_for(pos)), used
    except OutOfNodes:
        return False, used


def bench(levels: list[int], movetime_ms: int, limit: int) -> None:
    from kbdraughts.ai.rulebook import load_default_kb

    rows, kb = read_tactics()[: limit or None], load_default_kb()  # loaded once, shared
    print(f"{len(rows)} shots, {movetime_ms} ms a move; load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    summary = []
    for level in levels:
        by_plies: dict[int, list[int]] = {}  # P -> [found, shots]
        used = []
        for pos, plies, winning in rows:
            ok, seconds = finds(level, movetime_ms, pos, winning, kb)
            tally = by_plies.setdefault(plies, [0, 0])
            tally[0] += ok
            tally[1] += 1
            used.append(seconds)
        hits = sum(f for f, _ in by_plies.values())
        summary.append(f"level {level} {hits}/{len(rows)} ({hits / len(rows):.0%})")
        print(f"level {level}: finds {hits} of {len(rows)} ({hits / len(rows):.0%}); by plies "
              + ", ".join(f"{p}: {f}/{n}" for p, (f, n) in sorted(by_plies.items()))
              + f"; mean {sum(used) / len(used) * 1000:.0f} ms, max {max(used) * 1000:.0f} ms")
    print(f"tactics: {'; '.join(summary)} in {movetime_ms} ms")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--level", type=int, default=4, help="the level measured (anchor: level 1)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N shots")
    ap.add_argument("--make", action="store_true", help="write tests/data/tactics.txt")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--nodes", type=int, default=NODES)
    args = ap.parse_args(argv)
    if args.make:
        return make(args.games, args.nodes)
    bench(sorted({args.level, 1}, reverse=True), args.movetime, args.limit)


if __name__ == "__main__":
    random.seed(0)
    sys.exit(main())
