"""The sign a player gives each named idea, declared in the heuristic file beside its line, and
the weights that disagree with it.

A `value` or `pattern` line declares the sign of its weight in its own comment, ``# sign: +``
(good for the side that has it) or ``# sign: -``; a weight of the other sign must be explained
in the comment block right above the line by ``why not:`` and the measurement (a figure), so
that a master reading the file is never told, unexplained, that the triangle is bad.

>>> text = ("# The bridge.\\npattern bridge 3 c1=w e1=w  # sign: +\\n"
...         "# The triangle. why not: measured -0.4 a man, fitted first.\\n"
...         "pattern triangle -0.4 c1=w e1=w d2=w  # sign: +\\n"
...         "value centre -1 per centre_men  # sign: +\\nvalue tempo 1 per man_ranks\\n")
>>> for fault in sign_faults(text):
...     print(fault)
line 5: centre weighs -1 against its declared sign + with no why not: and a figure above it
line 6: tempo declares no sign (# sign: + or # sign: -)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Declared", "declared_signs", "sign_faults"]

_TERM = re.compile(r"\s*(?P<kind>value|pattern)\s+(?P<name>[\w.-]+)\s+(?P<w>[-+]?\d+(?:\.\d+)?)")
_SIGN = re.compile(r"#.*\bsign:\s*(?P<sign>[+-])")
_WHY = re.compile(r"why not:(?P<why>.*)", re.S | re.I)


@dataclass(frozen=True)
class Declared:
    """A named term's line, its weight, its declared sign (+1, -1, or 0 when none) and the
    reason given above it for a weight of the other sign ('' when none)."""

    line: int
    kind: str
    name: str
    weight: float
    sign: int
    why: str

    @property
    def agrees(self) -> bool:
        """The weight has the declared sign (a weight of 0 says nothing against it)."""
        return self.weight * self.sign >= 0


def declared_signs(text: str) -> list[Declared]:
    """Every `value` and `pattern` line of a heuristic file with its declaration."""
    out = []
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        m = _TERM.match(line)
        if not m:
            continue
        sign = _SIGN.search(line)
        above = []
        for prev in reversed(lines[:n - 1]):  # the comment block right above the line
            if not prev.lstrip().startswith("#"):
                break
            above.append(prev.lstrip()[1:].strip())
        why = _WHY.search(" ".join(reversed(above)))
        out.append(Declared(n, m["kind"], m["name"], float(m["w"]),
                            (1 if sign["sign"] == "+" else -1) if sign else 0,
                            why["why"].strip() if why else ""))
    return out


def sign_faults(text: str) -> list[str]:
    """What is wrong with the file's declared signs: a named term that declares none, or
    whose weight has the other sign with no ``why not:`` holding a figure above it."""
    faults = []
    for d in declared_signs(text):
        if not d.sign:
            faults.append(f"line {d.line}: {d.name} declares no sign (# sign: + or # sign: -)")
        elif not d.agrees and not re.search(r"\d", d.why):
            faults.append(f"line {d.line}: {d.name} weighs {d.weight:g} against its declared "
                          f"sign {'+' if d.sign > 0 else '-'} with no why not: and a figure "
                          "above it")
    return faults
