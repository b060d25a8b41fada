"""The bottom toolbar: the draw rules counting, and the AI's reason for its last move in a
player's words, always the last one."""

from __future__ import annotations

from typing import NamedTuple

from prompt_toolkit.formatted_text import fragment_list_to_text

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import Move
from kbdraughts.game import Game
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.ui.session import HUMAN, Session
from kbdraughts.ui.toolbar import (
    ToolbarInfo, choice_words, draw_counts_text, session_info, toolbar_fragments,
)


class Said(NamedTuple):
    move: Move
    layer: str
    reason: str
    short: str
    words: str = ""


def played(session: Session, *moves: str, said: tuple[str, ...] = ()) -> None:
    """Push ``moves``; those of the AI (Black) carry the words in ``said`` in turn."""
    words = iter(said)
    for text in moves:
        game = session.game
        move = parse_move(game.position, text)
        choice = None
        if not session.is_human(game.side):
            w = next(words)
            choice = Said(move, "search", f"search depth 1: {w} (9 nodes)", "search", w)
        session.play(move, choice)


def test_the_toolbar_shows_the_draw_rules_once_they_count():
    game = Game(parse_fen("W:WKc1:BKh8"))
    assert draw_counts_text(game) == ""  # nothing counts yet
    for text in ("c1-d2", "h8-g7", "d2-c1", "g7-h8"):
        game.push(parse_move(game.position, text))
    assert draw_counts_text(game) == "repetition 2/3, kings only 2/15"
    info = ToolbarInfo(3, "White", "m", 2, counts=draw_counts_text(game))
    assert "repetition 2/3, kings only 2/15" in fragment_list_to_text(toolbar_fragments(info))


def test_the_toolbar_shows_the_last_ai_moves_reason_never_an_older_one():
    session = Session(lambda spec: None, [HUMAN, PlayerSpec.parse("kb:2:nokb")],
                      game=Game(parse_fen("W:WKc1:BKh8")))
    said = ("wins in 4 moves", "wins in 3 moves", "wins in 2 moves")
    moves = ("c1-d2", "h8-g7", "d2-e1", "g7-h8", "e1-d2", "h8-g7")
    for n in range(1, 4):
        played(session, *moves[2 * n - 2:2 * n], said=said[n - 1:n])
        assert session_info(session).reason == said[n - 1]


def test_the_reason_in_words_before_the_short_form_and_the_engine_detail():
    m = parse_move(parse_fen("W:Wc3:Bf6"), "c3-d4")
    assert choice_words(Said(m, "search", "search depth 3: score +42", "s", "+0.4 men")) == \
        "+0.4 men"
    assert choice_words(Said(m, "random", "a random legal move", "random")) == "random"


def test_the_toolbar_drops_words_never_numbers_at_every_width():
    import re

    reason = "search: +0.4 men for Black after a long line"
    info = ToolbarInfo(12, "White", "White 8 men 1 king, Black 7 men", 4, reason,
                       counts="kings only 12/15", material_short="White 8+1K, Black 7",
                       clock="White 4:05, Black 0:07.3")
    # from 49 columns: the counts keep a word naming their rule ("kings 12/15"; issue 28,
    # item 31: "3 1: 2/15, 1/15, 1/30" said nothing)
    for width in range(49, 160):
        bar = fragment_list_to_text(toolbar_fragments(info, width))
        assert len(bar) < width, (width, bar)
        assert re.match(r" (Move 12|12\.) │ ", bar), (width, bar)
        assert re.search(r"8(\+1K| men 1 king)\b.*\b7( men)?\b", bar), (width, bar)
        assert "12/15" in bar and re.search(r"│ (Level 4|L4) │", bar), (width, bar)
        assert "4:05" in bar and "0:07.3" in bar, (width, bar)
        if "AI: " in bar:
            said = bar.split("AI: ", 1)[1]
            assert said == reason or (said.endswith(" …") and reason.startswith(said[:-2])
                                      and reason[len(said) - 2] == " "), (width, bar)
    assert reason in fragment_list_to_text(toolbar_fragments(info, 160))


def test_the_counts_and_the_clocks_keep_their_words_where_the_panel_does():
    """Issue 28, item 31: at 100-120 columns the toolbar showed "3 1: 2/15, 1/15, 1/30" and
    "4:05 5:00" where the panel spelled them out; the reason gives way first."""
    info = ToolbarInfo(40, "White", "White 3 kings, Black 1 king", 4,
                       "search: +2.7 men for Black",
                       counts="3 kings v 1: 2/15, kings only 1/15, king ending 1/30",
                       material_short="White 3K, Black 1K", clock="White 4:05, Black 5:00")
    for width in range(60, 160):
        bar = fragment_list_to_text(toolbar_fragments(info, width))
        assert "3v1 2/15, kings 1/15, ending 1/30" in bar or "3 kings v 1: 2/15" in bar, bar
        if width >= 100:
            assert "White 4:05, Black 5:00" in bar, (width, bar)


def test_walking_back_the_toolbar_gives_the_reason_of_the_move_shown_not_the_last():
    session = Session(lambda spec: None, [HUMAN, PlayerSpec.parse("kb:2:nokb")],
                      game=Game(parse_fen("W:WKc1:BKh8")))
    played(session, "c1-d2", "h8-g7", "d2-e1", "g7-h8",
           said=("search: wins in 4 moves", "search: wins in 3 moves"))
    assert session_info(session).reason == "search: Black wins in 3 moves"
    session.show(session.game.moves[:2])
    assert session_info(session).reason == "search: Black wins in 4 moves"
    session.show(session.game.moves[:1])
    assert session_info(session).reason == ""
