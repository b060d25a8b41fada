"""The coach: a game read back move by move, with notes a player can trust, and the analysis of
a position for a person.

It sits above the move choice (:mod:`kbdraughts.ai`) and uses its search and rules; nothing in
``ai`` imports it. Import each part from its own module:

- ``annotator``: :func:`~kbdraughts.coach.annotator.annotate`, the notes of a game;
- ``note``: a note and its words; ``summary``: a game's or a file's notes counted;
- ``deep_check``: the deep material search that confirms or withdraws a note;
- ``unnamed``, ``motif_draft``: the ideas no rule names, drafted as motifs for an author;
- ``rule_stats``: how often each rule fires and how often its claim holds;
- ``analysis``: the best candidate moves of a position, deepened until stopped.
"""
