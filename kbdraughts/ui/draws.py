"""Draws between a person and the AI: whether the AI takes a draw or offers one, asked in the
AI thread, the offer itself, and the words that warn before a draw rule ends the game.

The AI offers in a king duel (once a duel; when it does not, it says why) and wherever the
endgame tables judge the position (once a material, and only when it offers: it is asked again
after each move, as a counter running out can turn a win into a draw). The judgement is the
engine's (``Engine.draw_verdict`` and ``Engine.offers_draw``, the tables' verdict where they
reach); a player without one accepts as its ``accepts_draw`` says and offers in every king duel.
The counting of the draw rules is the game's (``Game.draws_ahead``); this module only words it.
"""

from __future__ import annotations

from typing import Any

from kbdraughts.ai import endgame
from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.board import BLACK, WHITE
from kbdraughts.game import ENDING_PLIES, KING_MOVES_ONLY_PLIES, LONE_KING_MOVES, DrawAhead, \
    Game, Reason
from kbdraughts.notation import moves_text, side_name

#: The draw rules as a player names them.
_RULE_NAMES = {
    Reason.LONE_KING: f"the {LONE_KING_MOVES}-move rule (three kings against a lone king)",
    Reason.KING_MOVES_ONLY: f"the {KING_MOVES_ONLY_PLIES // 2}-move rule (king moves only)",
}


def is_king_duel(game: Game) -> bool:
    """Exactly one king on each side and nothing else."""
    return game.position.counts() == (0, 1, 0, 1)


def tables_judge(game: Game) -> bool:
    """Whether the endgame tables give this position's verdict, the draw rules on top (an
    ending of few pieces whose tables are built)."""
    return endgame.judge(game.position, *game_counters(game)) is not None


def draw_ahead_words(game: Game) -> str:
    """The draw rules about to end the game, as a player is warned of them ("One more king
    move by each side and the game is drawn by the 15-move rule (king moves only)."); "" when
    none is within a move by each side."""
    ahead = game.draws_ahead()
    counted = [d.plies for d in ahead if d.reason != Reason.REPETITION]
    # Of the counts, the soonest alone: the game never reaches a later one.
    ahead = [d for d in ahead if d.reason == Reason.REPETITION or d.plies == min(counted)]
    if not ahead:
        return ""
    text = "; ".join(_ahead_words(game, d) for d in ahead)
    return text[0].upper() + text[1:] + "."


def warn_of_draw(ui: Any) -> None:
    """Once a position: a draw rule or a third repetition that can end the game within a move
    by each side, said in words (the counting is the game's). ``ui``: the loop."""
    game = ui.session.game
    here = (game, game.ply, game.position)
    if ui.warned == here:
        return
    ui.warned = here
    words = draw_ahead_words(game)
    if words:
        ui.say(words, "info")


def _ahead_words(game: Game, d: DrawAhead) -> str:
    if d.reason == Reason.REPETITION:
        moves = moves_text(list(d.moves))
        return (f"the move{'s' if len(moves) > 1 else ''} {' or '.join(moves)} would repeat "
                "the position a third time: a draw by repetition")
    who = "each side" if d.plies == 2 else side_name(d.side)
    if d.reason == Reason.LONE_KING:
        return (f"one more move by {who} without taking the lone king and the game is drawn "
                f"by {_RULE_NAMES[d.reason]}")
    if d.reason == Reason.KING_MOVES_ONLY:
        return (f"one more king move by {who} without a capture and the game is drawn by "
                f"{_RULE_NAMES[d.reason]}")
    limit = ENDING_PLIES[sum(game.position.counts())] // 2
    return (f"one more move by {who} without a capture or crowning and the game is drawn by "
            f"the {limit}-move rule of king endings")


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


def offer_draw(ui: Any) -> bool:
    """The AI offers a draw when the moment is one (a king duel, or a position the tables
    judge) and it judges the ending drawn; in a king duel it says what it sees instead. True
    when it spoke (the loop goes on). ``ui``: the loop (``app.GameApp``)."""
    session, game = ui.session, ui.session.game
    duel, judged = is_king_duel(game), tables_judge(game)
    if not duel and not judged:
        session.draw_offered = None
        return False
    ai_sides = [s for s in (WHITE, BLACK) if not session.is_human(s)]
    material = game.position.counts()
    if session.draw_offered == material or not ai_sides:
        return False
    offerer = 1 - game.side if len(ai_sides) == 2 else ai_sides[0]
    if not duel and session.specs[offerer].kind != "kb":
        return False  # only the engine judges a draw where the tables reach
    if not duel and session.draw_weighed == (game, game.ply, game.position):
        return False  # asked once in this position already (a command was typed since)
    session.draw_weighed = (game, game.ply, game.position)
    if duel:
        session.draw_offered = material
    if not ui.board_shown:
        ui.show_board()
    receiver = 1 - offerer
    offers = judge_in_thread(ui, offerer, offer=True)
    if offers is None:
        return duel
    if not offers[0]:
        if duel:
            ui.say(f"{side_name(offerer)} does not offer a draw: {offers[1]}.", "ai")
        return duel
    session.draw_offered = material
    reason = f" ({offers[1]})" if offers[1] else ""
    if session.is_human(receiver):
        accepted = answer_offer(ui, f"{side_name(offerer)} offers a draw{reason}. Accept? [y/n] ")
    else:
        verdict = judge_in_thread(ui, receiver)
        accepted = bool(verdict and verdict[0])
        why = f" ({verdict[1]})" if verdict and verdict[1] else ""
        ui.say(f"{side_name(offerer)} offers a draw{reason}; {side_name(receiver)} "
               f"{'accepts' if accepted else 'declines'}{why}.", "ai")
    if accepted:
        game.agree_draw()
        ui.save_now()
    elif session.is_human(receiver) and accepted is not None:
        ui.info("Draw declined; play on.")
    return True


def answer_offer(ui: Any, question: str) -> bool | None:
    """A person's answer to a draw offer: y or n; a command typed instead (board, record,
    analyse, save FILE, help …) runs and the question comes back while the offer stands, as
    at the game-over prompt; a move played, or a command that changes the game, lets the offer
    lapse (None), as playing on does over the board."""
    game = ui.session.game
    here = (game, game.ply)
    while True:
        try:
            answer = ui.console.ask([("class:msg.title", question)]).strip()
        except KeyboardInterrupt:
            return False
        if answer.lower() in ("y", "yes", "n", "no"):
            return answer.lower().startswith("y")
        if not answer:
            ui.error("Please answer y (yes) or n (no), or type a command (board, record, "
                     "analyse, help …) or a move.")
            continue
        ui.handle(answer)
        game = ui.session.game
        if (game, game.ply) != here or game.result is not None:
            return None


def judge_in_thread(ui: Any, side: int, offer: bool = False) -> tuple[bool, str] | None:
    """The AI of ``side`` judges a draw in the AI thread (``draw_judgement``)."""
    player = ui.session.players[side]
    answer = ui.ask_ai(
        lambda stop: draw_judgement(player, ui.session.game, side, offer),
        f"{side_name(side)} weighs the position…",
        lambda e: ui.error(f"The AI could not judge a draw: {type(e).__name__}: {e}."))
    return None if answer is None else answer[0]
