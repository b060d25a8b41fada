"""The knowledge base: combination rules in text files, answered by pyDatalog.

Usage::

    from kbdraughts.kb.knowledge import load_knowledge_base
    kb = load_knowledge_base()              # shipped combos/*.txt and the user's own
    for m in kb.firing(position):           # best first: captures, exact, patterns, motifs
        m.rule.id, m.mirrored, m.layer, m.move, m.bindings
    kb.motif_hits(position)                 # every motif found, warnings (move None) too

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
- :mod:`kbdraughts.kb.terms` — heuristic.txt's format and its pyDatalog question;
- motifs (rules with variables): :mod:`kbdraughts.kb.motif` (the values, the vocabulary, the
  body reader), :mod:`kbdraughts.kb.motif_parse` (the blocks), :mod:`kbdraughts.kb.motif_check`
  (names, binding), :mod:`kbdraughts.kb.defines` (a file's defines in dependency order:
  recursion, their limits), :mod:`kbdraughts.kb.vocab` (what the vocabulary means on a
  position), :mod:`kbdraughts.kb.ground` (the compiler), :mod:`kbdraughts.kb.interpret` (the
  interpreter), :mod:`kbdraughts.kb.motif_index` (groundings asked about a position),
  :mod:`kbdraughts.kb.motif_prove` (examples fire; their claims proved).
"""
