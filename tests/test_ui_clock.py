"""The game clock at the console (``play --clock 5+3``) and ``--movetime``: the AI given the
time manager's share of what its clock holds, the clocks on the toolbar, a flag that falls
losing the game, through the console driver with a fake time source (no timed assertion)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kbdraughts.ai.clock import GameClock, TimeControl, TimeControlError, move_share_ms
from kbdraughts.board import BLACK, WHITE
from kbdraughts.cli import build_parser
from kbdraughts.game import Reason, Result
from kbdraughts.notation import move_text
from kbdraughts.pdn import read_pdn_file
from kbdraughts.ui.console import PromptConsole, TimeUp
from kbdraughts.ui.launch import StartError, start_game
from kbdraughts.ui.toolbar import session_info
from ui_driver import FirstMove, play_session


class FakeTime:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def passes(self, seconds: float) -> None:
        self.now += seconds


def test_the_ai_is_given_its_share_of_what_its_clock_holds(tmp_path: Path):
    t = FakeTime()
    clock = GameClock(TimeControl(5, 3), now=t)
    built: list[FirstMove] = []
    app, shown = play_session("c3-d4\rg3-h4\rquit\r", tmp_path, clock=clock,
                              think=lambda: t.passes(4), built=built)
    black = built[0]
    assert [move_text(m) for m in app.game.moves][:2] == ["c3-d4", "b6-a5"]
    # The first share from the whole 5 minutes; the second from what 4 s of thinking and the
    # 3 s increment left, over one move fewer.
    assert black.given == [move_share_ms(300, 3, 0), move_share_ms(299, 3, 1)]
    info = session_info(app.session)
    assert info.clock == "White 5:06, Black 4:58"  # two moves of White in no time: +3 s each
    assert "Game over" not in shown


def test_a_person_whose_time_runs_out_loses_on_time(tmp_path: Path):
    t = FakeTime()
    clock = GameClock(TimeControl(0.1, 0), now=t)  # six seconds for the game
    # The hint's AI thinks 7 s while the person's clock runs.
    app, shown = play_session("hint\rc3-d4\rn\rquit\r", tmp_path, clock=clock,
                              think=lambda: t.passes(7))
    assert app.game.result == Result(BLACK, Reason.TIME_FORFEIT)
    assert app.game.moves == []  # the move typed after the flag fell is not played
    assert "White's flag fell: the time is up." in shown
    assert "Game over: Black wins (time forfeit), 0–1. You lose." in shown
    saved = read_pdn_file(app.session.autosave.path)[0]
    assert saved.result == "0-1" and saved.tags["TimeControl"] == "6+0"


def test_an_ai_that_overruns_its_time_loses_and_its_move_is_not_played(tmp_path: Path):
    t = FakeTime()
    clock = GameClock(TimeControl(0.1, 0), now=t)
    app, shown = play_session("c3-d4\rn\rquit\r", tmp_path, clock=clock,
                              think=lambda: t.passes(10))
    assert app.game.result == Result(WHITE, Reason.TIME_FORFEIT)
    assert [move_text(m) for m in app.game.moves] == ["c3-d4"]
    assert "Black's flag fell: the time is up." in shown and "You win!" in shown


def test_a_new_game_starts_with_full_clocks_and_moves_are_not_taken_back(tmp_path: Path):
    t = FakeTime()
    clock = GameClock(TimeControl(1, 0), now=t)
    app, shown = play_session("c3-d4\rundo\rnew\ry\rquit\r", tmp_path, clock=clock,
                              think=lambda: t.passes(5))
    assert "Moves are not taken back in a game with a clock" in shown
    assert app.game.moves == []  # the new game
    assert session_info(app.session).clock == "White 1:00, Black 1:00"


def test_the_prompt_ends_when_the_flag_falls_while_the_person_thinks():
    with create_pipe_input() as pipe:  # no key comes: only the clock can end the prompt
        console = PromptConsole(input=pipe, output=DummyOutput(), interactive=False)
        with pytest.raises(TimeUp):
            console.read([("", "1. White to move: ")], time_left=lambda: 0.0)


@pytest.mark.parametrize("text, message", [
    ("5+x", "a clock is MINUTES+SECONDS"),
    ("0+3", "above 0"),
    ("5+3+1", "a clock is MINUTES+SECONDS"),
    ("5+-3", "a clock is MINUTES+SECONDS"),
    ("5+601", "the seconds a move adds are 0 to 600"),
    ("1e9", "a clock is MINUTES+SECONDS"),
])
def test_a_bad_clock_is_refused_with_what_would_do(text: str, message: str):
    with pytest.raises(TimeControlError, match=message.replace("+", r"\+")):
        TimeControl.parse(text)


def test_play_reads_clock_and_movetime_and_refuses_both(capsys):
    parser = build_parser()
    args = parser.parse_args(["play", "--clock", "5+3"])
    assert args.clock == TimeControl(5, 3) and args.movetime is None
    args = parser.parse_args(["play", "--movetime", "250"])
    assert args.movetime == 250
    with pytest.raises(SystemExit) as e:
        parser.parse_args(["play", "--clock", "five"])
    assert e.value.code == 2 and "a clock is MINUTES+SECONDS" in capsys.readouterr().err
    both = argparse.Namespace(color="white", level=None, fen=None, load=None, resume=False,
                              white=None, black=None, ascii=False, delay=None, movetime=250,
                              clock=TimeControl(5, 3))
    with pytest.raises(StartError, match="--movetime and --clock"):
        start_game(both)
