"""The knowledge-based AI: layered move choice that explains itself, levels, players, matches.

Modules, one concept each: ``values`` (the material numbers), ``capture_tree`` (mutual capture
sequences, +105/-100), ``heuristic`` (features of moves and positions; the weights of
``combos/heuristic.txt`` applied through pyDatalog), ``search`` (alpha-beta, iterative
deepening, transposition table, time budget, stop event), ``engine`` (the layers, the levels,
the reasons), ``players`` (``kb[:LEVEL][:nokb][:MSms]``, ``random``, ``greedy``,
``search:DEPTH``), ``match`` (games over processes) and ``commands`` (``bestmove``, ``match``).

Levels: 1 is the ancestor's layers exactly (knowledge-base capture, exact and pattern rules,
then the capture tree, then the weighted simple move); 2 and 3 search at most 4 and 8 plies
after the rules, 4 (the default) as deep as ``movetime_ms`` allows.

>>> from kbdraughts.ai import Engine
>>> from kbdraughts.game import Game
>>> from kbdraughts.notation import parse_fen, move_text
>>> choice = Engine(level=1, use_kb=False).choose(Game(parse_fen("W:Wc3,e3,g1:Bd4,f6,g7")))
>>> move_text(choice.move), choice.layer
('e3:c5', 'capture tree')
>>> choice.reason
'capture tree +105: e3:c5 (best of 2 captures; +105 a man taken, -100 a man lost)'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Engine", "Choice", "make_player", "PlayerSpecError", "DEFAULT_LEVEL", "MAX_LEVEL"]

# Imported on first use: the CLI registers ``kbdraughts.ai.commands`` at every start-up and
# should not pay for the engine then.
_HOMES = {"Engine": "engine", "Choice": "engine", "DEFAULT_LEVEL": "engine",
          "MAX_LEVEL": "engine", "make_player": "players", "PlayerSpecError": "players"}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(f"kbdraughts.ai.{_HOMES[name]}"), name)
    raise AttributeError(f"module 'kbdraughts.ai' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
