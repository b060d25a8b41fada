"""The game clock at the console (``play --clock``): which side's clock runs while the loop
waits, and the word when a flag falls. The clock itself and the time manager are the AI's
(:mod:`kbdraughts.ai.clock`); the session ends a game lost on time."""

from __future__ import annotations

from kbdraughts.notation import side_name
from kbdraughts.ui.registry import Front


def run_clock(ui: Front) -> None:
    """The clock of the side the loop waits for runs: a person's at the prompt, an AI's while
    it thinks; none while the game is over or the AI is paused (waiting for Enter)."""
    session = ui.session
    clock, game = session.clock, session.game
    if clock is None:
        return
    paused = getattr(ui, "paused", False) and not session.is_human(game.side)
    if game.result is not None or paused:
        clock.stop()
    else:
        clock.run(game.side)


def say_flag_fell(ui: Front) -> None:
    """Say that the side to move lost on time (the session has ended the game)."""
    result = ui.session.game.result
    assert result is not None and result.winner is not None
    ui.say(f"{side_name(1 - result.winner)}'s flag fell: the time is up.", "error")
