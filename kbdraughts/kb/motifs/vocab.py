"""The motif vocabulary's meaning: geometry tables, square states, and the library predicates.

Everything is seen from White's side, with White to move (a position with Black to move is
turned round first, :func:`kbdraughts.board.mirror_position`): "our" is White.

- :data:`GEOMETRY`: every geometry predicate as a table of rows (fixed, known at load).
- :data:`STATES`: for each position predicate, the square states it allows (a bit mask over
  :mod:`kbdraughts.kb.rules.pattern`'s states), so a compiled motif tests a square with a mask.
- :class:`Board`: one position asked about; :meth:`Board.library` answers a count, library or
  ``after`` predicate with its square (and input) arguments bound, returning the rows that hold.
  What follows our move is judged by the referee (:mod:`kbdraughts.referee`): pieces are
  counted, captures are forced and resolved to their end.

>>> from kbdraughts.notation import parse_fen
>>> b = Board(parse_fen("W:Wc3,e3:Bf6,g7"))
>>> from kbdraughts.notation import parse_square as sq
>>> b.library("after_they_take", (sq("c3"), sq("d4"), None))
[(10, 15, 0)]
>>> b.library("step", (sq("c3"), sq("b4")))
[(10, 14)]
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from kbdraughts.board import (
    JUMPS, RAYS, SQUARE_FILE, SQUARE_RANK, SQUARES, WHITE, Move, Position, captures, legal_moves,
    play,
)
from kbdraughts.kb.motifs.motif import DIRECTIONS
from kbdraughts.kb.rules.pattern import BLACK_KING, BLACK_MAN, EMPTY, WHITE_KING, WHITE_MAN
from kbdraughts.proof import at_least, prove
from kbdraughts.referee import Nodes, OutOfNodes, forces, nets
from kbdraughts.values import MAN_VALUE

__all__ = ["GEOMETRY", "STATES", "ALL", "Board", "MAX_CROWN_PLIES"]


def _geometry() -> dict[str, list[tuple]]:
    g: dict[str, list[tuple]] = {"next": [], "ray": [], "jump": []}
    for s in SQUARES:
        for d, ray in zip(DIRECTIONS, RAYS[s]):
            if ray:
                g["next"].append((s, ray[0], d))
            g["ray"].extend((s, t, d) for t in ray)
        g["jump"].extend((s, over, land) for over, land in JUMPS[s])
    g["forward"] = [("fl",), ("fr",)]
    g["main_road"] = [(s,) for s in SQUARES if SQUARE_FILE[s] == SQUARE_RANK[s]]
    g["crown_square"] = [(s,) for s in SQUARES if SQUARE_RANK[s] == 7]
    g["rank"] = [(s, SQUARE_RANK[s] + 1) for s in SQUARES]
    return g


#: Geometry predicate -> its rows.
GEOMETRY: dict[str, list[tuple]] = _geometry()

_E, _WM, _WK, _BM, _BK = (1 << t for t in (EMPTY, WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING))
ALL = _E | _WM | _WK | _BM | _BK
#: Position predicate -> the square states it allows.
STATES: dict[str, int] = {
    "empty": _E, "man": _WM | _BM, "king": _WK | _BK, "piece": ALL & ~_E,
    "our_man": _WM, "our_king": _WK, "our_piece": _WM | _WK,
    "their_man": _BM, "their_king": _BK, "their_piece": _BM | _BK,
}
#: The most plies ``after(S-T, crowns_within(N))`` and ``catches_within(N)`` search.
MAX_CROWN_PLIES = 5
#: The positions the referee may visit for all the library conditions asked about one
#: position: a condition it cannot judge within them does not hold (a motif claims only what
#: was proved). With twelve kings a side one capture resolution alone took minutes; the
#: shipped motifs needed at most 273 on 5,652 positions of random games.
REFEREE_NODES = 50_000


def state_of(pos: Position, s: int) -> int:
    """The state bit of square ``s``."""
    b = 1 << s
    if pos.white & b:
        return _WK if pos.kings & b else _WM
    if pos.black & b:
        return _BK if pos.kings & b else _BM
    return _E


def king_attacks(pos: Position, s: int) -> int:
    """How many different black pieces a white king on ``s`` could take first."""
    empty = ~(pos.white | pos.black)
    n = 0
    for ray in RAYS[s]:
        i = 0
        while i < len(ray) and empty >> ray[i] & 1:
            i += 1
        if i + 1 < len(ray) and pos.black >> ray[i] & 1 and empty >> ray[i + 1] & 1:
            n += 1
    return n


def _kings(pos: Position) -> int:
    return (pos.white & pos.kings).bit_count()


class Board:
    """One position (White to move) being asked about, with what it has worked out so far."""

    def __init__(self, pos: Position, legal: Sequence[Move] | None = None):
        assert pos.side == WHITE, "motifs are asked with White to move (mirror first)"
        self.pos = pos
        self._legal = None if legal is None else list(legal)
        self._moves: dict[tuple[int, int], Move | None] = {}
        self._after: dict[tuple[int, int], tuple[Position, list[Move]] | None] = {}
        self._theirs: dict[tuple[int, int], Move] | None = None
        self._memo: dict[tuple, list[tuple]] = {}
        self.nodes = Nodes(REFEREE_NODES)  # every judgement about this position, together
        w, b, k = pos.white, pos.black, pos.kings
        self.counts = {"our_men": (w & ~k).bit_count(), "our_kings": (w & k).bit_count(),
                       "our_pieces": w.bit_count(), "their_men": (b & ~k).bit_count(),
                       "their_kings": (b & k).bit_count(), "their_pieces": b.bit_count()}

    @property
    def legal(self) -> list[Move]:
        """Our legal moves (worked out when first asked)."""
        if self._legal is None:
            self._legal = legal_moves(self.pos)
        return self._legal

    def move(self, s: int, t: int) -> Move | None:
        """Our legal move from ``s`` to ``t`` (the first such capture), or None."""
        key = (s, t)
        if key not in self._moves:
            self._moves[key] = next((m for m in self.legal if m.start == s and m.end == t), None)
        return self._moves[key]

    def library(self, pred: str, args: tuple) -> list[tuple]:
        """The rows of ``pred`` that agree with ``args`` (None: an output to fill in)."""
        if pred in self.counts:
            n = self.counts[pred]
            return [(n,)] if args[0] in (None, n) else []
        key = (pred, args)
        if key not in self._memo:
            try:
                rows = _LIBRARY[pred](self, args)
            except OutOfNodes:  # not judged within the budget: the condition is not proved
                rows = []
            self._memo[key] = [row for row in rows
                               if all(a is None or a == r for a, r in zip(args, row))]
        return self._memo[key]

    def after(self, s: int, t: int) -> Position | None:
        got = self.after_captures(s, t)
        return None if got is None else got[0]

    def after_captures(self, s: int, t: int) -> tuple[Position, list[Move]] | None:
        """The position after our move ``s``-``t`` and their captures there (shared by every
        condition asked about that move), or None when the move is not legal."""
        key = (s, t)
        if key not in self._after:
            m = self.move(s, t)
            after = None if m is None else play(self.pos, m)
            self._after[key] = None if after is None else (after, captures(after))
        return self._after[key]

    def their_quiet(self) -> dict[tuple[int, int], Move]:
        """Their quiet moves were it their move (none when they would have to capture)."""
        if self._theirs is None:
            theirs = self.pos._replace(side=1)
            self._theirs = {} if captures(theirs) else {
                (m.start, m.end): m for m in legal_moves(theirs)}
        return self._theirs


def _step(b: Board, a: tuple) -> list[tuple]:
    m = b.move(a[0], a[1])
    return [a] if m is not None and not m.captured else []


def _king_move(b: Board, a: tuple) -> list[tuple]:
    return _step(b, a) if b.pos.kings >> a[0] & 1 else []


def _capture(b: Board, a: tuple) -> list[tuple]:
    return [(a[0], a[1], m.captured.bit_count()) for m in b.legal
            if m.start == a[0] and m.end == a[1] and m.captured]


def _king_attacks(b: Board, a: tuple) -> list[tuple]:
    s = a[0]
    return [(s, king_attacks(b.pos, s))] if (b.pos.white & b.pos.kings) >> s & 1 else []


def _hanging(b: Board, a: tuple) -> list[tuple]:
    s = a[0]
    if not b.pos.white >> s & 1:
        return []
    theirs = b.pos._replace(side=1)
    got = [nets(theirs, play(theirs, m), 1, 0, b.nodes) for m in captures(theirs)
           if m.captured >> s & 1]
    return [(s, max(got))] if got else []


def _their_shot(b: Board, a: tuple) -> list[tuple]:
    m = b.their_quiet().get((a[0], a[1]))
    if m is None:
        return []
    theirs = b.pos._replace(side=1)
    return [(a[0], a[1], nets(theirs, play(theirs, m), 1, 0, b.nodes))]


def _threat_now(b: Board, a: tuple) -> list[tuple]:
    # a threat that stands before our move: a move that keeps it is no idea of its own
    return [(nets(b.pos, b.pos._replace(side=1), WHITE, 1, b.nodes),)]


def _after(fn: Callable[[Board, Position, list[Move], tuple], Any]
           ) -> Callable[[Board, tuple], list[tuple]]:
    def answer(b: Board, a: tuple) -> list[tuple]:
        got = b.after_captures(a[0], a[1])
        if got is None:
            return []
        value = fn(b, got[0], got[1], a[2:])
        if value is None or value is False:
            return []
        return [a if value is True else (a[0], a[1], *a[2:-1], value)]
    return answer


def _they_take(b: Board, after: Position, caps: list[Move], a: tuple) -> int | None:
    taken = {m.captured.bit_count() for m in caps}
    return 0 if not taken else taken.pop() if len(taken) == 1 else None


def _forced_take(b: Board, after: Position, caps: list[Move], a: tuple) -> bool:
    return bool(caps) and all(m.captured >> a[0] & 1 for m in caps)


def _safe(b: Board, after: Position, caps: list[Move], a: tuple) -> bool:
    return not any(m.captured >> a[0] & 1 for m in caps)


def _after_king_attacks(b: Board, after: Position, caps: list[Move], a: tuple) -> int | None:
    x = a[0]
    return king_attacks(after, x) if (after.white & after.kings) >> x & 1 else None


def _crowns_within(b: Board, after: Position, caps: list[Move], a: tuple) -> bool:
    plies = a[0]
    if not isinstance(plies, int) or not 0 <= plies <= MAX_CROWN_PLIES:
        return False
    base = _kings(b.pos)
    return forces(after, WHITE, plies, lambda q: _kings(q) > base, b.nodes)


def _catches_within(b: Board, after: Position, caps: list[Move], a: tuple) -> bool:
    plies = a[0]
    if not isinstance(plies, int) or not 0 <= plies <= MAX_CROWN_PLIES:
        return False
    return forces(after, WHITE, plies, lambda q: not q.black
                  or (q.side == 1 and not legal_moves(q)), b.nodes)


def _gains_within(b: Board, after: Position, caps: list[Move], a: tuple) -> bool:
    # a man won while they crown is no gain, nor a man given back two moves later: weighed
    # as the deep search weighs (bench/motifs.py --depth), past the reply; a null window
    plies, men = a
    if not isinstance(plies, int) or not 0 <= plies <= MAX_CROWN_PLIES:
        return False
    base = prove(b.pos, WHITE, 0, b.nodes).value
    return at_least(after, WHITE, plies, base + men * MAN_VALUE, b.nodes)


_LIBRARY: dict[str, Callable[[Board, tuple], list[tuple]]] = {
    "step": _step, "king_move": _king_move, "capture": _capture,
    "king_attacks": _king_attacks, "hanging": _hanging, "their_shot": _their_shot,
    "threat_now": _threat_now,
    "after_they_take": _after(_they_take), "after_forced_take": _after(_forced_take),
    "after_exchange": _after(lambda b, after, caps, a: nets(b.pos, after, WHITE, 0, b.nodes)),
    "after_threat": _after(lambda b, after, caps, a: nets(b.pos, after, WHITE, 1, b.nodes)),
    "after_safe": _after(_safe), "after_king_attacks": _after(_after_king_attacks),
    "after_crowns_within": _after(_crowns_within),
    "after_catches_within": _after(_catches_within),
    "after_gains_within": _after(_gains_within),
}
