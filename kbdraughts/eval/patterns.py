"""Pattern terms: a local shape of men and kings, written square by square in the rules'
symbols for White, compiled to masks and counted for both sides (ours minus theirs).

A pattern compiled is, per square state (empty, white man, white king, black man, black king),
the squares where that state breaks it. It matches when no state stands where it is forbidden:
five ANDs and one compare, whatever its size. The native evaluation does the same with the
same masks (``csrc/eval.c``); the tests hold the two equal.
"""

from __future__ import annotations

from typing import Sequence

from kbdraughts.board import BB_BOARD, Position
from kbdraughts.kb.rules.pattern import BUILTIN_SYMBOLS, swap_colours
from kbdraughts.squares import mirror_square

__all__ = ["Masks", "pattern_masks", "matches", "pattern_counts"]

#: A pattern compiled, one view: per state the squares where that state breaks it.
Masks = tuple[int, int, int, int, int]


def pattern_masks(squares: Sequence[tuple[int, str]]) -> tuple[Masks, Masks]:
    """A pattern's masks as written (White's view) and turned for Black (the board turned
    round, the colours swapped).

    >>> from kbdraughts.notation import parse_fen
    >>> from kbdraughts.squares import square_at
    >>> white, black = pattern_masks([(square_at(2, 4), "w"), (square_at(3, 3), "+")])
    >>> pos = parse_fen("W:Wc5,Kd4:Bf4")  # Black holds f4 (c5 turned round), not e5 (d4)
    >>> matches(pos, white), matches(pos, black)
    (True, False)
    """
    forbidden = [[0] * 5, [0] * 5]
    for square, symbol in squares:
        allowed = BUILTIN_SYMBOLS[symbol]
        views = ((square, allowed), (mirror_square(square), swap_colours(allowed)))
        for masks, (s, ok) in zip(forbidden, views):
            for state in range(5):
                if not ok >> state & 1:
                    masks[state] |= 1 << s
    return tuple(forbidden[0]), tuple(forbidden[1])  # type: ignore[return-value]


def matches(pos: Position, masks: Masks) -> bool:
    """Whether the position holds the pattern of ``masks``."""
    white, black, kings, _ = pos
    empty = BB_BOARD & ~(white | black)
    return not ((empty & masks[0]) | (white & ~kings & masks[1]) | (white & kings & masks[2])
                | (black & ~kings & masks[3]) | (black & kings & masks[4]))


def pattern_counts(pos: Position, compiled: Sequence[tuple[Masks, Masks]]) -> tuple[int, ...]:
    """Per pattern, 1 when White holds it, -1 when Black holds it (turned), 0 for both or
    neither: from White's side, as the features are."""
    white, black, kings, _ = pos
    empty = BB_BOARD & ~(white | black)
    states = (empty, white & ~kings, white & kings, black & ~kings, black & kings)
    out = []
    for w, b in compiled:
        hw = not any(s & m for s, m in zip(states, w))
        hb = not any(s & m for s, m in zip(states, b))
        out.append(hw - hb)
    return tuple(out)
