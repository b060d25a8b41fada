"""ai/explain.py: text that came from a rule file reaches the screen without escape sequences
(issue 11: `bestmove --explain`, the console's reasons)."""

from __future__ import annotations

from types import SimpleNamespace

from kbdraughts.ai.explain import rule_reason, skipped_rule
from kbdraughts.board import START, legal_moves
from kbdraughts.kb.rule import make_rule


def _match():
    rule = make_rule("t-1", "c3-d4", position=START, name="evil\x1b[2J\x9b31m\u2028",
                     path="/tmp/x\x1b]0;title\x07.txt", line=2)
    move = next(m for m in legal_moves(START))
    return SimpleNamespace(rule=rule, layer="exact", move=move, mirrored=False)


def test_a_rules_name_and_path_are_escaped_in_its_reason():
    reason, brief = rule_reason("rule", _match())
    assert reason == ('rule t-1 "evil\\x1b[2J\\x9b31m\\u2028" at /tmp/x\\x1b]0;title\\x07.txt:2')
    assert brief == "rule t-1"


def test_a_skipped_rules_path_is_escaped():
    text = skipped_rule(_match(), 100, False, 3)
    assert "\x1b" not in text and "\x07" not in text and "x\\x1b]0;title\\x07.txt:2" in text
