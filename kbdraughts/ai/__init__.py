"""The knowledge-based AI: layered move choice that explains itself, levels, players, matches.

>>> from kbdraughts.game import Game
>>> from kbdraughts.notation import parse_fen, move_text
>>> choice = Engine(level=1, use_kb=False).choose(Game(parse_fen("W:Wc3:Bd4,f6")))
>>> move_text(choice.move), choice.layer
('c3:e5:g7', 'capture tree')
"""

from kbdraughts.ai.engine import DEFAULT_LEVEL, MAX_LEVEL, Choice, Engine
from kbdraughts.ai.players import PlayerSpecError, make_player

__all__ = ["Engine", "Choice", "make_player", "PlayerSpecError", "DEFAULT_LEVEL", "MAX_LEVEL"]
