"""The shapes file (``combos/shapes.txt``): regions of a few squares and a weight for each way
the men can stand on them, as Scan weighs its patterns; written in bulk by ``kbdraughts tune``,
readable and editable as text.

A region is a header line, then one line per arrangement of men on its squares (in the order
the header lists them) with its weight, in the rules' symbols for men: ``.`` empty, ``w`` a
white man, ``b`` a black man, ``+`` and ``*`` the same, ``@`` either, ``?`` anything::

    region centre-c3 c3 b4 d4 c5 when not endgame
      w..w  12.5
      ?b?w  -3

Written for White; the same region on the board turned round weighs Black's men, and a region
counts ours minus theirs, as every value term. A region with a king on it counts nothing
there (kings are the search's to weigh). Lines with wildcards add their weight to every
arrangement they match.

>>> regions = parse_shapes("region r a1 c1\\n  w. 5\\n  ?b -2\\n", "s.txt")
>>> regions[0].squares, regions[0].lines
(('a1', 'c1'), (('w.', 5.0, 2), ('?b', -2.0, 3)))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from kbdraughts.files import (MAX_KEPT_BYTES, control_character, decode_text, editor_lines,
                             read_bounded)
from kbdraughts.eval.terms import (MAX_WEIGHT, POSITION_FEATURES, HeuristicFileError,
                                  decimals_fault)
from kbdraughts.squares import SQUARE_NAMES

__all__ = ["Region", "parse_shapes", "read_shapes", "MEN_SYMBOLS", "MAX_REGION_SQUARES",
           "MAX_REGIONS"]

#: A symbol's men states: 0 empty, 1 a white man, 2 a black man.
MEN_SYMBOLS: dict[str, tuple[int, ...]] = {
    ".": (0,), "w": (1,), "+": (1,), "b": (2,), "*": (2,), "@": (1, 2), "?": (0, 1, 2)}
#: The most squares a region has: 3 ** 8 arrangements.
MAX_REGION_SQUARES = 8
#: The most regions a file may hold (the evaluation visits each at every leaf).
MAX_REGIONS = 256
_NAMES = set(SQUARE_NAMES.values())
_HEADER = re.compile(r"region\s+(?P<name>[\w.-]+)\s+(?P<squares>.+?)(?:\s+when\s+(?P<when>.+))?$")
_LINE = re.compile(r"(?P<symbols>\S+)\s+(?P<w>[-+]?\d+(?:\.\d+)?)$")


@dataclass(frozen=True)
class Region:
    """A region of the shapes file: its squares (White's view), conditions, weighted lines."""

    name: str
    squares: tuple[str, ...]
    needs: tuple[tuple[str, bool], ...]
    lines: tuple[tuple[str, float, int], ...]  # (symbols, weight, line number)
    line: int


def parse_shapes(text: str, path: str = "<shapes>") -> list[Region]:
    """The regions of a shapes file; HeuristicFileError ``path:line: error: ...`` at a fault."""
    regions: list[Region] = []
    head: dict | None = None
    for n, raw in enumerate(editor_lines(text), 1):
        line = raw.split("#", 1)[0]
        if bad := control_character(line):
            raise HeuristicFileError(f"{path}:{n}: error: control character {bad} in the line")
        if not line.strip():
            continue
        if not line[0].isspace():
            if head is not None:
                regions.append(Region(**head))
            head = _header(line.strip(), n, path, {r.name for r in regions})
            if len(regions) >= MAX_REGIONS:
                raise HeuristicFileError(f"{path}:{n}: error: more than {MAX_REGIONS} regions")
        elif head is None:
            raise HeuristicFileError(f"{path}:{n}: error: an indented line before any "
                                     f"'region NAME SQUARE ...' line")
        else:
            head["lines"] += (_weighted(line.strip(), len(head["squares"]), n, path),)
    if head is not None:
        regions.append(Region(**head))
    return regions


def _header(line: str, n: int, path: str, names: set[str]) -> dict:
    def fail(msg: str) -> HeuristicFileError:
        return HeuristicFileError(f"{path}:{n}: error: {msg}")

    m = _HEADER.match(line)
    if not m:
        raise fail(f"expected 'region NAME SQUARE SQUARE ... [when CONDITION and ...]', "
                   f"got {line[:80]!r}")
    squares = tuple(m["squares"].split())
    if not 2 <= len(squares) <= MAX_REGION_SQUARES:
        raise fail(f"a region has 2 to {MAX_REGION_SQUARES} squares, this one {len(squares)}")
    for s in squares:
        if s not in _NAMES:
            raise fail(f"{s!r} is not a dark square (a1, c1 ... h8)")
    if len(set(squares)) < len(squares):
        raise fail("a square is named twice")
    if m["name"] in names:
        raise fail(f"duplicate region {m['name']!r}")
    needs = []
    for cond in re.split(r"\s+and\s+", m["when"].strip()) if m["when"] else ():
        words = cond.split()
        feature = words[-1]
        if len(words) > 2 or (len(words) == 2 and words[0] != "not") or \
                feature not in POSITION_FEATURES:
            raise fail(f"bad condition {cond!r} (a position feature or 'not FEATURE')")
        needs.append((feature, len(words) == 1))
    return {"name": m["name"], "squares": squares, "needs": tuple(needs), "lines": (),
            "line": n}


def _weighted(line: str, size: int, n: int, path: str) -> tuple[str, float, int]:
    m = _LINE.match(line)
    if not m or len(m["symbols"]) != size or any(c not in MEN_SYMBOLS for c in m["symbols"]):
        raise HeuristicFileError(
            f"{path}:{n}: error: expected {size} symbols of '. w b + * @ ?' (men only: a "
            f"king's place is a value term's) and a weight, got {line[:80]!r}")
    weight = float(m["w"])
    if not abs(weight) <= MAX_WEIGHT:
        raise HeuristicFileError(f"{path}:{n}: error: weight {m['w'][:20]} is too large "
                                 f"(at most {MAX_WEIGHT} either way)")
    if fault := decimals_fault(m["w"]):
        raise HeuristicFileError(f"{path}:{n}: error: {fault}")
    return m["symbols"], weight, n


def read_shapes(path: Path) -> list[Region]:
    """The regions of the shapes file at ``path`` (none when there is no such file)."""
    try:
        data = read_bounded(path, MAX_KEPT_BYTES)  # /dev/zero refused, never read to the end
    except FileNotFoundError:
        return []
    except OSError as e:
        raise HeuristicFileError(f"{path}:1: error: cannot read: {e.strerror}") from None
    try:
        text = decode_text(data, str(path))
    except ValueError as e:
        raise HeuristicFileError(str(e)) from None
    return parse_shapes(text, str(path))


def region_text(region: Region, weights: Sequence[tuple[str, float]]) -> str:
    """A region as the file writes it, with ``weights`` as its lines."""
    when = " and ".join(f if holds else f"not {f}" for f, holds in region.needs)
    head = f"region {region.name} {' '.join(region.squares)}" + (f" when {when}" if when else "")
    return "\n".join([head] + [f"  {s}  {w:g}" for s, w in weights]) + "\n"
