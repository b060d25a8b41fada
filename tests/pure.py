"""Fresh copies of kbdraughts' modules with the native core blocked, as CPython's
``test.support.import_helper.import_fresh_module(name, blocked=['_heapq'])`` gives
``test_heapq`` the pure ``heapq``: the reference beside the accelerated module, in one run."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

_PACKAGE = "kbdraughts"


def _ours() -> dict[str, ModuleType]:
    return {k: v for k, v in sys.modules.items() if k == _PACKAGE or k.startswith(_PACKAGE + ".")}


def pure_modules(*names: str) -> list[ModuleType]:
    """The named modules imported afresh (with what they import of kbdraughts) while
    ``kbdraughts._core`` cannot be imported; the modules already loaded are put back."""
    saved = _ours()
    for name in saved:
        del sys.modules[name]
    sys.modules[_PACKAGE + "._core"] = None  # type: ignore[assignment]  # an import now fails
    try:
        return [importlib.import_module(n) for n in names]
    finally:
        for name in _ours():
            del sys.modules[name]
        sys.modules.pop(_PACKAGE + "._core", None)
        sys.modules.update(saved)
