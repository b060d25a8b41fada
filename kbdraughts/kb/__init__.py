"""The knowledge base: combination rules in text files, answered by pyDatalog.

Usage::

    kb = load_knowledge_base()              # shipped combos/*.txt and the user's own
    for m in kb.firing(position):           # best first: captures, exact, patterns
        m.rule.id, m.mirrored, m.layer, m.move

- :mod:`kbdraughts.kb.rules` — the combos format: :class:`Rule`, the parser, diagnostics;
- :mod:`kbdraughts.kb.datalog` — :class:`Program`, the one wrapper of pyDatalog;
- :mod:`kbdraughts.kb.index` — the rules' pyDatalog program and how rules are encoded in it;
- :mod:`kbdraughts.kb.knowledge` — :class:`KnowledgeBase`, :class:`RuleMatch`, loading;
- :mod:`kbdraughts.kb.commands` — ``kbdraughts rules check|match|show``.
"""

from kbdraughts.kb.knowledge import (
    KnowledgeBase, RuleMatch, load_knowledge_base, read_rule_files,
)
from kbdraughts.kb.rules import Diagnostic, Rule, RuleFileError, parse_rules

__all__ = [
    "KnowledgeBase", "Rule", "RuleMatch", "RuleFileError", "Diagnostic", "load_knowledge_base",
    "read_rule_files", "parse_rules",
]
