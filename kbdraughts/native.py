"""Which core runs: the native one (``kbdraughts._core``, C) or the pure-Python modules.

The pure-Python modules (``board.py``, ``ai/evaluation.py``, ``ai/tree.py``) are the reference
and the documentation; where the C extension was built, its functions replace theirs, as
``_heapq`` replaces ``heapq``'s (the modules that use it say so where they import it).
``KBDRAUGHTS_PURE=1`` forces the pure path. This is the one place the choice is made.

>>> describe().startswith(("native core", "pure-Python core"))
True
"""

from __future__ import annotations

import os
from types import ModuleType

core: ModuleType | None = None
#: Why the pure path runs, when it does.
why_pure = ""

if os.environ.get("KBDRAUGHTS_PURE", "") not in ("", "0"):
    why_pure = "KBDRAUGHTS_PURE is set"
else:
    try:
        from kbdraughts import _core as core
    except ImportError:  # built without a compiler, or a stale build
        why_pure = "the C extension is not built"


def describe() -> str:
    """One line: which core runs, and why the pure one when it does."""
    if core is not None:
        return "native core: C (kbdraughts._core)"
    return f"pure-Python core: {why_pure}"
