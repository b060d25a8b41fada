"""The line protocol of ``kbdraughts bestmove``, both ends: a game line in, a move line out.

A game line is a PDN FEN, optionally followed by the word ``moves`` and the moves played from
it in the notation ``moves`` prints (``W:W... moves c3-d4 f6-g5``), so the engine knows the
game, not only the position: its search sees the repetitions. The answer is one move in
full-path notation, or ``none`` without a legal move; anything after two spaces and ``#`` is a
comment (``bestmove --explain`` writes its reason there).

>>> g = read_game_line("W:WKc1:BKh8 moves c1-d2 h8-g7")
>>> g.ply, game_line(g)
(2, 'W:WKc1:BKh8 moves c1-d2 h8-g7')
>>> game_line(g, history=False)
'W:WKd2:BKg7'
>>> read_answer(g.position, "d2-e3  # a reason") == read_answer(g.position, "d2e3")
True
"""

from __future__ import annotations

import re

from kbdraughts.board import Move, Position
from kbdraughts.game import Game
from kbdraughts.notation import MoveError, fen, move_text, parse_fen, parse_move

#: The word between a game line's FEN and its moves.
MOVES_WORD = "moves"
#: The answer of an engine that has no legal move.
NO_MOVE = "none"
_MOVES = re.compile(r"\s+moves(?:\s+|$)", re.IGNORECASE)


def game_line(game: Game, history: bool = True) -> str:
    """``game`` as one line: its start FEN and its moves (``history``), or the FEN of its
    position alone. A game without moves is its FEN either way."""
    if not history or not game.moves:
        return fen(game.position)
    return " ".join([fen(game.start), MOVES_WORD, *map(move_text, game.moves)])


def read_game_line(text: str) -> Game:
    """The Game a line gives: FenError for a bad FEN, MoveError naming the move (its number
    and text) that cannot be played."""
    parts = _MOVES.split(text.strip(), maxsplit=1)
    game = Game(parse_fen(parts[0]))
    for number, word in enumerate(parts[1].split() if len(parts) > 1 else (), 1):
        where = f"move {number} {word!r}"
        if game.result is not None:
            raise MoveError(f"{where}: the game is over: {game.result}")
        try:
            game.push(parse_move(game.position, word, game.legal_moves()))
        except MoveError as e:
            raise MoveError(f"{where}: {e}") from None
    return game


def read_answer(pos: Position, line: str) -> Move | None:
    """The move an engine's answer line names in ``pos`` (None for ``none``); MoveError when
    it names no legal move."""
    text = line.split("  #", 1)[0].strip()
    if text.lower() == NO_MOVE:
        return None
    return parse_move(pos, text)
