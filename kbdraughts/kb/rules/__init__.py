"""The rule files' room: a rule, its pattern, the fields of the combos format, and Datalog.

- :mod:`kbdraughts.kb.rules.rule` — :class:`Rule`, ``make_rule``, diagnostics;
- :mod:`kbdraughts.kb.rules.pattern` — square states, symbols, :class:`Pattern` and its matcher;
- :mod:`kbdraughts.kb.rules.fields` — the combos format's fields (squares, moves, counts);
- :mod:`kbdraughts.kb.rules.datalog` — :class:`Program`, the one wrapper of pyDatalog;
- :mod:`kbdraughts.kb.rules.index` — the rules' pyDatalog program and how rules are encoded.

The lowest room of the knowledge base: it imports the rules core only; the motifs
(:mod:`kbdraughts.kb.motifs`) and the knowledge base itself (:mod:`kbdraughts.kb`) build on it.
"""
