"""The layers and the LEVELS table: each level runs its row's layers, in order, the first answer
decides; legal moves are computed once per choice; the knowledge base is met by its shape."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from kbdraughts import board
from kbdraughts.ai import explain, layers
from kbdraughts.ai.engine import LEVELS, MAX_LEVEL, Engine, Level
from kbdraughts.ai.layers import Choice, Context
from kbdraughts.ai.rulebook import KnowledgeBase
from kbdraughts.ai.search import Searcher
from kbdraughts.game import Game
from kbdraughts.notation import fen, move_text, parse_fen, parse_move
from kbdraughts.values import MAN_LOST, MAN_TAKEN

CAPTURE = "W:Wc3,e3,g1:Bd4,f6,g7"
QUIET = "W:Wc3:Be5,h8"
FORCED = "W:Wa1:Bh8"  # a1-b2 is White's only move
OPENING = fen(board.START)


LAYER_OF = {"capture tree": "capture_tree", "heuristic": "weighted_move", "search": "search",
            "only move": "only_move", "endgame database": "endgame_db"}


def spied(row: Level, seen: list[str]) -> Level:
    """The row with each layer wrapped to record its name when it is asked."""

    def spy(layer):
        def asked(ctx: Context) -> Choice | None:
            seen.append(layer.__name__)
            return layer(ctx)

        asked.__name__ = layer.__name__
        return asked

    return Level(tuple(spy(layer) for layer in row.layers), row.depth)


def test_the_table_has_a_row_per_level():
    assert sorted(LEVELS) == list(range(1, MAX_LEVEL + 1))
    assert LEVELS[1].layers == (layers.kb_rules, layers.capture_tree, layers.weighted_move)
    for level in range(2, MAX_LEVEL + 1):
        assert LEVELS[level].layers[-1] is layers.search and LEVELS[level].depth > 0
    assert [LEVELS[n].depth for n in (2, 3, 4)] == [4, 8, 64]


@pytest.mark.parametrize("level", range(1, MAX_LEVEL + 1))
@pytest.mark.parametrize("fen", [CAPTURE, QUIET, FORCED])
def test_each_level_runs_the_layers_its_row_lists(monkeypatch, level, fen):
    seen: list[str] = []
    row = LEVELS[level]
    monkeypatch.setitem(LEVELS, level, spied(row, seen))
    c = Engine(level=level, movetime_ms=50, use_kb=False).choose(Game(parse_fen(fen)))
    names = [layer.__name__ for layer in row.layers]
    assert seen == names[: len(seen)]  # in the row's order, none skipped, none other
    assert seen[-1] == LAYER_OF[c.layer]  # the last layer asked is the one that answered


def test_level_1_never_searches(monkeypatch):
    def no(*args, **kw):
        raise AssertionError("level 1 searched")

    monkeypatch.setattr(Searcher, "search", no)
    for fen in (CAPTURE, QUIET, FORCED, OPENING):
        c = Engine(level=1, use_kb=False).choose(Game(parse_fen(fen)))
        assert c.layer in ("capture tree", "heuristic")


def test_the_searching_levels_play_neither_tree_nor_weight(endgame_tables):
    # Three pieces are in the endgame tables, which answer first (tests/test_ai_endgame.py);
    # without them, the search and the forced move.
    c = Engine(level=2, movetime_ms=50, use_kb=False).choose(Game(parse_fen(QUIET)))
    assert c.layer == "endgame database"
    for fen in (CAPTURE, QUIET):
        c = Engine(level=2, movetime_ms=50, use_kb=False, egdb=False).choose(Game(parse_fen(fen)))
        assert c.layer == "search"
    forced = Engine(level=2, movetime_ms=50, use_kb=False, egdb=False).choose(
        Game(parse_fen(FORCED)))
    assert forced.layer == "only move" and forced.reason == "only move a1-b2"


def test_a_new_layer_is_one_function_and_one_table_entry(monkeypatch):
    def endgame_probe(ctx: Context) -> Choice | None:
        if len(ctx.legal) != 1:
            return None
        move = layers.pick(ctx, sorted(ctx.legal))
        return Choice(move, "endgame", f"probe says {move_text(move)}", "probe")

    row = LEVELS[2]
    monkeypatch.setitem(LEVELS, 2, Level((endgame_probe, *row.layers), row.depth))
    c = Engine(level=2, movetime_ms=50, use_kb=False).choose(Game(parse_fen(FORCED)))
    assert c.layer == "endgame" and c.reason == "probe says a1-b2"
    # It passes when it has no answer: the row's next layers decide.
    c = Engine(level=2, movetime_ms=50, use_kb=False, egdb=False).choose(Game(parse_fen(QUIET)))
    assert c.layer == "search"


def count_root_legal_moves(monkeypatch, root) -> list[int]:
    """Patch every loaded kbdraughts module's ``legal_moves``; count the calls for ``root``."""
    calls = [0]
    original = board.legal_moves

    def counting(pos, *args, **kw):
        if pos == root:
            calls[0] += 1
        return original(pos, *args, **kw)

    for name, module in list(sys.modules.items()):
        if name.startswith("kbdraughts") and getattr(module, "legal_moves", None) is original:
            monkeypatch.setattr(module, "legal_moves", counting)
    return calls


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("fen", [CAPTURE, QUIET, OPENING])
def test_legal_moves_are_computed_once_per_choice(monkeypatch, level, fen):
    pytest.importorskip("kbdraughts.kb")
    engine = Engine(level=level, movetime_ms=50)
    engine.kb  # loaded before counting: loading indexes rules, it plays no position
    root = parse_fen(fen)
    calls = count_root_legal_moves(monkeypatch, root)
    assert engine.choose(Game(root)) is not None
    assert calls[0] == 1


# -- the knowledge base, met by its shape --------------------------------------------------


@dataclass(frozen=True)
class FakeRule:
    id: str = "fake-1"
    name: str = "a rule of no file"
    path: str = "nowhere.txt"
    line: int = 7
    exact: bool = False
    priority: int = 0
    sacrifice: int = 0


@dataclass(frozen=True)
class FakeMatch:
    rule: FakeRule
    layer: str
    move: board.Move | None
    mirrored: bool = False


class FakeKB:
    """Fires one rule, whatever the position: the first legal move."""

    def __init__(self):
        self.asked: list[tuple] = []

    def firing(self, pos, legal=None):
        self.asked.append((pos, legal))
        return [FakeMatch(FakeRule(), "pattern", legal[0])]


def test_any_object_with_firing_is_a_knowledge_base():
    kb = FakeKB()
    assert isinstance(kb, KnowledgeBase)
    pos = parse_fen("W:Wc3,g3:Bh8")
    c = Engine(level=1, kb=kb).choose(Game(pos))
    assert c.layer == "pattern rule" and c.move == board.legal_moves(pos)[0]
    assert c.reason == 'pattern rule fake-1 "a rule of no file" at nowhere.txt:7'
    assert kb.asked[0] == (pos, tuple(board.legal_moves(pos)))  # given the legal moves



def test_the_rules_are_asked_once_per_choice_though_the_search_orders_by_them():
    class HangingKB(FakeKB):  # fires c3-d4, which hangs the man: the check skips it
        def firing(self, pos, legal=None):
            self.asked.append((pos, legal))
            return [FakeMatch(FakeRule(), "pattern", m) for m in legal
                    if move_text(m) == "c3-d4"]

    kb = HangingKB()
    pos = parse_fen("W:Wc3,g3:Be5,h8")
    c = Engine(level=2, kb=kb, movetime_ms=100, egdb=False).choose(Game(pos))
    assert c.layer == "search" and "skipped rule fake-1" in c.reason
    assert [p for p, _ in kb.asked].count(pos) == 1

def test_the_shipped_knowledge_base_has_the_shape():
    from kbdraughts.kb.knowledge import EXAMPLE
    from kbdraughts.kb.knowledge import KnowledgeBase as ShippedKnowledgeBase
    from kbdraughts.kb.knowledge import parse_rules

    kb = ShippedKnowledgeBase(parse_rules(EXAMPLE, "example.txt")[0])
    assert isinstance(kb, KnowledgeBase)
    match = kb.firing(parse_fen("W:Wc3:Bd4,f6"))[0]
    for name in ("id", "name", "path", "line", "exact", "priority", "sacrifice"):
        getattr(match.rule, name)
    assert (match.layer, move_text(match.move), match.mirrored) == ("capture", "c3:e5:g7", False)


def test_kb_is_a_knowledge_base_or_none_and_use_kb_switches_it():
    kb = FakeKB()
    assert Engine(kb=kb).kb is kb
    assert Engine(kb=kb, use_kb=False).kb is None
    assert Engine(use_kb=False).kb is None


# -- the reasons -----------------------------------------------------------------------------


def test_the_capture_tree_reason_quotes_values():
    assert explain.capture_rule_values() == f"+{MAN_TAKEN} a man taken, -{MAN_LOST} a man lost"
    c = Engine(level=1, use_kb=False).choose(Game(parse_fen(CAPTURE)))
    assert c.reason.endswith(f"; {explain.capture_rule_values()})")


def test_notes_follow_the_reason():
    assert explain.with_notes("search depth 4: score +3", []) == "search depth 4: score +3"
    assert explain.with_notes("r", ["a", "b"]) == "r; a; b"


def test_a_choice_reads_the_move_it_names():
    pos = parse_fen(QUIET)
    c = Engine(level=1, use_kb=False).choose(Game(pos))
    assert c.move == parse_move(pos, "c3-b4")


def test_importing_the_engine_does_not_import_pydatalog():
    import subprocess

    code = "import sys, kbdraughts.ai.engine; print('pyDatalog' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


# -- the layers' names (issue 37: an enum, not strings compared across modules) ---------------


def test_the_layer_names_are_enums_with_the_texts_printed_before():
    from kbdraughts.ai.layers import PLAYED_AS, LayerName
    from kbdraughts.kb.rules.rule import RuleLayer

    assert [str(n) for n in LayerName] == [
        "capture rule", "exact rule", "pattern rule", "motif rule", "capture tree", "heuristic",
        "only move", "endgame database", "search", "random", "greedy", "engine"]
    assert [str(n) for n in RuleLayer] == ["capture", "exact", "pattern", "motif"]
    assert set(PLAYED_AS) == set(RuleLayer) and f"{LayerName.SEARCH}: x" == "search: x"
    for fen_text, level in ((CAPTURE, 1), (QUIET, 1), (FORCED, 2), (QUIET, 2)):
        c = Engine(level=level, movetime_ms=50, use_kb=False).choose(Game(parse_fen(fen_text)))
        assert type(c.layer) is LayerName, c


def test_the_knowledge_bases_matches_carry_a_rule_layer():
    from kbdraughts.kb.knowledge import EXAMPLE, KnowledgeBase as ShippedKnowledgeBase
    from kbdraughts.kb.knowledge import layer_of, parse_rules
    from kbdraughts.kb.rules.rule import RuleLayer

    kb = ShippedKnowledgeBase(parse_rules(EXAMPLE, "example.txt")[0])
    match = kb.firing(parse_fen("W:Wc3:Bd4,f6"))[0]
    assert match.layer is RuleLayer.CAPTURE and layer_of(match.rule) is RuleLayer.CAPTURE
    c = Engine(level=1, kb=kb).choose(Game(parse_fen("W:Wc3:Bd4,f6")))
    assert c.layer is layers.LayerName.CAPTURE_RULE and c.reason.startswith("capture rule ")


def test_the_search_says_the_deciding_move_and_shares_as_given_not_parsed_back(monkeypatch):
    """The next best move and the evaluation's shares travel as a pair (they were once one
    sentence, split again on its first ': ' for the words)."""
    pos = parse_fen("W:Wc3,e3:Bf6,h6")
    asked = []

    def deciding(ctx, res, move):
        asked.append(move)
        other = next(m for m in ctx.legal if m != move)
        return other, "odd: text"

    monkeypatch.setattr(layers, "_deciding", deciding)
    c = Engine(level=2, movetime_ms=200, use_kb=False, egdb=False).choose(Game(pos))
    other = next(m for m in board.legal_moves(pos) if m != c.move)
    assert asked == [c.move] and c.layer == "search"
    assert c.words.endswith(" (odd: text)"), c.words
    assert f"; over {move_text(other)}: odd: text" in c.reason, c.reason


def test_the_deciding_look_gives_a_move_and_its_shares():
    pos = parse_fen("W:Wc3,e3,g3:Bb6,f6,h6")
    engine = Engine(level=2, movetime_ms=200, use_kb=False, egdb=False)
    c = engine.choose(Game(pos))
    ctx = Context(Game(pos), pos, tuple(board.legal_moves(pos)), engine._options(LEVELS[2]),
                  None, layers.Clock(0.0, 200))
    decided = layers._deciding(ctx, c.searched, c.move)
    assert decided is not None, c.reason  # this position's search has a next best move
    other, shares = decided
    assert other in ctx.legal and other != c.move and shares and not shares.startswith(" ")
