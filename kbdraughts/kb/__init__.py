"""The knowledge base: combination rules in text files, answered by pyDatalog.

Usage::

    from kbdraughts.kb.knowledge import load_knowledge_base
    kb = load_knowledge_base()              # shipped combos/*.txt and the user's own
    for m in kb.firing(position):           # best first: captures, exact, patterns
        m.rule.id, m.mirrored, m.layer, m.move

One module per concept, imported by its own name (this package file imports nothing, so that
the AI can read ``kb.terms`` without paying for the rules parser):

- :mod:`kbdraughts.kb.rule` — :class:`Rule`, ``make_rule``, diagnostics;
- :mod:`kbdraughts.kb.pattern` — square states, symbols, :class:`Pattern` and its matcher;
- :mod:`kbdraughts.kb.fields` and :mod:`kbdraughts.kb.rules` — the combos format's reader;
- :mod:`kbdraughts.kb.writer` — its one writer (``format_rule``) and ``rules show``'s drawing;
- :mod:`kbdraughts.kb.cache` — parsed rule files kept between runs;
- :mod:`kbdraughts.kb.datalog` — :class:`Program`, the one wrapper of pyDatalog;
- :mod:`kbdraughts.kb.index` — the rules' pyDatalog program and how rules are encoded in it;
- :mod:`kbdraughts.kb.knowledge` — :class:`KnowledgeBase`, :class:`RuleMatch`, loading;
- :mod:`kbdraughts.kb.terms` — heuristic.txt's format and its pyDatalog question.
"""
