"""The knowledge-based AI: layered move choice that explains itself, and its levels.

Modules, one concept each: ``search`` (alpha-beta, iterative deepening, transposition table,
time budget, stop event), ``rulebook`` (what the engine needs of a knowledge base, typed),
``layers`` (one function per layer: rules, capture tree, weighted move, only move, search),
``explain`` (the reasons), ``engine`` (the ``LEVELS`` table and the loop over it), ``spec``
(``PlayerSpec``). The evaluation (:mod:`kbdraughts.eval`) and the capture tree
(:mod:`kbdraughts.capture_tree`) sit below it. The coach (:mod:`kbdraughts.coach`) and the matches
(:mod:`kbdraughts.match`) sit above this package and use it; it never imports them.
Import each from its own module: this package file imports nothing, so that reading a player
spec (``ai.spec``) does not load the engine.

Levels: 1 is the ancestor's layers exactly (knowledge-base capture, exact and pattern rules,
then the capture tree, then the weighted simple move); 2 and 3 search at most 4 and 8 plies
after the rules, 4 (the default) as deep as ``movetime_ms`` allows.

>>> from kbdraughts.ai.engine import Engine
>>> from kbdraughts.game import Game
>>> from kbdraughts.notation import parse_fen, move_text
>>> choice = Engine(level=1, use_kb=False).choose(Game(parse_fen("W:Wc3,e3,g1:Bd4,f6,g7")))
>>> move_text(choice.move), choice.layer
('e3:c5', <LayerName.CAPTURE_TREE: 'capture tree'>)
>>> choice.reason
'capture tree +105: e3:c5 (best of 2 captures; +105 a man taken, -100 a man lost)'
"""
