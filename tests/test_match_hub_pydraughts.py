"""``kbdraughts hub`` driven by a real client: pydraughts' ``HubEngine`` (the class lidraughts-bot
uses) plays whole Russian games against a random opponent, with move-time, time/inc and
pondering; every move is legal by pydraughts' own rules, and the engine gives no protocol error.

pydraughts 0.5 (lidraughts-bot's pin) numbers the moves as lidraughts does; 0.6 mirrors them
(the engine is told ``numbering=mirrored``). Both are run here, whichever is installed.
"""

from __future__ import annotations

import logging
import os
import random
import sys
import threading

import pytest

draughts = pytest.importorskip("draughts", reason="pydraughts drives the Hub engine")
from draughts.engine import HubEngine, Limit  # noqa: E402

#: pydraughts >= 0.6 has Board, and its Russian moves in the mirrored numbering.
NEW = hasattr(draughts, "Board")
#: The installed command, not ``python -m``: pydraughts resolves the program's links, and a
#: virtual environment's python is a link to one that lacks the environment's packages.
COMMAND = [os.path.join(os.path.dirname(sys.executable), "kbdraughts"), "hub"]
MAX_PLIES = 200


def new_board():
    return draughts.Board(variant="russian") if NEW else draughts.Game(variant="russian")


def legal(board) -> list:
    """pydraughts' legal moves as board moves (lists of steps)."""
    if NEW:
        return [m.board_move for m in board.legal_moves()]
    return board.legal_moves()[0]


def push(board, move) -> None:
    board.push(move if NEW else move.board_move)


def random_move(board, rng: random.Random):
    choice = rng.choice(legal(board))
    return draughts.Move(board, board_move=choice)


@pytest.fixture
def engine(endgame_tables, caplog):
    caplog.set_level(logging.WARNING, logger="pydraughts")
    hub = HubEngine(COMMAND)
    if NEW:
        hub.setoption("numbering", "mirrored")
    hub.setoption("variant", "russian")
    hub.init()
    yield hub
    hub.quit()
    hub.p.wait(timeout=10)
    # pydraughts warns of every line it did not expect (an error line among them)
    assert not [r for r in caplog.records if r.name == "pydraughts"], caplog.text


def play_game(hub, limit: Limit, ponder: bool, seed: int) -> tuple[object, int]:
    """kbdraughts (White) against random moves until pydraughts says the game is over."""
    rng = random.Random(seed)
    board = new_board()
    hits = 0
    result = None
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        if result is None:
            result = hub.play(board, limit, ponder=False)
        assert result.move.board_move in legal(board), result.move.board_move
        push(board, result.move)
        if board.is_over():
            break
        reply = random_move(board, rng)
        predicted = result.ponder
        result = None
        if ponder and predicted is not None:
            result, hit = ponder_on(hub, board, predicted, reply, limit)
            hits += hit
        push(board, reply)
    return board, hits


def ponder_on(hub, board, predicted, reply, limit) -> tuple[object, bool]:
    """lidraughts-bot's pondering: go ponder on the predicted reply; ponder-hit when it was
    played (the search becomes the move), else stop (its move is thrown away)."""
    hit = predicted.board_move == reply.board_move
    pondering = board.copy()
    push(pondering, predicted)
    answer = threading.Timer(0.05, hub.ponderhit if hit else hub.stop)
    answer.start()
    result = hub.play(pondering, limit, ponder=True)
    answer.join()
    return (result if hit else None), hit


@pytest.mark.parametrize("limit, ponder", [
    (Limit(movetime=0.05), False), (Limit(time=4, inc=0.2), False),
    (Limit(time=4, inc=0.2), True),
], ids=["move-time", "time-inc", "ponder"])
def test_whole_games_end_by_the_rules(engine, limit, ponder):
    board, hits = play_game(engine, limit, ponder, seed=3)
    assert board.is_over(), f"not over after {MAX_PLIES} plies"
    assert (board.winner() if NEW else board.get_winner()) == draughts.WHITE
    assert "time" in engine.info  # the last move's info line, read by pydraughts
    assert hits > 0 if ponder else hits == 0


def test_the_engine_says_who_it_is_and_what_it_plays(engine):
    assert engine.id["name"] == "kbdraughts"
    assert "russian" in engine.variants
    assert {"level", "kb", "egdb-folder", "egdb-pieces", "tt-size", "contempt",
            "numbering"} <= engine.options
