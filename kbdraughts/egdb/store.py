"""An endgame table and its file: the values (two bits a position), the distances (a byte a
position) and a header that lets a damaged file be named and refused, never trusted.

The file is the header, then ``ceil(N / 4)`` bytes of values (four positions a byte, the first
in the low bits), then ``N`` bytes of distances, for the ``N`` positions of :mod:`.index`. The
header holds the magic, the format's version, the material, the counts of positions, wins,
losses and draws, the longest distance and a CRC-32 of the header and the whole payload. Only a
regular file is opened (a FIFO would block the open), and only once its size is the header's
(a file far longer is refused unread).

>>> from kbdraughts.egdb.index import Material
>>> t = Table(Material(0, 1, 0, 1), bytearray(b"\\xff" * 496), bytearray(1984))
>>> Table.from_bytes(t.to_bytes(), "x").counts()
(0, 0, 1984)
>>> Table.from_bytes(t.to_bytes()[:-1], "x")
Traceback (most recent call last):
kbdraughts.egdb.store.TableError: x: truncated: 2533 bytes, the header says 2534
"""

from __future__ import annotations

import os
import stat
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from kbdraughts.egdb.index import MAX_PIECES, Material, rank, size
from kbdraughts.errors import KbdraughtsError

if TYPE_CHECKING:
    from kbdraughts.board import Position

#: The value of a position for its side to move (0 never stands in a finished table).
WIN, LOSS, DRAW = 1, 2, 3
VALUE_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}

MAGIC = b"KBDEGDB\x00"
VERSION = 1
#: magic, version, wm, wk, bm, bk, positions, wins, losses, draws, longest distance, CRC-32.
_HEADER = struct.Struct("<8sH4BQQQQH2xI")
HEADER_BYTES = _HEADER.size
SUFFIX = ".egdb"


class TableError(KbdraughtsError, ValueError):
    """A table file that cannot be trusted: the message names the file and what is wrong."""


class Table:
    """One material's values and distances, indexed as :mod:`.index` numbers positions."""

    def __init__(self, material: Material, values: bytes | bytearray,
                 distances: bytes | bytearray) -> None:
        self.material = material
        self.values = values
        self.distances = distances

    def value(self, index: int) -> int:
        return self.values[index >> 2] >> ((index & 3) << 1) & 3

    def distance(self, index: int) -> int:
        return self.distances[index]

    def answer(self, pos: Position) -> tuple[int, int]:
        """(value, plies to conversion) of ``pos``, a position of this table's material."""
        i = rank(pos)
        return self.value(i), self.distance(i)

    def counts(self) -> tuple[int, int, int]:
        """(wins, losses, draws) over both sides to move."""
        n = size(self.material)
        tally = [0, 0, 0, 0]
        for byte, count in _byte_counts(self.values).items():
            for k in range(4):
                tally[byte >> (2 * k) & 3] += count
        # The padding of the last byte (positions past n) is zero: not counted as a value.
        tally[0] -= 4 * len(self.values) - n
        return tally[WIN], tally[LOSS], tally[DRAW]

    def to_bytes(self) -> bytes:
        wins, losses, draws = self.counts()
        longest = max(self.distances, default=0)
        header = self._header(wins, losses, draws, longest, 0)
        crc = zlib.crc32(self.distances, zlib.crc32(self.values, zlib.crc32(header)))
        return self._header(wins, losses, draws, longest, crc) + self.values + self.distances

    def _header(self, wins: int, losses: int, draws: int, longest: int, crc: int) -> bytes:
        return _HEADER.pack(MAGIC, VERSION, *self.material, size(self.material), wins, losses,
                            draws, longest, crc)

    @classmethod
    def from_bytes(cls, data: bytes, where: str) -> Table:
        """The table in ``data``, checked whole; TableError naming ``where`` otherwise."""
        material, (wins, losses, draws, longest, crc), length = _read_header(data, where)
        _check_length(len(data), length, where)
        n = size(material)
        body = memoryview(data)[_HEADER.size:]
        table = cls(material, body[:(n + 3) // 4].tobytes(), body[(n + 3) // 4:].tobytes())
        header = table._header(wins, losses, draws, longest, 0)
        if zlib.crc32(table.distances, zlib.crc32(table.values, zlib.crc32(header))) != crc:
            raise TableError(f"{where}: checksum mismatch: the file is damaged")
        if table.counts() != (wins, losses, draws):
            raise TableError(f"{where}: values outside win, loss and draw")
        return table


def _read_header(data: bytes, where: str) -> tuple[Material, tuple[int, ...], int]:
    """(material, (wins, losses, draws, longest, CRC), the file's length) from the header at
    the start of ``data``; TableError naming ``where`` when it is none of ours."""
    if len(data) < _HEADER.size:
        raise TableError(f"{where}: truncated: {len(data)} bytes, not even a header")
    magic, version, wm, wk, bm, bk, positions, *rest = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise TableError(f"{where}: not a kbdraughts endgame table")
    if version != VERSION:
        raise TableError(f"{where}: format version {version}, this kbdraughts reads "
                         f"{VERSION}")
    material = Material(wm, wk, bm, bk)
    if not (0 < wm + wk and 0 < bm + bk and material.pieces <= MAX_PIECES):
        raise TableError(f"{where}: the header names no material of a table")
    n = size(material)
    if positions != n:
        raise TableError(f"{where}: the header counts {positions} positions, "
                         f"{material.name} has {n}")
    return material, tuple(rest), _HEADER.size + (n + 3) // 4 + n


def _check_length(actual: int, expected: int, where: str) -> None:
    if actual != expected:
        what = "truncated" if actual < expected else "the wrong length"
        raise TableError(f"{where}: {what}: {actual} bytes, the header says {expected}")


def _byte_counts(data: bytes | bytearray) -> dict[int, int]:
    """How often each byte value occurs (bytes.count per value: C speed, 256 passes)."""
    return {b: c for b in range(256) if (c := data.count(bytes((b,))))}


def path_for(folder: Path, material: Material) -> Path:
    return folder / (material.name + SUFFIX)


def read(path: Path) -> Table:
    """The table in ``path``, checked (TableError when it cannot be trusted, OSError when it
    cannot be read, NotAFile when it is no regular file), and the material its name promises.

    Only a regular file is opened, and only its header's length is read: a FIFO in its place
    would block the open for ever, a file far longer would be held in memory whole."""
    _regular(os.stat(path).st_mode, path)
    # O_NONBLOCK: a FIFO put there since the stat must not block the open either.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        _regular(info.st_mode, path)
        head = b"".join(_chunks(fd, _HEADER.size))
        _, _, length = _read_header(head, str(path))
        _check_length(info.st_size, length, str(path))  # judged before the payload is read
        data = b"".join([head, *_chunks(fd, length - len(head))])
    finally:
        os.close(fd)
    table = Table.from_bytes(data, str(path))
    if path.name != table.material.name + SUFFIX:
        raise TableError(f"{path}: holds {table.material.name}, not what its name says")
    return table


class NotAFile(KbdraughtsError, OSError):
    """Something other than a regular file stands where a table's file should: a folder, a
    FIFO, a device. It is not opened, and not replaced by a build."""


def not_a_file(path: Path) -> str:
    """Why ``path`` is no place to read or write a table (``PATH: not a regular file (a
    FIFO)``), or "" when it is missing or a regular file."""
    try:
        kind = _not_regular(os.stat(path).st_mode)
    except OSError:
        return ""  # missing (or unreadable: the write says so, if it fails)
    return f"{path}: not a regular file ({kind})" if kind else ""


def _regular(mode: int, path: Path) -> None:
    """NotAFile unless ``mode`` is a regular file's."""
    if kind := _not_regular(mode):
        raise NotAFile(None, f"not a regular file ({kind})", str(path))


def _not_regular(mode: int) -> str:
    """"" for a regular file; else what it is, in words."""
    if stat.S_ISREG(mode):
        return ""
    kinds = [(stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")]
    return next((words for test, words in kinds if test(mode)), "neither a file nor a folder")


def _chunks(fd: int, n: int) -> Iterator[bytes]:
    """The next ``n`` bytes of ``fd`` in pieces (fewer only at its end): never more."""
    while n > 0 and (chunk := os.read(fd, min(n, 1 << 24))):
        yield chunk
        n -= len(chunk)


def write(folder: Path, table: Table) -> Path:
    """Write ``table`` into ``folder`` whole or not at all (a temporary file, then renamed)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = path_for(folder, table.material)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as f:
            f.write(table.to_bytes())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
