"""py-draughts' SimpleEngine behind kbdraughts' line protocol, for ``kbdraughts match``.

    python bench/pydraughts_engine.py DEPTH        # (re-)runs itself in bench/.venv-py-draughts

    kbdraughts match kb "cmd:python bench/pydraughts_engine.py 8" --games 40 --cmd-fen

Reads one PDN FEN per line (``W:Wa1,c3,Kd4:Bb6,Kh8``; ``match --cmd-fen`` sends the position
alone, as this engine keeps no game), answers the move SimpleEngine (``depth_limit=DEPTH``)
picks for a RussianBoard, in full-path notation (``c3:e5:g7``), or ``none``. py-draughts
shares the import name ``draughts`` with pydraughts, the tests' oracle, so it lives in its
own venv, made on first use as bench/perft.py does. Nothing of kbdraughts is imported: the
squares are converted here (py-draughts numbers the dark squares 1..32 from b8 to g1).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-py-draughts"
PYTHON = VENV / "bin" / "python"


def square_name(index: int) -> str:
    """py-draughts' 0-based square index as a1..h8 (index 0 is b8, 31 is g1)."""
    row, col = divmod(index, 4)
    file = 2 * col + (1 if row % 2 == 0 else 0)
    return "abcdefgh"[file] + str(8 - row)


def square_number(name: str) -> int:
    """a1..h8 as py-draughts' 1-based square number."""
    file, rank = "abcdefgh".index(name[0]), int(name[1:])
    row = 8 - rank
    return row * 4 + file // 2 + 1


def their_fen(ours: str) -> str:
    """``W:Wa1,Kd4:Bb6`` as ``W:W29,K...:B...`` in py-draughts' numbers."""
    side, *parts = ours.strip().rstrip(".").split(":")
    out = [side]
    for part in parts:
        colour, squares = part[0], [s for s in part[1:].split(",") if s]
        out.append(colour + ",".join(
            ("K" if s.startswith("K") else "") + str(square_number(s.lstrip("K")))
            for s in squares))
    return ":".join(out)


def answer(board_class, engine, line: str) -> str:
    board = board_class.from_fen(their_fen(line.split(" moves")[0]))
    if not list(board.legal_moves):
        return "none"
    move = engine.get_best_move(board)
    squares = [square_name(i) for i in move.square_list]
    return (":" if move.captured_list else "-").join(squares)


def serve(depth: int) -> None:
    from draughts import RussianBoard, SimpleEngine

    engine = SimpleEngine(depth_limit=depth)
    for line in sys.stdin:
        if line.strip():
            print(answer(RussianBoard, engine, line), flush=True)


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    if Path(sys.prefix).resolve() != VENV.resolve():
        if not PYTHON.exists():
            print("making bench/.venv-py-draughts (once) ...", file=sys.stderr)
            venv.create(VENV, with_pip=True)
            subprocess.run([str(PYTHON), "-m", "pip", "install", "-q", "py-draughts"],
                           check=True)
        os.execv(str(PYTHON), [str(PYTHON), __file__, str(depth)])
    serve(depth)


if __name__ == "__main__":
    main()
