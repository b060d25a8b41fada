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

if os.environ.get("KBDRAUGHTS_PURE", "") not in ("", "0"):
    why_pure = "KBDRAUGHTS_PURE is set"
else:
    try:
        from kbdraughts import _core

        core = _core
    except ImportError as e:  # built without a compiler (the install goes on), or a stale build
        # A build of the extension is there (not its type stub, _core.pyi): a stale build.
        built = any(p.name.startswith("_core.") and p.suffix != ".pyi"
                    for p in Path(__file__).parent.iterdir())
        why_pure = (f"the C extension does not load: {e}" if built
                    else "no C compiler at install")


def describe() -> str:
    """One line: which core runs, and why the pure one when it does, with what it costs:
    ``pure-Python core (no C compiler at install: searches ~7 plies shallower)``."""
    if core is not None:
        return "native core: C (kbdraughts._core)"
    return f"pure-Python core ({why_pure}: {SHALLOWER})"
