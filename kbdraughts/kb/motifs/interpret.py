"""The interpreter of a motif's body in one position: what the compiled groundings leave to
check per candidate (counts, library and ``after`` conditions, comparisons, ``not`` of a
define), and a plain reading of any body.

It reads as Prolog does, depth first (literals left to right, then table rows and a define's
clauses in order), but with a stack of its own instead of Python's: a define's call is replaced
by its clause's body, renamed (its own variables get a ``#`` no file can write), and ``not``
runs its search above a marker on the same stack, cut back to it when a solution turns up. So
defines nested as deep as a file likes cost no recursion, and every step is counted: past
``steps`` the search stops with OutOfSteps, and the caller takes the body as not holding (a
motif claims only what was judged).

>>> from kbdraughts.kb.motifs.motif import Define, parse_body
>>> from kbdraughts.kb.motifs.vocab import Board
>>> from kbdraughts.notation import parse_fen, SQUARE_NAMES
>>> near = Define("near", ("A",), parse_body("next(A, B, D), their_piece(B)"), 1)
>>> found = solve(parse_body("our_man(S), not near(S)"), {}, Board(parse_fen("W:Wa1,c3:Bd4")),
...               {"near": [near]})
>>> [SQUARE_NAMES[env["S"]] for env in found]
['a1']
"""

from __future__ import annotations

import itertools
from typing import Iterator, Sequence

from kbdraughts.board import SQUARES
from kbdraughts.errors import KbdraughtsError
from kbdraughts.kb.motifs.motif import COMPARISONS, Define, Lit, is_var
from kbdraughts.kb.motifs.vocab import GEOMETRY, STATES, Board, state_of

__all__ = ["solve", "Steps", "OutOfSteps", "SOLVE_STEPS", "COMPARE"]

#: The steps (a literal tried, a row or a clause taken) the interpreter may take for one motif
#: in one position, all its candidates together: the shipped motifs took at most 132 on 3,000
#: positions of random games; a ``not`` of a define that orders four free squares takes
#: millions (some seconds a candidate).
SOLVE_STEPS = 100_000

COMPARE = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
           "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


class OutOfSteps(KbdraughtsError):
    """The interpreter's steps ran out: the body was not judged."""


class Steps:
    """The steps left to a search (shared by several, it bounds them all)."""

    def __init__(self, limit: int | None = None):
        self.left = SOLVE_STEPS if limit is None else limit  # read now: a test may lower it

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise OutOfSteps


class _Not:
    """A negation's marker: the state to go on from when its search finds nothing."""

    __slots__ = ("env", "rest")

    def __init__(self, env: dict, rest: tuple | None):
        self.env, self.rest = env, rest


_FOUND = Lit("#found", ())  # ends a negation's inner search: a solution was found


def solve(lits: Sequence[Lit], env: dict, board: Board, defines: dict[str, list[Define]],
          steps: Steps | None = None) -> Iterator[dict]:
    """Every extension of ``env`` that makes ``lits`` hold in ``board``, in depth-first order
    (the variables of the defines called left out). OutOfSteps past ``steps``: a step is a
    row, a clause or a negation's outcome taken (what the shipped motifs' candidates ask is
    a few dozen, so the count is kept in a local, not a call each)."""
    steps = Steps() if steps is None else steps
    fresh = itertools.count(1)
    goals: tuple | None = None  # the literals left, as a linked list (literal, rest)
    for lit in reversed(lits):
        goals = (lit, goals)
    stack: list = [iter(((env, goals),))]
    called = False  # a define was entered: its variables are left out of what is given
    left = steps.left
    try:
        while stack:
            top = stack[-1]
            if type(top) is _Not:  # its search found nothing: ``not`` holds, go on after it
                stack[-1] = iter(((top.env, top.rest),))
                continue
            state = next(top, None)
            if state is None:
                stack.pop()
                continue
            left -= 1
            if left < 0:
                raise OutOfSteps
            now, goals = state
            if goals is None:
                steps.left = left
                yield {k: v for k, v in now.items() if "#" not in k} if called else now
                left = steps.left  # another search may have spent some meanwhile
                continue
            lit, rest = goals
            if lit is _FOUND:  # ``not`` fails: drop its search, back to before its marker
                while type(stack.pop()) is not _Not:
                    pass
            elif lit.negated:
                stack.append(_Not(now, rest))
                stack.append(iter(((now, (lit._replace(negated=False), (_FOUND, None))),)))
            elif lit.pred in defines:
                called = True
                stack.append(_clauses(lit, rest, now, defines[lit.pred], fresh))
            else:
                stack.append(_rows(lit, rest, now, board))
    finally:
        steps.left = left


def _clauses(lit: Lit, rest: tuple | None, env: dict, clauses: list[Define],
             fresh: itertools.count) -> Iterator[tuple[dict, tuple | None]]:
    """The goals with the call ``lit`` replaced by each clause's body in turn, its parameters
    by the call's arguments and its other variables by fresh names."""
    for d in clauses:
        k = next(fresh)
        rename = dict(zip(d.params, lit.args))
        goals = rest
        for b in reversed(d.body):
            args = tuple(rename.get(a, f"{a}#{k}") if is_var(a) else a for a in b.args)
            goals = (Lit(b.pred, args, b.negated), goals)
        yield env, goals


def _rows(lit: Lit, rest: tuple | None, env: dict, board: Board
          ) -> Iterator[tuple[dict, tuple | None]]:
    """Each way a literal of the vocabulary (or a comparison) holds, as the bindings it adds:
    one state for each row (the state itself when the literal binds nothing, as a residual's
    do: its squares are bound)."""
    args = tuple(env.get(a) if is_var(a) else a for a in lit.args)
    pred = lit.pred
    if pred in COMPARISONS:
        return iter(((env, rest),) if None not in args and COMPARE[pred](*args) else ())
    if pred in STATES:
        squares = SQUARES if args[0] is None else (args[0],)
        rows = [(s,) for s in squares if state_of(board.pos, s) & STATES[pred]]
    elif pred in GEOMETRY:
        rows = [r for r in GEOMETRY[pred] if all(a is None or a == v for a, v in zip(args, r))]
    else:
        rows = board.library(pred, args)
    if None not in args:
        return iter(((env, rest),) * len(rows))
    return _bound(lit.args, rows, env, rest)


def _bound(terms: tuple, rows: list[tuple], env: dict, rest: tuple | None
           ) -> Iterator[tuple[dict, tuple | None]]:
    for r in rows:
        env2 = dict(env)
        if all(env2.setdefault(a, v) == v for a, v in zip(terms, r) if is_var(a)):
            yield env2, rest
