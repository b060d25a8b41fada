"""Motifs compiled: checked, unfolded over the geometry into fixed-square groundings, solved.

Compiling a motif (:func:`compile_motif`):

1. each positive call of a ``define`` is unfolded (its clauses inlined, local variables renamed),
   so a body becomes one or more *variants*, conjunctions over the vocabulary alone;
2. the *static* literals of a variant (geometry, the position's square states, comparisons of
   what they bind) are solved once: every solution is a *grounding*, the variables bound to
   fixed squares and each square's allowed states as a mask (``our_man(d4)`` allows a white
   man on d4, ``not empty(e5)`` anything but empty there);
3. the rest (counts, library predicates, ``after(...)``, negated ``define`` calls, comparisons
   of numbers those bind) is the variant's *residual*: checked per candidate, every square bound.

A position is then filtered by the masks (:mod:`kbdraughts.kb.motifs.index`) and only groundings
that fit run their residual through :func:`kbdraughts.kb.motifs.interpret.solve`, which is also a
plain interpreter of any body.

>>> from kbdraughts.kb.motifs.parse import read_block
>>> m, _ = read_block([(1, "motif m"), (2, "play: S-T"), (3, "gain: 1"), (4, "example: W:Wa1:Bh8"),
...                    (5, "when: our_man(S), next(S, T, fl), empty(T), step(S, T)")], "x.txt")
>>> c = compile_motif(m)
>>> len(c.groundings), [l.pred for l in c.residuals[0]]
(24, ['step'])
"""

from __future__ import annotations

import itertools
import time
from typing import Iterator, NamedTuple, Sequence

from kbdraughts.board import BB_BOARD, SQUARES
from kbdraughts.errors import KbdraughtsError
from kbdraughts.kb.motifs.interpret import COMPARE, solve  # solve: re-exported, its old home
from kbdraughts.kb.motifs.motif import COMPARISONS, VOCABULARY, Define, Lit, Motif, is_var
from kbdraughts.kb.motifs.vocab import ALL, GEOMETRY, STATES

__all__ = ["Compiled", "compile_motif", "unfold", "solve", "kind", "GROUNDING_LIMIT",
           "WORK_LIMIT", "TIME_LIMIT_S", "Budget", "CompileError",
           "static_kind", "square_vars", "by_name"]

#: The most groundings one motif may compile to: past it, ``rules check`` reports an error
#: (write a geometry condition that ties its squares together).
GROUNDING_LIMIT = 20_000
#: The work one motif's compilation may do: steps of the grounding search (a binding tried, a
#: table row scanned) and seconds. The groundings alone do not bound it: six free squares
#: ordered in a circle (A < B ... F < A) take 8.9 million steps, 11 s, for none. The shipped
#: motifs take at most some 60,000 steps each, a draft of ``teach motif`` some 6,000.
WORK_LIMIT = 3_000_000
TIME_LIMIT_S = 10.0
#: The most variants (choices of define clauses) and conditions in one variant a motif may
#: unfold to: eight alternatives called twenty times would be 8**20 variants.
VARIANT_LIMIT = 1_000
UNFOLDED_LIMIT = 300


class CompileError(KbdraughtsError, ValueError):
    """A motif past a compile budget; the message names the motif and what to do. ``timed``:
    the time limit fell (another run, on another machine, may not)."""

    def __init__(self, message: str, timed: bool = False):
        super().__init__(message)
        self.timed = timed


class Budget:
    """The work left for one motif's compilation, checked while it runs."""

    def __init__(self, motif_id: str, steps: int | None = None,
                 seconds: float | None = None):
        steps = WORK_LIMIT if steps is None else steps  # read now: a test may lower them
        seconds = TIME_LIMIT_S if seconds is None else seconds
        self.motif_id = motif_id
        self.left = steps
        self.steps = steps
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def spend(self, n: int = 1) -> None:
        before = self.left
        self.left -= n
        if self.left < 0:
            raise CompileError(f"motif {self.motif_id} takes more than {self.steps:,} steps to "
                               "compile: tie its squares together with geometry (next, jump, "
                               "ray) before other conditions")
        if before >> 12 != self.left >> 12 and time.monotonic() > self.deadline:
            raise CompileError(f"motif {self.motif_id} takes more than {self.seconds:g} s to "
                               "compile: tie its squares together with geometry", timed=True)


class Compiled(NamedTuple):
    """A motif compiled: the residual literals of each variant, and the groundings, each
    ``(variant, ((var, value), ...), allow)`` with ``allow`` the five state masks."""

    residuals: tuple[tuple[Lit, ...], ...]
    groundings: tuple[tuple[int, tuple, tuple[int, ...]], ...]


def kind(lit: Lit, defines: dict[str, list[Define]]) -> str:
    if lit.pred in COMPARISONS:
        return "compare"
    if lit.pred in defines:
        return "define"
    p = VOCABULARY.get(lit.pred)
    return p.kind if p else "unknown"


def static_kind(k: str) -> bool:
    return k in ("geometry", "position")


def _vars(lit: Lit) -> list[str]:
    return [a for a in lit.args if is_var(a)]


def square_vars(motif: Motif) -> list[str]:
    """The motif's variables that stand for squares (the play's and the position's)."""
    out = [v for v in motif.variables() if "__" not in v]
    typed: set[str] = {t for t in motif.play if is_var(t)}
    for lit in motif.body:
        types = VOCABULARY[lit.pred].types if lit.pred in VOCABULARY else ""
        typed.update(a for a, t in zip(lit.args, types) if t == "s" and is_var(a))
    return [v for v in out if v in typed]


def unfold(body: Sequence[Lit], defines: dict[str, list[Define]], motif_id: str = "?",
           budget: Budget | None = None) -> list[tuple[Lit, ...]]:
    """The body with every positive define call inlined: one conjunction per choice of clauses,
    in the order of the choices (CompileError past VARIANT_LIMIT of them, UNFOLDED_LIMIT
    conditions in one, or the work ``budget``). Each variant is built on a stack of its own,
    (literals kept, literals left) as linked lists, so a chain of defines costs no recursion
    and a call costs the length of its clause's body."""
    budget = budget or Budget(motif_id)
    try:
        return _unfold(body, defines, motif_id, budget)
    except CompileError:
        if budget.left >= 0:  # a limit of its own, or the clock: said as it is
            raise
        raise CompileError(f"motif {motif_id} takes more than {budget.steps:,} steps to unfold "
                           "its defines: call fewer defines, or fewer through one another"
                           ) from None


def _unfold(body: Sequence[Lit], defines: dict[str, list[Define]], motif_id: str,
            budget: Budget) -> list[tuple[Lit, ...]]:
    counter = itertools.count(1)
    out: list[tuple[Lit, ...]] = []
    goals: tuple | None = None  # a linked list (literal, rest)
    for lit in reversed(body):
        goals = (lit, goals)
    # Each entry: the goals kept, their number, the goals left.
    todo: list[tuple[tuple | None, int, tuple | None]] = [(None, 0, goals)]
    while todo:
        kept, n, left = todo.pop()
        budget.spend()
        if left is None:
            out.append(_listed(kept))
            if len(out) > VARIANT_LIMIT:
                raise CompileError(f"motif {motif_id} unfolds to more than {VARIANT_LIMIT:,} "
                                   "variants (choices of define clauses): call fewer defines "
                                   "with alternatives")
            continue
        lit, rest = left
        if lit.pred not in defines or lit.negated:
            if n == UNFOLDED_LIMIT:
                raise CompileError(f"motif {motif_id} unfolds to more than {UNFOLDED_LIMIT} "
                                   "conditions: its defines call too many others")
            todo.append(((lit, kept), n + 1, rest))
            continue
        branches = []
        for d in defines[lit.pred]:
            budget.spend(len(d.body))
            k = next(counter)
            rename = dict(zip(d.params, lit.args))
            inlined = rest
            for b in reversed(d.body):
                inlined = (Lit(b.pred, tuple(rename.get(a, f"{a}__{k}") if is_var(a) else a
                                             for a in b.args), b.negated), inlined)
            branches.append((kept, n, inlined))
        todo.extend(reversed(branches))  # the first clause is unfolded first
    return out


def _listed(kept: tuple | None) -> tuple[Lit, ...]:
    """A linked list of literals, last first, as a tuple in written order."""
    out: list[Lit] = []
    while kept is not None:
        lit, kept = kept
        out.append(lit)
    return tuple(reversed(out))


def _split(lits: Sequence[Lit], defines) -> tuple[list[Lit], list[Lit]]:
    """(static, residual) literals, each in written order."""
    static: list[Lit] = []
    residual: list[Lit] = []
    bound: set[str] = set()
    for lit in lits:
        k = kind(lit, defines)
        if static_kind(k) or (k == "compare" and set(_vars(lit)) <= bound):
            static.append(lit)
            if not lit.negated:
                bound.update(_vars(lit))
        else:
            residual.append(lit)
    return static, residual


_SQUARE_INDEX = {sq: i for i, sq in enumerate(SQUARES)}
_ROW_INDEX = {pred: {row: i for i, row in enumerate(rows)} for pred, rows in GEOMETRY.items()}
_FANOUT: dict[tuple[str, tuple[bool, ...]], float] = {}


def _fanout(pred: str, known: tuple[bool, ...]) -> float:
    """The rows of a geometry table a literal has on average, given which arguments are known."""
    key = (pred, known)
    if key not in _FANOUT:
        rows = GEOMETRY[pred]
        seen = {tuple(v for v, k in zip(r, known) if k) for r in rows}
        _FANOUT[key] = len(rows) / max(1, len(seen))
    return _FANOUT[key]


def _order(static: list[Lit]) -> list[Lit]:
    """The static literals in the order the search tries them: the fewest branches first (a
    geometry condition that ties a square to one already bound before a free square), which
    gives the same groundings as the written order at a fraction of the work. A negated
    geometry condition keeps its place: what it excludes depends on what is bound before it."""
    out: list[Lit] = []
    bound: set = set()
    segment: list[Lit] = []
    for lit in [*static, None]:
        if lit is not None and not (lit.negated and lit.pred in GEOMETRY):
            segment.append(lit)
            continue
        while segment:
            best = min(range(len(segment)), key=lambda i: (_cost(segment[i], bound), i))
            if _cost(segment[best], bound) == float("inf"):
                best = 0  # nothing can go first (a fault the checks report): as written
            chosen = segment.pop(best)
            out.append(chosen)
            bound.update(_vars(chosen))
        if lit is not None:
            out.append(lit)
    return out


def _cost(lit: Lit, bound: set) -> float:
    free = [is_var(a) and a not in bound for a in lit.args]
    if lit.pred in COMPARISONS:
        return float("inf") if any(free) else 0.0
    if lit.pred in STATES:
        return float(len(SQUARES)) if free[0] else 0.0
    return _fanout(lit.pred, tuple(not f for f in free))


def _written_key(static: list[Lit], env: dict) -> tuple[int, ...]:
    """Where the search in written order would have found the grounding ``env``: its choice
    at each literal (a square's place, a table row's place). Sorting by it gives the groundings
    in the order the written order gives them, whatever order the search took."""
    key = []
    bound: set = set()
    for lit in static:
        if lit.pred in STATES and is_var(lit.args[0]) and lit.args[0] not in bound:
            key.append(_SQUARE_INDEX[env[lit.args[0]]])
        elif lit.pred in GEOMETRY and not lit.negated:
            key.append(_ROW_INDEX[lit.pred][tuple(env.get(a, a) for a in lit.args)])
        if not lit.negated:
            bound.update(_vars(lit))
    return tuple(key)


def _ground(static: list[Lit], env: dict, masks: dict, budget: Budget, i: int = 0
            ) -> Iterator[tuple[dict, dict]]:
    budget.spend()
    if i == len(static):
        yield env, masks
        return
    lit = static[i]
    args = [env.get(a, a) if is_var(a) else a for a in lit.args]
    if lit.pred in COMPARISONS:
        if COMPARE[lit.pred](*args):
            yield from _ground(static, env, masks, budget, i + 1)
    elif lit.pred in STATES:
        allowed = STATES[lit.pred] ^ ALL if lit.negated else STATES[lit.pred]
        for s in (SQUARES if is_var(args[0]) else (args[0],)):
            mask = masks.get(s, ALL) & allowed
            if mask:
                env2 = {**env, args[0]: s} if is_var(args[0]) else env
                yield from _ground(static, env2, {**masks, s: mask}, budget, i + 1)
    else:
        budget.spend(len(GEOMETRY[lit.pred]))  # the table is scanned
        rows = [r for r in GEOMETRY[lit.pred]
                if all(is_var(a) or a == v for a, v in zip(args, r))]
        if lit.negated:
            if not rows:
                yield from _ground(static, env, masks, budget, i + 1)
            return
        for r in rows:
            env2 = dict(env)
            if all(env2.setdefault(a, v) == v for a, v in zip(args, r) if is_var(a)):
                yield from _ground(static, env2, masks, budget, i + 1)


def _allow(masks: dict[int, int]) -> tuple[int, ...]:
    out = []
    for t in range(5):
        forbid = sum(1 << s for s, m in masks.items() if not m >> t & 1)
        out.append(BB_BOARD & ~forbid)
    return tuple(out)


def compile_motif(motif: Motif, limit: int = GROUNDING_LIMIT,
                  budget: Budget | None = None) -> Compiled:
    """The motif's variants and groundings. CompileError (a ValueError naming the motif) past
    ``limit`` groundings, or past the work ``budget`` (default: WORK_LIMIT steps and
    TIME_LIMIT_S seconds)."""
    budget = budget or Budget(motif.id)
    defines = by_name(motif.defines)
    residuals = []
    groundings: list[tuple[int, tuple, tuple[int, ...]]] = []
    for v, lits in enumerate(unfold(motif.body, defines, motif.id, budget)):
        static, residual = _split(lits, defines)
        residuals.append(tuple(residual))
        found = []
        for env, masks in _ground(_order(static), {}, {}, budget):
            found.append((_written_key(static, env), env, masks))
            if len(groundings) + len(found) > limit:
                raise CompileError(f"motif {motif.id} compiles to more than {limit:,} "
                                   f"groundings (the limit): tie its squares with geometry")
        found.sort(key=lambda f: f[0])
        groundings.extend((v, tuple(sorted(env.items())), _allow(masks))
                          for _, env, masks in found)
    return Compiled(tuple(residuals), tuple(groundings))


def by_name(defines: Sequence[Define]) -> dict[str, list[Define]]:
    out: dict[str, list[Define]] = {}
    for d in defines:
        out.setdefault(d.name, []).append(d)
    return out
