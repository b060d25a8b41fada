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

from kbdraughts.game import Game
from kbdraughts.notation import move_text, side_name
from kbdraughts.ui.registry import Front, command
from kbdraughts.ui.session import BY_WORD, Promoted, Session
from kbdraughts.variations import move_label


def promote(session: Session) -> int:
    """Make the line shown the game's main line from where it leaves it, the game's old
    moves from there a variation of it (the board stays on the position shown); the ply
    where it leaves. The game is played again along the new line, so its end is the rules'
    (a resignation, agreed draw or lost time was the old line's); the AI's reasons for the
    moves that went go too. The caller checks that the board shows a variation."""
    path = session.shown_path()
    tree = session.variations.copy()  # the old one kept whole: 'undo' puts it back
    moves, ply = tree.promote(session.game.moves, path)
    game = Game(session.game.start)
    for move in moves:
        game.push(move)  # legal: every line of the tree was played on a Game
    session.promoted = Promoted(session.game, session.variations, session.loaded_ply,
                                session.choices, path)
    record = session.record
    if record is not None and record.game is session.game:
        record.game, record.variations = game, tree  # saved with the file's text
    session.game, session.loaded_ply, session.variations = game, -1, tree
    session.choices = {p: c for p, c in session.choices.items() if p < ply}
    session.draw_offered = session.draw_weighed = None
    session.path = session.view = None
    session.show(path)
    return ply


def unpromote(ui: Front) -> None:
    """``undo`` right after ``promote`` (the AI's reply with it): the game, its variations
    and the board shown as they were."""
    session = ui.session
    was, new = session.promoted, list(session.game.moves)
    assert was is not None
    record = session.record
    if record is not None and record.game is session.game:
        record.game, record.variations = was.game, was.variations
    session.game, session.variations, session.loaded_ply = was.game, was.variations, \
        was.loaded_ply
    session.choices = was.choices
    session.promoted = session.path = session.view = None
    session.show(was.path)
    ui.changed()
    ui.show_board()
    ui.save_now()
    game = session.game
    ply = next((i for i, (a, b) in enumerate(zip(game.moves, new)) if a != b),
               min(len(game.moves), len(new)))
    label = f" {move_label(ply, game.start.side)} {move_text(game.moves[ply])}" \
        if ply < len(game.moves) else ""
    ui.info(f"Took back the promotion: the game's line goes{label} again, the variation "
            "kept where it was.")


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
    ply = promote(session)
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
