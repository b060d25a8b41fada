"""Building and checking the tables of a folder, material by material in dependency order.

A table is solved once the tables its conversions lead to are at hand (:func:`sources`), so
:func:`build` walks :func:`index.materials`' order and keeps each table it builds or reads; a
table already on disk and whole is read, not built again, so a stopped build resumes where it
stopped. The native core solves (``csrc/egdb.c``); without it the pure-Python reference does,
for at most :data:`reference.MAX_PIECES` pieces.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

from kbdraughts.egdb import reference, store
from kbdraughts.egdb.index import Material, materials, size
from kbdraughts.egdb.store import Table, TableError
from kbdraughts.native import core as _core
from kbdraughts.resources import data_dir


def default_folder() -> Path:
    """``$XDG_DATA_HOME/kbdraughts/egdb``."""
    return data_dir() / "egdb"


def sources(m: Material) -> list[Material]:
    """The tables ``m``'s conversions can lead to: every material with fewer pieces that each
    side can still have (a side may lose pieces, and a man may become a king), and the two
    crownings without a capture."""
    out = [c for c in materials(m.pieces - 1) if _reachable(m, c)]
    crowned = [Material(m.wm - 1, m.wk + 1, m.bm, m.bk), Material(m.wm, m.wk, m.bm - 1, m.bk + 1)]
    return out + [c for c in crowned if min(c) >= 0]


def _reachable(m: Material, c: Material) -> bool:
    # Men only become kings or go; so a side's men never grow, nor its men and kings together.
    return (c.wm <= m.wm and c.wm + c.wk <= m.wm + m.wk
            and c.bm <= m.bm and c.bm + c.bk <= m.bm + m.bk)


def native_solves() -> bool:
    return _core is not None


#: What a first build takes, as a person is told before it: measured on a 2-core machine
#: shared with other work, the native core's 4 pieces in 7 s of processor time (15 s by the
#: clock), the pure path's 3 pieces in 23 s (40 to 67 s by the clock).
BUILD_TIME = {True: "about 15 seconds", False: "about a minute"}


def build_time_words() -> str:
    """How long the first build of the default tables takes here, in words."""
    return BUILD_TIME[native_solves()]


def solve(m: Material, tables: dict[Material, Table]) -> Table:
    """``m``'s table from the tables of its :func:`sources` (in ``tables``)."""
    needed = {s: tables[s] for s in sources(m)}
    if _core is None:
        if m.pieces > reference.MAX_PIECES:
            raise RuntimeError(f"tables of {m.pieces} pieces need the native core "
                               "(kbdraughts --version says why it does not run)")
        return reference.solve(m, needed)
    values, distances = _core.egdb_solve(tuple(m), {tuple(s): t.values
                                                    for s, t in needed.items()})
    return Table(m, bytes(values), bytes(distances))


@dataclass(frozen=True)
class Report:
    """What :func:`build` did with one table."""

    material: Material
    table: Table
    seconds: float
    built: bool  # False: read from disk, already whole
    damaged: str = ""  # why the file on disk was not trusted, when it was not
    #: why the table was not written: what stands in its place cannot be read or replaced
    #: (a folder, a FIFO, a file without permission); left as it is
    left: str = ""


class Loaded(NamedTuple):
    """A table as :func:`load` found it: the table, or why not."""

    table: Table | None
    why: str = ""  # why there is no table, "PATH: reason"; "" when it is simply missing
    #: there but not read (no permission, not a regular file, an I/O error): a build leaves
    #: it as it is, where it replaces a damaged one
    unreadable: bool = False

    def words(self, pieces: int) -> str:
        """Why the table (of ``pieces`` pieces) is not used, for a person ("" when it is
        whole or missing)."""
        if not self.why:
            return ""
        if self.unreadable:
            return f"cannot be read: {self.why}"
        return (f"is not trusted: {self.why} (kbdraughts egdb build --pieces {pieces} builds "
                "it again)")


def load(folder: Path, m: Material) -> Loaded:
    """The table of ``m`` in ``folder`` when it is there and whole; else None and why not."""
    path = store.path_for(folder, m)
    try:
        return Loaded(store.read(path))
    except FileNotFoundError:
        return Loaded(None)
    except TableError as e:
        return Loaded(None, str(e))
    except OSError as e:
        return Loaded(None, f"{path}: {e.strerror or e}", unreadable=True)


def build(pieces: int, folder: Path | None = None, force: bool = False,
          on_table: Callable[[Report], None] | None = None) -> None:
    """Every table of 2..``pieces`` pieces in ``folder``: read when whole (unless ``force``),
    else solved and written; ``on_table`` hears of each as it is done. A file that cannot be
    read or replaced is left as it is (said in its report): the tables after it are built
    from the one solved in memory."""
    folder = folder or default_folder()
    sources_at_hand: dict[Material, Table] = {}
    for m in materials(pieces):
        start = time.perf_counter()
        if force:
            blocked = store.not_a_file(store.path_for(folder, m))
            found = Loaded(None, blocked, unreadable=bool(blocked))
        else:
            found = load(folder, m)
        table = found.table
        if table is None:
            table = solve(m, sources_at_hand)
            if not found.unreadable:
                store.write(folder, table)
        if on_table:
            left = found.why if found.unreadable else ""
            on_table(Report(m, table, time.perf_counter() - start, found.table is None,
                            "" if left else found.why, left))
        # A conversion reads only the values: the distances (4/5 of a table) are let go.
        sources_at_hand[m] = Table(m, table.values, b"")


@dataclass(frozen=True)
class Check:
    """What :func:`verify` found in one table."""

    material: Material
    faults: int  # positions whose value or distance does not follow from their successors'
    first: int  # the first of them, or -1
    problem: str = ""  # the table is missing or damaged: not checked


def verify(pieces: int, folder: Path | None = None,
           on_table: Callable[[Check], None] | None = None) -> list[Check]:
    """The consistency pass over every table of 2..``pieces`` pieces in ``folder``."""
    folder = folder or default_folder()
    tables: dict[Material, Table] = {}
    checks = []
    for m in materials(pieces):
        table, why = checkable(folder, m, tables)
        if table is None:
            check = Check(m, 0, -1, why)
        else:
            check = Check(m, *consistency(table, tables))
            tables[m] = Table(m, table.values, b"")  # its sources need only the values
        checks.append(check)
        if on_table:
            on_table(check)
    return checks


def checkable(folder: Path, m: Material,
              tables: dict[Material, Table]) -> tuple[Table | None, str]:
    """``m``'s table when it can be checked: it is whole, and so are the tables it depends on
    (those in ``tables``); else None and why not."""
    table, why, _ = load(folder, m)
    if table is None:
        return None, why or f"{store.path_for(folder, m)}: missing"
    if any(s not in tables for s in sources(m)):
        return None, "a table it depends on is missing, damaged or unreadable"
    return table, ""


def consistency(table: Table, tables: dict[Material, Table]) -> tuple[int, int]:
    """(faults, first faulty index or -1) of one table against its sources in ``tables`` (of
    which only the values are read)."""
    m = table.material
    if _core is None:
        return reference.verify(table, {s: tables[s] for s in sources(m)})
    return _core.egdb_verify(tuple(m), table.values, table.distances,
                             {tuple(s): tables[s].values for s in sources(m)})


def disk_bytes(pieces: int) -> int:
    """The bytes the tables of up to ``pieces`` pieces take on disk (headers aside)."""
    return sum((size(m) + 3) // 4 + size(m) for m in materials(pieces))
