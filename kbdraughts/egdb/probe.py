"""Asking the tables about a position: its value for the side to move and the distance to
conversion, or None where the tables do not reach.

The value is the board's: the draw rules of game.py (three kings against one must win within
15 moves, the king-only and ending counters) are not applied here; a caller that knows the
game's counters weighs the distance against them.

>>> from kbdraughts.notation import parse_fen
>>> describe(parse_fen("W:WKc1,Ke1:BKa1"), (DRAW, 0))
'draw  # drawn with best play: 2 kings v 1 king'
>>> describe(parse_fen("B:WKa1,Kc1,Ke1:BKd8"), (LOSS, 19))  # doctest: +NORMALIZE_WHITESPACE
'loss 19  # White wins: 19 plies to the next capture or crowning against the longest
 defence: 3 kings v 1 king'
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from kbdraughts.board import Position
from kbdraughts.egdb import build
from kbdraughts.egdb.index import MAX_PIECES, Material, covers, material_of
from kbdraughts.egdb.store import DRAW, LOSS, VALUE_NAMES, WIN, Table
from kbdraughts.squares import side_name

#: Tables of up to this many pieces are built at first need (some 15 s with the native core).
AUTO_PIECES = 4
#: Without the native core, the pure-Python reference builds these (some 20 s).
AUTO_PIECES_PURE = 3

__all__ = ["Database", "probe", "describe", "WIN", "LOSS", "DRAW"]


class Database:
    """The tables of one folder, read by material when first asked, each checked whole."""

    def __init__(self, folder: Path | None = None, note: Callable[[str], None] | None = None,
                 auto_pieces: int | None = None, background: bool = False,
                 warn: Callable[[str], None] | None = None) -> None:
        self.folder = folder or build.default_folder()
        #: Build missing tables in a thread of their own and answer None until they are
        #: there: a move in a timed game never waits seconds for them.
        self.background = background
        self._building: threading.Thread | None = None
        self._reading: threading.Thread | None = None
        self.note = note or (lambda text: None)  # what it does (building) and what failed
        self.warn = warn or self.note  # what failed only: a table it cannot read or trust
        if auto_pieces is None:
            auto_pieces = AUTO_PIECES if build.native_solves() else AUTO_PIECES_PURE
        self.auto_pieces = auto_pieces
        self._tables: dict[Material, Table | None] = {}
        self._problems: dict[Material, str] = {}  # Loaded.words() of the tables not used
        self._built = False

    def table(self, m: Material) -> Table | None:
        """``m``'s table, or None when it is not built, damaged or unreadable and not built at
        need (a file it cannot read is left as it is: :meth:`problem` says why)."""
        if m not in self._tables:
            found = build.load(self.folder, m)
            if found.table is None and self._building is not None and self._building.is_alive():
                return None  # being built (perhaps half written): asked again later
            if found.why:
                self.warn(f"endgame table {'not read' if found.unreadable else 'not trusted'}: "
                          f"{found.why}")
            if (found.table is None and not found.unreadable and m.pieces <= self.auto_pieces
                    and not self._built):
                if self.background:
                    self._built = True
                    self._building = threading.Thread(target=self._build_now, daemon=True,
                                                      name="egdb-build")
                    self._building.start()
                    return None  # not remembered: asked again once the build is done
                self._build_now()
                found = build.load(self.folder, m)
            self._tables[m] = found.table
            self._problems[m] = found.words(m.pieces)
        return self._tables[m]

    def problem(self, pos: Position) -> str:
        """Why the table of ``pos``'s material is not used, in words ("cannot be read: PATH:
        reason", "is not trusted: ..."), once it has been asked for; "" when it is whole, missing
        or not asked for yet."""
        return self._problems.get(material_of(pos), "") if covers(pos) else ""

    def loaded(self, m: Material) -> Table | None:
        """``m``'s table when it has been read already: no file is touched."""
        return self._tables.get(m)

    def read_later(self, wanted: list[Material]) -> None:
        """Read these tables in a thread of their own, so a timed move never waits for the
        disk (a search asks :meth:`loaded` and reads what is there)."""
        todo = [m for m in wanted if m not in self._tables]
        if todo and (self._reading is None or not self._reading.is_alive()):
            self._reading = threading.Thread(target=lambda: [self.table(m) for m in todo],
                                             daemon=True, name="egdb-read")
            self._reading.start()

    def wait_read(self) -> None:
        """Until a background read has ended (a fraction of a second; a build it started goes
        on in its own thread)."""
        if self._reading is not None:
            self._reading.join()

    def wait(self) -> None:
        """Until a background build started by a probe, and a background read, have ended."""
        self.wait_read()
        if self._building is not None:
            self._building.join()

    def _build_now(self) -> None:
        self._built = True  # once a run: a folder that cannot be written is not tried again
        self.note(f"building the endgame tables of up to {self.auto_pieces} pieces in "
                  f"{self.folder} (once; {build.build_time_words()})")
        try:
            build.build(self.auto_pieces, self.folder)
        except OSError as e:
            self.warn(f"could not write the endgame tables: {e}")
        # What was missing before may be there now.
        self._tables = {m: t for m, t in self._tables.items() if t is not None}

    def probe(self, pos: Position) -> tuple[int, int] | None:
        """(WIN, LOSS or DRAW for the side to move, plies to conversion; 0 for a draw), or
        None when no table covers ``pos``."""
        if not covers(pos):
            return None
        table = self.table(material_of(pos))
        return None if table is None else table.answer(pos)


# The process's defaults, set by the command line only: the engines hold their own Database
# (``Engine(tables=...)``, as a Hub engine's parameters make it) or ask :func:`default`.
_default: Database | None = None
#: Where the user's tables say what they could not use (a command's stderr); None: nowhere.
_warn: Callable[[str], None] | None = None


def default() -> Database:
    """The user's tables as an engine asks them when it holds none of its own: the default
    folder, built at first need in the background."""
    global _default
    if _default is None:
        _default = user_tables()
    return _default


def user_tables(folder: Path | None = None, auto_pieces: int | None = None) -> Database:
    """A Database as an engine asks it: the tables of ``folder`` (None: the default folder),
    built at first need in the background up to ``auto_pieces`` pieces (None: AUTO_PIECES),
    saying what it could not use where :func:`tell` said. The process's default is left as
    it is: two engines may hold two of these."""
    return Database(folder, auto_pieces=auto_pieces, background=True, warn=_warn)


def tell(warn: Callable[[str], None]) -> None:
    """The user's tables, the default's now and those :func:`user_tables` makes after, say by
    ``warn`` which table file they could not read or trust (the core never prints: a command
    chooses where)."""
    global _warn
    _warn = warn
    if _default is not None:
        _default.warn = warn


def probe(pos: Position) -> tuple[int, int] | None:
    """:meth:`Database.probe` on the user's tables (built at first need in the background,
    silently; None until they are there)."""
    return default().probe(pos)


def describe(pos: Position, answer: tuple[int, int] | None, problem: str = "") -> str:
    """The line ``egdb probe`` prints: ``win N``, ``loss N``, ``draw`` or ``unknown``, then
    ``  # `` and words; ``problem``: why the table was not used (:meth:`Database.problem`)."""
    if answer is None:
        return f"unknown  # {why_unknown(pos, problem)}"
    value, plies = answer
    m = material_of(pos)
    mover, other = side_name(pos.side), side_name(1 - pos.side)
    if value == DRAW:
        return f"draw  # drawn with best play: {m.words()}"
    winner, loser = (mover, other) if value == WIN else (other, mover)
    if plies == 0:
        how = f"{loser} has no move"
    else:
        how = (f"{winner} wins: {plies} {'ply' if plies == 1 else 'plies'} to the next capture "
               f"or crowning against the longest defence")
    return f"{VALUE_NAMES[value]} {plies}  # {how}: {m.words()}"


def why_unknown(pos: Position, problem: str = "") -> str:
    n = (pos.white | pos.black).bit_count()
    if not pos.white or not pos.black:
        return "a side without pieces: the game is over"
    if n > MAX_PIECES:
        return f"{n} pieces: the tables hold at most {MAX_PIECES}"
    if not covers(pos):
        return "a man stands on the rank where it would have been crowned"
    m = material_of(pos)
    if problem:
        return f"the table {m.name} ({m.words()}) {problem}"
    if not build.native_solves() and m.pieces > AUTO_PIECES_PURE:
        return (f"the table {m.name} ({m.words()}) is not built: more than "
                f"{AUTO_PIECES_PURE} pieces need the native core")
    return (f"the table {m.name} ({m.words()}) is not built: kbdraughts egdb build "
            f"--pieces {m.pieces}")
