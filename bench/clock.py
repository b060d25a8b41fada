"""The time manager under a game clock: the engine plays itself with ``--clock`` shares, as the
console gives them, and the figures say whether a flag ever fell and how close it came.

    python bench/clock.py [--clock 0.25+0.2] [--games 2] [--level 4] [--seed 1]

Each game starts from the match's random opening of its pair (``match.runner.opening``); before each
move the side's clock runs and the engine is given ``GameClock.share_ms`` (what the console
gives it: ``ui.players.set_movetime``). Printed: the flags that fell (the target: none), the
least time a side had left, the time used of what the clocks held, and the worst overrun of a
share. The anchor, in the same run: the same engine at a fixed 200 ms a move on the positions of
the first game, its worst overrun of that budget (the overrun is the engine's, not the
manager's: a share must leave room for it).
"""

from __future__ import annotations

import argparse
import os
import time

from kbdraughts.ai.clock import GameClock, TimeControl
from kbdraughts.match.runner import opening
from kbdraughts.match.players import make_player
from kbdraughts.ai.rulebook import load_default_kb
from kbdraughts.game import Game
from kbdraughts.ui.players import set_movetime

MAX_PLIES = 300
ANCHOR_MS = 200


def play(control: TimeControl, level: int, seed: int, pair: int, kb) -> dict:
    """One game under the clock; what it measured."""
    clock = GameClock(control)
    players = [make_player(f"kb:{level}", seed=seed * 10 + pair * 2 + s, kb=kb) for s in (0, 1)]
    game = Game()
    for m in opening(seed, pair):
        game.push(m)
    played = [0, 0]
    worst_over, least_left, flags, positions = 0.0, control.base_s, 0, []
    while game.result is None and game.ply < MAX_PLIES:
        side = game.side
        clock.run(side)
        share = clock.share_ms(side, played[side])
        set_movetime(players[side], share)
        started = time.monotonic()
        positions.append(Game(game.position))
        choice = players[side].choose(game)
        worst_over = max(worst_over, (time.monotonic() - started) * 1000 - share)
        least_left = min(least_left, clock.left(side))
        if clock.flagged(side):
            flags += 1
            break
        clock.press(side)
        game.push(choice.move)
        played[side] += 1
    clock.stop()
    held = 2 * control.base_s + control.increment_s * sum(played)
    used = held - clock.left(0) - clock.left(1)
    return dict(flags=flags, least_left=least_left, worst_over=worst_over, plies=game.ply,
                used=used / held, positions=positions)


def anchor(level: int, positions: list[Game], kb) -> float:
    """The engine's worst overrun of a fixed ANCHOR_MS budget on ``positions``."""
    player = make_player(f"kb:{level}:{ANCHOR_MS}ms", seed=7, kb=kb)
    worst = 0.0
    for game in positions:
        started = time.monotonic()
        player.choose(game)
        worst = max(worst, (time.monotonic() - started) * 1000 - ANCHOR_MS)
    return worst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clock", type=TimeControl.parse, default=TimeControl(0.25, 0.2))
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    kb = load_default_kb()
    print(f"clock {args.clock}, level {args.level}, {args.games} games, load "
          f"{os.getloadavg()[0]:.2f}")
    results = []
    for pair in range(args.games):
        r = play(args.clock, args.level, args.seed, pair, kb)
        results.append(r)
        print(f"game {pair + 1}: {r['plies']} plies, flags {r['flags']}, least left "
              f"{r['least_left']:.1f} s, used {100 * r['used']:.0f}% of the clocks, worst "
              f"overrun of a share {r['worst_over']:.0f} ms")
    worst = max(r["worst_over"] for r in results)
    fixed = anchor(args.level, results[0]["positions"][:40], kb)
    print(f"flags fallen: {sum(r['flags'] for r in results)} of {args.games} games; least "
          f"left {min(r['least_left'] for r in results):.1f} s; worst overrun of a share "
          f"{worst:.0f} ms (anchor: {fixed:.0f} ms over a fixed {ANCHOR_MS} ms a move)")


if __name__ == "__main__":
    main()
