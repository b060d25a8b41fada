"""Fitted weights written back into the heuristic file: each `value` and `pattern` line's number
replaced, every other character kept, and a comment above the first of them that says what the
weights were fitted on and what the fit measured.

>>> from kbdraughts.eval.terms import parse_terms
>>> text = "# why\\nvalue centre 6 per centre_men  # keep me\\npattern bridge 4 c1=w e1=w\\n"
>>> terms = parse_terms(text)
>>> print(with_weights(text, terms, {"centre": 7.456, "bridge": -2.0}), end="")
# why
value centre 7.46 per centre_men  # keep me
pattern bridge -2 c1=w e1=w
>>> print(with_note("value a 1\\n", ["fitted on 10 positions"]), end="")
# tune: fitted on 10 positions
value a 1
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from kbdraughts.eval.terms import Term

__all__ = ["number", "with_weights", "with_note", "NOTE"]

#: How the fit's comment lines begin: a new fit replaces the lines an older one wrote.
NOTE = "# tune: "


def number(w: float) -> str:
    """A weight as the file writes it: a whole number when it is one, else two decimals."""
    w = round(w, 2)
    return str(int(w)) if w == int(w) else f"{w:g}"


def with_weights(text: str, terms: Sequence[Term], weights: Mapping[str, float]) -> str:
    """``text`` with the numbers of the fitted terms (by name) replaced."""
    lines = text.split("\n")
    for t in terms:
        if t.kind in ("value", "pattern") and t.name in weights:
            line = re.compile(rf"^(\s*{t.kind}\s+{re.escape(t.name)}\s+)([-+]?\d+(?:\.\d+)?)")
            lines[t.line - 1] = line.sub(lambda m: m[1] + number(weights[t.name]),  # noqa: B023
                                         lines[t.line - 1], count=1)
    return "\n".join(lines)


def with_note(text: str, note: Sequence[str]) -> str:
    """``text`` with the fit's comment right above its first `value` or `pattern` line (an
    older fit's comment taken out)."""
    lines = [line for line in text.split("\n") if not line.startswith(NOTE)]
    first = next((i for i, line in enumerate(lines)
                  if re.match(r"\s*(value|pattern|region)\s", line)), len(lines))
    return "\n".join(lines[:first] + [NOTE + n for n in note] + lines[first:])
