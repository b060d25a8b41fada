"""Fuzzing the native core's C API with hostile arguments: bitboards off the board, overlapping
or crowded sides, squares out of range, huge and negative numbers, wrong types, objects whose
``__index__``, ``__float__`` or ``__bool__`` raise or change the sequence being read. Every
call returns or raises a Python exception; where the core accepts a position or a move, it
answers as the pure-Python reference does. Seeded and bounded (a few seconds). CI runs it under
AddressSanitizer and UBSan (tools/sanitize.py), where a bad read or write ends the run.
"""

from __future__ import annotations

import random

import pytest

from kbdraughts import native
from kbdraughts.board import BB_BOARD, START, Move, Position, legal_moves
from kbdraughts.game import random_walk
from pure import pure_modules

pytestmark = pytest.mark.skipif(native.core is None, reason=f"no native core: {native.why_pure}")

#: What a hostile argument may raise: anything else (or a crash) fails.
CLEAN = (ValueError, TypeError, OverflowError, RuntimeError, LookupError, ZeroDivisionError)


class Boom(Exception):
    """Raised by the hostile objects' hooks: the core must pass it on."""


class Hostile:
    """An int-like object whose hooks return ``value``, raise, or empty ``victim`` first."""

    def __init__(self, value: int, victim: list | None = None, explode: bool = False):
        self.value, self.victim, self.explode = value, victim, explode

    def _hook(self):
        if self.victim is not None:
            self.victim.clear()
        if self.explode:
            raise Boom
        return self.value

    def __index__(self) -> int:
        return self._hook()

    def __float__(self) -> float:
        return float(self._hook())

    def __bool__(self) -> bool:
        return bool(self._hook())


class Fuzzer:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.positions: list[Position] = [START]
        while len(self.positions) < 400:
            self.positions.extend(random_walk(self.rng, self.rng.randint(1, 120)))

    def number(self, victim: list | None = None):
        r = self.rng
        return r.choice([
            lambda: r.randint(-3, 40), lambda: r.getrandbits(64), lambda: -r.getrandbits(70),
            lambda: 1 << r.randint(30, 200), lambda: BB_BOARD & r.getrandbits(36),
            lambda: 1 << r.choice((4, 13, 22, 31, 36, 63)), lambda: r.random() * 40,
            lambda: None, lambda: "12", lambda: True, lambda: (),
            lambda: Hostile(r.randint(0, 35), victim, r.random() < 0.3),
        ])()

    def position(self, victim: list | None = None):
        """A legal position, one with a field made hostile, or a crowded or junk one."""
        r = self.rng
        pos = r.choice(self.positions)
        kind = r.randrange(6)
        if kind <= 1:
            return pos
        if kind == 2:
            fields = list(pos)
            fields[r.randrange(4)] = self.number(victim)
            return Position(*fields) if r.random() < 0.8 else tuple(fields)
        if kind == 3:  # more pieces than a side can have, or sides that overlap
            squares = [s for s in range(36) if BB_BOARD >> s & 1]
            r.shuffle(squares)
            nw, nb = r.randint(0, 20), r.randint(0, 20)
            white = sum(1 << s for s in squares[:nw])
            black = sum(1 << s for s in squares[nw - r.randint(0, 2):nw - r.randint(0, 2) + nb])
            return Position(white, black, (white | black) & r.getrandbits(36), r.randint(0, 1))
        if kind == 4:
            return Position(*(self.number(victim) for _ in range(4)))
        return r.choice([list(pos), pos[:3], (*pos, 0), None, "W:Wa1:Bh8", 7])

    def move(self, pos, victim: list | None = None):
        r = self.rng
        legal = legal_moves(pos) if isinstance(pos, Position) and _accepted(pos) else []
        if legal and r.random() < 0.4:
            return r.choice(legal)
        base = list(r.choice(legal) if legal else Move(9, 14, 0, (14,), False))
        base[r.randrange(5)] = self.number(victim)
        return Move(*base) if r.random() < 0.8 else r.choice([tuple(base), base[:4], base])

    def sequence(self, make):
        """A list of a few items from make(victim), the list itself their victim."""
        items: list = []
        items.extend(make(items if self.rng.random() < 0.3 else None)
                     for _ in range(self.rng.randint(0, 6)))
        return self.rng.choice([items, tuple(items), iter(items), items, 5])

    def spoiled(self, items: list) -> list:
        """``items`` (tuples of ints: moves, positions, claims) with one field of an early
        one made a Hostile that empties the list when read and gives the field's value, so
        that the reader goes on to the items it no longer has."""
        i = self.rng.randrange(min(3, len(items))) if items else 0
        item = items[i] if items else None
        ints = [k for k, v in enumerate(item) if type(v) in (int, bool)] \
            if isinstance(item, tuple) else []
        if ints:
            fields = list(item)
            f = self.rng.choice(ints)
            fields[f] = Hostile(fields[f], items, explode=self.rng.random() < 0.1)
            items[i] = tuple(fields) if type(item) is tuple else type(item)(*fields)
        return items


def _accepted(pos) -> bool:
    try:
        native.core.count_moves(pos)
    except CLEAN:
        return False
    return True


def call(f, *args, **kw):
    """f's answer, or None when it raised a clean exception (a Boom passed on counts)."""
    try:
        return f(*args, **kw)
    except Boom:
        return None
    except CLEAN as e:
        assert str(e), f"{f.__name__}: an exception without a message"
        return None


@pytest.fixture(scope="module")
def board():
    (pure_board,) = pure_modules("kbdraughts.board")
    return pure_board


def test_the_position_doors_on_hostile_positions(board):
    fz, core = Fuzzer(1), native.core
    for _ in range(20_000):
        pos = fz.position()
        moves = call(core.legal_moves, pos)
        if moves is not None and all(type(x) is int for x in pos):
            # what the core accepts, it answers as the reference does
            assert moves == board.legal_moves(pos)
            assert call(core.count_moves, pos) == len(moves)
        for f in (core.captures, core.quiet_moves, core.other_features, core.men_sums,
                  core.egdb_index, core.egdb_check_rank):
            call(f, pos)
        call(core.perft, pos, fz.rng.choice([-1, 0, 1, 2, 10**30, "2"]))
        call(core.resolve, pos, fz.rng.choice([0, 1, -1, 2**40]), fz.rng.choice([-5, 0, 1, 65]),
             fz.rng.choice([0, 1, 500, -1, 2**70]))


def test_play_on_hostile_moves(board):
    fz, core = Fuzzer(2), native.core
    for _ in range(20_000):
        pos = fz.position() if fz.rng.random() < 0.3 else fz.rng.choice(fz.positions)
        after = call(core.play, pos, fz.move(pos))
        if after is not None:  # a move it plays leaves a position it accepts
            assert _accepted(after), after


def kings_apart(rng: random.Random) -> Position:
    """A white king and a black king: a position of the smallest endgame table."""
    w, b = rng.sample([s for s in range(36) if BB_BOARD >> s & 1], 2)
    return Position(1 << w, 1 << b, 1 << w | 1 << b, rng.randint(0, 1))


def test_the_searcher_on_hostile_arguments():
    fz, core = Fuzzer(3), native.core
    rng = fz.rng
    searcher = core.Searcher(core.Evaluator(material=True), 1 << 8)
    values, distances = core.egdb_solve((0, 1, 0, 1), {})
    for _ in range(3000):
        pos = kings_apart(rng) if rng.random() < 0.2 else fz.position()
        moves = fz.sequence(lambda victim: fz.move(pos, victim))
        if rng.random() < 0.5 and _accepted(pos):
            moves = fz.spoiled(legal_moves(pos)) if rng.random() < 0.5 else legal_moves(pos)
            moves = moves or [Move(9, 14, 0, (14,), False)]
        history = rng.choice([None, fz.sequence(fz.position),
                              fz.spoiled([rng.choice(fz.positions) for _ in range(30)])])
        counters = rng.choice([(0, 0)] * 4 + [(5, 2**40), (-1, 0), (2**20, 2**20), (0,)])
        depth = rng.choice([0, 1, 2, 3] * 3 + [-1, 201, 2**40])
        found = call(searcher.search, pos, moves, depth,
                     rng.choice([-1.0, 0.0, 0.01, float("nan"), float("inf")]), history,
                     counters, bool(rng.getrandbits(1)))
        if found is not None:  # (index of the best move, score, depth, complete, nodes)
            assert found[0] >= 0 and 0 <= found[2] <= depth
        call(searcher.probe, pos)
        tables = rng.choice([{(0, 1, 0, 1): (values, distances)}, {}, 3,
                             {(0, 1, 0, 1): (values, distances[1:])},
                             {fz.number(): (values, distances)}])
        call(searcher.set_tables, tables)
    call(searcher.line)


def test_the_evaluator_on_hostile_rows():
    fz, core = Fuzzer(4), native.core
    rng = fz.rng
    zeros = tuple((0,) * 512 for _ in range(4))  # weights are whole hundredths

    def sometimes(fine, p=0.05):
        return fz.number() if rng.random() < p else fine

    for _ in range(3000):
        weights = [sometimes(100) for _ in range(13)]
        if rng.random() < 0.2:
            weights[rng.randrange(3)] = Hostile(1, weights)
        row = (sometimes(50), (sometimes(0),), sometimes(zeros), zeros, weights)
        features = fz.sequence(fz.number) if rng.random() < 0.1 else [sometimes(1)]
        patterns = sometimes([((1, 0, 0, 0, 0), (0, 0, 0, 0, sometimes(2)))], 0.1)
        regions = sometimes([([0, 1], [35, sometimes(34)], [sometimes(0)] * 9)], 0.1)
        ev = call(core.Evaluator, [row, row], features, patterns=patterns,
                  pattern_weights=[[100], [sometimes(100)]], regions=regions,
                  region_rows=[[True], [sometimes(False)]])
        if ev is not None:
            call(ev.evaluate, fz.position())


def test_the_endgame_doors_on_hostile_materials_and_tables():
    fz, core = Fuzzer(5), native.core
    rng = fz.rng
    solved = core.egdb_solve((0, 1, 0, 1), {})
    for _ in range(2000):
        material = rng.choice([(0, 1, 0, 1)] * 3 + [(1, 0, 0, 1), (0, 1, 0, 0), (9, 9, 9, 9),
                                                    (-1, 2, 0, 1), (fz.number(), 1, 0, 1)])
        tables = rng.choice([{}, {(0, 1, 0, 1): solved[0]}, {fz.number(): b"\0" * 16},
                             {(0, 1, 0, 1): fz.number()}, {(0, 2, 0, 1): b""}, [1]])
        if material in ((0, 1, 0, 1), (1, 0, 0, 1)):  # small enough to solve at once
            call(core.egdb_solve, material, tables)
        call(core.egdb_verify, material, *rng.choice([solved, (solved[0], b"")]), tables)
        positions = [kings_apart(rng) if rng.random() < 0.9 else fz.position()
                     for _ in range(rng.randint(0, 5))]
        claims = [(sometimes_claim(rng), rng.choice([0, 1, 2, 300])) for _ in positions]
        if rng.random() < 0.1:
            claims.append((1, 0))
        if rng.random() < 0.3:
            fz.spoiled(rng.choice([positions, claims]))
        call(core.egdb_check, material, positions, claims,
             rng.choice([{}, {(0, 1, 0, 1): solved[0]}, tables if isinstance(tables, dict)
                          else {}]), rng.choice([0, 4, 4, 999]), rng.choice([4, 4, 0, 27]))


def sometimes_claim(rng: random.Random) -> int:
    """A claim's value: WIN, LOSS or DRAW (1 to 3), now and then none of them."""
    return rng.choice([1, 2, 3, 3, 0, 4])
