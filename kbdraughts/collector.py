"""The cyclic garbage collector kept out of a block: ``with paused_gc(): ...``.

The collector is the process's, not a thread's: ``gc.disable()`` in one thread stops it in all.
So the pauses are counted across threads: the first block to enter saves whether collection
was on and turns it off; the last block to leave, whichever thread runs it, puts it back as it
was. Blocks nest and overlap between threads; an outer state of "off" (a caller's own
``gc.disable()``) stays off. What Python cannot prevent: code outside these blocks calling
``gc.enable()`` while one runs.

``freeze=True``: when the last block leaves, what is alive then is frozen (``gc.freeze()``:
moved out of the collector's reach for good, still freed by reference counting), so no later
collection walks it; ``collect=True`` collects first, so no garbage is frozen with it.

>>> import gc
>>> with paused_gc():
...     with paused_gc():
...         gc.isenabled()
...     gc.isenabled()
False
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

__all__ = ["paused_gc"]

_lock = threading.RLock()  # a finalizer run by the collection may pause too
_depth = 0  # blocks inside paused_gc, all threads together
_was_enabled = False  # the collector's state when the first of them entered
_freeze = False  # a block asked for gc.freeze() when the last one leaves
_collect = False  # and for gc.collect() before it


@contextmanager
def paused_gc(freeze: bool = False, collect: bool = False) -> Iterator[None]:
    """No cyclic collection inside the block (see the module's docstring); the caller's state
    restored exactly when the last block leaves, also by an exception."""
    global _depth, _was_enabled, _freeze, _collect
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
        _freeze |= freeze
        _collect |= collect
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                # Taken before collecting: a finalizer that pauses in it starts afresh.
                collect_now, freeze_now, enable_now = _collect, _freeze, _was_enabled
                _collect = _freeze = False
                if collect_now:
                    gc.collect()
                if freeze_now:
                    gc.freeze()
                if enable_now:
                    gc.enable()
