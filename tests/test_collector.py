"""The collector paused for a block (issue 37): the caller's state back exactly, after a search
and after an exception in one, with blocks nested and overlapping between threads."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Iterator

import pytest

from kbdraughts.ai.search import Searcher
from kbdraughts.board import START, Position
from kbdraughts.collector import paused_gc
from kbdraughts.eval.heuristic import material


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    """Each test starts with the collector on, and leaves it on whatever it asserted."""
    assert gc.isenabled()
    try:
        yield
    finally:
        gc.enable()


class Boom(Exception):
    pass


def test_a_search_that_raises_gives_the_collector_back():
    calls = []

    def evaluate(pos: Position) -> float:
        calls.append(gc.isenabled())
        if len(calls) > 50:
            raise Boom
        return material(pos)

    with pytest.raises(Boom):
        Searcher(evaluate).search(START, max_depth=6)
    assert gc.isenabled() and not any(calls[1:])  # off inside, back on after the exception
    gc.disable()
    calls.clear()
    with pytest.raises(Boom):
        Searcher(evaluate).search(START, max_depth=6)
    assert not gc.isenabled()  # a caller's "off" stays off


def test_blocks_nest_and_the_outermost_restores():
    with paused_gc():
        with paused_gc(freeze=True):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block's end does not turn it on
    assert gc.isenabled()
    gc.disable()
    with paused_gc():
        pass
    assert not gc.isenabled()


def test_an_exception_leaves_the_state_as_it_was():
    with pytest.raises(Boom):
        with paused_gc():
            raise Boom
    assert gc.isenabled()


def test_overlapping_blocks_in_two_threads_restore_when_the_last_leaves():
    """Thread A enters, B enters, A leaves (the collector stays off: B is still inside), B
    leaves (on again): the order in which a naive save-and-restore turns it on under B."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def a() -> None:
        with paused_gc():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b() -> None:
        a_in.wait(5)
        with paused_gc():
            b_in.set()
            a_out.wait(5)
            seen["b after a left"] = gc.isenabled()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"b after a left": False} and gc.isenabled()


class Node:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_freeze_keeps_what_the_block_made_and_collect_frees_its_garbage_first():
    before = gc.get_freeze_count()
    kept = [Node() for _ in range(100)]
    garbage = Node()
    dead = weakref.ref(garbage)
    with paused_gc(freeze=True, collect=True):
        kept.append(Node())
        del garbage  # a cycle: the paused collector leaves it
        assert dead() is not None
    assert dead() is None  # collected before the freeze, not frozen for good
    assert gc.get_freeze_count() >= before + len(kept)
