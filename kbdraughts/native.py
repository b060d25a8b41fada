"""Which core runs: the native one (``kbdraughts._core``, C) or the pure-Python modules.

The pure-Python modules (``board.py``, ``eval/evaluation.py``, ``ai/tree.py``) are the reference
and the documentation; where the C extension was built, its functions replace theirs, as
``_heapq`` replaces ``heapq``'s (the modules that use it say so where they import it).
``KBDRAUGHTS_PURE=1`` forces the pure path. This is the one place the choice is made.

The core defends itself at its doors: a position of more than 12 pieces a side (FEN's limit,
which its lists are sized for), a square off the board, sides that overlap, or a move the
position cannot make raises ValueError; a searcher or evaluator in use refuses to be set up
again (RuntimeError). The pure modules take what they are given.

>>> describe().startswith(("native core", "pure-Python core"))
True
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

core: ModuleType | None = None
#: Why the pure path runs, when it does.
why_pure = ""

#: What the pure path costs a player, as --version and the console's start say it (the
#: measure, dated: docs/benchmarks.md, bench/search.py).
SHALLOWER = "searches ~7 plies shallower"


def _builds(package: Path) -> list[Path]:
    """The builds of the extension in ``package`` (not its type stub, ``_core.pyi``)."""
    return [p for p in package.glob("_core.*") if p.suffix != ".pyi"]


def newer_sources(package: Path) -> str | None:
    """In a checkout (``setup.py`` beside the package: an editable install), the first of the C
    sources changed after the built core, by name; None when the core is as new as them, or
    either is missing, or the package is installed (an install writes its files in any order).
    ``pip install -e`` whose compile fails only warns and leaves the old core in place: it
    would run old C beside new Python (tables of another shape, a fixed bug back).

    >>> newer_sources(Path("/nowhere")) is None
    True
    """
    built = [p.stat().st_mtime for p in _builds(package)]
    if not built or not (package.parent / "setup.py").is_file():
        return None
    sources = sorted((package / "csrc").glob("*.[ch]"))
    return next((p.name for p in sources if p.stat().st_mtime > max(built)), None)


if os.environ.get("KBDRAUGHTS_PURE", "") not in ("", "0"):
    why_pure = "KBDRAUGHTS_PURE is set"
elif (changed := newer_sources(Path(__file__).parent)) is not None:
    why_pure = (f"the C extension is older than csrc/{changed}: rebuild it "
                "(pip install -e . says why it did not)")
else:
    try:
        from kbdraughts import _core

        core = _core
    except ImportError as e:  # built without a compiler (the install goes on), or a stale build
        # A build of the extension is there: a stale build.
        why_pure = (f"the C extension does not load: {e}" if _builds(Path(__file__).parent)
                    else "no C compiler at install")


def describe() -> str:
    """One line: which core runs, and why the pure one when it does, with what it costs:
    ``pure-Python core (no C compiler at install: searches ~7 plies shallower)``."""
    if core is not None:
        return "native core: C (kbdraughts._core)"
    return f"pure-Python core ({why_pure}: {SHALLOWER})"
