"""The knowledge base as a pyDatalog program: which rules apply to a position, in which order.

The encoding
------------
Every rule is two *variants*: as written and mirrored (board turned 180 degrees, colours,
side, counts and move swapped). A mirror applies to a position exactly when the rule as written
applies to the mirrored position, so only rules as written are facts, and a query puts the
position and its mirror in as facts. Rules are numbered in the order the AI tries them (their
*rank*: layer, priority, constraint, file order) and the answer is the variant number
``V = 2 * rank + mirrored``, so sorting the answer gives the AI's order. The program::

    kb_applies(N, R) <= kb_at(N, CK, PK, W, B, K) & kb_exact(PK, R)
    kb_applies(N, R) <= kb_at(N, CK, PK, W, B, K) & kb_count(CK, G) & kb_fits(G, W, B, K, R)
    kb_answer(V) <= kb_applies(0, R) & (V == 2*R)
    kb_answer(V) <= kb_applies(1, R) & (V == 2*R+1)

- ``kb_at(N, CK, PK, W, B, K)``: the position asked about (``N = 0``) and its mirror
  (``N = 1``), asserted for the query and retracted after it: its count key, its whole-position
  key and its white, black and king bitboards.
- ``kb_exact(PK, R)``: one fact per exact rule (an opening position), keyed by the whole
  position packed into one int ``PK``. pyDatalog indexes every argument of a fact and, for a
  query, intersects the index entries of all bound arguments; one discriminating key makes the
  lookup a single hash probe whatever the number of rules (binding side and counts separately
  would intersect large candidate sets).
- ``kb_count(CK, G)``: the piece-count filter, first, as in the Prolog ancestor program. Pattern
  rules are grouped into *classes* sharing side and count ranges; every (side, white count,
  black count) cell, keyed ``CK = side*256 + white*16 + black``, has one fact naming the group
  ``G`` of classes whose ranges accept it. So the filter is one indexed lookup, and at most
  2 * 13 * 13 facts whatever the number of rules.
- ``kb_fits(G, W, B, K, R)``: a Python-resolved predicate (:meth:`Program.predicate`): the
  bitmask check of the board. A class keeps, for every square one of its rules constrains and
  every square state, the set of its rules allowing that state as one big int ("bit-sliced"
  columns, the most selective squares first); intersecting the columns of the position's
  states, at most 32 ANDs of ints, leaves exactly the rules whose board fits.

Facts go in through :class:`~kbdraughts.kb.rules.datalog.Program` (engine clauses, not parsed text),
and the index owns its program: two knowledge bases never see each other's facts, and any thread
may ask (see :mod:`kbdraughts.kb.rules.datalog`). All predicate names start with ``kb_``.
``bench/kb.py`` prints the load and query costs beside a brute-force matcher and the naive
encoding (a fact per rule square and a negated conflict predicate), measured in the same run.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from kbdraughts.board import BB_BOARD, Position, mirror_position
from kbdraughts.kb.rules.datalog import Program, Var
from kbdraughts.kb.rules.pattern import Pattern, position_states
from kbdraughts.kb.rules.rule import Rule

__all__ = ["DatalogIndex", "position_key", "count_key"]

_PROGRAM = """
kb_applies(N, R) <= kb_at(N, CK, PK, W, B, K) & kb_exact(PK, R)
kb_applies(N, R) <= kb_at(N, CK, PK, W, B, K) & kb_count(CK, G) & kb_fits(G, W, B, K, R)
kb_answer(V) <= kb_applies(0, R) & (V == 2*R)
kb_answer(V) <= kb_applies(1, R) & (V == 2*R+1)
"""


def position_key(pos: Position) -> int:
    """The whole position packed into one int: the key of ``kb_exact``."""
    return pos.white | pos.black << 36 | pos.kings << 72 | pos.side << 108


def count_key(side: int, white: int, black: int) -> int:
    """Side to move and piece counts packed into one int: the key of ``kb_count``."""
    return side << 8 | white << 4 | black


class _Class:
    """Pattern variants sharing side and count ranges, with their board columns bit-sliced.

    ``columns`` lists, for each square some member constrains, the square's bit and five ints:
    bit ``j`` of ``column[t]`` is set when member ``j`` allows state ``t`` there.
    """

    __slots__ = ("variants", "columns", "everyone")

    def __init__(self, members: Sequence[tuple[int, Pattern]]):
        self.variants = [v for v, _ in members]
        everyone = self.everyone = (1 << len(members)) - 1
        # Record what each member forbids (few squares each), then complement per column.
        forbidden: dict[int, list[int]] = {}
        for j, (_, p) in enumerate(members):
            bit = 1 << j
            for t, allowed in enumerate(p.allow):
                f = BB_BOARD & ~allowed
                while f:
                    low = f & -f
                    f ^= low
                    column = forbidden.get(low)
                    if column is None:
                        column = forbidden[low] = [0, 0, 0, 0, 0]
                    column[t] |= bit
        self.columns: list[tuple[int, tuple[int, ...]]] = [
            (sq_bit, tuple(everyone & ~c for c in forbidden[sq_bit]))
            for sq_bit in sorted(forbidden, key=lambda b: -sum(x.bit_count() for x in forbidden[b]))
        ]  # the most selective squares first, so the intersection empties early

    def fitting(self, states: tuple[int, int, int, int, int]) -> Iterator[int]:
        """The variants whose every constrained square allows the position's state there."""
        acc = self.everyone
        empty, wm, wk, bm, bk = states
        for bit, column in self.columns:
            if empty & bit:
                acc &= column[0]
            elif wm & bit:
                acc &= column[1]
            elif wk & bit:
                acc &= column[2]
            elif bm & bit:
                acc &= column[3]
            else:
                acc &= column[4]
            if not acc:
                return
        variants = self.variants
        while acc:
            low = acc & -acc
            yield variants[low.bit_length() - 1]
            acc ^= low


_CHUNK = 256
_V = Var("V")


def _query_args(pos: Position) -> tuple[int, int, int, int, int]:
    return (count_key(pos.side, pos.white.bit_count(), pos.black.bit_count()), position_key(pos),
            pos.white, pos.black, pos.kings)


def _classes(ordered: Sequence[Rule]) -> tuple[list[tuple[int, int]], dict[int, list[_Class]]]:
    """The ``kb_exact`` rows (position key, rank) and, per count key, the classes of pattern
    rules whose ranges accept it."""
    exact: list[tuple[int, int]] = []
    by_ranges: dict[tuple, list[tuple[int, Pattern]]] = {}
    for rank, rule in enumerate(ordered):
        p = rule.pattern
        if rule.exact:
            pos = rule.exact_position()
            assert pos is not None
            wn, bn = pos.white.bit_count(), pos.black.bit_count()
            if p.white[0] <= wn <= p.white[1] and p.black[0] <= bn <= p.black[1]:
                exact.append((position_key(pos), rank))
        else:
            by_ranges.setdefault((p.side, p.white, p.black), []).append((rank, p))
    # A class of at most _CHUNK rules keeps its columns small ints: building them stays
    # linear in the number of rules, and a query ANDs a few more, shorter ints.
    cells: dict[int, list[_Class]] = {}
    for (side, (wl, wh), (bl, bh)), members in by_ranges.items():
        for i in range(0, len(members), _CHUNK):
            cls = _Class(members[i:i + _CHUNK])
            for wn in range(wl, wh + 1):
                for bn in range(bl, bh + 1):
                    cells.setdefault(count_key(side, wn, bn), []).append(cls)
    return exact, cells


def _fits_in(groups: Sequence[tuple[_Class, ...]]):
    """``kb_fits(G, W, B, K, R)``: the rules of group G whose board fits the position W, B, K.
    (A closure, not a method: the index's program holds it, and no cycle delays freeing both.)"""
    def fits(group: int | None, white: int | None, black: int | None, kings: int | None,
             _rank: None) -> Iterator[tuple[int, int, int, int, int]]:
        if group is None or white is None or black is None or kings is None:
            return
        states = position_states(Position(white, black, kings, 0))
        for cls in groups[group]:
            for rank in cls.fitting(states):
                yield (group, white, black, kings, rank)

    return fits


class DatalogIndex:
    """The pyDatalog program of one knowledge base: rules in, applicable variants out."""

    def __init__(self, ordered: Sequence[Rule]):
        """``ordered``: the rules in the AI's order (a rule's index is its rank)."""
        exact, cells = _classes(ordered)
        # Each count cell gets the group of classes whose ranges accept it; cells accepting
        # the same classes share one group.
        group_of: dict[tuple[int, ...], int] = {}
        groups: list[tuple[_Class, ...]] = []
        counts: list[tuple[int, int]] = []
        for key, members in cells.items():
            group = tuple(id(c) for c in members)
            if group not in group_of:
                group_of[group] = len(groups)
                groups.append(tuple(members))
            counts.append((key, group_of[group]))
        self._program = Program(_PROGRAM)
        self._program.predicate("kb_fits", 5, _fits_in(groups))
        self._program.assert_facts("kb_exact", exact)
        self._program.assert_facts("kb_count", counts)

    def applicable(self, pos: Position) -> list[int]:
        """The variants whose rule applies to ``pos``, in the AI's order (a pyDatalog query):
        ``2*rank`` for a rule as written, ``2*rank + 1`` for its mirror."""
        at = [(0, *_query_args(pos)), (1, *_query_args(mirror_position(pos)))]
        answers = self._program.ask("kb_answer", _V, given={"kb_at": at})
        return sorted(row[0] for row in answers)
