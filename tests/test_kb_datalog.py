"""The one pyDatalog wrapper (kb/rules/datalog.py): the pinned version, private programs, values not
text, Python predicates bound to their program, any thread may ask."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path

import pytest

from kbdraughts.kb.rules.datalog import PYDATALOG_VERSION, Program, Var, check_version

ROOT = Path(__file__).resolve().parent.parent


def test_the_installed_pydatalog_is_the_pinned_one():
    found = metadata.version("pyDatalog")
    assert found == PYDATALOG_VERSION, (
        f"pyDatalog {found} is installed, but kb/rules/datalog.py uses the internals of pyDatalog "
        f"{PYDATALOG_VERSION}: pip install pyDatalog=={PYDATALOG_VERSION}")
    check_version()  # what the first Program runs


def test_pyproject_pins_the_same_version():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.findall(r'"pyDatalog([^"]*)"', text) == [f"=={PYDATALOG_VERSION}"]


def test_another_version_is_refused_naming_both():
    with pytest.raises(ImportError) as e:
        check_version("0.23.0")
    assert str(e.value).startswith("kbdraughts needs pyDatalog 0.22.4")
    assert "found pyDatalog 0.23.0" in str(e.value)
    assert "pip install pyDatalog==0.22.4" in str(e.value)


def test_importing_the_ai_and_the_knowledge_base_does_not_import_pydatalog():
    code = ("import sys, kbdraughts.ai.engine, kbdraughts.eval.heuristic, kbdraughts.kb, "
            "kbdraughts.kb.rules.index, kbdraughts.eval.terms, kbdraughts.kb.knowledge\n"
            "from kbdraughts.eval.heuristic import default_heuristic\n"
            "h = default_heuristic()\n"
            "print('pyDatalog' in sys.modules)\n"
            "h.applicable('weight', 0)\n"
            "print('pyDatalog' in sys.modules)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=60, check=True).stdout
    assert out.split() == ["False", "True"]  # not until a heuristic is first asked


def edges() -> Program:
    return Program("path(X, Y) <= edge(X, Y)\npath(X, Z) <= edge(X, Y) & path(Y, Z)\n")


def test_answers_give_the_unbound_arguments_in_order():
    p = edges()
    p.assert_facts("edge", [(1, 2), (2, 3), (3, 4)])
    assert sorted(p.ask("path", 1, Var("Z"))) == [(2,), (3,), (4,)]
    assert sorted(p.ask("path", Var("A"), 4)) == [(1,), (2,), (3,)]
    assert (2, 3) in p.ask("path", Var("A"), Var("B"))
    assert p.ask("path", 1, 4) == [()] and p.ask("path", 4, 1) == []
    p.retract("edge", [(2, 3), (9, 9)])  # a fact never asserted is ignored
    assert p.ask("path", 1, Var("Z")) == [(2,)]


def test_given_facts_hold_for_one_question_only():
    p = edges()
    p.assert_facts("edge", [(1, 2)])
    assert sorted(p.ask("path", 1, Var("Z"), given={"edge": [(2, 3)]})) == [(2,), (3,)]
    assert p.ask("path", 1, Var("Z")) == [(2,)]


def test_two_programs_never_see_each_others_facts():
    a, b = edges(), edges()
    a.assert_facts("edge", [(1, 2)])
    b.assert_facts("edge", [(1, 3)])
    assert a.ask("path", 1, Var("Z")) == [(2,)]
    assert b.ask("path", 1, Var("Z")) == [(3,)]
    with pytest.raises(AttributeError):  # "Predicate without definition": a new program
        Program().ask("edge", Var("X"), Var("Y"))


def test_values_are_never_read_as_datalog():
    p = Program("named(X) <= thing(X, Y)")
    odd = ["a') & evil(X", "__import__('os')", "X", "~q(Y)"]
    p.assert_facts("thing", [(s, 1) for s in odd])
    assert sorted(p.ask("named", Var("X"))) == sorted((s,) for s in odd)
    assert p.ask("thing", "X", Var("N")) == [(1,)]  # the string "X" is a value, not a variable


def test_python_predicates_are_bound_to_their_program():
    a, b = Program("big(X) <= item(X) & dp_over(X, 10)"), Program("big(X) <= item(X) & dp_over(X, 2)")
    for p in (a, b):
        p.assert_facts("item", [(1,), (5,), (20,)])

    def over(x, limit):
        if x is not None and limit is not None and x > limit:
            yield (x, limit)

    a.predicate("dp_over", 2, over)
    b.predicate("dp_over", 2, lambda x, limit: [(x, limit)] if x is not None and x > limit else [])
    assert sorted(a.ask("big", Var("X"))) == [(20,)]
    assert sorted(b.ask("big", Var("X"))) == [(5,), (20,)]
    c = Program("big(X) <= item(X) & dp_over(X, 0)")  # no resolver here: dp_over answers nothing
    c.assert_facts("item", [(1,)])
    assert c.ask("big", Var("X")) == []


def test_a_callers_own_pydatalog_program_is_left_alone():
    from pyDatalog import pyDatalog

    pyDatalog.assert_fact("dp_own", "x", 3)
    p = edges()
    p.assert_facts("edge", [(1, 2)])
    assert p.ask("path", 1, Var("Z")) == [(2,)]
    assert pyDatalog.ask("dp_own(X, Y)").answers == [("x", 3)]
    with pytest.raises(AttributeError):  # "Predicate without definition": not in this program
        pyDatalog.ask("edge(X, Y)")
    pyDatalog.retract_fact("dp_own", "x", 3)


def in_thread(fn):
    out, errors = [], []

    def run():
        try:
            out.append(fn())
        except BaseException as e:  # reported by the asking test
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(60)
    assert not errors, errors
    return out[0]


def test_a_program_made_in_one_thread_answers_in_another():
    p = edges()
    p.assert_facts("edge", [(1, 2)])
    assert in_thread(lambda: p.ask("path", 1, Var("Z"))) == [(2,)]
    q = in_thread(edges)  # made and loaded in a thread that is gone
    q.assert_facts("edge", [(5, 6)])
    assert q.ask("path", 5, Var("Z")) == [(6,)]
    assert in_thread(lambda: q.ask("path", 5, Var("Z"))) == [(6,)]


def test_concurrent_questions_get_their_own_answers():
    shared, own = edges(), [edges(), edges()]
    shared.assert_facts("edge", [(0, 1)])
    wrong: list[str] = []

    def ask_many(n: int) -> None:
        for i in range(200):
            x = 1000 + 100 * n + i  # facts given for this question only, unlike the other thread's
            got = sorted(shared.ask("path", 0, Var("Z"), given={"edge": [(1, x)]}))
            if got != [(1,), (x,)]:
                wrong.append(f"thread {n}, shared: {got}")
            own[n].assert_facts("edge", [(n, x)])
            if (x,) not in own[n].ask("path", n, Var("Z")):
                wrong.append(f"thread {n}, own: {x} missing")

    threads = [threading.Thread(target=ask_many, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert wrong == []
    assert shared.ask("path", 0, Var("Z")) == [(1,)]
