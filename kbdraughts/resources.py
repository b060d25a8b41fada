"""Where the shipped knowledge base and the user's own files live."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def combos_dir() -> Path:
    """The shipped knowledge base: ``combos/`` inside an installed wheel, or beside the package
    in a source checkout (an editable install)."""
    for candidate in (_PACKAGE / "combos", _PACKAGE.parent / "combos"):
        if candidate.is_dir():
            return candidate
    return _PACKAGE.parent / "combos"


def data_dir() -> Path:
    """The user's data directory (autosaved games, their own rules): ``$XDG_DATA_HOME/kbdraughts``,
    by default ``~/.local/share/kbdraughts``. Not created here."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "kbdraughts"
