"""The motifs' room: rules with variables, one draughts idea found anywhere on the board.

- :mod:`kbdraughts.kb.motifs.motif` — the values, the vocabulary, the body reader;
- :mod:`kbdraughts.kb.motifs.parse` — the ``motif`` and ``define`` blocks;
- :mod:`kbdraughts.kb.motifs.check` — names and bindings checked;
- :mod:`kbdraughts.kb.motifs.defines` — a file's defines in dependency order (recursion, limits);
- :mod:`kbdraughts.kb.motifs.vocab` — what the vocabulary means on a position;
- :mod:`kbdraughts.kb.motifs.ground` — the compiler (groundings over the geometry);
- :mod:`kbdraughts.kb.motifs.interpret` — the interpreter;
- :mod:`kbdraughts.kb.motifs.index` — groundings asked about a position (bit-sliced index);
- :mod:`kbdraughts.kb.motifs.prove` — examples fire; their claims proved.

It builds on the rule files' room (:mod:`kbdraughts.kb.rules`: fields, diagnostics, patterns)
and is read by the knowledge base above it (:mod:`kbdraughts.kb`).
"""
