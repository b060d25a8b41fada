"""Every game is saved as PDN in the user's data directory after each move, so a killed
terminal loses nothing; ``--resume`` finds the last game that did not end.

Files are ``data_dir()/games/YYYY-MM-DD_HH-MM-SS_PID.pdn``, one game each, replaced whole
(``pdn.write_pdn_file``: a temporary file beside, then a rename) so a crash or a full disk
mid-write never leaves half a game. While a kbdraughts plays a game it holds a lock on that
file (:class:`GameLock`), so ``--resume`` in a second terminal leaves it alone and says so.
What a ``kill -9`` leaves (a temporary file, a lock file nobody holds) goes when the next game
starts its file or ``--resume`` looks (:func:`clean_stale`).
A game with no move from the initial position is not worth a file: never written, and deleted
when the moves are all taken back.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from kbdraughts.board import START
from kbdraughts.errors import KbdraughtsError
from kbdraughts.files import stale_temporaries
from kbdraughts.game import Game
from kbdraughts.pdn import PdnError, PdnGame, read_pdn_file, write_pdn_file
from kbdraughts.resources import data_dir

try:
    import fcntl
except ImportError:  # not POSIX: games are not locked
    fcntl = None  # type: ignore[assignment]


def games_dir() -> Path:
    return data_dir() / "games"


def worth_a_file(game: Game) -> bool:
    """A game is kept once it has a move or an end, or starts from a set-up position.

    >>> from kbdraughts.notation import parse_fen
    >>> worth_a_file(Game()), worth_a_file(Game(parse_fen("W:WKa1:BKh8")))
    (False, True)
    """
    return bool(game.moves) or game.result is not None or game.start != START


class GameOpen(KbdraughtsError):
    """The game file is open in another running kbdraughts (``pid``, when it wrote it)."""

    def __init__(self, path: Path, pid: int | None):
        self.path, self.pid = path, pid
        who = f" (pid {pid})" if pid else ""
        super().__init__(f"{path}: that game is open in another kbdraughts{who}")


class GameLock:
    """An exclusive ``flock`` on ``GAME.pdn.lock``, held while this process plays GAME.

    The game file itself is replaced at each save (a new inode), so it cannot carry the lock;
    the lock file holds the pid for the message of a second kbdraughts turned away. The kernel
    drops the lock when the process dies, so a killed game can be resumed at once.
    """

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def take(cls, game_file: Path) -> GameLock | None:
        """The lock of ``game_file``; GameOpen when another process holds it, None where
        locks cannot be had (no fcntl, a read-only folder): the game goes on unlocked."""
        if fcntl is None:
            return None
        path = game_file.with_name(game_file.name + ".lock")
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:
                return None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = _read_pid(fd)
                os.close(fd)
                raise GameOpen(game_file, pid) from None
            except OSError:  # a file system without locks
                os.close(fd)
                return None
            # The holder may have removed the file between our open and our lock: then the
            # lock is on a file nobody else will look at; open the new one.
            try:
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    break
            except OSError:
                pass
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd)

    def release(self) -> None:
        """Remove the lock file and let go (removed first, while still held: see ``take``)."""
        if self._fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __del__(self) -> None:  # a lock nobody holds any more is let go
        try:
            self.release()
        except Exception:  # at interpreter exit os or pathlib may be gone: the kernel frees it
            pass


def clean_stale(directory: Path) -> list[Path]:
    """Remove what a killed kbdraughts left in the games folder: temporary files of a save
    whose writer is dead, and lock files no process holds (each taken first, then removed
    while held, as :meth:`GameLock.release` does: a kbdraughts opening it meanwhile sees the
    inode change and opens anew). What was removed."""
    removed = []
    for path in stale_temporaries(directory):
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            pass
    if fcntl is None:
        return removed
    for path in directory.glob("*.pdn.lock"):
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            path.unlink()
            removed.append(path)
        except OSError:  # held by a running game (BlockingIOError), or not ours to remove
            pass
        finally:
            os.close(fd)
    return removed


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None


class Autosave:
    """Saves one game after each move; ``restart()`` begins a new file for the next game,
    ``close()`` lets the game go when the program ends."""

    def __init__(self, directory: Path | None = None, path: Path | None = None,
                 lock: GameLock | None = None):
        self.directory = directory or games_dir()
        self.path: Path | None = path
        self.lock = lock
        self.error: str | None = None  # the last failure, reported once by the app

    def restart(self) -> None:
        self.close()
        self.path = None

    def close(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def save(self, game: Game | PdnGame, tags: dict[str, str]) -> Path | None:
        """Write ``game`` (a file's game with all the file had, ``tags`` over its own); a
        failure is kept in ``error`` (the game goes on) and None returned. A game taken back
        to no move from the initial position loses its file."""
        if not worth_a_file(game.game if isinstance(game, PdnGame) else game):
            if self.path is not None:
                self._drop()
            return None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if self.path is None:
                clean_stale(self.directory)  # a new game's file: the leftovers of kills go
                self.path = self._new_path()
                self.lock = GameLock.take(self.path)
            write_pdn_file(self.path, game, tags)
        except (OSError, GameOpen) as e:
            reason = getattr(e, "strerror", None) or e
            self.error = f"could not autosave to {self.directory}: {reason}"
            return None
        self.error = None
        return self.path

    def _drop(self) -> None:
        assert self.path is not None
        try:
            self.path.unlink(missing_ok=True)
        except OSError as e:
            self.error = f"could not remove {self.path}: {e.strerror or e}"
        self.restart()

    def _new_path(self) -> Path:
        stamp = f"{time.strftime('%Y-%m-%d_%H-%M-%S')}_{os.getpid()}"
        path = self.directory / f"{stamp}.pdn"
        n = 2
        while path.exists():
            path = self.directory / f"{stamp}_{n}.pdn"
            n += 1
        return path


#: The tags an autosave of a loaded file's game names its seats by (resume reads them, then
#: drops them): the file's own White and Black tags are the players of the record.
SEAT_TAGS = ("KbdraughtsWhite", "KbdraughtsBlack")


def seats_of(tags: dict[str, str]) -> tuple[str, str]:
    """The seats a saved game names, White's first: its seat tags, taken out of ``tags``
    (a loaded file's game), else its White and Black tags (a game played here)."""
    white, black = (tags.pop(seat, "") or tags.get(player, "")
                    for seat, player in zip(SEAT_TAGS, ("White", "Black")))
    return white, black


@dataclass
class Resumed:
    """The game ``--resume`` continues: its file, what it holds, its autosave (locked)."""

    path: Path
    saved: PdnGame
    autosave: Autosave


def _unfinished(path: Path) -> PdnGame | None:
    """The game in ``path`` when it is one to play on; PdnError when it cannot be read."""
    games = read_pdn_file(path)
    if games and games[0].result == "*" and games[0].game.result is None \
            and worth_a_file(games[0].game):
        return games[0]
    return None


def _newest_first(directory: Path) -> list[Path]:
    stamped = []
    try:
        for path in directory.glob("*.pdn"):
            try:
                stamped.append((path.stat().st_mtime, path.name, path))
            except OSError:
                continue  # gone since the listing
    except OSError:
        return []
    return [path for *_, path in sorted(stamped, reverse=True)]


def resume(directory: Path | None = None) -> tuple[Resumed | None, list[Exception]]:
    """The newest unfinished game that no other kbdraughts has open, locked for this one; and
    why each newer file was passed over: a GameOpen, or the PdnError of an unreadable file."""
    directory = directory or games_dir()
    skipped: list[Exception] = []
    if directory.is_dir():
        clean_stale(directory)
    for path in _newest_first(directory):
        try:
            if _unfinished(path) is None:
                continue
            lock = GameLock.take(path)
        except (PdnError, GameOpen) as e:
            skipped.append(e)
            continue
        try:  # read again under the lock: the other game may have moved on before it let go
            saved = _unfinished(path)
        except PdnError as e:
            saved = None
            skipped.append(e)
        if saved is not None:
            return Resumed(path, saved, Autosave(directory, path, lock)), skipped
        if lock is not None:
            lock.release()
    return None, skipped


def skipped_note(reason: Exception) -> str:
    """The note for a file ``resume`` passed over."""
    if isinstance(reason, GameOpen):
        return f"{reason}; left to it."
    return f"Skipped an unreadable saved game: {reason}"


def last_unfinished(directory: Path | None = None) -> tuple[Path, PdnGame] | None:
    """The newest autosaved game whose result is still ``*`` and no other kbdraughts has open,
    or None (the lock is not kept: use :func:`resume` to play it)."""
    found, _ = resume(directory)
    if found is None:
        return None
    found.autosave.close()
    return found.path, found.saved
