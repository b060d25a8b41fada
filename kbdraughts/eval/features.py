"""The evaluation's features, each written once: the schema both implementations follow.

A position feature is one :class:`Feature` in :data:`SCHEMA`: its name (what ``heuristic.txt``
and ``shapes.txt`` write after ``per`` and ``when``), its kind and a line in a player's words.
Everything else derives from this list, in its order:

- :data:`POSITION_FEATURES`, the order of the values ``position_features`` gives and the bits
  of a term's signature;
- :data:`MEN_SUMS` and :data:`OTHERS`, the two groups the evaluation computes apart (a sum over
  men is weighed by table look-ups, the others one by one), and :data:`PHASES`;
- the C core's enums, counts and mask layout: :func:`header` writes ``kbdraughts/csrc/features.h``
  (``python -m kbdraughts.eval.features --header``), which ``core.h`` includes; the header is
  checked in, so the build needs no generator, and ``tests/test_eval_features.py`` fails with
  "is stale" when it differs from this schema.

Each feature has one function per implementation. In Python
(:mod:`kbdraughts.eval.evaluation`, under ``@computes(NAME)``): a men sum's value for one man
(square, side), the others' value from White's side; the module refuses to import when one is
missing. In C (``csrc/eval.c``): ``other_NAME`` for each of OTHERS (a missing one fails the build
with its name); a men sum needs no C at all, its values per man cross as data (``man_values``).

>>> POSITION_FEATURES[:3], OTHERS[:2], PHASES
(('centre_men', 'back_men', 'man_ranks'), ('kings', 'endgame'), ('endgame',))
"""

from __future__ import annotations

import argparse
import difflib
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Sequence

__all__ = [
    "Kind", "Feature", "Shape", "Mask", "Layout", "SCHEMA", "MASKS", "LAYOUT",
    "POSITION_FEATURES", "MEN_SUMS", "OTHERS", "PHASES", "WEIGHABLE", "MAX_CONDITIONS",
    "header", "stale",
    "HEADER_PATH", "GENERATOR",
]


class Kind(Enum):
    """What a feature's value is, which decides how it is computed and weighed."""

    #: A sum over our men of a value per square, less theirs: weighed by table look-ups.
    MEN_SUM = "men sum"
    #: Ours minus theirs, computed from the whole position: turned for Black.
    DIFFERENCE = "difference"
    #: A phase of the game, the same for both sides (1 or 0): never turned for Black, so
    #: ``per PHASE`` weighs it the same for both.
    PHASE = "phase"
    #: A phase for conditions only (``when opening``): ``per`` it would favour the side to move.
    CONDITION = "condition"


@dataclass(frozen=True)
class Feature:
    """One position feature of the schema."""

    name: str
    kind: Kind
    description: str

    @property
    def c_name(self) -> str:
        """Its constant in the C core: ``O_KINGS`` (OTHERS) or ``M_CENTRE_MEN`` (MEN_SUMS)."""
        return ("M_" if self.kind is Kind.MEN_SUM else "O_") + self.name.upper()


_M, _D, _P, _C = Kind.MEN_SUM, Kind.DIFFERENCE, Kind.PHASE, Kind.CONDITION

#: The position features, in their order everywhere. A new one is an entry here and its
#: functions (see the module's text); ``combos/heuristic.txt``'s header explains each at length.
SCHEMA: tuple[Feature, ...] = (
    Feature("centre_men", _M, "men on the sixteen central squares c3-f6"),
    Feature("back_men", _M, "men still on our back rank"),
    Feature("man_ranks", _M, "the tempo: the ranks our men stand on above our back rank"),
    Feature("kings", _D, "kings (their material is counted apart)"),
    Feature("endgame", _P, "8 pieces or fewer on the board"),
    Feature("back_guard", _M, "the back-rank guard: men on c1 and e1 (Black: f8, d8)"),
    Feature("golden", _M, "men on the golden squares c5 and f4"),
    Feature("runaway", _D, "men sure to crown, the opponent without kings"),
    Feature("blocked_men", _D, "men held by the opponent: no step forward, an enemy ahead"),
    Feature("outposts", _D, "men on the 4th or 5th rank held from behind"),
    Feature("king_mobility", _D, "the empty squares our kings reach in one move"),
    Feature("main_road", _D, "a king on the main road a1-h8 when we have fewer pieces"),
    Feature("flank_imbalance", _D, "how uneven our men are between the flanks"),
    Feature("men", _M, "men (their material is counted apart)"),
    Feature("opening", _C, "20 pieces or more on the board"),
    Feature("hanging", _D, "men the opponent could take now"),
    Feature("opposition", _D, "who has the opposition in an ending of men alone (1 or -1)"),
    Feature("passed_men", _D, "men on our 4th rank or beyond with nothing in front of them"),
    Feature("double_corner", _D, "a king in a double corner when we have fewer pieces"),
)


class Shape(Enum):
    """How a mask of the native evaluation is laid out, and its C type."""

    ONE = "Bitboard {name}"                      #: one bitboard
    PAIR = "Bitboard {name}[2]"                  #: one per side (White's, Black's)
    PER_SQUARE = "Bitboard {name}[2][NSQ]"       #: per side and square
    MAN_VALUES = "int {name}[2][NSQ][N_MEN_SUMS]"  #: per side and square, a man's MEN_SUMS


@dataclass(frozen=True)
class Mask:
    """One of the masks :mod:`kbdraughts.eval.evaluation` hands the C core (``set_masks``,
    by name): the features' geometry is computed once, in Python."""

    name: str
    shape: Shape
    description: str


#: The masks the C features read (``MASKS.name`` in ``csrc/eval.c``), in the struct's order.
MASKS: tuple[Mask, ...] = (
    Mask("main_road", Shape.ONE, "the long diagonal a1-h8"),
    Mask("outposts", Shape.ONE, "the 4th and 5th ranks"),
    Mask("left", Shape.ONE, "files a-d, one flank"),
    Mask("off", Shape.ONE, "the bits outside the board: an edge supports"),
    Mask("double_corner", Shape.ONE, "a7, b8, g1, h2"),
    Mask("system", Shape.ONE, "White's system for the opposition: files a, c, e, g"),
    Mask("run_from", Shape.PAIR, "the ranks a man may run from: its 4th to 7th"),
    Mask("run_path", Shape.PER_SQUARE, "a man's forward cone up to the crown"),
    Mask("run_danger", Shape.PER_SQUARE, "where an enemy piece could meet a running man"),
    Mask("man_values", Shape.MAN_VALUES, "the values of MEN_SUMS one man there adds"),
)


@dataclass(frozen=True)
class Layout:
    """What a schema fixes: the features' order and groups, and the masks' layout."""

    features: tuple[Feature, ...]
    masks: tuple[Mask, ...]

    def __post_init__(self) -> None:
        for what, names in (("feature", [f.name for f in self.features]),
                            ("mask", [m.name for m in self.masks])):
            for i, name in enumerate(names):
                if not name.isidentifier() or name != name.lower():
                    raise ValueError(f"{what} {name!r}: a lower-case identifier is needed")
                if name in names[:i]:
                    raise ValueError(f"{what} {name!r} is in the schema twice")

    @property
    def position_features(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.features)

    @property
    def men_sums(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.features if f.kind is Kind.MEN_SUM)

    @property
    def others(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.features if f.kind is not Kind.MEN_SUM)

    @property
    def phases(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.features if f.kind is Kind.PHASE)

    @property
    def weighable(self) -> tuple[str, ...]:
        """The features ``per`` may name (a condition may only be asked about)."""
        return tuple(f.name for f in self.features if f.kind is not Kind.CONDITION)


#: The most features the `when`s may name for the native evaluator: it holds a row for every
#: signature, 2 ** this many (32 KB each: 8 MB at 8). More, and the search runs on the pure
#: core (the heuristic's loader warns).
MAX_CONDITIONS = 8

#: The shipped schema's layout.
LAYOUT = Layout(SCHEMA, MASKS)
POSITION_FEATURES = LAYOUT.position_features
MEN_SUMS = LAYOUT.men_sums
OTHERS = LAYOUT.others
PHASES = LAYOUT.phases
WEIGHABLE = LAYOUT.weighable

# --- the C core's header ---------------------------------------------------------------------

#: The checked-in header, and the command that writes it.
HEADER_PATH = Path(__file__).resolve().parent.parent / "csrc" / "features.h"
GENERATOR = "python -m kbdraughts.eval.features --header"


def _enum(features: Sequence[Feature], count: str) -> list[str]:
    lines = ["enum {"]
    lines += [f"    {f.c_name}, /* {f.description} */" for f in features]
    return lines + [f"    {count}", "};"]


def _xmacro(name: str, args: str, items: Sequence[str]) -> list[str]:
    lines = [f"#define {name}({args}) \\"]
    lines += [f"    {item} \\" for item in items]
    return lines[:-1] + [lines[-1][:-2]] if items else [f"#define {name}({args})"]


def header(layout: Layout = LAYOUT) -> str:
    """The text of ``csrc/features.h`` for ``layout``: the enums of MEN_SUMS and OTHERS, the
    counts, an X-macro of OTHERS (``csrc/eval.c`` calls ``other_NAME`` for each), the phases'
    places, and the masks' struct fields and X-macro (``csrc/module.c`` reads them by name)."""
    men = [f for f in layout.features if f.kind is Kind.MEN_SUM]
    others = [f for f in layout.features if f.kind is not Kind.MEN_SUM]
    phases = [f for f in others if f.kind is Kind.PHASE]
    lines = [
        "/* Generated from kbdraughts/eval/features.py, the evaluation's schema: do not edit;",
        f" * `{GENERATOR}` writes it, in the schema's order. */",
        "#ifndef KBD_FEATURES_H",
        "#define KBD_FEATURES_H",
        "",
        f"#define N_FEATURES {len(layout.features)}",
        "",
        "/* MEN_SUMS: sums over men of a value per square (man_values), ours less theirs */",
        *_enum(men, "N_MEN_SUMS"),
        "",
        "/* OTHERS: computed by other_NAME(const Board *) in eval.c, White's less Black's */",
        *_enum(others, "N_OTHERS"),
        *_xmacro("KBD_OTHERS", "X", [f"X({f.c_name}, {f.name})" for f in others]),
        "",
        "/* The most features the `when`s may name for the native evaluator: 2**this rows */",
        f"#define MAX_EVAL_BITS {MAX_CONDITIONS}",
        "",
        "/* PHASES: the same for both sides, weighed apart (never turned for Black) */",
        f"#define N_PHASES {len(phases)}",
        *_xmacro("KBD_PHASES", "X", [f"X({f.c_name})" for f in phases]),
        "",
        "/* The masks eval/evaluation.py hands over by name (set_masks): SHAPE(name) */",
        *_xmacro("KBD_MASKS", "ONE, PAIR, PER_SQUARE, MAN_VALUES",
                 [f"{m.shape.name}({m.name})" for m in layout.masks]),
        f"#define N_MASKS {len(layout.masks)}",
        "typedef struct {",
        *[f"    {m.shape.value.format(name=m.name)}; /* {m.description} */"
          for m in layout.masks],
        "} EvalMasks;",
        "",
        "#endif",
    ]
    return "\n".join(lines) + "\n"


def stale(path: Path = HEADER_PATH, layout: Layout = LAYOUT) -> str:
    """'' when ``path`` holds :func:`header`'s text, else what differs, as a unified diff."""
    try:
        have = path.read_text(encoding="utf-8")
    except OSError:
        have = ""
    want = header(layout)
    if have == want:
        return ""
    return "".join(difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                        str(path), "the schema's"))


def main(argv: Sequence[str] | None = None) -> int:
    """``--header`` writes csrc/features.h; ``--check`` says whether it is stale (exit 1)."""
    parser = argparse.ArgumentParser(prog="python -m kbdraughts.eval.features",
                                     description="The evaluation's features: the C header.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--header", action="store_true", help=f"write {HEADER_PATH.name}")
    group.add_argument("--check", action="store_true", help="exit 1 if it is stale")
    args = parser.parse_args(argv)
    if args.check:
        diff = stale()
        if diff:
            print(f"{HEADER_PATH} is stale: run `{GENERATOR}`\n{diff}", file=sys.stderr)
            return 1
        print(f"{HEADER_PATH}: up to date")
        return 0
    HEADER_PATH.write_text(header(), encoding="utf-8")
    print(f"wrote {HEADER_PATH} (rebuild the core: pip install -e .)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
