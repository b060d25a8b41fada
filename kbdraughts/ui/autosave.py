"""Every game is saved as PDN in the user's data directory after each move, so a killed
terminal loses nothing; ``--resume`` finds the last game that did not end.

Files are ``data_dir()/games/YYYY-MM-DD_HH-MM-SS.pdn``, one game each, replaced atomically
(written beside and renamed) so a crash mid-write never leaves half a game.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from kbdraughts.game import Game
from kbdraughts.pdn import PdnError, PdnGame, game_to_pdn, read_pdn_file
from kbdraughts.resources import data_dir


def games_dir() -> Path:
    return data_dir() / "games"


class Autosave:
    """Saves one game after each move; ``restart()`` begins a new file for the next game."""

    def __init__(self, directory: Path | None = None, path: Path | None = None):
        self.directory = directory or games_dir()
        self.path: Path | None = path
        self.error: str | None = None  # the last failure, reported once by the app

    def restart(self) -> None:
        self.path = None

    def save(self, game: Game, tags: dict[str, str]) -> Path | None:
        """Write ``game``; a failure is kept in ``error`` (the game goes on) and None returned."""
        if not game.moves and game.result is None and self.path is None:
            return None  # nothing worth a file yet
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if self.path is None:
                self.path = self._new_path()
            tmp = self.path.with_suffix(".pdn.tmp")
            tmp.write_text(game_to_pdn(game, tags), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:
            self.error = f"could not autosave to {self.directory}: {e.strerror or e}"
            return None
        self.error = None
        return self.path

    def _new_path(self) -> Path:
        stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
        path = self.directory / f"{stamp}.pdn"
        n = 2
        while path.exists():
            path = self.directory / f"{stamp}_{n}.pdn"
            n += 1
        return path


def last_unfinished(directory: Path | None = None) -> tuple[Path, PdnGame] | None:
    """The newest autosaved game whose result is still ``*``, or None."""
    directory = directory or games_dir()
    try:
        files = sorted(directory.glob("*.pdn"), key=lambda p: (p.stat().st_mtime, p.name),
                       reverse=True)
    except OSError:
        return None
    for path in files:
        try:
            games = read_pdn_file(path)
        except (PdnError, OSError):
            continue  # a damaged file is skipped, not fatal
        if games and games[0].result == "*" and games[0].game.result is None:
            return path, games[0]
    return None
