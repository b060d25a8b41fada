"""The heuristic file's format (``combos/heuristic.txt``) and its Datalog question.

Each line is a term: a weight, an optional feature it is multiplied by (``per``) and conditions
on features (``when``)::

    weight crowning 200 when crowns
    value kings 40 per kings when not endgame

A ``pattern`` term weighs a local shape of men and kings, given square by square in the rules'
symbols (``. w W b B + * @ ?``, :mod:`kbdraughts.kb.rules.pattern`), written for White and counted
for Black on the board turned round, ours minus theirs as every value::

    pattern stake 12 c5=w d4=w b4=? when not endgame

Lines are numbered as an editor does (only ``\n`` ends one); a control character outside a
comment, a file that is not UTF-8, a weight beyond :data:`MAX_WEIGHT` and one with more than two
decimals (:data:`EVAL_SCALE`) are errors with ``path:line``.

Which terms apply is a pyDatalog question: the terms become facts (``h_term``, ``h_needs``),
the features that hold for a move become a *signature* (a bitmask, bit ``i`` for feature ``i``
of the kind's list), and ``h_applies(Kind, Signature, Term)`` is derived through two
Python-resolved predicates that read the bitmask. The scoring (what the features are worth) is
in :mod:`kbdraughts.eval.heuristic`.

>>> terms = parse_terms("weight a 1 when crowns\\nweight b 2 when not crowns\\n")
>>> q = TermQuestion(terms)
>>> q.applicable("weight", 1), q.applicable("weight", 0)
(['a'], ['b'])
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Iterator, Sequence

from kbdraughts.errors import KbdraughtsError
from kbdraughts.eval.features import POSITION_FEATURES, WEIGHABLE
from kbdraughts.files import control_character, decode_text, editor_lines
from kbdraughts.kb.rules.datalog import Program, Var
from kbdraughts.kb.rules.pattern import BUILTIN_SYMBOLS
from kbdraughts.squares import SQUARE_NAMES

__all__ = [
    "Term", "parse_terms", "read_terms", "HeuristicFileError", "TermQuestion", "MOVE_FEATURES",
    "POSITION_FEATURES", "KINDS", "MAX_WEIGHT", "MAX_PATTERN_SQUARES", "EVAL_SCALE",
    "hundredths", "decimals_fault",
]

#: Features of a quiet move, from the mover's side (``eval.move_features.move_features``
#: computes them in this order). A position's features, ``POSITION_FEATURES``, are the
#: schema's (:mod:`kbdraughts.eval.features`).
MOVE_FEATURES: tuple[str, ...] = (
    "crowns", "exchange", "man_move", "king_move", "has_king", "enemy_men_far",
    "king_onto_barrier", "king_guards", "king_leaves_barrier", "centre_gain",
    "leaves_back_rank", "advance", "edge", "endgame", "enemy_shot", "eval_gain",
)
#: The features each kind of term may mention (a pattern's conditions are a position's, and
#: so are a region's of the shapes file, :mod:`kbdraughts.eval.shapes`).
KINDS = {"weight": MOVE_FEATURES, "value": POSITION_FEATURES, "pattern": POSITION_FEATURES,
         "region": POSITION_FEATURES}
#: The kinds a line of the heuristic file may have.
LINE_KINDS = ("weight", "value", "pattern")
#: The most squares one pattern names (a pattern is a local shape; a whole board is a rule's).
MAX_PATTERN_SQUARES = 12
_SQUARE_OF = {name: s for s, name in SQUARE_NAMES.items()}
#: The largest weight a term may have, either sign: a hundred men. More would swamp the
#: material and the search's win scores (``values.WIN``), or overflow to infinity.
MAX_WEIGHT = 10_000
#: A weight is written with at most two decimals: a whole number of hundredths, so the
#: evaluation is an exact sum of integers, the same in any order (the native core sums them
#: in its own, core.h's EVAL_SCALE) and divided by this once.
EVAL_SCALE = 100


def hundredths(weight: float) -> int:
    """A weight in the evaluation's hundredths: exact for any weight a file can hold; one made
    in code with finer decimals is rounded to the nearest hundredth.

    >>> hundredths(-2.84), hundredths(0.07)
    (-284, 7)
    """
    return round(weight * EVAL_SCALE)


def decimals_fault(written: str) -> str | None:
    """Why a weight as written is not a whole number of hundredths, or None (trailing zeros
    are no fault: ``1.500`` is ``1.5``)."""
    if written.partition(".")[2].rstrip("0")[2:]:
        shown = written if len(written) <= 20 else f"{written[:12]}..."
        return (f"weight {shown} has more than two decimals (the evaluation counts hundredths "
                f"exactly)")
    return None


class HeuristicFileError(KbdraughtsError, ValueError):
    """A fault in the heuristic file; ``str`` is ``path:line: error: ...``."""


@dataclass(frozen=True)
class Term:
    """One line of the heuristic file."""

    kind: str  # "weight" (a quiet move) or "value" (a position)
    name: str
    weight: float
    per: str | None  # multiply by this feature's value
    needs: tuple[tuple[str, bool], ...]  # (feature, must hold) pairs
    line: int
    #: A pattern's squares and each one's symbol (White's view); empty for other kinds.
    squares: tuple[tuple[int, str], ...] = ()


_LINE = re.compile(
    r"(?P<kind>\w+)\s+(?P<name>[\w.-]+)\s+(?P<w>[-+]?\d+(?:\.\d+)?)"
    r"(?:\s+per\s+(?P<per>\w+))?(?P<at>(?:\s+\S+=\S+)*)(?:\s+when\s+(?P<when>.+))?$"
)


#: The most pattern terms a heuristic file holds: the native evaluator's tables (evaluator.c).
MAX_PATTERNS = 4096


def parse_terms(text: str, path: str = "<heuristic>") -> list[Term]:
    """The terms of a heuristic file; HeuristicFileError at the first fault."""
    terms: list[Term] = []
    seen: set[tuple[str, str]] = set()
    patterns = 0
    for n, raw in enumerate(editor_lines(text), 1):  # numbered as the person's editor does
        line = raw.split("#", 1)[0]
        bad = control_character(line)
        if bad:
            raise HeuristicFileError(f"{path}:{n}: error: control character {bad} in the line")
        line = line.strip()
        if line:
            term = _parse_line(line, n, path)
            if (term.kind, term.name) in seen:
                raise HeuristicFileError(
                    f"{path}:{n}: error: duplicate {term.kind} term {term.name!r}")
            seen.add((term.kind, term.name))
            terms.append(term)
            patterns += term.kind == "pattern"
            if patterns > MAX_PATTERNS:  # said here, at its line, not by the native core later
                raise HeuristicFileError(
                    f"{path}:{n}: error: pattern {term.name!r} is pattern {patterns:,}: a "
                    f"heuristic file holds at most {MAX_PATTERNS:,} (the evaluator's tables)")
    return terms


def _parse_line(line: str, n: int, path: str) -> Term:
    def fail(msg: str) -> HeuristicFileError:
        return HeuristicFileError(f"{path}:{n}: error: {msg}")

    m = _LINE.match(line)
    if not m:
        raise fail(f"expected 'weight|value NAME NUMBER [per FEATURE] [when CONDITION "
                   f"and ...]' or 'pattern NAME NUMBER SQUARE=SYMBOL ... [when ...]', "
                   f"got {line!r}")
    kind = m["kind"]
    if kind not in LINE_KINDS:
        raise fail(f"unknown term kind {kind!r} (use 'weight', 'value' or 'pattern')")
    known = KINDS[kind]

    def check(feature: str) -> str:
        if feature not in known:
            raise fail(f"unknown {kind} feature {feature!r} (known: {', '.join(known)})")
        return feature

    per = check(m["per"]) if m["per"] else None
    if per in POSITION_FEATURES and per not in WEIGHABLE:  # a condition: the same for both
        # sides, weighed it would favour the side to move
        raise fail(f"'{per}' is a phase for conditions only, the same for both sides: use it "
                   f"after 'when'")
    at = m["at"].split()
    if kind == "pattern" and (per or not at):
        raise fail("a pattern is 'pattern NAME NUMBER SQUARE=SYMBOL ... [when ...]', "
                   "e.g. 'pattern stake 12 c5=w d4=w'")
    if kind != "pattern" and at:
        raise fail(f"squares ({at[0]}) belong to a 'pattern' term, not to a {kind} term")
    squares = _squares(at, fail)
    needs: list[tuple[str, bool]] = []
    if m["when"]:
        for cond in re.split(r"\s+and\s+", m["when"].strip()):
            words = cond.split()
            if len(words) == 2 and words[0] == "not":
                needs.append((check(words[1]), False))
            elif len(words) == 1:
                needs.append((check(words[0]), True))
            else:
                raise fail(f"bad condition {cond!r} (a feature or 'not FEATURE')")
    weight = float(m["w"])
    if not abs(weight) <= MAX_WEIGHT:
        shown = m["w"] if len(m["w"]) <= 20 else f"{m['w'][:12]}... ({len(m['w'])} characters)"
        raise fail(f"weight {shown} is too large (at most {MAX_WEIGHT} either way)")
    if fault := decimals_fault(m["w"]):
        raise fail(fault)
    return Term(kind, m["name"], weight, per, tuple(needs), n, squares)


def _squares(words: Sequence[str], fail) -> tuple[tuple[int, str], ...]:
    """A pattern's ``SQUARE=SYMBOL`` words as (square, symbol) pairs."""
    if len(words) > MAX_PATTERN_SQUARES:
        raise fail(f"a pattern names at most {MAX_PATTERN_SQUARES} squares, this one "
                   f"{len(words)}")
    out: dict[int, str] = {}
    for word in words:
        name, _, symbol = word.partition("=")
        square = _SQUARE_OF.get(name)
        if square is None:
            raise fail(f"{name!r} is not a dark square (a1, c1 ... h8)")
        if symbol not in BUILTIN_SYMBOLS:
            raise fail(f"unknown symbol {symbol!r} on {name} (use one of "
                       f"{' '.join(BUILTIN_SYMBOLS)})")
        if square in out:
            raise fail(f"{name} is named twice")
        out[square] = symbol
    return tuple(out.items())


def read_terms(data: bytes, path: str) -> list[Term]:
    """:func:`parse_terms` on a file's bytes; HeuristicFileError also for text not UTF-8."""
    try:
        text = decode_text(data, path)
    except ValueError as e:  # NotUtf8Error: "path:line: error: not UTF-8 ..."
        raise HeuristicFileError(str(e)) from None
    return parse_terms(text, path)


# --- pyDatalog: which terms apply to a signature ------------------------------------------

_PROGRAM = """
h_blocked(T, K, S) <= h_needs(T, K, F, 1) & h_off(S, F)
h_blocked(T, K, S) <= h_needs(T, K, F, 0) & h_on(S, F)
h_applies(K, S, T) <= h_term(T, K) & ~h_blocked(T, K, S)
"""
_T = Var("T")


def _on(signature: int | None, feature: int | None) -> Iterator[tuple[int, int]]:
    """``h_on(S, F)``: feature F holds in signature S."""
    if signature is not None and feature is not None and signature >> feature & 1:
        yield (signature, feature)


def _off(signature: int | None, feature: int | None) -> Iterator[tuple[int, int]]:
    """``h_off(S, F)``: feature F does not hold in signature S."""
    if signature is not None and feature is not None and not signature >> feature & 1:
        yield (signature, feature)


class TermQuestion:
    """The terms as a pyDatalog program, asked which terms apply to a signature.

    The program is built at the first question, so making one (the engine does, at start)
    costs no pyDatalog import.
    """

    def __init__(self, terms: Sequence[Term]):
        self.terms = list(terms)
        self._program: Program | None = None
        self._lock = threading.Lock()

    def _built(self) -> Program:
        with self._lock:
            if self._program is None:
                program = Program(_PROGRAM)
                program.predicate("h_on", 2, _on)
                program.predicate("h_off", 2, _off)
                program.assert_facts("h_term", [(t.name, t.kind) for t in self.terms])
                # Keyed by name and kind: a weight and a value term of one name (centre,
                # tempo...) each keep their own conditions.
                program.assert_facts("h_needs", [
                    (t.name, t.kind, KINDS[t.kind].index(feature), int(holds))
                    for t in self.terms for feature, holds in t.needs])
                self._program = program
            return self._program

    def applicable(self, kind: str, signature: int) -> list[str]:
        """The names of the ``kind`` terms whose conditions hold in ``signature``, sorted."""
        answer = self._built().ask("h_applies", kind, signature, _T)
        return sorted(name for name, in answer)
