"""The one pyDatalog wrapper: private programs, asked from any thread.

>>> p = Program("path(X, Y) <= edge(X, Y)\\npath(X, Z) <= edge(X, Y) & path(Y, Z)")
>>> p.assert_facts("edge", [(1, 2), (2, 3)])
>>> sorted(p.ask("path", 1, Var("Z")))
[(2,), (3,)]
>>> sorted(p.ask("path", 2, Var("Z"), given={"edge": [(3, 4)]}))  # facts for this question only
[(3,), (4,)]
>>> p.ask("path", 2, Var("Z")), p.ask("path", 1, 3), p.ask("path", 3, 1)
([(3,)], [()], [])

Isolation
---------
pyDatalog keeps its program in per-thread global state (``Logic.tl.logic``) and resolves
Python predicates through one global table. A :class:`Program` owns a private ``Logic``,
installs it only for the duration of a load, an assertion or a question, and then puts back
whatever program the calling thread had, all under the program's lock. So two programs never
see each other's facts, a program made in one thread answers in any other (the lock
serialises questions to one program; different programs are asked in parallel), and a
caller's own pyDatalog program is left as it was. Nothing here calls ``pyDatalog.clear()``.

Python-resolved predicates (:meth:`Program.predicate`) are bound to their program: pyDatalog's
table holds one dispatcher per name and arity, which calls the resolver of the program being
asked. The table is global, so such a name is a Python predicate in every program (answering
nothing in a program that did not register it): do not also give it facts or clauses.

Speed
-----
Facts are asserted as engine clauses built directly (``pyEngine.assert_``), several times
cheaper than ``pyDatalog.assert_fact``, which parses each one; questions are engine literals
built from values, never Datalog text, so no caller's value is ever parsed as code. Program
text (:meth:`Program.load`) is written by this package, not by a rule-file author.

pyDatalog itself is imported when the first Program is made, so importing the knowledge base or
the AI costs nothing until a question is asked. These internals are pyDatalog 0.22.4's: another
version is refused with an ImportError naming both.
"""

from __future__ import annotations

import functools
import threading
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

__all__ = ["Program", "Var", "PYDATALOG_VERSION", "check_version"]

#: The pyDatalog whose internals this module uses (pinned in pyproject.toml).
PYDATALOG_VERSION = "0.22.4"

#: A Python resolver: called with one value per argument (None where unbound), it yields the
#: rows (one value per argument) that hold.
Resolver = Callable[..., Iterable[Sequence[Any]]]


class Var:
    """An unbound argument of a question; the answer gives its values."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"Var({self.name!r})"


def check_version(found: str | None = None) -> None:
    """ImportError unless pyDatalog ``found`` (default: the installed one) is the pinned one."""
    if found is None:
        from importlib import metadata  # ~15 ms: paid with pyDatalog's import, not before

        try:
            found = metadata.version("pyDatalog")
        except metadata.PackageNotFoundError:
            found = "none"
    if found != PYDATALOG_VERSION:
        raise ImportError(
            f"kbdraughts needs pyDatalog {PYDATALOG_VERSION} (it uses that version's engine "
            f"internals), but found pyDatalog {found}: pip install pyDatalog=={PYDATALOG_VERSION}")


@functools.cache
def _engine() -> SimpleNamespace:
    """pyDatalog's modules, imported once (the first Program) after the version check."""
    check_version()
    from pyDatalog import pyEngine, pyParser  # the package sets up this thread's program
    from pyDatalog.Logic import Logic

    return SimpleNamespace(engine=pyEngine, parser=pyParser, Logic=Logic)


#: The program being asked in this thread, for the resolver dispatchers.
_asking = threading.local()
#: Names (``name/arity``) that have a dispatcher in pyDatalog's resolver table.
_dispatched: set[str] = set()
_dispatch_lock = threading.Lock()


def _dispatcher(key: str) -> Callable[..., Iterable[Sequence[Any]]]:
    def resolve(*terms: Any) -> Iterable[Sequence[Any]]:
        program = getattr(_asking, "program", None)
        fn = program._resolvers.get(key) if program is not None else None
        if fn is None:
            return ()
        return fn(*[t.id if t.is_const() else None for t in terms])

    return resolve


class Program:
    """A private pyDatalog program: clauses, facts, Python predicates, questions."""

    def __init__(self, text: str = ""):
        """A new empty program, then ``text`` loaded into it (see :meth:`load`)."""
        e = self._e = _engine()
        self._lock = threading.Lock()
        self._resolvers: dict[str, Resolver] = {}
        saved = getattr(e.Logic.tl, "logic", None)
        try:
            self._logic = e.Logic()  # a fresh program; Logic() makes it this thread's
        finally:
            _restore(e.Logic, saved)
        if text:
            self.load(text)

    def _install(self) -> tuple[Any, Any]:
        """Make this program the calling thread's (the lock held); what to put back after."""
        e = self._e
        tl = e.Logic.tl
        saved = getattr(tl, "logic", None), getattr(_asking, "program", None)
        tl.logic = self._logic
        _asking.program = self
        if not hasattr(e.engine.Fresh_var.tl, "counter"):  # a thread pyDatalog never saw
            e.engine.Fresh_var.tl.counter = 0
        return saved

    def _uninstall(self, saved: tuple[Any, Any]) -> None:
        _asking.program = saved[1]
        _restore(self._e.Logic, saved[0])

    @contextmanager
    def _installed(self) -> Iterator[Any]:
        """This program made the calling thread's, under the lock; the engine module given."""
        with self._lock:
            saved = self._install()
            try:
                yield self._e.engine
            finally:
                self._uninstall(saved)

    def load(self, text: str) -> None:
        """Add the clauses of a Datalog ``text`` (pyDatalog syntax). The text is compiled as
        Python: only this package's own program text belongs here, never a user's."""
        with self._installed():
            storage = self._e.parser.Thread_storage
            if not hasattr(storage, "variables"):  # a thread pyDatalog never saw
                storage.variables = set()
            self._e.parser.load(text)  # not pyDatalog.load, which inspects the caller's frame

    def predicate(self, name: str, arity: int, resolve: Resolver) -> None:
        """Answer ``name/arity`` in this program by calling ``resolve``: it gets one value per
        argument (None where unbound) and yields the rows that hold, as pyDatalog's
        ``@pyDatalog.predicate()`` resolvers do. A resolver must not ask its own program (the
        question holds the program's lock)."""
        key = f"{name}/{arity}"
        self._resolvers[key] = resolve
        with _dispatch_lock:
            if key not in _dispatched:
                self._e.engine.Python_resolvers[key] = _dispatcher(key)
                _dispatched.add(key)

    def add_clause(self, head: tuple[str, Sequence[Any]],
                   body: Sequence[tuple[str, Sequence[Any], bool]]) -> None:
        """Add the clause ``head <= body`` built from values, never parsed: ``head`` is
        ``(name, args)``, each body literal ``(name, args, negated)``; an argument is a
        :class:`Var` or a value; a name among ``< <= > >= == !=`` is a comparison.

        >>> p = Program()
        >>> p.assert_facts("edge", [(1, 2), (2, 3)])
        >>> p.add_clause(("far", [Var("X")]), [("edge", [Var("X"), Var("Y")], False),
        ...                                     ("edge", [Var("Y"), Var("Z")], False),
        ...                                     ("!=", [Var("X"), 3], False)])
        >>> p.ask("far", Var("X"))
        [(1,)]
        """
        with self._installed() as engine:
            def term(a: Any) -> Any:
                return engine.Var(a.name) if isinstance(a, Var) else engine.Term_of(a)

            def lit(name: str, args: Sequence[Any], negated: bool = False) -> Any:
                return engine.Literal(("~" if negated else "") + name, [term(a) for a in args])

            engine.assert_(engine.Clause(lit(*head), [lit(*b) for b in body]))

    def assert_facts(self, name: str, rows: Iterable[Sequence[Any]]) -> None:
        """Add the facts ``name(*row)`` for every row (values: ints, strings, floats)."""
        with self._installed() as engine:
            assert_, clause, literal, term = (engine.assert_, engine.Clause, engine.Literal,
                                              engine.Term_of)
            for row in rows:
                assert_(clause(literal(name, [term(x) for x in row]), []))

    def retract(self, name: str, rows: Iterable[Sequence[Any]]) -> None:
        """Remove the facts ``name(*row)`` (a fact never asserted is ignored)."""
        with self._installed() as engine:
            retract, clause, literal, term = (engine.retract, engine.Clause, engine.Literal,
                                              engine.Term_of)
            for row in rows:
                retract(clause(literal(name, [term(x) for x in row]), []))

    def ask(self, name: str, *args: Any,
            given: Mapping[str, Iterable[Sequence[Any]]] | None = None) -> list[tuple]:
        """The answers to ``name(*args)``: one tuple per answer with the values of the
        :class:`Var` arguments, in order (``[()]`` for a yes without variables, ``[]`` for
        no). ``given`` facts hold for this question only (asserted, asked, retracted at once).
        AttributeError (pyDatalog's) for a predicate the program has no clause or fact of."""
        engine = self._e.engine
        term, clause, literal = engine.Term_of, engine.Clause, engine.Literal
        with self._lock:  # _installed() written out: this is the path every question takes
            saved = self._install()
            try:
                facts = [clause(literal(n, [term(x) for x in row]), [])
                         for n, rows in given.items() for row in rows] if given else []
                for fact in facts:
                    engine.assert_(fact)
                try:
                    goal = [engine.Var(a.name) if isinstance(a, Var) else term(a) for a in args]
                    rows = literal(name, goal).ask()
                finally:
                    for fact in facts:
                        engine.retract(fact)
            finally:
                self._uninstall(saved)
        if rows is True:
            return [()]
        if not rows:
            return []
        free = [i for i, a in enumerate(args) if isinstance(a, Var)]
        if len(free) == len(args):
            return rows
        return [tuple(row[i] for i in free) for row in rows]


def _restore(logic_class: Any, saved: object) -> None:
    """Put back the calling thread's own pyDatalog program (or none, as it was)."""
    if saved is None:
        if hasattr(logic_class.tl, "logic"):
            del logic_class.tl.logic
    else:
        logic_class.tl.logic = saved
