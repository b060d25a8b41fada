"""The rule index (kb/rules/index.py): its pyDatalog answers against a brute-force reference, in the
AI's order, and each knowledge base's program its own, asked from any thread."""

from __future__ import annotations

import random
import re
import threading

import pytest

from kbdraughts.board import SQUARES, START, Position, legal_moves, mirror_position
from kbdraughts.game import random_walk
from kbdraughts.kb.knowledge import KnowledgeBase
from kbdraughts.kb.combos import parse_rules
from kbdraughts.kb.combos import pattern_applies
from kbdraughts.notation import fen, move_text, parse_fen

from kb_boards import rows_text

_CELL = {None: ".", (0, False): "w", (0, True): "W", (1, False): "b", (1, True): "B"}
_LOOSE = {".": ".?", "w": "w+?@", "W": "W+?@", "b": "b*?@", "B": "B*?@"}


def random_position(rng: random.Random) -> Position:
    pos = START
    for pos in random_walk(rng, rng.randint(0, 50)):
        pass
    return pos


def random_rule(rng: random.Random, i: int, pos: Position) -> str:
    """A rule drawn from ``pos``: exact, or a pattern loosening some squares (so some rules
    match positions other than their source, and some never match anything)."""
    moves = legal_moves(pos) or [None]
    move = rng.choice(moves)
    play_text = move_text(move) if move else "c3-d4"
    exact = rng.random() < 0.3
    cells = {}
    for s in SQUARES:
        c = _CELL[pos.piece_at(s)]
        cells[s] = c if exact or rng.random() < 0.3 else rng.choice(_LOOSE[c])
    wn, bn = pos.white.bit_count(), pos.black.bit_count()
    pieces = rng.choice(["any", f"white {wn}", f"black {max(0, bn - 1)}..{bn}",
                         f"white {min(wn + 1, 12)}..12", f"white {wn}, black {bn}..{min(bn + 1, 12)}"])
    return (f"rule r{i}\n  side: {'black' if pos.side else 'white'}\n"
            f"  priority: {rng.randint(-1, 2)}\n  pieces: {pieces}\n  board:\n{rows_text(cells)}\n"
            f"  play: {play_text}\n")


def reference(rules, pos: Position) -> list[tuple[str, bool]]:
    """Every rule and mirror checked square by square, ordered by the issue's words."""
    found = []
    for order, r in enumerate(rules):
        for mirrored, p in enumerate(r.patterns):
            if pattern_applies(p, pos):
                lay = 0 if r.capture else 1 if r.exact else 2
                found.append(((lay, -r.priority, -r.constrained, order), (r.id, bool(mirrored))))
    return [x for _, x in sorted(found)]


@pytest.mark.parametrize("seed", range(6))
def test_matcher_agrees_with_brute_force(seed: int):
    rng = random.Random(seed)
    sources = [random_position(rng) for _ in range(60)]
    text = "\n".join(random_rule(rng, i, p) for i, p in enumerate(sources))
    rules, _, errors = parse_rules(text, "random.txt")
    assert errors == []
    kb = KnowledgeBase(rules)
    probes = sources[:30] + [mirror_position(p) for p in sources[:15]] + [
        random_position(rng) for _ in range(30)]
    total = 0
    for pos in probes:
        got = [(m.rule.id, m.mirrored) for m in kb.matches(pos)]
        assert got == reference(rules, pos), fen(pos)
        total += len(got)
    assert total >= 20  # the test really exercises matches


def test_matcher_agrees_with_brute_force_in_large_classes():
    # Over 256 rules share side and counts: the bit-sliced classes are split in chunks.
    rng = random.Random(99)
    sources = [random_position(rng) for _ in range(700)]
    text = "\n".join(re.sub(r"  pieces: .*\n", "", random_rule(rng, i, p))
                     for i, p in enumerate(sources))
    rules, _, errors = parse_rules(text, "large.txt")
    assert errors == [] and len(rules) == 700
    kb = KnowledgeBase(rules)
    found = 0
    for pos in sources[:15] + [random_position(rng) for _ in range(15)]:
        got = [(m.rule.id, m.mirrored) for m in kb.matches(pos)]
        assert got == reference(rules, pos), fen(pos)
        found += len(got)
    assert found >= 15


def test_two_knowledge_bases_do_not_see_each_other():
    a = KnowledgeBase(parse_rules("rule only-a\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "a")[0])
    b = KnowledgeBase(parse_rules("rule only-b\n  position: W:Wc3:Bf6\n  play: c3-b4\n", "b")[0])
    pos = parse_fen("W:Wc3:Bf6")
    assert [m.rule.id for m in a.matches(pos)] == ["only-a"]
    assert [m.rule.id for m in b.matches(pos)] == ["only-b"]
    del b
    assert [m.rule.id for m in a.matches(pos)] == ["only-a"]


def test_other_pydatalog_programs_are_left_alone():
    from pyDatalog import pyDatalog

    pyDatalog.assert_fact("heur_weight", "x", 3)
    kb = KnowledgeBase(parse_rules("rule r\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "r")[0])
    assert kb.matches(parse_fen("W:Wc3:Bf6"))
    assert pyDatalog.ask("heur_weight(X, Y)").answers == [("x", 3)]
    with pytest.raises(AttributeError):  # "Predicate without definition": not in this program
        pyDatalog.ask("kb_exact(X, Y)")
    pyDatalog.retract_fact("heur_weight", "x", 3)


def test_a_knowledge_base_answers_from_another_thread():
    kb = KnowledgeBase(parse_rules("rule r\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "r")[0])
    out = []
    t = threading.Thread(target=lambda: out.append([m.rule.id for m in kb.firing(
        parse_fen("W:Wc3:Bf6"))]))
    t.start()
    t.join()
    assert out == [["r"]]


def test_a_knowledge_base_loaded_in_another_thread_answers_here():
    # pyDatalog's state is per thread, but each index owns its program (kb/rules/datalog.py): the UI
    # may load the knowledge base in its AI thread and anyone may ask it afterwards.
    out = []
    t = threading.Thread(target=lambda: out.append(KnowledgeBase(parse_rules(
        "rule r\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "r")[0])))
    t.start()
    t.join()
    assert [m.rule.id for m in out[0].firing(parse_fen("W:Wc3:Bf6"))] == ["r"]


def test_two_threads_asking_one_knowledge_base_at_once_get_the_right_answers():
    rng = random.Random(7)
    sources = [random_position(rng) for _ in range(40)]
    rules = parse_rules("\n".join(random_rule(rng, i, p) for i, p in enumerate(sources)),
                        "random.txt")[0]
    kb = KnowledgeBase(rules)
    probes = sources + [mirror_position(p) for p in sources]
    want = [[(m.rule.id, m.mirrored) for m in kb.matches(p)] for p in probes]
    got: dict[int, list] = {}

    def ask(n: int) -> None:
        got[n] = [[(m.rule.id, m.mirrored) for m in kb.matches(p)] for p in probes[n::2] * 3]

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {n: want[n::2] * 3 for n in range(2)}
