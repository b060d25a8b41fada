"""``promote``: the variation the board shows becomes the game's line from where it leaves
it, and the game's old moves from there a variation of it (as "promote variation" in other
draughts and chess programs). Nested variations are promoted all the way: the line shown,
from the start to its end, is the game's afterwards.

The game is played again along its new line (``Session.promote``), so where it ends, and
how, is the rules' (``game.py``): a resignation or agreed draw belonged to the old line.
Refused in a game with a clock: its moves stand as played (as ``undo`` refuses), and a new
line would hand the clock times spent on other moves. The AI never thinks while a
command is read (its move, ``hint`` and ``analyse`` hold the prompt until they end or Ctrl-C
stops them), so no search can be under way on the game that changes.
"""

from __future__ import annotations

from kbdraughts.notation import move_text, side_name
from kbdraughts.ui.registry import Front, command
from kbdraughts.ui.session import BY_WORD
from kbdraughts.variations import move_label


@command("promote", "make the variation shown the game's line from where it leaves it; the "
                    "game's old moves from there become a variation")
def _promote(ui: Front, arg: str) -> None:
    session = ui.session
    if arg.strip():
        ui.error("promote takes no argument: walk into a variation (play its first move "
                 "where one is named), then type 'promote'.")
        return
    if session.clock is not None:
        ui.error("Not in a game with a clock: its moves stand as played, as for 'undo'.")
        return
    old = session.game
    if session.variations.in_main_line(old.moves, session.shown_path()):
        ui.error("The board shows the game's own line: walk into a variation first (play its "
                 "first move where 'variations kept' are named), then 'promote'.")
        return
    ply = session.promote()
    game = session.game
    ui.changed()
    ui.show_board()
    ui.save_now()
    label = move_label(ply, game.start.side)
    ui.info(f"The game's line now goes {label} {move_text(game.moves[ply])}; its old moves "
            f"from {label} {move_text(old.moves[ply])} are kept as a variation.")
    ended = old.result
    if ended is not None and ended.reason in BY_WORD:  # the players': the old line's
        ui.say(f"The old line's ending stays with it: {ended}.", "dim")
    if game.result is not None:
        ui.say(f"The game now ends: {game.result}.", "dim")
    elif session.walking():
        ui.say(f"Play goes on at its last position ({move_label(game.ply, game.start.side)} "
               f"{side_name(game.side)} to move): 'last' goes there.", "dim")
