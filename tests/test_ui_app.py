"""The read-move loop driven through prompt_toolkit's pipe input and DummyOutput: moves, every
kind of mistake, the commands, undo, save/load, the draw offer and the end of a game."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import NamedTuple, Sequence

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import START, Move
from kbdraughts.game import Game
from kbdraughts.notation import fen, move_text, moves_text, parse_fen
from kbdraughts.pdn import read_pdn_file
from kbdraughts.ui.app import GameApp, prompt_console
from kbdraughts.ui.autosave import Autosave
from kbdraughts.ui.commands import REGISTRY
from kbdraughts.ui.console import PlainConsole
from kbdraughts.ui.render import UNICODE
from kbdraughts.ui.session import HUMAN, Session


# --- a small deterministic player and a session on pipe input -----------------------------


class Pick(NamedTuple):
    move: Move
    layer: str
    reason: str
    short: str


#: The seat of the test player below: a kind of its own, which only this factory builds.
FIRST = PlayerSpec("first")


class FirstMove:
    """Plays the first legal move in sorted text order; accepts a draw when told to."""

    def __init__(self, spec: PlayerSpec = FIRST, accepts: bool = False):
        self.name = str(spec)
        self.accepts = accepts
        self.calls = 0

    def choose(self, game: Game, stop: threading.Event | None = None) -> Pick | None:
        self.calls += 1
        legal = game.legal_moves()
        if not legal:
            return None
        first = moves_text(legal)[0]
        move = next(m for m in legal if moves_text([m])[0] == first)
        return Pick(move, "test", f"the first legal move of {len(legal)}", "first legal move")

    def accepts_draw(self, game: Game, side: int) -> bool:
        return self.accepts


def factory(accepts: bool = False):
    return lambda spec: FirstMove(spec, accepts)


def play_session(
    keys: str,
    tmp_path: Path,
    fen: str | None = None,
    specs: Sequence[PlayerSpec] = (HUMAN, FIRST),
    accepts: bool = False,
) -> tuple[GameApp, str]:
    """Run a whole session on typed ``keys`` ("\\r" is Enter); returns the app and everything
    it showed, prompts and answers included."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        pipe.close()  # the end of the keys is the end of input (Ctrl-D) for the session
        game = Game(parse_fen(fen)) if fen else Game()
        session = Session(factory(accepts), specs, game=game,
                          autosave=Autosave(tmp_path / "games"))
        console = prompt_console(session, input=pipe, output=DummyOutput(),
                                 glyphs=UNICODE, interactive=False)
        app = GameApp(console, session)
        assert app.run() == 0
    return app, "\n".join(console.transcript)


# --- the tests --------------------------------------------------------------------------------


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


def test_help_lists_every_registered_command(tmp_path: Path):
    _, shown = play_session("help\rhelp undo\rquit\r", tmp_path)
    for cmd in REGISTRY.values():
        assert f"  {cmd.usage}" in shown
    assert "undo — take back your last move and the AI's reply" in shown
    assert "capturing is compulsory" in shown


def test_moves_fen_flip_and_level(tmp_path: Path):
    app, shown = play_session("moves\rfen\rflip\rlevel 2\rlevel 99\rquit\r", tmp_path)
    assert "Legal moves for White (7): a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4" in shown
    assert fen(START) in shown.splitlines()
    assert app.session.bottom == 1  # flipped: Black at the bottom
    flipped = shown.split("flip", 1)[1]
    assert flipped.splitlines()[1].strip().startswith("h  g  f")
    assert "Level 2." in shown and app.session.specs[1] == FIRST
    assert "Level must be a whole number from 1 to" in shown


def test_level_keeps_the_ais_other_options(tmp_path: Path):
    # The bug of issue 10: "level 3" against kb:1:nokb made it kb:3, the knowledge base back
    # on and the time per move dropped.
    built: list[str] = []
    session = Session(lambda spec: built.append(str(spec)) or FirstMove(spec),
                      [HUMAN, PlayerSpec.parse("kb:1:nokb:200ms")])
    console = PlainConsole(io.StringIO("level 3\nlevel\nquit\n"), io.StringIO(), UNICODE)
    app = GameApp(console, session)
    session.ai_thread.start()
    app.run()
    assert str(session.specs[1]) == "kb:3:nokb:200ms"
    assert "Level 3." in console.transcript
    assert "The AI plays at level 3 (1–4); 'level N' changes it." in console.transcript
    session.players[1].get()  # the rebuilt player, built in the AI thread
    assert built[-1] == "kb:3:nokb:200ms"


def test_undo_takes_back_the_move_and_the_reply(tmp_path: Path):
    app, shown = play_session("c3-d4\rundo\rundo\rquit\r", tmp_path)
    assert app.game.position == START
    assert "Took back c3-d4 and b6-a5." in shown
    assert "Nothing to undo" in shown


def test_record_lists_the_moves_numbered(tmp_path: Path):
    _, shown = play_session("record\rc3-d4\re3-f4\rrecord\rquit\r", tmp_path)
    assert "No move has been played yet." in shown
    assert "1. c3-d4 b6-a5 2. e3-f4 a5-b4" in shown


def test_why_and_hint(tmp_path: Path):
    _, shown = play_session("why\rc3-d4\rwhy\rhint\rquit\r", tmp_path)
    assert "The AI has not moved yet in this game." in shown
    assert "Black played b6-a5: the first legal move of 7" in shown
    assert "Hint: b2-c3 — the first legal move of 8" in shown


def test_save_and_load_round_trip(tmp_path: Path):
    pdn = tmp_path / "mine.pdn"
    app, shown = play_session(f"c3-d4\rsave {pdn}\rnew\rload {pdn}\rquit\r", tmp_path)
    assert f"Saved to {pdn}" in shown
    assert [move_text(m) for m in app.game.moves] == ["c3-d4", "b6-a5"]
    assert read_pdn_file(pdn)[0].game.position == app.game.position
    assert "Loaded" in shown and "White to move" in shown


def test_load_errors_are_one_line(tmp_path: Path):
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n\n1. c3-d4 c3-d4 *\n')
    _, shown = play_session(f"load {tmp_path / 'none.pdn'}\rload {bad}\rload\rquit\r", tmp_path)
    assert "none.pdn: cannot read" in shown
    assert f"{bad}:3: move 1... c3-d4" in shown
    assert "Say which file: load FILE" in shown


def test_draw_offer_in_a_king_duel_accepted(tmp_path: Path):
    app, shown = play_session("y\rn\rquit\r", tmp_path, fen="W:WKa1:BKh8")
    assert "Black offers a draw. Accept? [y/n] y" in shown
    assert "Game over: Draw (draw agreed), ½–½." in shown
    assert "New game? [y/n] n" in shown
    saved = read_pdn_file(app.session.autosave.path)[0]
    assert saved.result == "1/2-1/2"


def test_draw_offer_declined_plays_on_and_is_not_repeated(tmp_path: Path):
    app, shown = play_session("n\rc1-d2\rmoves\rquit\r", tmp_path, fen="W:WKc1:BKh8")
    assert shown.count("offers a draw") == 1
    assert "Draw declined; play on." in shown
    assert "Black plays h8-a1" in shown
    assert "2. White to move: moves" in shown  # the prompt, not a second offer
    assert app.game.result is None and app.game.ply == 2


def test_draw_command_asks_the_ai(tmp_path: Path):
    _, shown = play_session("draw\rquit\r", tmp_path)
    assert "Black declines the draw; play on." in shown
    app, shown = play_session("draw\rn\rquit\r", tmp_path, accepts=True)
    assert "Black accepts the draw." in shown
    assert app.game.result is not None and app.game.result.pdn == "1/2-1/2"


def test_the_end_of_a_game_and_a_new_one(tmp_path: Path):
    app, shown = play_session("c3:e5\ry\rquit\r", tmp_path, fen="W:Wc3:Bd4")
    assert "Game over: White wins (no pieces left), 1–0. You win!" in shown
    assert app.game.position == START
    app, shown = play_session("resign\rn\rc3-d4\rquit\r", tmp_path)
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


def test_new_game_as_black_turns_the_board_and_the_ai_opens(tmp_path: Path):
    app, shown = play_session("c3-d4\rnew black\rquit\r", tmp_path)
    assert app.session.specs == [FIRST, HUMAN] and app.session.bottom == 1
    assert [move_text(m) for m in app.game.moves] == ["a3-b4"]
    assert "New game: White (first) against Black (you)." in shown
    assert "1... Black to move: quit" in shown


def test_person_plays_black(tmp_path: Path):
    app, shown = play_session("quit\r", tmp_path, specs=(FIRST, HUMAN))
    assert app.session.bottom == 1
    assert "White plays a3-b4" in shown
    assert "1... Black to move: quit" in shown


def test_teach_writes_an_exact_rule(tmp_path: Path):
    from kbdraughts.ui.teach import taught_file

    _, shown = play_session(
        "teach c3-d4\rteach e3-f4\rteach c3-e5\rteach\rteach c3-d4\rquit\r", tmp_path)
    text = taught_file().read_text()
    assert "rule taught-1\n" in text and "rule taught-2\n" in text
    assert "rule taught-3" not in text
    assert f"Already taught: rule taught-1 at {taught_file()}:4." in shown
    assert f"  position: {fen(START)}\n  play: c3-d4\n" in text
    assert "  side: white\n" in text
    assert "Taught rule taught-1" in shown
    assert "c3-e5 is not legal" in shown
    assert "Say which move: teach MOVE" in shown
    try:
        from kbdraughts.kb import load_knowledge_base
    except ImportError:
        return
    kb = load_knowledge_base([taught_file()])
    assert len(kb) == 2
    assert "the knowledge base loads it" in shown
