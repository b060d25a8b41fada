"""The endgame tables: the index, the file, the C's generation against the pure-Python
reference, the consistency pass, and a damaged file refused."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kbdraughts.board import Position
from kbdraughts.egdb import build, reference, store
from kbdraughts.egdb.index import (
    MAX_PIECES, Material, covers, material_of, materials, rank, size, unrank,
)
from kbdraughts.egdb.probe import Database
from kbdraughts.egdb.store import DRAW, LOSS, WIN, Table, TableError
from kbdraughts.native import core
from kbdraughts.notation import parse_fen

native = pytest.mark.skipif(core is None, reason="the native core is not built")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("egdb")


@pytest.fixture(scope="module")
def tables(folder: Path) -> dict[Material, Table]:
    """Every table of up to 3 pieces, built as ``egdb build`` builds them."""
    build.build(3, folder)
    return {m: store.read(store.path_for(folder, m)) for m in materials(3)}


# --- the index ---------------------------------------------------------------------------------


def test_every_position_of_up_to_3_pieces_has_its_own_number() -> None:
    for m in materials(3):
        seen = set()
        for i in range(size(m)):
            pos = unrank(m, i)
            assert covers(pos) and material_of(pos) == m
            assert rank(pos) == i
            seen.add(pos)
        assert len(seen) == size(m)


def test_numbers_are_dense_for_5_pieces() -> None:
    rng = random.Random(21)
    for m in materials(MAX_PIECES):
        for i in [0, size(m) - 1, *rng.sample(range(size(m)), 200)]:
            pos = unrank(m, i)
            assert covers(pos) and material_of(pos) == m and rank(pos) == i
            if core is not None:
                assert core.egdb_index(pos) == i


def test_the_count_of_a_table_is_the_count_of_its_positions() -> None:
    # Two kings and a black man: the man on 28 squares, the kings on the 31 others.
    assert size(Material(0, 2, 1, 0)) == 2 * 28 * (31 * 30 // 2)
    # A man of each side: 28 * 28 placements but the 24 where they share a square.
    assert size(Material(1, 0, 1, 0)) == 2 * (28 * 28 - 24)


def test_a_man_on_its_crowning_rank_is_in_no_table() -> None:
    # parse_fen refuses such a man; a Position built by hand can hold one.
    b8, a1, c3 = 32, 0, 10
    assert not covers(Position(1 << b8, 1 << c3, 0, 0))
    assert not covers(Position(1 << c3, 1 << a1, 0, 0))
    assert covers(Position(1 << b8, 1 << a1, 1 << b8 | 1 << a1, 0))


def test_a_table_comes_after_every_table_it_depends_on() -> None:
    order = materials(MAX_PIECES)
    for n, m in enumerate(order):
        assert all(order.index(s) < n for s in build.sources(m)), m


# --- generation ----------------------------------------------------------------------------------


@native
def test_the_c_and_the_python_reference_make_the_same_tables(tables) -> None:
    # Two roads: the C walks back by un-moves, the reference goes forward over legal moves.
    for m in materials(reference.MAX_PIECES):
        ref = reference.solve(m, {s: tables[s] for s in build.sources(m)})
        assert ref.values == tables[m].values, m
        assert ref.distances == tables[m].distances, m


def test_colours_swapped_give_the_same_counts(tables) -> None:
    for m, t in tables.items():
        assert t.counts() == tables[m.mirrored()].counts(), m


def test_the_consistency_pass_finds_no_fault_up_to_3_pieces(folder, tables) -> None:
    checks = build.verify(3, folder)
    assert [(c.material, c.faults, c.problem) for c in checks if c.faults or c.problem] == []
    assert len(checks) == len(materials(3))
    # The pure-Python pass agrees on the 2-piece tables and one of 3.
    for m in [*materials(2), Material(0, 2, 0, 1)]:
        assert reference.verify(tables[m], tables) == (0, -1), m


def test_the_consistency_pass_finds_a_planted_fault(tables) -> None:
    m = Material(0, 2, 0, 1)
    good = tables[m]
    i = next(i for i in range(size(m)) if good.value(i) == WIN and good.distance(i) > 1)
    bad = Table(m, good.values, bytearray(good.distances))
    bad.distances[i] += 2  # a win longer than its best line
    assert build.consistency(bad, tables)[1] == i
    assert reference.verify(bad, tables)[1] == i
    values = bytearray(good.values)
    values[i >> 2] ^= (WIN ^ DRAW) << ((i & 3) << 1)  # the same win called a draw
    bad = Table(m, values, good.distances)
    faults, first = build.consistency(bad, tables)
    assert faults >= 1 and first <= i


# --- the file ------------------------------------------------------------------------------------


def test_a_table_reads_back_as_written(folder, tables) -> None:
    m = Material(1, 0, 0, 1)
    back = store.read(store.path_for(folder, m))
    assert (back.values, back.distances) == (tables[m].values, tables[m].distances)


@pytest.mark.parametrize("damage, words", [
    (lambda b: b[:-1], "truncated"),
    (lambda b: b + b"\0", "wrong length"),
    (lambda b: b[:60] + bytes([b[60] ^ 1]) + b[61:], "checksum"),
    (lambda b: b"NOTATABL" + b[8:], "not a kbdraughts endgame table"),
    (lambda b: b[:8] + b"\x09\x00" + b[10:], "format version 9"),
    (lambda b: b"", "truncated"),
])
def test_a_damaged_file_is_named_and_refused(tmp_path, tables, damage, words) -> None:
    m = Material(0, 1, 1, 0)
    path = store.write(tmp_path, tables[m])
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(TableError, match=words) as e:
        store.read(path)
    assert str(path) in str(e.value)


def test_a_file_under_another_name_is_refused(tmp_path, tables) -> None:
    path = store.write(tmp_path, tables[Material(0, 1, 1, 0)])
    wrong = store.path_for(tmp_path, Material(1, 0, 0, 1))
    path.rename(wrong)
    with pytest.raises(TableError, match="not what its name says"):
        store.read(wrong)


def test_the_database_ignores_a_damaged_table_and_says_so(tmp_path, tables) -> None:
    m = Material(0, 1, 0, 1)
    path = store.write(tmp_path, tables[m])
    path.write_bytes(path.read_bytes()[:-10])
    notes: list[str] = []
    db = Database(tmp_path, notes.append, auto_pieces=0)
    assert db.probe(parse_fen("W:WKa1:BKh8")) is None
    assert len(notes) == 1 and str(path) in notes[0] and "truncated" in notes[0]


@native
def test_the_database_rebuilds_a_damaged_table_at_first_need(tmp_path, tables) -> None:
    m = Material(0, 1, 0, 1)
    path = store.write(tmp_path, tables[m])
    path.write_bytes(b"\0" * path.stat().st_size)
    notes: list[str] = []
    db = Database(tmp_path, notes.append, auto_pieces=2)
    assert db.probe(parse_fen("W:WKa1:BKh8")) == (LOSS, 2)
    assert "not a kbdraughts endgame table" in notes[0] and "building" in notes[1]
    assert store.read(path).values == tables[m].values


def test_a_build_reads_the_tables_already_whole(folder, tables) -> None:
    reports: list[build.Report] = []
    build.build(3, folder, on_table=reports.append)
    assert not any(r.built for r in reports)
    path = store.path_for(folder, Material(0, 1, 0, 2))
    path.write_bytes(path.read_bytes()[:100])
    reports.clear()
    build.build(3, folder, on_table=reports.append)
    [again] = [r for r in reports if r.built]
    assert again.material == Material(0, 1, 0, 2) and "truncated" in again.damaged
    assert store.read(path).values == tables[Material(0, 1, 0, 2)].values


@native
@pytest.mark.parametrize("call, error", [
    (lambda: core.egdb_solve([0, 1, 0, 1], {}), TypeError),
    (lambda: core.egdb_solve((0, 0, 0, 1), {}), ValueError),
    (lambda: core.egdb_solve((3, 0, 3, 0), {}), ValueError),
    (lambda: core.egdb_solve((0, 1, 1, 0), {(0, 1, 0, 1): b"short"}), ValueError),
    (lambda: core.egdb_solve((1, 1, 1, 1), {}), LookupError),
    (lambda: core.egdb_verify((0, 1, 0, 1), b"", b"", {}), ValueError),
    (lambda: core.egdb_index(Position(1, 0, 0, 0)), ValueError),
])
def test_the_native_face_checks_what_it_is_given(call, error) -> None:
    with pytest.raises(error):
        call()


def test_the_engine_s_database_builds_in_the_background(tmp_path):
    # A move in a timed game never waits for a build: the first probe starts it and answers
    # None (the search decides), the tables answer once it is done.
    from kbdraughts.egdb.probe import Database
    notes: list[str] = []
    db = Database(tmp_path, note=notes.append, auto_pieces=2, background=True)
    pos = parse_fen("W:WKc1:BKa1")
    assert db.probe(pos) is None
    db.wait()
    assert db.probe(pos) is not None and any("building" in n for n in notes)
