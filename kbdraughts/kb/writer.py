r"""The combos format written out: rules drawn as boards (``rules show``, the rule tools).

>>> print("\n".join(board_rows(tuple("." * 32))[-2:]))
    . - . - . - . -  1
    a b c d e f g h
"""

from __future__ import annotations

from kbdraughts.kb.knowledge import layer_of
from kbdraughts.kb.rules import BUILTIN_SYMBOLS, MAX_PIECES, Rule, swap_colours

_SWAP_SYMBOL = {"w": "b", "b": "w", "W": "B", "B": "W", "+": "*", "*": "+"}


def show_rule(rule: Rule) -> str:
    """The rule as written and its mirror, each drawn as a board in the combos format."""
    def side(s: int) -> str:
        return "black" if s else "white"

    def count(r: tuple[int, int]) -> str:
        if r == (0, MAX_PIECES):
            return "any"
        return str(r[0]) if r[0] == r[1] else f"{r[0]}..{r[1]}"

    def symbols_line(masks: dict[str, int]) -> list[str]:
        names = {v: k for k, v in BUILTIN_SYMBOLS.items() if k in ".wWbB"}
        out = []
        for sym, mask in masks.items():
            states = " ".join(names[1 << t] for t in range(5) if mask >> t & 1)
            out.append(f"  {sym} = {states}")
        return out

    (wr, br) = rule.pieces
    lines = [f"rule {rule.id}    ({rule.where}, {layer_of(rule)} layer)"]
    if rule.name:
        lines.append(f"  name: {rule.name}")
    lines.append(f"  side: {side(rule.side)}")
    lines.append(f"  pieces: white {count(wr)}, black {count(br)}")
    lines.append(f"  priority: {rule.priority}")
    if rule.sacrifice:
        lines.append(f"  sacrifice: {rule.sacrifice}")
    used = {c for c in rule.cells if c in rule.symbols}
    if used:
        lines.append("  symbols:")
        lines.extend("  " + s for s in symbols_line({c: rule.symbols[c] for c in sorted(used)}))
    lines.append("  board:")
    lines.extend(board_rows(rule.cells))
    lines.append(f"  play: {rule.play_text(False)}")
    lines.append("")
    mirrored_cells = [""] * 32
    for i in range(32):
        c = rule.cells[i]
        mirrored_cells[31 - i] = _SWAP_SYMBOL.get(c, c)
    lines.append(f"mirror of {rule.id}: the board turned 180 degrees, colours swapped")
    lines.append(f"  side: {side(1 - rule.side)}")
    lines.append(f"  pieces: white {count(br)}, black {count(wr)}")
    if used:
        lines.append("  symbols (as the mirror reads them):")
        lines.extend("  " + s for s in symbols_line(
            {c: swap_colours(rule.symbols[c]) for c in sorted(used)}))
    lines.append("  board:")
    lines.extend(board_rows(tuple(mirrored_cells)))
    lines.append(f"  play: {rule.play_text(True)}")
    return "\n".join(lines)


def board_rows(cells: tuple[str, ...]) -> list[str]:
    """A board in the combos format: 32 cells in ``SQUARES`` order, rank 8 first, with rank
    digits and the a..h footer (also used by the rule-finding tools)."""
    rows = []
    for rank in range(7, -1, -1):
        row = []
        for file in range(8):
            row.append(cells[rank * 4 + file // 2] if (file + rank) % 2 == 0 else "-")
        rows.append("    " + " ".join(row) + f"  {rank + 1}")
    rows.append("    a b c d e f g h")
    return rows
