"""The sampled check of the tables (issue 21's verification, item 2): positions drawn from a
table agree with an independent exhaustive search to the table's stated distance.

The search is a memoised minimax of its own over board.py's moves: WIN or LOSS for the side to
move when forced within so many plies, else UNDECIDED; a capture or a crowning ends a line with
the value the *other* tables give after it, so the table under test is read only for the claim
being checked. It shares nothing with the solvers (egdb.c's retrograde levels, reference.py's
forward fixed point) but the rules of a conversion. ``csrc/egdb_check.c`` is its native twin
(with its own index of the tables, and a memo of a fixed size); :func:`disagreements` uses it
where the core is built, this module's :class:`Search` otherwise (up to seconds a position of 4
pieces: the native one is for 4 and 5). A draw is searched two plies past the table's longest
win: a win longer than any the table knows would not be seen.

>>> from kbdraughts.egdb import reference
>>> m = Material(0, 1, 0, 1)
>>> table = reference.solve(m, {})
>>> disagreements(table, {}, range(0, size(m), 40), native=False)
[]
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from kbdraughts.board import Position, legal_moves, play
from kbdraughts.egdb.build import checkable, sources
from kbdraughts.egdb.index import Material, materials, size, unrank
from kbdraughts.egdb.reference import converted
from kbdraughts.egdb.store import DRAW, LOSS, WIN, Table
from kbdraughts.native import core as _core

UNDECIDED = 0
NEVER = 1 << 30
#: The farthest the check searches, in plies (egdb_check.c takes no claim nor horizon beyond
#: it): a draw is searched two plies past the table's longest win, so a table whose longest
#: distance is more than MAX_PLIES - 2 is not checked. The tables' longest win is far shorter.
MAX_PLIES = 250
_WITHIN_REACH = bytes(range(MAX_PLIES - 1))  # the distances whose check stays within it
#: Positions the pure search remembers before it forgets them all (a bound on its memory).
MEMO_LIMIT = 1_000_000
#: The native memo's size: 2**bits buckets of three positions (64 bytes), room for every position
#: of the table (the memo holds none of another), at most 2**23 buckets, 512 MiB, for the largest
#: of 5 pieces. Allocated once a call and freed before it returns.
MIN_BUCKET_BITS, MAX_BUCKET_BITS = 10, 23


def bucket_bits(m: Material) -> int:
    """The native memo's size for ``m``'s table: a slot for each of its positions."""
    return max(MIN_BUCKET_BITS, min(MAX_BUCKET_BITS, (-(-size(m) // 3) - 1).bit_length()))


class Search:
    """Whether the side to move wins, or loses, by force within ``plies`` plies: a capture or
    a crowning ends a line with the value ``tables`` give after it. Neither: UNDECIDED (a
    draw, or a decision further away).

    Both questions are monotone in ``plies``: won (lost) within some number, it is so within
    every larger one; not won within some, it was not within any smaller one (by induction on
    plies: a conversion's value does not depend on them). So the memo keeps, per question and
    position, the fewest plies at which it held and the most at which it did not, and answers
    every number outside that gap without a search."""

    def __init__(self, tables: Mapping[Material, Table]) -> None:
        self.tables = tables
        #: (question, position) -> [fewest plies where it held (NEVER: none), 1 + most where
        #: it did not (0: none)]
        self.memo: dict[tuple[int, Position], list[int]] = {}

    def __call__(self, pos: Position, plies: int) -> int:
        """WIN, LOSS or UNDECIDED within ``plies``."""
        return WIN if self.won(pos, plies) else LOSS if self.lost(pos, plies) else UNDECIDED

    def won(self, pos: Position, plies: int) -> bool:
        """A move after which the opponent is lost within ``plies - 1``."""
        return self._proved(WIN, pos, plies)

    def lost(self, pos: Position, plies: int) -> bool:
        """No move, or every move leads to the opponent's win within ``plies - 1``."""
        return self._proved(LOSS, pos, plies)

    def _recall(self, kind: int, pos: Position, plies: int) -> bool | None:
        """What the memo knows of the question within ``plies``: None when nothing."""
        known = self.memo.get((kind, pos)) if plies > 0 else None
        if known is None:
            return None
        return True if plies >= known[0] else False if plies < known[1] else None

    def _proved(self, kind: int, pos: Position, plies: int) -> bool:
        known = self._recall(kind, pos, plies)
        if known is not None:
            return known
        moves = legal_moves(pos)
        if not moves:
            return kind == LOSS
        if plies <= 0:
            return False
        # won: some move leads to a child lost; lost: every move leads to a child won. What
        # the memo and the tables know of the children is asked first: it may decide at once.
        child_kind, deciding = (LOSS, True) if kind == WIN else (WIN, False)
        children = [(play(pos, move), bool(move.captured or move.crowned)) for move in moves]
        decided = any((converted(child, self.tables) == child_kind if converts
                       else self._recall(child_kind, child, plies - 1)) == deciding
                      for child, converts in children)
        if not decided:  # a conversion was known in the first pass, and decided not
            decided = any(not converts and self._proved(child_kind, child, plies - 1) == deciding
                          for child, converts in children)
        result = deciding if decided else not deciding
        self._remember(kind, pos, plies, result)
        return result

    def _remember(self, kind: int, pos: Position, plies: int, result: bool) -> None:
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        known = self.memo.setdefault((kind, pos), [NEVER, 0])
        if result:
            known[0] = min(known[0], plies)
        else:
            known[1] = max(known[1], plies + 1)


def agrees(search: Search, pos: Position, value: int, plies: int, horizon: int) -> bool:
    """Whether the search finds ``value`` in exactly ``plies`` plies (a draw: nothing forced
    within ``horizon``)."""
    if value == DRAW:
        return not search.won(pos, horizon) and not search.lost(pos, horizon)
    proved = search.won if value == WIN else search.lost
    return proved(pos, plies) and (plies == 0 or not proved(pos, plies - 1))


def horizon(table: Table) -> int:
    """How far a draw is searched: two plies past the table's longest win."""
    return max(table.distances, default=0) + 2


def beyond_reach(longest: int) -> str:
    """What to say of a table whose longest distance the check does not reach."""
    return (f"its longest distance, {longest} plies, is beyond the {MAX_PLIES - 2} the check "
            "searches: a damaged table? (kbdraughts egdb verify checks every position)")


def sample(m: Material, n: int, seed: int) -> list[int]:
    """``n`` indices of ``m``'s table drawn at random (all of them when it has fewer), the same
    for the same seed."""
    total = size(m)
    if total <= n:
        return list(range(total))
    return sorted(random.Random(f"{seed}:{m.name}").sample(range(total), n))


def disagreements(table: Table, tables: Mapping[Material, Table], indices: Iterable[int],
                  native: bool | None = None) -> list[int]:
    """The indices among ``indices`` whose value and distance in ``table`` the search does not
    find. ``tables`` holds (at least) the tables ``table``'s conversions lead to; only their
    values are read. ``native``: the C search (default: where the core is built)."""
    m, indices = table.material, list(indices)
    others = {s: tables[s] for s in sources(m)}  # KeyError: a table it needs is not given
    n = size(m)
    if len(table.distances) != n or len(table.values) != (n + 3) // 4:
        raise ValueError(f"{m.name}: a table without its distances cannot be checked")
    if any(len(t.values) != (size(s) + 3) // 4 for s, t in others.items()):
        raise ValueError(f"{m.name}: a table it reads has the wrong length")
    if any(not 0 <= i < n for i in indices):
        raise IndexError(f"{m.name}: an index outside 0..{n - 1}")
    reach = horizon(table)
    if reach > MAX_PLIES:
        raise ValueError(f"{m.name}: {beyond_reach(reach - 2)}")
    if native is None:
        native = _core is not None
    if native:
        if _core is None:
            raise RuntimeError("the native core is not built")
        positions = [unrank(m, i) for i in indices]
        claims = [(table.value(i), table.distance(i)) for i in indices]
        verdicts = _core.egdb_check(tuple(m), positions, claims,
                                    {tuple(s): t.values for s, t in others.items()}, reach,
                                    bucket_bits(m))
        return [i for i, ok in zip(indices, verdicts) if not ok]
    search = Search(others)
    return [i for i in indices
            if not agrees(search, unrank(m, i), table.value(i), table.distance(i), reach)]


@dataclass(frozen=True)
class Sampled:
    """What :func:`check_folder` found in one table."""

    material: Material
    checked: int
    wrong: list[int] = field(default_factory=list)  # indices that disagree
    seconds: float = 0.0
    #: why it was not checked: it, or a table it depends on, is missing, damaged or unreadable,
    #: or its distances are beyond the check's reach
    problem: str = ""
    first_claim: tuple[int, int] | None = None  # the table's (value, distance) of wrong[0]


def check_folder(pieces: int, n: int, seed: int, folder: Path,
                 on_table: Callable[[Sampled], None] | None = None,
                 native: bool | None = None) -> list[Sampled]:
    """``n`` positions of every table of 2..``pieces`` pieces in ``folder`` (all of a table
    with fewer) against the search."""
    tables: dict[Material, Table] = {}
    done = []
    for m in materials(pieces):
        start = time.perf_counter()
        table, why = checkable(folder, m, tables)
        if table is None:
            result = Sampled(m, 0, problem=why)
        else:
            # Whole (its checksum): the tables after it read its values, checked or not.
            tables[m] = Table(m, table.values, b"")
            result = _check_one(table, tables, sample(m, n, seed), native, start)
        done.append(result)
        if on_table:
            on_table(result)
    return done


def _check_one(table: Table, tables: Mapping[Material, Table], indices: list[int],
               native: bool | None, start: float) -> Sampled:
    m = table.material
    # The distances past the check's reach, found at C speed (a max() over 60 MB takes 1 s).
    if over := table.distances.translate(None, _WITHIN_REACH):
        return Sampled(m, 0, problem=beyond_reach(max(over)))
    wrong = disagreements(table, tables, indices, native)
    first = (table.value(wrong[0]), table.distance(wrong[0])) if wrong else None
    return Sampled(m, len(indices), wrong, time.perf_counter() - start, first_claim=first)


__all__ = ["Search", "agrees", "disagreements", "check_folder", "sample", "horizon",
           "UNDECIDED", "WIN", "LOSS", "DRAW"]
