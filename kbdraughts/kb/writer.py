r"""The combos format written out: :func:`format_rule`, the one writer beside the one reader
(:func:`kbdraughts.kb.combos.parse_rules`), used by ``teach`` and the rule tools; and
:func:`show_rule`, a rule and its mirror drawn for ``rules show``.

>>> from kbdraughts.kb.combos import EXAMPLE, parse_rules
>>> (rule,), _, _ = parse_rules(EXAMPLE, "example.txt")
>>> print(format_rule(rule))
rule shot-1
  side: white
  board:
    - ? - ? - ? - ?  8
    ? - ? - ? - . -  7
    - ? - ? - b - ?  6
    ? - ? - . - ? -  5
    - ? - b - ? - ?  4
    ? - w - ? - ? -  3
    - ? - ? - ? - ?  2
    ? - ? - ? - ? -  1
    a b c d e f g h
  play: c3:e5:g7
<BLANKLINE>
"""

from __future__ import annotations

from typing import Iterable

from kbdraughts.files import control_character, printable
from kbdraughts.kb.knowledge import layer_of
from kbdraughts.kb.motifs.motif import Motif
from kbdraughts.kb.rules.pattern import BUILTIN_SYMBOLS, EXACT_SYMBOLS, MAX_PIECES, swap_colours
from kbdraughts.kb.rules.rule import ANY_PIECES, Rule
from kbdraughts.notation import FenError, fen, parse_fen
from kbdraughts.squares import dark_index

__all__ = ["format_rule", "format_rules", "format_symbols", "show_rule", "show_motif",
           "board_rows"]

_SWAP_SYMBOL = {"w": "b", "b": "w", "W": "B", "B": "W", "+": "*", "*": "+"}


def format_rule(rule: Rule) -> str:
    """``rule`` in the combos format, ending with a newline: ``rule ID``, then the fields that
    differ from their defaults (``side`` always), an exact rule as ``position:`` (when its
    symbols are ``. w W b B`` and the position is one a FEN can hold), any other as ``board:``.
    :func:`parse_rules` reads it back as the same rule, given the ``symbols:`` block of the
    rule's custom symbols (:func:`format_symbols`). ValueError for what the format cannot
    hold: a name with ``#`` (a comment) or a line break, or spaces at either end."""
    if rule.name != rule.name.strip() or "#" in rule.name or control_character(rule.name):
        raise ValueError(f"rule {rule.id}: the name {rule.name!r} cannot be written in a rule file")
    lines = [f"rule {rule.id}"]
    if rule.name:
        lines.append(f"  name: {rule.name}")
    lines.append(f"  side: {_side(rule.side)}")
    if rule.pieces != ANY_PIECES:
        (wr, br) = rule.pieces
        lines.append(f"  pieces: white {_count(wr)}, black {_count(br)}")
    if rule.priority:
        lines.append(f"  priority: {rule.priority}")
    if rule.sacrifice:
        lines.append(f"  sacrifice: {rule.sacrifice}")
    position = _fen(rule)
    if position is not None:
        lines.append(f"  position: {position}")
    else:
        lines.append("  board:")
        lines.extend(board_rows(rule.cells))
    lines.append(f"  play: {rule.play}")
    return "\n".join(lines) + "\n"


def format_symbols(symbols: dict[str, int]) -> str:
    """A file's ``symbols:`` block (empty text when there are no custom symbols).

    >>> format_symbols({"x": BUILTIN_SYMBOLS["."] | BUILTIN_SYMBOLS["w"] | BUILTIN_SYMBOLS["b"]})
    'symbols:\\n  x = . w b\\n'
    """
    if not symbols:
        return ""
    return "symbols:\n" + "".join(line + "\n" for line in _symbol_lines(symbols))


def format_rules(rules: Iterable[Rule]) -> str:
    """A whole rule file: the rules' ``symbols:`` block (all must share it), then each rule,
    a blank line between two."""
    rules = list(rules)
    symbols = rules[0].symbols if rules else {}
    if any(r.symbols != symbols for r in rules):
        raise ValueError("rules with different custom symbols cannot share a file")
    head = format_symbols(symbols)
    return (head + "\n" if head else "") + "\n".join(format_rule(r) for r in rules)


def _fen(rule: Rule) -> str | None:
    """The FEN an exact rule can be written as, or None."""
    if not rule.exact or not all(c in EXACT_SYMBOLS for c in rule.cells):
        return None
    text = fen(rule.exact_position())  # type: ignore[arg-type]
    try:
        parse_fen(text)  # a man on its crowning rank, or 13 pieces: only a board holds them
    except FenError:
        return None
    return text


def _side(side: int) -> str:
    return "black" if side else "white"


def _count(r: tuple[int, int]) -> str:
    if r == (0, MAX_PIECES):
        return "any"
    return str(r[0]) if r[0] == r[1] else f"{r[0]}..{r[1]}"


def _symbol_lines(masks: dict[str, int]) -> list[str]:
    """``  Z = . w`` for each custom symbol: the one-state symbols of the states it allows."""
    names = {v: k for k, v in BUILTIN_SYMBOLS.items() if k in EXACT_SYMBOLS}
    return [f"  {sym} = " + " ".join(names[1 << t] for t in range(5) if mask >> t & 1)
            for sym, mask in masks.items()]


def show_rule(rule: Rule) -> str:
    """The rule as written and its mirror, each drawn as a board in the combos format."""
    side, count, symbols_line = _side, _count, _symbol_lines
    (wr, br) = rule.pieces
    lines = [f"rule {printable(rule.id)}    ({rule.where}, {layer_of(rule)} layer)"]
    if rule.name:  # a rule made in code may hold any text: none of it reaches the terminal raw
        lines.append(f"  name: {printable(rule.name)}")
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
            row.append(cells[dark_index(file, rank)] if (file + rank) % 2 == 0 else "-")
        rows.append("    " + " ".join(row) + f"  {rank + 1}")
    rows.append("    a b c d e f g h")
    return rows


def _motif_pieces(motif: Motif) -> str:
    """A motif's ``pieces:`` as written, the counts it leaves open left out: ``white 3..12,
    black 1..3``, ``black 1, black kings 1``; "" when it takes any."""
    parts = [f"{_side(side)} {_count(r)}" for side, r in enumerate(motif.pieces)
             if r != (0, MAX_PIECES)]
    parts += [f"{_side(side)} kings {_count(r)}" for side, r in enumerate(motif.kings)
              if r != (0, MAX_PIECES)]
    return ", ".join(parts)


def show_motif(motif: Motif) -> str:
    """A motif as written (its conditions and claim), then its first example drawn with the
    move it plays there and the squares its variables are bound to."""
    from kbdraughts.kb.motifs.ground import compile_motif  # the drawing needs the motif compiled
    from kbdraughts.kb.motifs.prove import example_hit
    from kbdraughts.kb.rules.pattern import position_cells
    from kbdraughts.notation import SQUARE_NAMES, move_text

    lines = [f"motif {printable(motif.id)}    ({printable(motif.where)}, motif layer)"]
    if motif.name:
        lines.append(f"  name: {printable(motif.name)}")
    pieces = _motif_pieces(motif)
    if pieces:
        lines.append(f"  pieces: {pieces}")
    lines.append(f"  priority: {motif.priority}")
    if motif.draft:
        lines.append("  status: draft (checked and matched; the AI does not play it)")
    if motif.sacrifice:
        lines.append(f"  sacrifice: {motif.sacrifice}")
    if motif.play:
        sep = ":" if motif.capture else "-"
        lines.append("  play: " + sep.join(t if isinstance(t, str) else SQUARE_NAMES[t]
                                           for t in motif.play))
    lines.append("  when: " + ",\n    ".join(lit.text() for lit in motif.body))
    lines.append(f"  claim: {motif.claim()}")
    if not motif.examples:
        return "\n".join(lines)
    fen_text, _ = motif.examples[0]
    hit = example_hit(motif, compile_motif(motif), fen_text)
    lines.append(f"example: {printable(fen_text)}")
    try:
        lines.extend(board_rows(position_cells(parse_fen(fen_text))))
    except FenError:
        return "\n".join(lines)
    if isinstance(hit, str):
        lines.append(f"  {printable(hit)}")
    else:
        move = move_text(hit.move) if hit.move is not None else "(a warning: no move)"
        bound = " ".join(f"{v}={SQUARE_NAMES[s]}" for v, s in hit.bindings)
        lines.append(f"  plays {move}  {bound}")
    return "\n".join(lines)
