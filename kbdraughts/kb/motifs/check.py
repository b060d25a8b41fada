"""What ``rules check`` says about a motif before it is compiled: names, arities, recursion,
variables bound in time; and which conditions stay per-candidate checks (a cost note, for
``rules check --costs``).

A variable is *bound* by a positive geometry, position or define condition, or as the output
(a number) of a count, library or ``after`` condition. Squares given to a count, library or
``after`` condition, both sides of a comparison, every variable of a negation and of ``play``
must be bound by an earlier positive condition. Defines may not call themselves, directly or
through other defines (so there is no recursion through negation either), nor nest or unfold
past the limits of :mod:`kbdraughts.kb.motifs.defines`.

>>> from kbdraughts.kb.motifs.motif import Motif, parse_body
>>> m = Motif("m", "x.txt", 1, play=("S", "T"), body=parse_body("our_man(S), N > 1, bogus(S)"))
>>> [msg for _, _, msg in check_motif(m)]  # doctest: +NORMALIZE_WHITESPACE
['variable T of play: is never bound by a condition', 'unknown predicate bogus/1',
 'N in N > 1 must be bound by an earlier positive condition']
"""

from __future__ import annotations

from typing import Sequence

from kbdraughts.kb.motifs.defines import Graph, analyse, graph_faults
from kbdraughts.kb.motifs.ground import by_name, kind
from kbdraughts.kb.motifs.motif import (
    COMPARISONS, DIRECTIONS, VOCABULARY, Define, Lit, Motif, is_var,
)
from kbdraughts.squares import SQUARE_NAMES

__all__ = ["check_motif", "check_defines"]


def _known(lit: Lit, defines: dict[str, list[Define]]) -> str | None:
    """An error for an unknown predicate or a wrong number of arguments."""
    if lit.pred in COMPARISONS:
        return None
    if lit.pred in defines:
        arity = len(defines[lit.pred][0].params)
    elif lit.pred in VOCABULARY:
        arity = len(VOCABULARY[lit.pred].types)
    else:
        return f"unknown predicate {lit.pred}/{len(lit.args)}"
    if arity != len(lit.args):
        return f"{lit.pred} takes {arity} argument{'s' * (arity != 1)}, got {len(lit.args)}"
    return None


def _binds(lit: Lit, k: str) -> list[str]:
    """The variables a positive literal binds."""
    if k in ("geometry", "position", "define"):
        return [a for a in lit.args if is_var(a)]
    out = VOCABULARY[lit.pred].out if lit.pred in VOCABULARY else ()
    return [lit.args[i] for i in out if is_var(lit.args[i])]


def _safety(body: tuple[Lit, ...], defines, bound: set[str]) -> list[tuple[int, str]]:
    """(index of the literal, message) for each variable used before it is bound."""
    problems = []
    for i, lit in enumerate(body):
        k = kind(lit, defines)
        if k == "unknown" or _known(lit, defines):  # reported apart: an unknown name, an arity
            continue
        binds = [] if lit.negated or k == "compare" else _binds(lit, k)
        need = [a for a in lit.args if is_var(a) and a not in bound and a not in binds]
        for v in dict.fromkeys(need):
            problems.append((i, f"{v} in {lit.text()} must be bound by an earlier positive "
                                "condition"))
        bound.update(binds)
    return problems


_WORDS = {"s": "a square", "d": "a direction", "n": "a number"}


def _types(body: tuple[Lit, ...], defines, params: dict[str, tuple[str, ...]],
           play: tuple = ()) -> list[tuple[int, str]]:
    """Each variable is one thing, a square, a direction or a number: one used as two would
    reach the move generator as the wrong kind (a direction as a square), so it is an error;
    so are a direction ordered by a comparison and a number given as a define's square.
    The variables of ``play`` are squares. (index of the literal, message) each."""
    seen: dict[str, tuple[str, str]] = {v: ("s", "play:") for v in play if is_var(v)}
    problems = []
    for i, lit in enumerate(body):
        slots = VOCABULARY[lit.pred].types if lit.pred in VOCABULARY else "".join(
            params.get(lit.pred, ()))
        for a, t in zip(lit.args, slots):
            if t == "?":
                continue
            if not is_var(a):
                fits = {"s": isinstance(a, int) and a in SQUARE_NAMES, "d": a in DIRECTIONS,
                        "n": isinstance(a, int)}[t]
                if not fits:
                    problems.append((i, f"in {lit.text()}: {a} is not {_WORDS[t]}"))
                continue
            first = seen.setdefault(a, (t, lit.text()))
            if first[0] != t:
                problems.append((i, f"{a} is used as {_WORDS[first[0]]} in {first[1]} and as "
                                 f"{_WORDS[t]} in {lit.text()}"))
    for i, lit in enumerate(body):
        if lit.pred in COMPARISONS and lit.pred not in ("==", "!="):
            if any(is_var(a) and seen.get(a, ("",))[0] == "d" for a in lit.args):
                problems.append((i, f"{lit.text()}: directions are not ordered (only == and "
                                 "!=)"))
    said: dict[str, int] = {}
    for i, msg in problems:
        said.setdefault(msg, i)
    return [(i, msg) for msg, i in said.items()]


def _lines(body_lines: tuple[int, ...], line: int):
    """The line of the literal at an index: its own where known, else ``line``."""
    return lambda i: body_lines[i] if i < len(body_lines) else line


def check_motif(motif: Motif, types: dict[str, tuple[str, ...]] | None = None
                ) -> list[tuple[int, str, str]]:
    """(line, level, message) for each fault of ``motif`` (its defines are checked apart);
    ``types``: its defines' parameters' types when the caller has worked them out."""
    defines = by_name(motif.defines)
    line = motif.body_line or motif.line
    at = _lines(motif.body_lines, line)
    out = [(at(i), "error", e) for i, lit in enumerate(motif.body) if (e := _known(lit, defines))]
    if not out:
        types = analyse(motif.defines).types if types is None else types
        out += [(at(i), "error", p) for i, p in _types(motif.body, defines, types, motif.play)]
    bound: set[str] = set()
    safety = _safety(motif.body, defines, bound)
    for t in motif.play:
        if is_var(t) and t not in bound:
            out.insert(0, (motif.play_line or motif.line, "error",
                           f"variable {t} of play: is never bound by a condition"))
    out.extend((at(i), "error", p) for i, p in safety)
    costly = [lit.text() for lit in motif.body if kind(lit, defines) in ("library", "after")
              or (kind(lit, defines) == "define" and lit.negated)]
    if costly:
        out.append((line, "note", "checks per candidate: " + "; ".join(costly)))
    return out


def check_defines(defines: Sequence[Define], graph: Graph | None = None
                  ) -> list[tuple[int, str, str, str]]:
    """(line, level, message, the define's name) for each fault of a file's defines: unknown
    names, arities, unbound variables, recursion, the limits of :mod:`kbdraughts.kb.motifs.defines`.
    ``graph``: their :func:`analyse` when the caller has it. Linear in the defines' text."""
    g = analyse(defines) if graph is None else graph
    by = g.by
    out: list[tuple[int, str, str, str]] = []
    for d in defines:
        at = _lines(d.body_lines, d.line)
        known = [(at(i), e) for i, lit in enumerate(d.body) if (e := _known(lit, by))]
        out.extend((line, "error", e, d.name) for line, e in known)
        out.extend((at(i), "error", p, d.name) for i, p in _safety(d.body, by, set()))
        if not known:
            out.extend((at(i), "error", p, d.name) for i, p in _types(d.body, by, g.types))
        used = {a for lit in d.body for a in lit.args}
        out.extend((d.line, "error", f"parameter {p} of define {d.name} is not used in its "
                    "body", d.name) for p in d.params if p not in used)
        if len(by[d.name][0].params) != len(d.params):
            out.append((d.line, "error", f"define {d.name} is given with different arities",
                        d.name))
    out.extend((line, "error", message, name) for name, line, message in graph_faults(g))
    return out
