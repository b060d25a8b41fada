"""The console before a draw: the warning one move before a draw rule or a third repetition ends
the game (the game counts, the console words it), and the AI's draw offer wherever the endgame
tables judge the position, with the tables' reason."""

from __future__ import annotations

from pathlib import Path

from test_game import LOCK, quiet_plies
from ui_driver import play_session

from kbdraughts.ai.engine import Engine
from kbdraughts.match.players import EnginePlayer
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.game import Game
from kbdraughts.notation import parse_fen
from kbdraughts.ui.draws import draw_ahead_words
from kbdraughts.ui.session import HUMAN

TWO_PEOPLE = (HUMAN, HUMAN)
LONE_KING_WARNING = ("One more move by each side without taking the lone king and the game is "
                     "drawn by the 15-move rule (three kings against a lone king).")


def said(shown: str) -> str:
    """The transcript with the console's line breaks undone."""
    return " ".join(shown.split())


def test_a_third_repetition_is_announced_before_the_move_that_makes_it(tmp_path: Path) -> None:
    keys = "c1-d2\rh8-g7\rd2-c1\rg7-h8\rc1-d2\rh8-g7\rd2-c1\rg7-h8\rn\rquit\r"
    app, shown = play_session(keys, tmp_path, fen="W:WKc1:BKh8", specs=TWO_PEOPLE)
    warning = "The move g7-h8 would repeat the position a third time: a draw by repetition."
    assert said(shown).count(warning) == 1
    assert shown.index("4... Black to move: g7-h8") > shown.index(warning.split(":")[0])
    assert "Game over: Draw (threefold repetition)" in shown


def test_the_lone_king_count_is_announced_once_one_move_by_each_side_before(
        tmp_path: Path) -> None:
    game = Game(parse_fen(f"W:WKa1,Kc1,Ke1,{LOCK}:BKa7"))
    quiet_plies(game, 27, seed=2)  # White has made 14 of its 15 moves; Black to move
    assert draw_ahead_words(game) == LONE_KING_WARNING
    app, shown = play_session("moves\rb8-a7\rquit\r", tmp_path, game=game, specs=TWO_PEOPLE)
    assert said(shown).count(LONE_KING_WARNING) == 1  # not again after the command
    assert said(shown).count("One more move by White without taking the lone king") == 1


def test_no_warning_while_the_counts_are_far_from_their_limits(tmp_path: Path) -> None:
    app, shown = play_session("c1-d2\rh8-g7\rquit\r", tmp_path, fen="W:WKc1,Ke1:BKh8",
                              specs=TWO_PEOPLE)
    assert "and the game is drawn" not in said(shown) and "would repeat" not in shown


def engine_players(spec: PlayerSpec) -> EnginePlayer:
    return EnginePlayer(Engine(level=2, movetime_ms=50, use_kb=False), str(spec))


def test_the_ai_offers_a_draw_the_tables_judge_drawn_with_their_reason(
        tmp_path: Path, endgame_tables) -> None:
    # Two kings against a lone king on the main road: no king duel, drawn by the tables. The
    # offer comes before the first move.
    app, shown = play_session("y\rn\rquit\r", tmp_path, fen="W:WKc1,Ke1:BKa1",
                              specs=(HUMAN, PlayerSpec.parse("kb:2:nokb")),
                              players=engine_players)
    assert ("Black offers a draw (the endgame database says drawn with best play). "
            "Accept? [y/n] y") in said(shown)
    assert "Game over: Draw (draw agreed)" in shown and app.game.ply == 0


def test_the_ai_offers_no_draw_where_the_tables_say_it_wins_and_says_nothing(
        tmp_path: Path, endgame_tables) -> None:
    app, shown = play_session("e7-d6\rquit\r", tmp_path, fen="W:WKe1,Kg1:Be7",
                              specs=(PlayerSpec.parse("kb:2:nokb"), HUMAN),
                              players=engine_players)
    assert "offers a draw" not in shown and "does not offer" not in shown
    assert app.game.ply >= 1


def test_the_offer_and_why_say_the_same_verdict_of_the_tables(
        tmp_path: Path, endgame_tables) -> None:
    app, shown = play_session("n\rc1-d2\rwhy\rquit\r", tmp_path, fen="W:WKc1,Ke1:BKa1",
                              specs=(HUMAN, PlayerSpec.parse("kb:2:nokb")),
                              players=engine_players)
    text = said(shown)
    assert text.count("offers a draw") == 1 and "Draw declined; play on." in text
    offer = text.index("Black offers a draw (the endgame database says drawn with best play)")
    assert text.index("endgame database: drawn with best play", offer) > offer  # why's answer
    assert app.game.result is None


def test_the_draw_offer_takes_a_command_and_asks_again(tmp_path: Path, endgame_tables) -> None:
    """Issue 28, item 27: the offer's prompt took only y/n; the game-over prompt takes commands.
    A command runs and the offer stands; a move played declines it, as playing on does."""
    app, shown = play_session("record\rfen\ry\rquit\r", tmp_path, fen="W:WKc1,Ke1:BKa1",
                              specs=(HUMAN, PlayerSpec.parse("kb:2:nokb")),
                              players=engine_players)
    text = said(shown)
    assert text.count("offers a draw") == 3 and "Please answer y" not in text
    assert "W:WKc1,Ke1:BKa1" in text  # fen's answer, between the questions
    assert "Game over: Draw (draw agreed)" in text
    app, shown = play_session("c1-d2\rquit\r", tmp_path, fen="W:WKc1,Ke1:BKa1",
                              specs=(HUMAN, PlayerSpec.parse("kb:2:nokb")),
                              players=engine_players)
    assert app.game.result is None and app.game.ply >= 1
    assert "Please answer y" not in said(shown)
