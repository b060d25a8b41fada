"""The line protocol of ``bestmove``: game lines in, move lines out (issue 13)."""

from __future__ import annotations

import pytest

from kbdraughts.match.line_protocol import game_line, read_answer, read_game_line
from kbdraughts.game import Game
from kbdraughts.notation import FenError, MoveError, fen, parse_fen, parse_move


def test_a_plain_fen_is_a_game_without_moves():
    g = read_game_line("  W:Wc3:Bf6  ")
    assert g.ply == 0 and fen(g.position) == "W:Wc3:Bf6"
    assert game_line(g) == "W:Wc3:Bf6"


def test_game_lines_round_trip_from_the_start():
    g = Game()
    for text in ("c3-d4", "f6-e5", "d4:f6", "g7:e5"):
        g.push(parse_move(g.position, text))
    line = game_line(g)
    assert line.endswith(" moves c3-d4 f6-e5 d4:f6 g7:e5")
    again = read_game_line(line)
    assert again.moves == g.moves and again.positions == g.positions
    assert game_line(g, history=False) == fen(g.position)
    assert read_game_line(line.replace(" moves ", "  MOVES\t")).moves == g.moves


def test_the_history_counts_repetitions():
    g = read_game_line("W:WKc1:BKh8 moves c1-d2 h8-g7 d2-c1 g7-h8")
    assert g.repetitions() == 2


@pytest.mark.parametrize("line, message", [
    ("W:Wc3:Bf6 moves c3-e5", "move 1 'c3-e5': c3-e5 is not legal"),
    ("W:Wc3:Bf6 moves c3-d4 xx", "move 2 'xx': 'xx' is not a move"),
    ("W:Wa1:Bb2,c3 moves a1-b2", "move 1 'a1-b2': "),
    ("W:WKc1:BKh8 moves c1-d2 h8-g7 d2-c1 g7-h8 c1-d2 h8-g7 d2-c1 g7-h8 c1-d2",
     "move 9 'c1-d2': the game is over: Draw (threefold repetition)"),
])
def test_a_move_that_cannot_be_played_is_named(line, message):
    with pytest.raises(MoveError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        read_game_line(line)


def test_a_bad_fen_is_still_a_fen_error():
    with pytest.raises(FenError):
        read_game_line("W:Wz9 moves c3-d4")


def test_answers():
    pos = parse_fen("W:Wc3:Bf6")
    assert read_answer(pos, "none") is None and read_answer(pos, "NONE  # no legal move") is None
    assert read_answer(pos, "c3-d4  # a reason") == parse_move(pos, "c3-d4")
    for bad in ("", "error", "c3-e5", "c3-d4 # one space is not a comment"):
        with pytest.raises(MoveError):
            read_answer(pos, bad)
