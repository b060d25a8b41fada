"""The read-move loop driven through prompt_toolkit's pipe input and DummyOutput: moves, every
kind of mistake, the prompt, the AI's replies, the draw offer in a king duel, the end of a game,
Ctrl-C and Ctrl-D, the autosave. The commands are in test_ui_commands.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kbdraughts.ai.engine import Engine
from kbdraughts.match.players import EnginePlayer
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import START
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen
from kbdraughts.pdn import read_pdn_file
from kbdraughts.ui.app import GameApp, prompt_console
from kbdraughts.ui.autosave import Autosave
from kbdraughts.ui.render import UNICODE
from kbdraughts.ui.session import HUMAN, Session
from ui_driver import FIRST, play_session


def test_a_move_gets_the_ais_reply_with_its_reason(tmp_path: Path):
    app, shown = play_session("c3-d4\rquit\r", tmp_path)
    assert [move_text(m) for m in app.game.moves] == ["c3-d4", "b6-a5"]
    assert "1. White to move: c3-d4" in shown
    assert "Black plays b6-a5 — first legal move" in shown
    assert "2. White to move: quit" in shown


def test_moves_in_every_form_the_notation_accepts(tmp_path: Path):
    app, shown = play_session("C3D4\r2. e3 f4\r3. g3xh4!\r", tmp_path)
    assert [move_text(m) for m in app.game.moves][::2] == ["c3-d4", "e3-f4"]
    assert "3. White to move: 3. g3xh4!\nYou must capture: a3:c5" in shown


def test_the_prompt_names_the_side_contains_move_and_ends_with_a_space(tmp_path: Path):
    app, _ = play_session("quit\r", tmp_path)
    text = "".join(t for _, t in app.prompt())
    assert text == "1. White to move: "


@pytest.mark.parametrize("fen_text, typed, message", [
    (None, "zz9", "'zz9' is not a move: write it as c3-d4"),
    (None, "c3-e5", "c3-e5 is not legal: the piece on c3 can play c3-b4 or c3-d4"),
    (None, "c4-d5", "c4 is a light square"),
    (None, "d4-e5", "There is no piece on d4"),
    (None, "f6-g5", "The piece on f6 is Black's; you play White"),
    (None, "hlep", "'hlep' is not a move or a command. Did you mean 'help'?"),
    ("W:Wa1,c3,g3:Bd4,f4", "a1-b2", "You must capture: c3:e5 or g3:e5"),
    ("W:Wc7:Bb4,d4,c5,b6,d6,f6", "c7:g7",
     "c7:g7 is ambiguous: it could be c7:a5:c3:e5:g7 or c7:e5:g7; type the full path"),
])
def test_each_mistake_has_its_own_message_and_the_prompt_comes_back(
        tmp_path: Path, fen_text: str | None, typed: str, message: str):
    app, shown = play_session(f"{typed}\rquit\r", tmp_path, fen=fen_text)
    lines = shown.splitlines()
    at = lines.index(next(l for l in lines if l.endswith(f"to move: {typed}")))
    assert lines[at + 1].startswith(message), lines[at + 1]
    assert lines[at + 2].endswith("to move: quit")  # the prompt came back
    assert app.game.moves == []
    assert "Traceback" not in shown


def test_a_square_alone_lists_what_its_piece_can_play(tmp_path: Path):
    _, shown = play_session("c3\rb2\rd4\rf6\rc4\rquit\r", tmp_path)
    assert "The piece on c3 can play c3-b4, c3-d4." in shown
    assert ("The piece on b2 cannot move; legal moves: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, "
            "g3-f4, g3-h4.") in shown
    assert "There is no White piece on d4" in shown
    assert "There is no White piece on f6" in shown
    assert "c4 is a light square: pieces stand on the dark squares only." in shown


def test_draw_offer_in_a_king_duel_accepted(tmp_path: Path):
    app, shown = play_session("y\rn\rquit\r", tmp_path, fen="W:WKa1:BKh8")
    assert "Black offers a draw. Accept? [y/n] y" in shown
    assert "Game over: Draw (draw agreed), ½–½." in shown
    assert "New game from the set-up position? [y/n; i: from the initial position] n" in shown
    saved = read_pdn_file(app.session.autosave.path)[0]
    assert saved.result == "1/2-1/2"


def test_draw_offer_declined_plays_on_and_is_not_repeated(tmp_path: Path):
    app, shown = play_session("n\rc1-d2\rmoves\rquit\r", tmp_path, fen="W:WKc1:BKh8")
    assert shown.count("offers a draw") == 1
    assert "Draw declined; play on." in shown
    assert "Black plays h8-a1" in shown
    assert "2. White to move: moves" in shown  # the prompt, not a second offer
    assert app.game.result is None and app.game.ply == 2


def test_the_end_of_a_game_and_a_new_one(tmp_path: Path):
    app, shown = play_session("c3:e5\ri\rquit\r", tmp_path, fen="W:Wc3:Bd4")
    assert "Game over: White wins (no pieces left), 1–0. You win!" in shown
    assert app.game.position == START
    app, shown = play_session("resign\ry\rn\rc3-d4\rquit\r", tmp_path)
    assert "Game over: Black wins (resignation), 0–1. You lose." in shown
    assert "The game is over" in shown


def test_ctrl_c_clears_the_line_and_ctrl_d_quits(tmp_path: Path):
    app, shown = play_session("c3-d\x03\x03c3-d4\r\x04", tmp_path)
    assert "Ctrl-C clears the line" in shown
    assert [move_text(m) for m in app.game.moves] == ["c3-d4", "b6-a5"]
    assert "--resume' continues it" in shown


def test_autosave_after_each_move(tmp_path: Path):
    app, _ = play_session("c3-d4\re3-f4\rquit\r", tmp_path)
    saved = read_pdn_file(app.session.autosave.path)[0]
    assert saved.result == "*"
    assert saved.game.position == app.game.position and saved.game.ply == 4
    assert saved.tags["White"] == "You" and saved.tags["Black"] == "first"


def test_two_ais_play_to_the_end(tmp_path: Path):
    app, shown = play_session("n\rquit\r", tmp_path, specs=(FIRST, FIRST))
    assert app.game.result is not None
    assert "Game over:" in shown
    assert shown.count("White plays") >= 5


def test_person_plays_black(tmp_path: Path):
    app, shown = play_session("quit\r", tmp_path, specs=(FIRST, HUMAN))
    assert app.session.bottom == 1
    assert "White plays a3-b4" in shown
    assert "1... Black to move: quit" in shown


class NarrowOutput(DummyOutput):
    """A terminal of ``columns`` columns that shows nothing."""

    def __init__(self, columns: int):
        super().__init__()
        self.width = columns

    def get_size(self) -> Size:
        return Size(rows=40, columns=self.width)


def engine_session(keys: str, tmp_path: Path, fen: str | None = None, columns: int = 100,
                   level: int = 1):
    """A session against the real engine (``level``, no knowledge base, 200 ms a move) on
    typed ``keys``, in a terminal of ``columns``."""
    spec = PlayerSpec.parse(f"kb:{level}:nokb")
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()
        engine = lambda: Engine(level=level, movetime_ms=200, use_kb=False)  # noqa: E731
        session = Session(lambda s: EnginePlayer(engine(), str(s)),
                          (HUMAN, spec), game=Game(parse_fen(fen)) if fen else Game(),
                          autosave=Autosave(tmp_path / "games"))
        console = prompt_console(session, input=pipe, output=NarrowOutput(columns),
                                 glyphs=UNICODE, interactive=False)
        app = GameApp(console, session)
        assert app.run() == 0
    return app, "\n".join(console.transcript)


def test_the_ai_offers_no_draw_in_a_king_duel_it_wins(tmp_path: Path, endgame_tables):
    app, shown = engine_session("a1-c3\rn\rquit\r", tmp_path, fen="W:WKa1:BKh8")
    assert "offers a draw" not in shown
    said = " ".join(shown.split())  # the console wraps long lines
    assert "Black does not offer a draw: the endgame database says it wins in 1 move" in said
    assert "Game over: Black wins" in shown


def test_the_ai_declines_a_draw_too_early_and_says_why(tmp_path: Path):
    app, shown = engine_session("draw\rquit\r", tmp_path)
    assert app.game.result is None
    assert ("Black declines the draw (too early to agree a draw with 24 pieces on the board; "
            "it judges the position even); play on.") in shown


def board_rows(shown: str) -> list[str]:
    """The rank lines of the last board shown."""
    lines = shown.splitlines()
    top = max(i for i, line in enumerate(lines) if line.startswith(" 8 "))
    return lines[top:top + 8]


def test_the_move_list_beside_the_board_shows_both_moves_the_last_marked(tmp_path: Path):
    app, shown = play_session("c3-d4\re3-f4\rquit\r", tmp_path)
    rows = board_rows(shown)
    assert rows[0].endswith("Black (first)") and rows[7].endswith("White (you)")
    assert rows[2].endswith("   1. c3-d4 b6-a5")  # your own move and the AI's, numbered
    assert rows[3].endswith("   2. e3-f4 a5-b4")
    assert rows[1].endswith("White 12 men, Black 12 men")


def test_without_colour_the_last_move_is_marked_in_the_list(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app, shown = play_session("c3-d4\rquit\r", tmp_path)
    assert app.console.colour is False
    rows = board_rows(shown)
    assert rows[2].endswith("1. c3-d4 [b6-a5]")
    assert any(mark in row for row in rows for mark in ("[○]", "[●]", "[·]"))  # the board too


def test_a_narrow_terminal_gets_a_one_line_summary_instead_of_the_panel(tmp_path: Path):
    app, shown = engine_session("c3-d4\rquit\r", tmp_path, columns=50)
    rows = board_rows(shown)
    assert all(len(row) <= 31 for row in rows)  # the board alone
    assert "White (you) 12 · Black (kb:1:nokb) 12 · 1... " in shown


def test_a_very_long_line_is_not_echoed_back_whole(tmp_path: Path):
    junk = "x" * 5000
    _, shown = play_session(f"{junk}\rc3-d4{junk}\rquit\r", tmp_path)
    assert junk not in shown
    assert "'" + "x" * 39 + "…' is not a move or a command." in shown
    assert len(max(shown.splitlines(), key=len)) < 400


def test_the_end_of_a_game_in_one_block(tmp_path: Path):
    app, shown = play_session("c3:e5\rn\rquit\r", tmp_path, fen="W:Wc3:Bd4")
    path = app.session.autosave.path
    assert (f"Game over: White wins (no pieces left), 1–0. You win!\n"
            f"1 move in 0 s; saved to {path}.") in shown


def test_why_says_it_in_words_and_why_verbose_adds_the_engine_detail(tmp_path: Path):
    app, shown = engine_session("c3-d4\rwhy\rwhy --verbose\rquit\r", tmp_path, level=2)
    lines = shown.splitlines()
    plain = next(l for l in lines if l.startswith("Black played ") and "search" in l)
    # The score, and the evaluation's shares that decided it over the next best move.
    assert re.fullmatch(r"Black played \S+: search: (even|[+-][\d.]+ m[ae]n for Black)"
                        r"( \(.+ [+-]\d\.\d\d(, .+ [+-]\d\.\d\d)*\))?", plain), plain
    verbose = lines[lines.index(plain) + 2]
    assert re.match(r"Black played \S+: search depth \d+\+?: score .* nodes, ", verbose)
    assert re.search(r"Black plays \S+ — search: ", shown)


def test_the_toolbar_counts_the_draw_rules(tmp_path: Path):
    app, shown = engine_session("n\rc1-d2\rquit\r", tmp_path, fen="W:WKc1:BKh8")
    bar = fragment_list_to_text(app.console.session.bottom_toolbar())
    assert re.search(r"kings( only)? 1/15", bar), bar  # spelled out, or short for the reason
    assert "kings only 1/15" in board_rows(shown)[2]


def test_scores_are_the_persons_in_a_hint_and_the_named_sides_elsewhere(tmp_path: Path):
    app, shown = play_session("hint\rc3-d4\rwhy\rquit\r", tmp_path,
                              words="search: -0.1 men for itself")
    assert "Hint: a3-b4 — search: -0.1 men for you" in shown  # the person asked
    assert "Black plays b6-a5 — search: -0.1 men for Black" in shown
    assert "Black played b6-a5: search: -0.1 men for Black" in shown
    assert "itself" not in shown
    bar = fragment_list_to_text(app.console.session.bottom_toolbar())
    assert "AI: search: -0.1 men for Black" in bar


def test_a_won_line_in_a_hint_is_the_persons_win(tmp_path: Path):
    _, shown = play_session("hint\rquit\r", tmp_path, words="search: wins in 3 moves")
    assert "Hint: a3-b4 — search: you win in 3 moves" in shown
