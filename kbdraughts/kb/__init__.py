"""The knowledge base: combination rules in text files, answered by pyDatalog.

Usage::

    kb = load_knowledge_base()              # shipped combos/*.txt and the user's own
    for m in kb.firing(position):           # best first: captures, exact, patterns
        m.rule.id, m.mirrored, m.layer, m.move

- :mod:`kbdraughts.kb.rules` — the combos format: :class:`Rule`, the parser, diagnostics;
- :mod:`kbdraughts.kb.datalog` — :class:`Program`, the one wrapper of pyDatalog;
- :mod:`kbdraughts.kb.index` — the rules' pyDatalog program and how rules are encoded in it;
- :mod:`kbdraughts.kb.knowledge` — :class:`KnowledgeBase`, :class:`RuleMatch`, loading;
- :mod:`kbdraughts.kb.terms` — heuristic.txt's format and its pyDatalog question;
- :mod:`kbdraughts.kb.commands` — ``kbdraughts rules check|match|show``.
"""

import importlib

__all__ = [
    "KnowledgeBase", "Rule", "RuleMatch", "RuleFileError", "Diagnostic", "load_knowledge_base",
    "read_rule_files", "parse_rules",
]

#: Where each name above lives. They are imported at first use (PEP 562): the AI imports
#: ``kb.terms`` (heuristic.txt's format) at start, and the package must not make it pay for
#: the rules parser and the cache (about 100 ms on a busy machine) it does not use.
_HOME = {
    "KnowledgeBase": "knowledge", "RuleMatch": "knowledge", "load_knowledge_base": "knowledge",
    "read_rule_files": "knowledge", "Diagnostic": "rules", "Rule": "rules",
    "RuleFileError": "rules", "parse_rules": "rules",
}


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
