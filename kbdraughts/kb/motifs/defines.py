"""A file's defines as one call graph, worked out once, callees before their callers.

Checking a define needs to know the defines it calls: their parameters' types, how deep their
calls nest and how many conditions they unfold to. Each is worked out once per define, in
dependency order (Tarjan's walk, written with a stack of its own: a chain of 50,000 defines
costs no recursion), so a file's defines are checked in time linear in its text however they
call one another; the same walk finds the defines that call themselves.

Two limits bound what a define can make the compiler and the interpreter do (issue 11): it may
nest at most DEPTH_LIMIT defines deep, itself counted, and unfold to at most SIZE_LIMIT
conditions, a call counted as the conditions of the define it calls, alternatives added (so a
define that calls the one before it twice, forty times over, is refused rather than doubled
forty times). Past a limit, the error is at the define that crosses it; whatever calls that
define is left out with it.

>>> from kbdraughts.kb.motifs.motif import Define, parse_body
>>> near = Define("near", ("A",), parse_body("next(A, B, D), their_piece(B)"), 1)
>>> guard = Define("guard", ("S",), parse_body("our_man(S), near(S), not near(S)"), 2)
>>> g = analyse([near, guard])
>>> g.order, g.depth["guard"], g.size["guard"], g.types["guard"]
(['near', 'guard'], 2, 5, ('s',))
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from kbdraughts.kb.motifs.motif import VOCABULARY, Define, Lit, is_var

__all__ = ["DEPTH_LIMIT", "SIZE_LIMIT", "Graph", "analyse", "graph_faults", "culprits",
           "reached"]

#: The most defines one call may nest, itself counted: the shipped files nest one.
DEPTH_LIMIT = 32
#: The most conditions a define may unfold to (a call counted as its define's conditions,
#: alternatives added); counts stop just past it, so a doubling chain stays small numbers.
SIZE_LIMIT = 5_000


class Graph(NamedTuple):
    """A file's defines: ``by`` each name's clauses in file order; ``calls`` the defines each
    name's clauses call (positive or negated), each once; ``order`` every name, callees first;
    ``cyclic`` the names that call themselves, directly or through others. ``depth`` and
    ``size`` (capped at SIZE_LIMIT + 1) are missing for a name that reaches a cycle; ``types``
    each name's parameters' types (``s``, ``d``, ``n``, ``?`` when its body does not say)."""

    by: dict[str, list[Define]]
    calls: dict[str, tuple[str, ...]]
    order: list[str]
    cyclic: frozenset[str]
    depth: dict[str, int]
    size: dict[str, int]
    types: dict[str, tuple[str, ...]]


def analyse(defines: Sequence[Define]) -> Graph:
    """The call graph of ``defines`` with each name's depth, size and types."""
    by: dict[str, list[Define]] = {}
    for d in defines:
        by.setdefault(d.name, []).append(d)
    calls = {name: tuple(dict.fromkeys(lit.pred for d in ds for lit in d.body
                                       if lit.pred in by))
             for name, ds in by.items()}
    order: list[str] = []
    cyclic: set[str] = set()
    for component in _components(calls):
        order.extend(component)
        if len(component) > 1 or component[0] in calls[component[0]]:
            cyclic.update(component)
    depth: dict[str, int] = {}
    size: dict[str, int] = {}
    types: dict[str, tuple[str, ...]] = {}
    for name in order:
        types[name] = _param_types(by[name], by, types)
        if name in cyclic or any(c not in depth for c in calls[name]):
            continue  # in or above a cycle: an error already, and no number to give
        depth[name] = 1 + max((depth[c] for c in calls[name]), default=0)
        size[name] = min(SIZE_LIMIT + 1, sum(size.get(lit.pred, 1) for d in by[name]
                                             for lit in d.body))
    return Graph(by, calls, order, frozenset(cyclic), depth, size, types)


def _components(calls: dict[str, tuple[str, ...]]) -> list[list[str]]:
    """The strongly connected components of the call graph, callees' before callers' (Tarjan),
    walked with an explicit stack of (name, next callee to visit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    open_: list[str] = []  # names whose component is not finished
    is_open: set[str] = set()
    out: list[list[str]] = []
    for root in calls:
        if root in index:
            continue
        walk = [(root, 0)]
        while walk:
            name, i = walk.pop()
            if i == 0:
                index[name] = low[name] = len(index)
                open_.append(name)
                is_open.add(name)
            callees = calls[name]
            while i < len(callees) and callees[i] in index:
                if callees[i] in is_open:
                    low[name] = min(low[name], index[callees[i]])
                i += 1
            if i < len(callees):  # visit that callee first, then come back for the next
                walk += [(name, i + 1), (callees[i], 0)]
                continue
            if low[name] == index[name]:
                component: list[str] = []
                while not component or component[-1] != name:
                    component.append(open_.pop())
                    is_open.discard(component[-1])
                out.append(component[::-1])
            if walk:  # the caller learns how far back its callee reaches
                caller = walk[-1][0]
                low[caller] = min(low[caller], low[name])
    return out


def _param_types(clauses: list[Define], by: dict[str, list[Define]],
                 known: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """A define's parameters' types, read off the vocabulary slots and the (already typed)
    defines its clauses put them in; the first clause that says wins."""
    found: dict[str, str] = {}
    for d in clauses:
        for lit in d.body:
            slots = _slots(lit, by, known)
            for a, t in zip(lit.args, slots):
                if is_var(a) and t != "?":
                    found.setdefault(a, t)
    return tuple(found.get(p, "?") for p in clauses[0].params)


def _slots(lit: Lit, by: dict[str, list[Define]], known: dict[str, tuple[str, ...]]) -> str:
    if lit.pred in VOCABULARY:
        return VOCABULARY[lit.pred].types
    if lit.pred in by and lit.pred in known:
        return "".join(known[lit.pred])
    return "?" * len(lit.args)


def graph_faults(g: Graph) -> list[tuple[str, int, str]]:
    """(name, line, message) for each define that calls itself or crosses a limit, in file
    order. Only the define where a limit is crossed is named: those above it fail with it."""
    out = []
    for name in g.order:
        line = g.by[name][0].line
        if name in g.cyclic:
            out.append((name, line, f"define {name} calls itself (directly or through other "
                                    "defines): no recursion"))
            continue
        if g.depth.get(name) == DEPTH_LIMIT + 1:
            out.append((name, line, f"define {name} nests defines {DEPTH_LIMIT + 1} deep "
                        f"({_deepest(g, name)}), more than the limit of {DEPTH_LIMIT}: call "
                        "fewer defines through one another"))
        if g.size.get(name, 0) > SIZE_LIMIT and all(g.size[c] <= SIZE_LIMIT
                                                    for c in g.calls[name]):
            out.append((name, line, f"define {name} unfolds to more than {SIZE_LIMIT:,} "
                        "conditions (each call counted as the conditions of its define), the "
                        "limit: call fewer defines, or call them fewer times"))
    out.sort(key=lambda f: f[1])
    return out


def _deepest(g: Graph, name: str) -> str:
    """The chain of calls that makes ``name`` as deep as it is, shortened:
    ``a -> b -> ... -> z``."""
    chain = [name]
    while g.calls[chain[-1]]:
        chain.append(max(g.calls[chain[-1]], key=g.depth.__getitem__))
    shown = chain if len(chain) <= 4 else [*chain[:2], "...", chain[-1]]
    return " -> ".join(shown)


def culprits(g: Graph, broken: dict[str, int]) -> dict[str, str]:
    """For each define that is broken or calls one, directly or through others: a broken one
    it reaches (itself when it is broken). One pass, callees first."""
    out: dict[str, str] = {}
    for name in g.order:
        if name in broken:
            out[name] = name
            continue
        for c in g.calls[name]:
            if c in out:
                out[name] = out[c]
                break
    return out


def reached(body: Sequence[Lit], g: Graph) -> list[Define]:
    """The clauses of the defines ``body`` calls, directly or through others, in file order."""
    seen: set[str] = set()
    todo = [lit.pred for lit in body if lit.pred in g.by]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(g.calls[name])
    return sorted((d for name in seen for d in g.by[name]), key=lambda d: d.line)
