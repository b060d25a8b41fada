"""Games on a clock through pydraughts' HubEngine: does ``kbdraughts hub`` ever lose on time?

    python bench/hub_clock.py [--games 100] [--time 60] [--inc 1]

kbdraughts (``kbdraughts hub``, level 4) plays White against random moves, each game driven as
lidraughts-bot drives it: ``level time=T inc=I`` (pydraughts sends the time less the increment)
and ``go think``. The script keeps the engine's clock: each move costs the wall time of
pydraughts' ``play`` call (the protocol and the pipes included), then the increment is added.
Printed: the games, the flags fallen, the least time left, the longest move; beside it the
anchor measured in the same run: the share the engine's time manager planned for the longest
move (what it meant to use).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import draughts  # noqa: E402
from draughts.engine import HubEngine, Limit  # noqa: E402

from kbdraughts.ai.clock import move_share_ms  # noqa: E402

NEW = hasattr(draughts, "Board")  # pydraughts >= 0.6: its Russian moves mirrored
PROGRAM = os.path.join(os.path.dirname(sys.executable), "kbdraughts")


def board_moves(board) -> list:
    return [m.board_move for m in board.legal_moves()] if NEW else board.legal_moves()[0]


def push(board, move) -> None:
    board.push(move if NEW else move.board_move)


def game(hub: HubEngine, base: float, inc: float, rng: random.Random) -> dict:
    board = draughts.Board(variant="russian") if NEW else draughts.Game(variant="russian")
    left, least, longest, planned, moves = base, base, 0.0, 0.0, 0
    while not board.is_over() and len(board.move_stack) < 300:
        share = move_share_ms(left, inc, moves) / 1000
        t = time.perf_counter()
        result = hub.play(board, Limit(time=left, inc=inc), ponder=False)
        spent = time.perf_counter() - t
        left -= spent
        if left <= 0:
            return {"flag": True, "least": left, "longest": spent, "planned": share}
        left += inc
        moves += 1
        least = min(least, left)
        if spent > longest:
            longest, planned = spent, share
        push(board, result.move)
        if board.is_over():
            break
        push(board, draughts.Move(board, board_move=rng.choice(board_moves(board))))
    return {"flag": False, "least": least, "longest": longest, "planned": planned,
            "plies": len(board.move_stack)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=60.0)
    parser.add_argument("--inc", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hub = HubEngine([PROGRAM, "hub"])
    if NEW:
        hub.setoption("numbering", "mirrored")
    hub.setoption("variant", "russian")
    hub.init()
    rng = random.Random(args.seed)
    flags, least, worst = 0, args.time, (0.0, 0.0)
    for n in range(1, args.games + 1):
        r = game(hub, args.time, args.inc, rng)
        flags += r["flag"]
        least = min(least, r["least"])
        worst = max(worst, (r["longest"], r["planned"]))
        print(f"game {n}: {'FLAG' if r['flag'] else 'ok'}, least left {r['least']:.1f} s, "
              f"longest move {r['longest']:.2f} s", flush=True)
    hub.quit()
    hub.p.wait(timeout=30)  # pydraughts sends quit and returns: the engine ends in its time
    print(f"{args.games} games at time={args.time:g} inc={args.inc:g}: {flags} lost on time, "
          f"least left {least:.1f} s, longest move {worst[0]:.2f} s (anchor: the time manager "
          f"planned {worst[1]:.2f} s for it)")


if __name__ == "__main__":
    main()
