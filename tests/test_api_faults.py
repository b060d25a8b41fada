"""The core's Python API and the PDN writer given what is not theirs (issue 40, item 13): a
position or a move built unchecked is refused in words, a move that is not text is a
TypeError, and a file whose lines end in a CR alone is written back with CRs."""

from __future__ import annotations

import pytest

from kbdraughts.board import START, Move, Position
from kbdraughts.cli import main
from kbdraughts.fen import FenError
from kbdraughts.files import read_form
from kbdraughts.notation import fen, move_text, parse_move


@pytest.mark.parametrize("pos, says", [
    (Position(-1, 0, 0, 0), "White's pieces stand off the 32 dark squares"),
    (Position(0, 1 << 63, 0, 0), "Black's pieces stand off"),
    (Position(START.white, START.white, 0, 0), "a square holds a piece of each side"),
    (Position(START.white, 0, START.black, 0), "a king stands where no piece does"),
    (Position(START.white, START.black, 0, 2), "the side to move is 2"),
])
def test_fen_of_no_position_is_refused(pos, says):
    with pytest.raises(FenError, match=says):
        fen(pos)


def test_fen_of_a_position_is_as_before():
    assert fen(START) == "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"


@pytest.mark.parametrize("move", [Move(-1, 0, 0, (0,), False), Move(0, 99, 0, (99,), False)])
def test_move_text_of_no_move_is_a_value_error(move):
    with pytest.raises(ValueError, match="not a move: .* not one of the 32 dark squares"):
        move_text(move)


@pytest.mark.parametrize("text", [None, 12, b"c3-d4"])
def test_parse_move_of_what_is_not_text_is_a_type_error(text):
    with pytest.raises(TypeError, match="the move must be text"):
        parse_move(START, text)


CR_ONLY = b'[Event "a"]\r1. c3-d4 f6-g5 *\r\r[Event "b"]\r1. c3-b4 *\r'


def test_a_cr_only_file_keeps_its_crs(tmp_path, capsys):
    assert read_form(CR_ONLY, "g.pdn")[1].newline == "\r"
    source, out = tmp_path / "g.pdn", tmp_path / "out.pdn"
    source.write_bytes(CR_ONLY)
    # --no-eval: no evaluation on every move (tests/test_pdn_marks.py); nothing else to note
    assert main(["annotate", str(source), "-o", str(out), "--no-eval"]) == 0
    written = out.read_bytes()
    assert b"\n" not in written and written.endswith(b"*\r")
    assert written == CR_ONLY  # nothing to note in these moves: the file as it was
