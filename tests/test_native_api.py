"""The native core defends itself at its doors (the defect issue's items 7 to 9): Python
callers, however hostile, get a Python exception, never a crash. A call that could crash runs
in a child interpreter, so a segfault fails its test instead of ending pytest; under
tools/sanitize.py the child inherits the sanitized build, and a sanitizer report fails it too.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from kbdraughts import native
from kbdraughts.board import START, Move, Position, legal_moves

pytestmark = pytest.mark.skipif(native.core is None, reason=f"no native core: {native.why_pure}")

#: What every child starts with: the core, a searcher on the material, and the start.
PRELUDE = """\
import threading
from kbdraughts import native
from kbdraughts.board import START, Move, Position, legal_moves
core = native.core
ev = core.Evaluator(material=True)
searcher = core.Searcher(ev, 1 << 10)

def wait_until_searching(searcher):
    # the searcher refuses probe() while its search holds it: then it is running
    while True:
        try:
            searcher.probe(START)
        except RuntimeError:
            return

def refused(call):
    try:
        call()
    except RuntimeError as e:
        return f"refused: {e}"
    return "accepted"

def outcome(call):
    # what a call gave, or the clean error it raised
    try:
        return repr(call())
    except (ValueError, TypeError, RuntimeError, LookupError) as e:
        return f"{type(e).__name__}: {e}"
"""

#: 16 white and 14 black pieces: a capture can answer a capture for 27 plies, past the 25
#: move lists the native resolve sized for 12 pieces a side.
CROWDED = Position(9389017773, 57178755394, 30763286826, 0)


def isolated(code: str) -> list[str]:
    """The lines a child interpreter prints running ``code`` after PRELUDE; it must exit 0."""
    proc = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"
    return proc.stdout.splitlines()


# --- item 7: piece counts ---------------------------------------------------------------------


def test_resolve_refuses_more_than_12_pieces_a_side():
    out = isolated(f"print(outcome(lambda: core.resolve({tuple(CROWDED)}, 0, 0)))")
    assert out == ["ValueError: not a position: white has 16 pieces; at most 12"]


@pytest.mark.parametrize("name", ["captures", "quiet_moves", "legal_moves", "count_moves",
                                  "other_features", "men_sums", "egdb_index"])
def test_every_position_door_refuses_more_than_12_pieces_a_side(name: str):
    crowded_black = Position(CROWDED.black, CROWDED.white & ~1, CROWDED.kings, 1)
    for pos in (CROWDED, crowded_black):
        with pytest.raises(ValueError, match="pieces; at most 12"):
            getattr(native.core, name)(pos)
    if name != "egdb_index":
        getattr(native.core, name)(START)  # 12 a side: the most the rules (and FEN) allow


def test_the_searcher_and_the_evaluator_refuse_more_than_12_pieces_a_side():
    ev = native.core.Evaluator(material=True)
    with pytest.raises(ValueError, match="at most 12"):
        ev.evaluate(CROWDED)
    searcher = native.core.Searcher(ev, 1 << 10)
    with pytest.raises(ValueError, match="at most 12"):
        searcher.search(CROWDED, legal_moves(CROWDED), 1)
    with pytest.raises(ValueError, match="at most 12"):
        searcher.search(START, legal_moves(START), 1, history=[START, CROWDED])


# --- item 8: re-initialisation during a search --------------------------------------------------


def test_a_searcher_and_its_evaluator_refuse_reinitialisation_while_searching():
    out = isolated("""
        from kbdraughts.eval.evaluation import _native_masks
        masks = _native_masks()
        done = []
        thread = threading.Thread(
            target=lambda: done.append(searcher.search(START, legal_moves(START), 200)))
        thread.start()  # no budget: it searches until halted
        try:
            wait_until_searching(searcher)
            print(refused(lambda: searcher.__init__(ev, 1 << 12)))
            print(refused(lambda: searcher.__init__(core.Evaluator(material=True))))
            print(refused(lambda: ev.__init__(material=True)))
            print(refused(lambda: searcher.set_tables({})))
            core.set_masks(masks)  # the same masks: nothing changes under the search
            print(refused(lambda: core.set_masks({**masks, "main_road": masks["main_road"] ^ 1})))
        finally:
            searcher.halt()
            thread.join()
        print(len(done), done[0][0] in range(7))
        searcher.__init__(ev, 1 << 12)  # idle again: allowed
        ev.__init__(material=True)
        """)
    assert out[:2] == ["refused: this searcher is searching"] * 2
    assert out[2] == "refused: this evaluator is searching"
    assert out[3:] == ["refused: this searcher is searching",
                       "refused: a search is running", "1 True"]


def test_a_signal_handler_cannot_reinitialise_the_searcher_it_interrupts():
    # The search on the main thread lets signal handlers run while it holds the searcher.
    out = isolated("""
        import os, signal
        signal.signal(signal.SIGUSR1, lambda *_: ev.__init__(material=True))
        ended = threading.Event()
        def interrupt():
            wait_until_searching(searcher)
            os.kill(os.getpid(), signal.SIGUSR1)
            if not ended.wait(30):  # the handler did not stop it: end the child anyway
                searcher.halt()
        threading.Thread(target=interrupt).start()
        try:
            searcher.search(START, legal_moves(START), 200)
        except RuntimeError as e:
            print(e)
        ended.set()
        searcher.clear_halt()
        print(searcher.search(START, legal_moves(START), 2)[2])
        """)
    assert out == ["this evaluator is searching", "2"]


# --- item 9: sequences that change while they are read --------------------------------------


def test_a_root_move_whose_square_empties_the_move_list():
    out = isolated("""
        moves = legal_moves(START)
        first = moves[0]
        class Square:
            def __index__(self):
                moves.clear()  # the list the core is reading
                return first.start
        moves[0] = Move(Square(), first.end, first.captured, first.path, first.crowned)
        found = searcher.search(START, moves, 3)  # (index of the best move, score, depth, ...)
        print(found[0] in range(7), found[2], moves)
        """)
    assert out == ["True 3 []"]


#: Calls whose arguments change as the core reads them, and what each gives when the core
#: reads the arguments as they were passed.
HOSTILE = {
    "history": ("""
        history = [START] * 40
        class Side:
            def __index__(self):
                history.clear()
                return 0
        history[0] = Position(START.white, START.black, 1, Side())
        print(outcome(lambda: searcher.search(START, legal_moves(START), 2, history=history)[2]))
        """, "2"),
    "evaluator rows": ("""
        zeros = tuple([0] * 512 for _ in range(4))
        weights = [0] * 13
        class Weight:
            def __index__(self):
                weights.clear()
                return 100
        weights[0] = Weight()
        row = (0, (0,), zeros, zeros, weights)
        print(outcome(lambda: core.Evaluator([row], []).evaluate(START)))
        """, "0.0"),
    "evaluator re-entered": ("""
        e = core.Evaluator(material=True)
        class Weight:
            def __index__(self):
                e.__init__(material=True)  # re-entered while its rows are read
                return 100
        zeros = tuple([0] * 512 for _ in range(4))
        e.__init__([(Weight(), (0,), zeros, zeros, [0] * 13)], [])
        print(outcome(lambda: e.evaluate(START)))
        """, "1.0"),
    "searcher re-entered": ("""
        class Size:
            def __index__(self):
                searcher.__init__(ev, 1 << 4)
                return 1 << 10
        searcher.__init__(ev, Size())
        print(outcome(lambda: searcher.search(START, legal_moves(START), 2)[2]))
        """, "2"),
    "tables": ("""
        from kbdraughts.egdb.index import Material, materials, size
        def table(m):
            return (bytes((size(m) + 3) // 4), bytes(size(m)))
        tables = {}
        class Men:
            def __index__(self):
                for m in materials(3):  # the dict grows while it is read
                    tables[tuple(m)] = table(m)
                return 0
        tables[(Men(), 1, 0, 1)] = table(Material(0, 1, 0, 1))
        print(outcome(lambda: searcher.set_tables(tables)))
        print(outcome(lambda: searcher.search(START, legal_moves(START), 2)[2]))
        """, "None\n2"),
    "egdb_check": ("""
        positions = [Position(1, 1 << 35, 1 | 1 << 35, 0)] * 8
        claims = [(3, 0)] * 8
        class Side:
            def __index__(self):
                positions.clear()
                claims.clear()
                return 0
        positions[0] = Position(1, 1 << 35, 1 | 1 << 35, Side())
        print(outcome(lambda: len(core.egdb_check((0, 1, 0, 1), positions, claims, {}, 4, 4))))
        """, "8"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_sequences_are_copied_before_they_are_read(name: str):
    code, expected = HOSTILE[name]
    assert isolated(code) == expected.splitlines()


def test_a_root_move_must_be_legal_in_the_position():
    searcher = native.core.Searcher(native.core.Evaluator(material=True), 1 << 10)
    with pytest.raises(ValueError, match="off the board"):
        searcher.search(START, [Move(9, 4, 0, (4,), False)], 2)  # onto a ghost square
    bad = [Move(28, 24, 0, (24,), False),  # a black man for White
           Move(9, 14, 1 << 18, (14,), False),  # a capture that is none
           Move(9, 14, 0, (14,), True)]  # a crowning that is none
    for move in bad:
        with pytest.raises(ValueError, match="not a legal move"):
            searcher.search(START, [legal_moves(START)[0], move], 2)


def test_play_refuses_a_move_the_position_cannot_make():
    core = native.core
    with pytest.raises(ValueError, match="off the board"):
        core.play(START, Move(9, 4, 0, (4,), False))  # onto a ghost square
    with pytest.raises(ValueError, match="cannot be played"):
        core.play(START, Move(18, 23, 0, (23,), False))  # from an empty square
    with pytest.raises(ValueError, match="cannot be played"):
        core.play(START, Move(8, 12, 0, (12,), False))  # onto a piece
    with pytest.raises(ValueError, match="cannot be played"):
        core.play(START, Move(9, 14, 1 << 8, (14,), False))  # taking one's own
