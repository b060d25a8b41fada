"""Table files that are not what they should be (issue "defects", items 13 and 22): a file far
longer than its header says, a FIFO or a folder in a table's place, a table that cannot be
read, distances beyond what the sampled check searches. Each is named and refused, the others
go on being used; nothing blocks, nothing is read past the header's length, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kbdraughts.cli import main
from kbdraughts.egdb import build, store
from kbdraughts.egdb.index import Material, materials
from kbdraughts.egdb.probe import Database, describe
from kbdraughts.egdb.store import Table, TableError
from kbdraughts.notation import parse_fen
from test_egdb_cli import built, folder  # noqa: F401 (fixtures: the tables of up to 3 pieces)

KK = Material(0, 1, 0, 1)  # the first table: every other depends on it
#: A generous bound for a command that must end promptly (it hung for ever before).
HANG_S = 60


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``kbdraughts ARGS`` in a process of its own, stopped if it hangs (TimeoutExpired)."""
    return subprocess.run([sys.executable, "-m", "kbdraughts.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=HANG_S, env=os.environ.copy())


# --- a file longer than its header says --------------------------------------------------------


def test_a_file_longer_than_its_header_says_is_refused_unread(folder: Path) -> None:
    """4 GiB past the table (a sparse file: no disk), read under a 1 GiB address space: the
    length is judged from the header and the file's size before the payload is read."""
    path = store.path_for(folder, KK)
    length = path.stat().st_size
    os.truncate(path, length + 4 * 2**30)
    code = textwrap.dedent(f"""
        import resource, sys
        from pathlib import Path
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
        from kbdraughts.egdb import store
        try:
            store.read(Path({str(path)!r}))
        except store.TableError as e:
            print(e)
        """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (f"{path}: the wrong length: {length + 4 * 2**30} bytes, "
                                   f"the header says {length}")


def test_no_more_than_the_header_s_length_is_read(folder: Path, monkeypatch) -> None:
    path = store.path_for(folder, KK)
    whole = path.read_bytes()
    path.write_bytes(whole + b"\0" * 100_000)
    asked: list[int] = []
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", counting_read)
    with pytest.raises(TableError, match="the wrong length"):
        store.read(path)
    assert sum(asked) <= store.HEADER_BYTES  # the header, then refused by the file's size
    path.write_bytes(whole)
    asked.clear()
    assert store.read(path).values  # whole: read to its length and no further
    assert asked and sum(asked) <= len(whole)


# --- a FIFO, a folder, a file that cannot be read in a table's place ---------------------------


def test_a_fifo_in_a_table_s_place_blocks_neither_probe_nor_bestmove(folder: Path) -> None:
    path = store.path_for(folder, KK)
    path.unlink()
    os.mkfifo(path)
    done = run("egdb", "probe", "W:WKa1:BKh8", "W:WKc1,Ke1:BKa1")
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("unknown  # the table w0m1k-b0m1k (1 king v 1 king) cannot be "
                            f"read: {path}: not a regular file (a FIFO)")
    assert second == "draw  # drawn with best play: 2 kings v 1 king"  # the others still used
    assert str(path) in done.stderr and "Traceback" not in done.stderr
    done = run("bestmove", "--movetime", "100", stdin="W:WKa1:BKh8\nW:WKc1,Ke1:BKa1\n")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split()) == 2 and "Traceback" not in done.stderr
    assert f"kbdraughts bestmove: endgame table not read: {path}" in done.stderr
    assert path.exists() and not path.is_file()  # left as it was: not ours to replace


def test_a_folder_in_a_table_s_place_is_unreadable_not_unbuilt(folder: Path, capsys) -> None:
    path = store.path_for(folder, KK)
    path.unlink()
    path.mkdir()
    assert main(["egdb", "probe", "W:WKa1:BKh8"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("unknown  # the table w0m1k-b0m1k (1 king v 1 king) cannot be read: "
                          f"{path}: not a regular file (a folder)")
    assert "not built" not in out and "building" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_a_table_without_read_permission_is_unreadable_not_unbuilt(folder: Path, capsys) -> None:
    path = store.path_for(folder, KK)
    path.chmod(0)
    try:
        assert main(["egdb", "probe", "W:WKa1:BKh8"]) == 0
    finally:
        path.chmod(0o644)
    out = capsys.readouterr().out
    assert out.startswith("unknown  # the table w0m1k-b0m1k (1 king v 1 king) cannot be read: "
                          f"{path}: Permission denied")


def test_a_table_that_cannot_be_read_is_said_so_and_left_alone(tmp_path: Path, built: Path,
                                                              monkeypatch) -> None:
    """Root reads any file: an open that fails stands in for a file without permission."""
    path = store.path_for(built, KK)
    real_open = os.open

    def refusing_open(file, flags, *args, **kwargs):
        if Path(file) == path:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    notes: list[str] = []
    db = Database(built, notes.append, auto_pieces=3)
    pos = parse_fen("W:WKa1:BKh8")
    assert db.probe(pos) is None
    assert describe(pos, None, db.problem(pos)) == (
        f"unknown  # the table w0m1k-b0m1k (1 king v 1 king) cannot be read: {path}: "
        "Permission denied")
    assert notes == [f"endgame table not read: {path}: Permission denied"]  # no build tried
    assert db.probe(parse_fen("W:WKc1,Ke1:BKa1")) is not None


def test_a_build_leaves_what_it_cannot_replace_and_builds_the_others(folder: Path,
                                                                     capsys) -> None:
    path = store.path_for(folder, KK)
    path.unlink()
    path.mkdir()
    later = store.path_for(folder, Material(0, 2, 0, 1))
    later.unlink()
    assert main(["egdb", "build", "--pieces", "3"]) == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == len(materials(3)) + 1  # every table's line, and the total
    assert (f"kbdraughts egdb build: {path}: not a regular file (a folder): left as it is, "
            "the table is not written") in err
    assert path.is_dir() and store.read(later).material == Material(0, 2, 0, 1)


# --- distances beyond the sampled check's reach -------------------------------------------------


def test_distances_of_255_are_named_by_the_sampled_check(folder: Path, capsys) -> None:
    path = store.path_for(folder, KK)
    table = store.read(path)
    path.write_bytes(Table(KK, table.values, b"\xff" * len(table.distances)).to_bytes())
    store.read(path)  # its checksum is valid
    assert main(["egdb", "verify", "--sample", "20", "--pieces", "3"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("w0m1k-b0m1k not checked: its longest distance, 255 plies, is beyond the "
                      "248 the check searches: a damaged table? (kbdraughts egdb verify checks "
                      "every position)")
    # the tables after it are checked all the same, with its values
    assert all(" checked  0 disagree" in line for line in out[1:-1])
    assert out[-1].startswith(f"total: {len(materials(3))} tables, ")
