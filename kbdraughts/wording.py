"""Counting in words, once: ``1 ply``, ``2 plies``, ``1 man``, ``3 men``.

>>> plural(1, "ply"), plural(2, "ply"), plural(1, "man"), plural(0, "rule"), plural(1, "rule")
('1 ply', '2 plies', '1 man', '0 rules', '1 rule')
>>> plural(1200, "position", thousands=True)
'1,200 positions'
"""

from __future__ import annotations

__all__ = ["plural"]

#: The nouns whose plural is not the noun and an ``s``.
_IRREGULAR = {"ply": "plies", "man": "men", "try": "tries", "match": "matches"}


def plural(n: int, word: str, thousands: bool = False) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1; ``thousands``: ``1,200``."""
    count = f"{n:,}" if thousands else str(n)
    return f"{count} {word if n == 1 else _IRREGULAR.get(word, word + 's')}"
