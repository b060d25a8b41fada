"""A motif drafted from one position and a move, for its author to generalise (``teach motif``).

The draft is a ``motif`` block of the combos format (combos/README.md, issue 12), written for
White as every motif is (a position with Black to move is turned round first):

- ``play: S-T`` (a capture: ``S:X:T``), the move's squares as variables;
- ``when:`` a starting set of conditions over the squares the idea uses: the move's, and those
  of the line the capture tree expects after it (the forced reply, our capture), each named by
  a variable, each with its state in this position (``our_man(S)``, ``empty(T)``,
  ``their_man(A)``), linked by geometry (``next(S, T, fr)``, ``jump(A, T, B)``), and the claim
  as a condition the author can keep (``after(S-T, exchange(N)), N >= 1``);
- ``pieces:`` the counts here, ``gain:`` what the referee finds the move nets within two
  plies and the captures after them (else ``promise: crowns`` when it crowns by force, else a
  gain of 1 to be proved), ``sacrifice:`` the men the reply takes first;
- ``example:`` this position, where the draft must fire.

The squares are this position's: the author drops the conditions that are incidental and
widens ``pieces:``, then checks the motif with ``kbdraughts rules check FILE``.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8")
>>> print(draft_motif(pos, parse_move(pos, "e3-d4"), "draft-1"))  # doctest: +ELLIPSIS
motif draft-1
  name: e3-d4 (say what the idea is)
  pieces: white 12, black 12
  priority: 1
  play: S-T
  when: our_man(S), empty(T), next(S, T, fl), their_man(A), jump(A, T, S), our_man(B),
        empty(C), jump(B, S, C), their_man(D), empty(E), jump(C, D, E),
        after(S-T, exchange(N)), N >= 1
  gain: 1
  sacrifice: 1
  example: W:...
<BLANKLINE>
"""

from __future__ import annotations

import re
import string
from typing import Iterable

from kbdraughts.capture_tree import exchange
from kbdraughts.ai.claims import CROWNS, Claim, gain_of, holds
from kbdraughts.referee import Nodes, OutOfNodes
from kbdraughts.board import WHITE, Move, Position, mirror_position, play
from kbdraughts.notation import fen, move_text
from kbdraughts.squares import (
    SQUARE_FILE, SQUARE_RANK, Square, between, mirror_bits, mirror_square,
)

__all__ = ["draft_motif", "white_view", "draft_id", "block_ids"]

#: Directions as motifs name them, for White: (file step, rank step) -> name.
_DIRECTION = {(-1, 1): "fl", (1, 1): "fr", (1, -1): "br", (-1, -1): "bl"}
#: The widest line of the ``when:`` field.
_WIDTH = 92
#: The positions the referee may visit to find the draft's claim: with twelve kings a side it
#: took 47 s; past them the draft says the gain is not found, for its author to prove.
DRAFT_NODES = 100_000


#: A block's first line, as the combos parser reads it: ``rule ID`` or ``motif ID`` (any indent).
_BLOCK = re.compile(r"^[ \t]*(?:rule|motif)[ \t]+(\S+)", re.MULTILINE)
#: ``draft-N``; N of at most 18 digits counts (``int`` refuses past 4,300 digits).
_DRAFT = re.compile(r"draft-(\d{1,18})")


def block_ids(text: str) -> set[str]:
    """The ids of the ``rule`` and ``motif`` blocks of a combos file's ``text``, read without
    the parser, so that a file with faults still gives them.

    >>> sorted(block_ids("motif draft-2\\n  play: S-T\\n  rule  shot-1 # x\\n# motif old\\n"))
    ['draft-2', 'shot-1']
    """
    return set(_BLOCK.findall(text))


def draft_id(taken: Iterable[str]) -> str:
    """A ``draft-N`` id none of ``taken`` has: one more than the largest ``draft-N`` there.

    >>> draft_id([]), draft_id(["draft-2", "shot", "draft-10"]), draft_id(["draft-" + "9" * 18])
    ('draft-1', 'draft-11', 'draft-1000000000000000000')
    >>> draft_id(["draft-" + "9" * 18, "draft-1000000000000000000"])
    'draft-1000000000000000001'
    """
    ids = set(taken)
    numbers = [int(m.group(1)) for i in ids if (m := _DRAFT.fullmatch(i))]
    n = max(numbers, default=0) + 1
    while f"draft-{n}" in ids:  # a longer number than _DRAFT reads, already there
        n += 1
    return f"draft-{n}"


def white_view(pos: Position, move: Move) -> tuple[Position, Move]:
    """The position and move as White sees them (turned round when Black is to move)."""
    if pos.side == WHITE:
        return pos, move
    m = mirror_square
    return mirror_position(pos), Move(m(move.start), m(move.end), mirror_bits(move.captured),
                                      tuple(m(s) for s in move.path), move.crowned)


def _direction(a: Square, b: Square) -> str:
    df, dr = SQUARE_FILE[b] - SQUARE_FILE[a], SQUARE_RANK[b] - SQUARE_RANK[a]
    return _DIRECTION[(df > 0) - (df < 0), (dr > 0) - (dr < 0)]


class _Names:
    """Variables for squares: S and T for the move, then A, B, C ... in order of use."""

    def __init__(self, start: Square, end: Square):
        self.of: dict[Square, str] = {start: "S", end: "T"}
        self.free = iter(c for c in string.ascii_uppercase if c not in "STN")

    def __call__(self, square: Square) -> str:
        if square not in self.of:
            self.of[square] = next(self.free)
        return self.of[square]


def _state(pos: Position, square: Square) -> str:
    piece = pos.piece_at(square)
    if piece is None:
        return "empty"
    side, king = piece
    return f"{'our' if side == WHITE else 'their'}_{'king' if king else 'man'}"


def _legs(move: Move) -> list[tuple[Square, Square, Square | None]]:
    """Each leg of a move: (from, to, the square taken on the way or None)."""
    legs, at = [], move.start
    for land in move.path:
        taken = [s for s in between(at, land) if move.captured >> s & 1]
        legs.append((at, land, taken[0] if taken else None))
        at = land
    return legs


def _conditions(pos: Position, line: tuple[Move, ...], name: _Names) -> list[str]:
    """The squares of ``line`` with their states in ``pos`` and the geometry linking them."""
    said: set[Square] = set()
    out: list[str] = []

    def state(square: Square) -> None:
        if square not in said:
            said.add(square)
            out.append(f"{_state(pos, square)}({name(square)})")

    for move in line:
        for a, b, taken in _legs(move):
            state(a)
            if taken is not None:
                state(taken)
            state(b)
            adjacent = abs(SQUARE_FILE[b] - SQUARE_FILE[a]) == 1
            if taken is None:
                geo = "next" if adjacent else "ray"
                out.append(f"{geo}({name(a)}, {name(b)}, {_direction(a, b)})")
            elif abs(SQUARE_FILE[b] - SQUARE_FILE[a]) == 2:
                out.append(f"jump({name(a)}, {name(taken)}, {name(b)})")
            else:  # a king's long capture
                d = _direction(a, b)
                out.append(f"ray({name(a)}, {name(taken)}, {d}), ray({name(taken)}, "
                           f"{name(b)}, {d})")
    return out


def draft_motif(pos: Position, move: Move, motif_id: str) -> str:
    """The draft ``motif`` block (ending with a newline) of ``move`` played in ``pos``."""
    pos, move = white_view(pos, move)
    line = (move,) + exchange(play(pos, move), WHITE).moves
    name = _Names(move.start, move.end)
    when = _conditions(pos, line, name)
    nodes = Nodes(DRAFT_NODES)
    try:
        nets = min(gain_of(pos, move, nodes=nodes), pos.black.bit_count())  # a won game: all
        crowns = nets < 1 and holds(Claim(CROWNS), pos, move, nodes)
    except OutOfNodes:  # many kings: drafted without the referee's verdict
        nets, crowns = 0, False
    if nets >= 1:
        claim = f"gain: {nets}"
        when += ["after(S-T, exchange(N))" if len(line) > 1 else "after(S-T, threat(N))",
                 "N >= 1"]
    elif crowns:
        claim = f"promise: {CROWNS}"
        when.append("after(S-T, crowns_within(3))")
    else:
        claim = "gain: 1  # not found within two plies: prove it, or say what it promises"
    given = (line[1].captured & play(pos, move).white).bit_count() if len(line) > 1 else 0
    w, b = pos.white.bit_count(), pos.black.bit_count()
    sep = ":" if move.captured else "-"
    landings = [name(s) for s in move.path]
    rows: list[list[str]] = [[]]
    for cond in when:  # greedy: as many conditions a line as fit in _WIDTH
        if rows[-1] and len("        " + ", ".join(rows[-1] + [cond]) + ",") > _WIDTH:
            rows.append([])
        rows[-1].append(cond)
    text = [f"motif {motif_id}",
            f"  name: {move_text(move)} (say what the idea is)",
            f"  pieces: white {w}, black {b}",
            f"  priority: {max(1, nets)}",
            f"  play: {sep.join(['S', *landings])}",
            "  when: " + ",\n        ".join(", ".join(r) for r in rows),
            f"  {claim}"]
    if given:
        text.append(f"  sacrifice: {given}")
    text.append(f"  example: {fen(pos)}")
    return "\n".join(text) + "\n"
