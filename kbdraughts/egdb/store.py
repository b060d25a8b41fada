"""An endgame table and its file: the values (two bits a position), the distances (a byte a
position) and a header that lets a damaged file be named and refused, never trusted.

The file is the header, then ``ceil(N / 4)`` bytes of values (four positions a byte, the first
in the low bits), then ``N`` bytes of distances, for the ``N`` positions of :mod:`.index`. The
header holds the magic, the format's version, the material, the counts of positions, wins,
losses and draws, the longest distance and a CRC-32 of the header and the whole payload.

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
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from kbdraughts.egdb.index import MAX_PIECES, Material, rank, size

if TYPE_CHECKING:
    from kbdraughts.board import Position

#: The value of a position for its side to move (0 never stands in a finished table).
WIN, LOSS, DRAW = 1, 2, 3
VALUE_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}

MAGIC = b"KBDEGDB\x00"
VERSION = 1
#: magic, version, wm, wk, bm, bk, positions, wins, losses, draws, longest distance, CRC-32.
_HEADER = struct.Struct("<8sH4BQQQQH2xI")
SUFFIX = ".egdb"


class TableError(ValueError):
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
        if len(data) < _HEADER.size:
            raise TableError(f"{where}: truncated: {len(data)} bytes, not even a header")
        magic, version, *counts = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise TableError(f"{where}: not a kbdraughts endgame table")
        if version != VERSION:
            raise TableError(f"{where}: format version {version}, this kbdraughts reads "
                             f"{VERSION}")
        wm, wk, bm, bk, positions, wins, losses, draws, _longest, crc = counts
        material = Material(wm, wk, bm, bk)
        if not (0 < wm + wk and 0 < bm + bk and material.pieces <= MAX_PIECES):
            raise TableError(f"{where}: the header names no material of a table")
        n = size(material)
        expected = _HEADER.size + (n + 3) // 4 + n
        if positions != n or len(data) != expected:
            what = "truncated" if len(data) < expected else "the wrong length"
            raise TableError(f"{where}: {what}: {len(data)} bytes, the header says {expected}")
        body = memoryview(data)[_HEADER.size:]
        table = cls(material, body[:(n + 3) // 4].tobytes(), body[(n + 3) // 4:].tobytes())
        header = table._header(wins, losses, draws, _longest, 0)
        if zlib.crc32(table.distances, zlib.crc32(table.values, zlib.crc32(header))) != crc:
            raise TableError(f"{where}: checksum mismatch: the file is damaged")
        if table.counts() != (wins, losses, draws):
            raise TableError(f"{where}: values outside win, loss and draw")
        return table


def _byte_counts(data: bytes | bytearray) -> dict[int, int]:
    """How often each byte value occurs (bytes.count per value: C speed, 256 passes)."""
    return {b: c for b in range(256) if (c := data.count(bytes((b,))))}


def path_for(folder: Path, material: Material) -> Path:
    return folder / (material.name + SUFFIX)


def read(path: Path) -> Table:
    """The table in ``path``, checked (TableError when it cannot be trusted, OSError when it
    cannot be read), and the material its name promises."""
    table = Table.from_bytes(path.read_bytes(), str(path))
    if path.name != table.material.name + SUFFIX:
        raise TableError(f"{path}: holds {table.material.name}, not what its name says")
    return table


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
