"""``setup FEN`` in a running console, and a new game after a set-up one (issue 28, item 28):
the new game starts from the set-up position, or from the initial one when asked."""

from __future__ import annotations

from pathlib import Path

from ui_driver import play_session

from kbdraughts.board import START
from kbdraughts.notation import parse_fen
from kbdraughts.ui.session import HUMAN

#: White takes both black men at once and the game is over.
ONE_SHOT = "W:Wc3:Bd4,f6"


def said(shown: str) -> str:
    return " ".join(shown.split())


def test_setup_plays_on_from_the_position_given(tmp_path: Path):
    app, shown = play_session(f"c3-d4\rsetup {ONE_SHOT}\ry\rfen\rquit\r", tmp_path)
    text = said(shown)
    assert "Leave this game for the set-up position? (It stays saved.)" in text
    assert f"New game from {ONE_SHOT}: White (you) against Black (first)." in text
    assert app.game.start == parse_fen(ONE_SHOT) and app.game.ply == 0


def test_a_bad_setup_says_why_and_the_game_goes_on(tmp_path: Path):
    app, shown = play_session("setup W:Wz9:B\rsetup\rc3-d4\rquit\r", tmp_path)
    text = said(shown)
    assert "Bad FEN: 'z9' is not a square (a1..h8 or 1..32, K for a king)." in text
    assert "Say the position: setup FEN" in text
    assert app.game.start == START and app.game.ply == 2


def test_after_a_set_up_game_a_new_game_starts_from_it_or_from_the_initial_position(
        tmp_path: Path):
    app, shown = play_session("c3:e5:g7\ry\rfen\rquit\r", tmp_path, fen=ONE_SHOT,
                              specs=(HUMAN, HUMAN))
    text = said(shown)
    assert "New game from the set-up position? [y/n; i: from the initial position]" in text
    assert app.game.start == parse_fen(ONE_SHOT) and app.game.ply == 0
    app, shown = play_session("c3:e5:g7\ri\rquit\r", tmp_path, fen=ONE_SHOT,
                              specs=(HUMAN, HUMAN))
    assert app.game.start == START and "New game: White (human) against Black" in said(shown)
