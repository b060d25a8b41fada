"""The end of a game at the console: what the game-over prompt offers, and the ``New game?``
question, which also takes a command (save FILE, record, review, undo …) instead of an answer;
after a set-up position (``--fen``, ``setup``) it asks which: that position or the initial one.
"""

from __future__ import annotations

from kbdraughts.board import START
from kbdraughts.ui.commands import lookup
from kbdraughts.ui.setup import new_game
from kbdraughts.ui.registry import Front
from kbdraughts.ui.session import Session, ending_name


def after_game_words(session: Session) -> list[str]:
    """The commands the game-over prompt offers: ``undo`` only when it has something to take
    back (a finished set-up position may have none)."""
    return ["new", *(["undo"] if session.can_undo() else []), "save", "record", "quit"]


def game_over_hint(session: Session) -> str:
    """What the person can do once the game is over, as a sentence."""
    ended = session.ended_by_word()
    undo = ""
    if ended is not None:
        undo = f"'undo' to take back the {ending_name(ended)}, "
    elif session.can_undo():
        undo = "'undo' to take moves back, "
    return f"Type 'new' for another game, {undo}'save FILE', 'record', or 'quit'."


def ask_new_game(ui: Front) -> None:
    """The question when a game has ended: y starts a new one, n leaves the finished game on
    the board; a command typed instead (save FILE, record, review, undo, help …) runs, and the
    question comes back while the game is still over."""
    set_up = ui.session.start != START  # then asked which: that position or the initial one
    question = ("New game from the set-up position? [y/n; i: from the initial position] "
                if set_up else "New game? [y/n] ")
    while ui.session.game.result is not None:
        try:
            answer = ui.console.ask([("class:msg.title", question)]).strip()
        except KeyboardInterrupt:
            answer = "n"
        if answer.lower() in ("y", "yes") or set_up and answer.lower() in ("i", "initial"):
            new_game(ui, None, START if answer.lower().startswith("i") else None)
            return
        if answer.lower() in ("n", "no"):
            ui.say(game_over_hint(ui.session), "dim")
            return
        word, _, arg = answer.partition(" ")
        cmd = lookup(word)
        if cmd is None:
            ui.error("Please answer y (yes) or n (no), or type a command (save FILE, record, "
                     "undo, help …).")
            continue
        ended = ui.session.game
        cmd.handler(ui, arg)
        if ui.session.game is not ended:  # 'load': another game is on the board now
            return


def after_game(ui: Front) -> None:
    """Once the end is announced: ``New game?`` for a game played here; for a loaded game
    that ends as its file records it (a master game to study), how to walk through it."""
    if ui.session.shows_the_record():
        ui.say("The game is over as the file records it: walk through it (←/→, 'first', "
               "'goto N'), 'record' lists it; 'new' starts a game of your own.", "dim")
        return
    ask_new_game(ui)


def unsaved(session: Session) -> str:
    """How the end block says that the game was not saved: a loaded game not changed was
    never the person's to save."""
    return "; the file's game, not autosaved" if session.as_loaded() else "; not saved"
