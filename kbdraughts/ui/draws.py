"""Draws between a person and the AI: whether the AI takes a draw or offers one in a king
duel, asked in the AI thread, and the offer itself. The judgement is the engine's
(``Engine.draw_verdict`` and ``Engine.offers_draw``); a player without one accepts as its
``accepts_draw`` says and offers in every king duel.
"""

from __future__ import annotations

from typing import Any

from kbdraughts.board import BLACK, WHITE
from kbdraughts.game import Game
from kbdraughts.notation import side_name


def is_king_duel(game: Game) -> bool:
    """Exactly one king on each side and nothing else."""
    return game.position.counts() == (0, 1, 0, 1)


def draw_judgement(player: Any, game: Any, side: int, offer: bool = False
                   ) -> tuple[bool, str]:
    """Whether the AI playing ``side`` takes a draw (``offer``: offers one) now, and why in a
    player's words; run it in the AI thread. A player without a judgement of its own answers
    as its ``accepts_draw`` says, and offers in every king duel."""
    inner = player.get() if hasattr(player, "get") else player
    engine = getattr(inner, "engine", inner)  # the knowledge-based player's Engine
    judge = getattr(engine, "offers_draw" if offer else "draw_verdict", None)
    if judge is not None:
        accepted, why = judge(game, side)
        return bool(accepted), why
    if offer:
        return True, ""
    accepts = getattr(inner, "accepts_draw", None)
    return (bool(accepts(game, side)) if accepts else False), ""


def offer_king_duel_draw(ui: Any) -> bool:
    """In a king duel the AI offers a draw once, when it judges the ending drawn, and else
    says what it sees; True when it spoke (the loop goes on). ``ui``: the loop
    (``app.GameApp``)."""
    session, game = ui.session, ui.session.game
    if not is_king_duel(game):
        session.draw_offered = False
        return False
    ai_sides = [s for s in (WHITE, BLACK) if not session.is_human(s)]
    if session.draw_offered or not ai_sides:
        return False
    session.draw_offered = True
    if not ui.board_shown:
        ui.show_board()
    offerer = 1 - game.side if len(ai_sides) == 2 else ai_sides[0]
    receiver = 1 - offerer
    offers = judge_in_thread(ui, offerer, offer=True)
    if offers is None:
        return True
    if not offers[0]:
        ui.say(f"{side_name(offerer)} does not offer a draw: {offers[1]}.", "ai")
        return True
    if session.is_human(receiver):
        accepted = ui.ask_yes_no(
            f"{side_name(offerer)} offers a draw. Accept? [y/n] ")
    else:
        verdict = judge_in_thread(ui, receiver)
        accepted = bool(verdict and verdict[0])
        why = f" ({verdict[1]})" if verdict and verdict[1] else ""
        ui.say(f"{side_name(offerer)} offers a draw; {side_name(receiver)} "
               f"{'accepts' if accepted else 'declines'}{why}.", "ai")
    if accepted:
        game.agree_draw()
        ui.save_now()
    elif session.is_human(receiver):
        ui.info("Draw declined; play on.")
    return True


def judge_in_thread(ui: Any, side: int, offer: bool = False) -> tuple[bool, str] | None:
    """The AI of ``side`` judges a draw in the AI thread (``draw_judgement``)."""
    player = ui.session.players[side]
    answer = ui.ask_ai(
        lambda stop: draw_judgement(player, ui.session.game, side, offer),
        f"{side_name(side)} weighs the position…",
        lambda e: ui.error(f"The AI could not judge a draw: {type(e).__name__}: {e}."))
    return None if answer is None else answer[0]
