"""Game files: PDN of Russian draughts (GameType "25") read and written with nothing lost.

This file is the door; import from here. Inside, each module holds one part:

- ``reader``: a text or file into games (:func:`parse_pdn`, :func:`parse_games`,
  :func:`read_pdn_file`, :func:`load_pdn_file`: a :class:`PdnFile` reads each game when asked,
  in the form its bytes came) and games out to a file (:func:`write_pdn_file`);
- ``split``: the text cut into games cheaply, none read (a 50 MB file's game N);
- ``lexer``: a game's text cut into moves, comments and variations, with their places;
- ``model``: a game as read (:class:`PdnGame`), the file's own text kept beside it;
- ``variations``: a game's variations played into its variation tree;
- ``lines``: a variation tree's lines as movetext;
- ``writer``: a game as PDN text (:func:`game_to_pdn`, :func:`pdn_game_text`).

>>> (pg,) = parse_pdn('[White "Pel"]\\n1. c3-d4 f6-g5 *')
>>> pg.tags["White"], len(pg.game.moves)
('Pel', 2)
"""

from kbdraughts.pdn.lexer import COACH, PdnError, comments_of
from kbdraughts.pdn.model import PdnGame
from kbdraughts.pdn.reader import (
    MAX_PDN_BYTES, PdnFile, load_pdn_file, parse_games, parse_pdn, read_pdn_file, write_pdn_file,
)
from kbdraughts.pdn.writer import game_to_pdn, pdn_game_text

__all__ = [
    "COACH", "MAX_PDN_BYTES", "PdnError", "PdnFile", "PdnGame", "comments_of", "game_to_pdn",
    "load_pdn_file", "parse_games", "parse_pdn", "pdn_game_text", "read_pdn_file",
    "write_pdn_file",
]
