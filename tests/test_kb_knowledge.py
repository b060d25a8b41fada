"""The knowledge base (kb/knowledge.py): matches with their layer and legal move, the shipped
openings."""

from __future__ import annotations

from kbdraughts.board import SQUARES, START, legal_moves
from kbdraughts.kb.knowledge import KnowledgeBase, load_knowledge_base
from kbdraughts.kb.combos import parse_rules
from kbdraughts.notation import move_text, parse_fen

from kb_boards import rows_text


def test_matches_carry_layer_and_legal_move():
    rules, _, _ = parse_rules(
        "rule quiet\n  board:\n" + rows_text({s: "?" for s in SQUARES}) + "\n  play: c3-d4\n"
        "rule take\n  board:\n" + rows_text({s: "?" for s in SQUARES}) + "\n  play: c3:e5\n",
        "t.txt")
    kb = KnowledgeBase(rules)
    pos = parse_fen("W:Wc3:Bd4")
    ms = kb.matches(pos)
    assert [(m.rule.id, m.layer) for m in ms if not m.mirrored] == [("take", "capture"),
                                                                    ("quiet", "pattern")]
    assert [m.rule.id for m in kb.firing(pos)] == ["take"]  # capture is compulsory
    assert move_text(kb.firing(pos)[0].move) == "c3:e5"


def test_opening_rules_fire_from_the_start():
    kb = load_knowledge_base()
    firing = kb.firing(START)
    assert firing and all(m.layer == "exact" and not m.mirrored for m in firing)
    moves = {move_text(m.move) for m in firing}  # the book's first moves its checks kept
    assert "c3-d4" in moves and moves <= {move_text(m) for m in legal_moves(START)}
