"""The package's one error base: every exception kbdraughts defines derives from
:class:`KbdraughtsError`, so a caller catches the package's faults by the base and leaves the
rest (a bug's ``TypeError``, the system's ``MemoryError``) to go up.

The base is a plain ``Exception``, not a ``ValueError``: the package's errors are of three
kinds, and only the first is a bad value.

- a value that cannot be read (a FEN, a move, a rule file, a game file, a player spec) keeps
  ``ValueError`` beside the base, as its callers catch it so:
  ``class FenError(KbdraughtsError, ValueError)``;
- a file that is not one (``SpecialFileError``, ``NotAFile``) keeps ``OSError`` beside it;
- a signal within the package (a search's ``Timeout``, the console's ``QuitGame``) derives
  from the base alone: were the base a ``ValueError``, an ``except ValueError`` around a
  parse would swallow them.

A warning the package issues (``NativeWarning``) derives from the base and its ``Warning``
category too, so ``warnings.simplefilter("error", KbdraughtsError)`` takes them all.

>>> from kbdraughts.fen import FenError, parse_fen
>>> try:
...     parse_fen("W:Wz9")
... except KbdraughtsError as e:
...     isinstance(e, FenError) and isinstance(e, ValueError)
True
"""

from __future__ import annotations

__all__ = ["KbdraughtsError"]


class KbdraughtsError(Exception):
    """What the package raises of its own: catch this, never ``ValueError`` broadly."""
