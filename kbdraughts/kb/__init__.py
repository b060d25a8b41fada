"""The knowledge base: combination rules in text files, answered by pyDatalog.

Usage::

    from kbdraughts.kb.knowledge import load_knowledge_base
    kb = load_knowledge_base()              # shipped combos/*.txt and the user's own
    for m in kb.firing(position):           # best first: captures, exact, patterns, motifs
        m.rule.id, m.mirrored, m.layer, m.move, m.bindings
    kb.motif_hits(position)                 # every motif found, warnings (move None) too

Three rooms, one floor above the other (imports go downwards only):

- :mod:`kbdraughts.kb.rules` — the rule files' room: :class:`Rule`, its :class:`Pattern`, the
  combos format's fields, the one pyDatalog wrapper and the rules' Datalog index;
- :mod:`kbdraughts.kb.motifs` — the motifs' room: rules with variables, their blocks, checks,
  compiler, interpreter, index and proofs;
- this package — the knowledge base itself: :mod:`kbdraughts.kb.combos` (a combos file read:
  rules and motif blocks), :mod:`kbdraughts.kb.cache` (parsed files kept between runs),
  :mod:`kbdraughts.kb.knowledge` (:class:`KnowledgeBase`, :class:`RuleMatch`, loading),
  :mod:`kbdraughts.kb.writer` (the one writer and ``rules show``'s drawing),
  :mod:`kbdraughts.kb.book` and :mod:`kbdraughts.kb.openings` (the opening book and its names).

This package file imports nothing, so that a module of a lower room costs no parser. The
evaluation's files (heuristic.txt, shapes.txt) are read by :mod:`kbdraughts.eval`.
"""
