"""The sampled check of the tables (egdb/check.py and its twin csrc/egdb_check.c): the tables
agree with an exhaustive search to their stated distance, a wrong claim is refused, and the C
finds what the Python finds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kbdraughts.board import Position, legal_moves, play
from kbdraughts.egdb import build, check, reference, store
from kbdraughts.egdb.index import MAX_PIECES, Material, materials, rank, size, unrank
from kbdraughts.egdb.store import DRAW, LOSS, WIN, Table
from kbdraughts.native import core
from kbdraughts.notation import parse_fen

native = pytest.mark.skipif(core is None, reason="the native core is not built")
BOTH = [pytest.param(False, id="pure"), pytest.param(True, id="native", marks=native)]
#: Positions sampled per material of 3 pieces (the 2-piece tables are checked whole).
SAMPLES = 2000
#: Positions sampled per material of 4 pieces in CI: issue 21's figure (all 25 tables in some
#: 10 s of CPU on the native core).
SAMPLES_4 = 2000


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[Material, Table]:
    folder: Path = tmp_path_factory.mktemp("egdb")
    build.build(3, folder)
    return {m: store.read(store.path_for(folder, m)) for m in materials(3)}


def _swap(byte: int) -> int:
    fields = [byte >> (2 * k) & 3 for k in range(4)]
    return sum({WIN: LOSS, LOSS: WIN}.get(v, v) << (2 * k) for k, v in enumerate(fields))


#: A byte of packed values with every win a loss and every loss a win.
SWAP_WINS = bytes(_swap(b) for b in range(256))


def claims_around(table: Table, i: int) -> list[tuple[int, int]]:
    """The table's claim for position i and wrong ones beside it: other values, other
    distances."""
    value, plies = table.value(i), table.distance(i)
    wrong = [(v, d) for v in (WIN, LOSS, DRAW) for d in (0, 1, plies - 1, plies + 1, plies + 2)
             if d >= 0 and (v, d) != (value, plies) and not (v == DRAW and value == DRAW)]
    return [(value, plies), *wrong]


# --- the tables against the search ------------------------------------------------------------


@pytest.mark.parametrize("m", materials(3), ids=lambda m: m.name)
def test_the_tables_agree_with_an_exhaustive_search(tables, m: Material) -> None:
    # The pure search, the reference, on the tables the pure solver can build too.
    wrong = check.disagreements(tables[m], tables, check.sample(m, SAMPLES, 21), native=False)
    assert wrong == [], f"{len(wrong)} disagree, first index {wrong[:1]}"


def plain(pos: Position, plies: int, tables: dict[Material, Table]) -> int:
    """The search's definition, without a memo or a shortcut: the minimax of every line."""
    moves = legal_moves(pos)
    if not moves:
        return LOSS
    if plies <= 0:
        return check.UNDECIDED
    results = [reference.converted(play(pos, m), tables) if m.captured or m.crowned
               else plain(play(pos, m), plies - 1, tables) for m in moves]
    if LOSS in results:
        return WIN
    return LOSS if all(v == WIN for v in results) else check.UNDECIDED


def test_the_memo_answers_as_the_plain_minimax_does(tables) -> None:
    # The memo keeps bounds per position, not answers per depth: asked in a random order of
    # depths, it must still answer every question as the minimax without it.
    rng, seen = random.Random(8), set()
    for m in (Material(0, 2, 0, 1), Material(1, 1, 0, 1), Material(2, 0, 0, 1),
              Material(0, 1, 2, 0)):
        search = check.Search({s: tables[s] for s in build.sources(m)})
        questions = [(unrank(m, i), plies) for i in rng.sample(range(size(m)), 20)
                     for plies in range(5)]
        rng.shuffle(questions)
        found = [search(pos, plies) for pos, plies in questions]
        assert found == [plain(pos, plies, tables) for pos, plies in questions]
        seen.update(found)
    assert seen == {WIN, LOSS, check.UNDECIDED}


@pytest.mark.parametrize("native_search", BOTH)
def test_the_search_refuses_a_wrong_claim(tables, native_search: bool) -> None:
    # The check is worth something only if a wrong value or distance fails it.
    m = Material(2, 0, 0, 1)
    table = tables[m]
    indices = range(0, size(m), 97)
    wrong = bytearray(table.distances)
    values = bytearray(table.values)
    for i in indices:
        if table.value(i) == DRAW:  # claimed won in 1 instead
            values[i >> 2] ^= (DRAW ^ WIN) << ((i & 3) << 1)
            wrong[i] = 1
        else:
            wrong[i] += 2
    liar = Table(m, bytes(values), bytes(wrong))
    assert check.disagreements(liar, tables, indices, native_search) == list(indices)
    assert check.disagreements(table, tables, indices, native_search) == []


@pytest.mark.parametrize("native_search", BOTH)
def test_a_damaged_table_after_a_conversion_is_seen(tables, native_search: bool) -> None:
    # The check reads the other tables through an index of its own: a table it reads with
    # wins and losses swapped makes the positions that convert into it disagree.
    m = Material(1, 1, 0, 1)
    swapped = {k: Table(k, t.values.translate(SWAP_WINS), t.distances) if k != m else t
               for k, t in tables.items()}
    indices = check.sample(m, 300, 3)
    assert check.disagreements(tables[m], tables, indices, native_search) == []
    assert len(check.disagreements(tables[m], swapped, indices, native_search)) > 50


@native
@pytest.mark.parametrize("m", [m for m in materials(3) if m.pieces == 3], ids=lambda m: m.name)
def test_the_c_search_finds_what_the_python_search_finds(tables, m: Material) -> None:
    table = tables[m]
    others = {tuple(s): tables[s].values for s in build.sources(m)}
    search = check.Search({s: tables[s] for s in build.sources(m)})
    reach = check.horizon(table)
    positions, claims = [], []
    for i in check.sample(m, 40, 5):
        for claim in claims_around(table, i):
            positions.append(unrank(m, i))
            claims.append(claim)
    verdicts = core.egdb_check(tuple(m), positions, claims, others, reach, 12)
    expected = [check.agrees(search, pos, *claim, reach) for pos, claim in zip(positions, claims)]
    assert list(map(bool, verdicts)) == expected
    assert sum(expected) == 40  # the table's own claims, and no other


@native
def test_the_c_ranks_a_position_as_the_index_does() -> None:
    rng = random.Random(21)
    for m in materials(MAX_PIECES):
        for i in rng.sample(range(size(m)), 50):
            pos = unrank(m, i)
            assert core.egdb_check_rank(pos) == rank(pos) == i


@native
def test_every_4_piece_table_agrees_with_the_search(_built_tables: Path) -> None:
    seen = check.check_folder(4, SAMPLES_4, 2026, _built_tables)
    assert [s.material for s in seen] == materials(4)
    assert all(not s.problem for s in seen), [s.problem for s in seen if s.problem]
    assert sum(s.checked for s in seen) == sum(min(size(m), SAMPLES_4) for m in materials(4))
    assert [s.material.name for s in seen if s.wrong] == []


# --- what the check refuses to be given -------------------------------------------------------


def test_the_tables_a_conversion_needs_must_be_given(tables) -> None:
    m = Material(1, 1, 0, 1)
    without = {k: t for k, t in tables.items() if k != Material(0, 1, 0, 1)}
    with pytest.raises(KeyError):
        check.disagreements(tables[m], without, [0])
    with pytest.raises(IndexError):
        check.disagreements(tables[m], tables, [size(m)])
    with pytest.raises(ValueError, match="without its distances"):
        check.disagreements(Table(m, tables[m].values, b""), tables, [0])


@native
def test_the_c_check_refuses_what_python_would_not_give_it(tables) -> None:
    m = Material(1, 1, 0, 1)
    others = {tuple(s): tables[s].values for s in build.sources(m)}
    pos = parse_fen("W:Wc3,Kh8:BKd4")  # c3:e5 at once: a conversion
    assert core.egdb_check(tuple(m), [pos], [(WIN, 1)], others, 10, 10) == b"\x01"
    bad = [
        ("table under test", (tuple(m), [pos], [(WIN, 1)], {**others, tuple(m): b""}, 10, 10)),
        ("wrong length", (tuple(m), [pos], [(WIN, 1)], {**others, (0, 1, 0, 1): b"\0"}, 10, 10)),
        ("table's material", (tuple(m), [parse_fen("W:WKc3:BKd6")], [(DRAW, 0)], others, 10,
                              10)),
        ("a claim is", (tuple(m), [pos], [(0, 1)], others, 10, 10)),
        ("a claim is", (tuple(m), [pos], [(WIN, 251)], others, 10, 10)),
        ("a claim per position", (tuple(m), [pos, pos], [(WIN, 1)], others, 10, 10)),
        ("horizon", (tuple(m), [pos], [(WIN, 1)], others, 300, 10)),
        ("bits", (tuple(m), [pos], [(WIN, 1)], others, 10, 40)),
        ("not the material of a table", ((9, 0, 0, 1), [pos], [(WIN, 1)], others, 10, 10)),
    ]
    for words, args in bad:
        with pytest.raises(ValueError, match=words):
            core.egdb_check(*args)
    crowning = parse_fen("W:Wg7,Kh2:BKb8")  # a crowning into 2 kings v 1, not given
    with pytest.raises(LookupError, match="not given"):
        core.egdb_check(tuple(m), [crowning], [(WIN, 1)], {}, 10, 10)
