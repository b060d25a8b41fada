"""A board drawn in the combos format for rules written in tests (no rank digits, no footer)."""

from __future__ import annotations

from kbdraughts.board import SQUARES


def rows_text(cells: dict[int, str]) -> str:
    out = []
    for rank in range(7, -1, -1):
        out.append("    " + " ".join(
            cells[SQUARES[rank * 4 + f // 2]] if (f + rank) % 2 == 0 else "-" for f in range(8)))
    return "\n".join(out)
