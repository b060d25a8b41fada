"""The evaluation: what a position is worth, in the terms players name.

Below the choice of a move (:mod:`kbdraughts.ai`) and above the knowledge base's rule files
(:mod:`kbdraughts.kb`), whose pattern symbols and Datalog wrapper it reads. One concept a
module:

- :mod:`kbdraughts.eval.features` — the schema: each position feature once (name, kind,
  description), from which the lists, the order and the C core's header derive;
- :mod:`kbdraughts.eval.terms` — ``combos/heuristic.txt``'s format: weights, value and
  pattern terms, and the features a ``when`` may name;
- :mod:`kbdraughts.eval.shapes` — ``combos/shapes.txt``'s regions;
- :mod:`kbdraughts.eval.masks` — the features' geometry: bitboard masks made once;
- :mod:`kbdraughts.eval.evaluation` — a position's features, a function each (the C core's
  twin);
- :mod:`kbdraughts.eval.patterns` — pattern terms as five masks;
- :mod:`kbdraughts.eval.regions` — the regions as base-3 tables;
- :mod:`kbdraughts.eval.move_features` — the weighted move's features (level 1);
- :mod:`kbdraughts.eval.heuristic` — :class:`Heuristic`: the weights applied, scoring moves
  and positions;
- :mod:`kbdraughts.eval.ideas` — the shares as the ideas a player names: terms and patterns in
  words, regions grouped into areas;
- :mod:`kbdraughts.eval.judgement` — the shares that decided between two lines.

Import each from its own module: this package file imports nothing.
"""
