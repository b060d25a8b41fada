"""The game's draw rules as the search sees them: two counters carried down each line, and
the contempt that makes a draw worth a little less (or more) than zero.

The search carries two ply counters, as :class:`kbdraughts.game.Game` keeps them: plies of king
moves without a capture (``kings_only``, the 15-move rule) and plies since the last capture or
crowning (``since_balance``, the king-ending limits; the count of a strong side's moves against
a lone king follows from it). Both only matter once there are kings: a crowning resets the
second, and a man's move the first, so in a position of men only the search carries zeros.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> g = Game(parse_fen("W:WKc1,Ke1,Kg1:BKh8"))
>>> for text in ("c1-d2", "h8-g7", "d2-c1"):
...     g.push(parse_move(g.position, text))
>>> game_counters(g)
(3, 3)
>>> rule_draw(g.position, 3, 28), rule_draw(g.position, 3, 29)
(False, True)
"""

from __future__ import annotations

from kbdraughts.board import Position
from kbdraughts.game import ENDING_PLIES, KING_MOVES_ONLY_PLIES, LONE_KING_MOVES, Game

#: How much a draw is worth less than zero to the side that is better at the root (and more
#: to the side that is worse): it plays on when ahead, steers for the draw when behind.
CONTEMPT = 15
#: The root's score from which a side counts as better (or worse): a fifth of a man.
CONTEMPT_FROM = 20
#: Below these plies no rule but repetition can end the game: the search asks no further.
RULE_PLIES = min(KING_MOVES_ONLY_PLIES, 2 * LONE_KING_MOVES - 1, min(ENDING_PLIES.values()))


def game_counters(game: Game) -> tuple[int, int]:
    """``(kings_only, since_balance)`` in plies after the game's last move, counted from its
    start as ``Game.push`` counts them."""
    kings_only = since_balance = 0
    for before, move in zip(game.positions, game.moves):
        man_moved = not before.kings >> move.start & 1
        kings_only = 0 if man_moved or move.captured else kings_only + 1
        since_balance = 0 if move.captured or move.crowned else since_balance + 1
    return kings_only, since_balance


def rule_draw(pos: Position, kings_only: int, since_balance: int) -> bool:
    """Whether a draw rule other than repetition ends the game in ``pos`` (FMJD-64 7.2.4-6).

    The strong side's moves against a lone king are those of the ``since_balance`` plies it
    made: the balance arose at the last capture or crowning.
    """
    if kings_only >= KING_MOVES_ONLY_PLIES:
        return True
    if since_balance < RULE_PLIES:
        return False
    white, black, kings, side = pos
    wk, bk = (white & kings).bit_count(), (black & kings).bit_count()
    wm, bm = white.bit_count() - wk, black.bit_count() - bk
    strong = 0 if (bm == 0 and bk == 1 and wk >= 3) else 1 if (wm == 0 and wk == 1 and bk >= 3) \
        else None
    if strong is not None:
        # The last of those plies was made by the side not to move.
        strong_moves = since_balance // 2 if strong == side else (since_balance + 1) // 2
        if strong_moves >= LONE_KING_MOVES:
            return True
    limit = ENDING_PLIES.get(wm + wk + bm + bk)
    return bool(limit and wk and bk and since_balance >= limit)


def contempt(root_score: float) -> int:
    """What a draw is worth to the side to move at the root, given its score there: below
    zero when it is better, above when it is worse, zero when level.

    >>> contempt(150), contempt(-150), contempt(5)
    (-15, 15, 0)
    """
    if root_score >= CONTEMPT_FROM:
        return -CONTEMPT
    if root_score <= -CONTEMPT_FROM:
        return CONTEMPT
    return 0
