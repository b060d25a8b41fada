"""Square names and move text in and out (what a person types); PDN FEN is test_fen.py's."""

from __future__ import annotations

import itertools
import random

import pytest

from kbdraughts.game import random_walk
from kbdraughts.board import BLACK, SQUARES, START, WHITE, legal_moves
from kbdraughts.notation import (
    SQUARE_NAMES, AmbiguousMoveError, IllegalMoveError, MoveError, MoveSyntaxError,
    move_text, moves_text, parse_fen, parse_move, parse_square, side_name,
)


def parsed(fen_text: str, typed: str) -> str:
    return move_text(parse_move(parse_fen(fen_text), typed))


# --- squares and move text ------------------------------------------------------------------


def test_square_names_round_trip():
    assert len(SQUARE_NAMES) == 32
    for sq in SQUARES:
        assert parse_square(SQUARE_NAMES[sq]) == sq
        assert parse_square(SQUARE_NAMES[sq].upper()) == sq
    with pytest.raises(ValueError, match="light square"):
        parse_square("a2")
    with pytest.raises(ValueError, match="not a square"):
        parse_square("i9")


def test_move_text_quiet_and_capture_full_path():
    assert moves_text(legal_moves(START)) == [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
    ]
    assert moves_text(legal_moves(parse_fen("W:Wa1:Bb2,d4,f6,h8"))) == ["a1:c3:e5:g7"]


def test_moves_text_orders_by_rank_then_file():
    texts = moves_text(legal_moves(parse_fen("W:Wa1,h2,c3:Bh8")))
    assert texts == ["a1-b2", "h2-g3", "c3-b4", "c3-d4"]


def test_side_names():
    assert (side_name(WHITE), side_name(BLACK)) == ("White", "Black")


# --- typed moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["c3-d4", "c3d4", "c3 d4", "C3-D4", " c3 - d4 ", "c3 D4"])
def test_every_form_of_a_quiet_move(typed: str):
    assert move_text(parse_move(START, typed)) == "c3-d4"


CAPTURE = "W:Wc3,a1:Bd4,f6"


@pytest.mark.parametrize("typed", ["c3:e5:g7", "c3xe5xg7", "c3:g7", "c3xg7", "C3:G7", "c3 e5 g7"])
def test_every_form_of_a_capture(typed: str):
    assert parsed(CAPTURE, typed) == "c3:e5:g7"


def test_king_capture_shortened_to_its_ends_or_a_middle_square():
    assert parsed("W:WKa1:Bc3,e5", "a1:g7") == "a1:d4:g7"
    assert parsed("W:WKa1:Bc3,e5", "a1xd4xg7") == "a1:d4:g7"


def test_parse_uses_the_given_legal_list():
    pos = parse_fen(CAPTURE)
    legal = legal_moves(pos)
    assert parse_move(pos, "c3:g7", legal) is legal[0]


def test_another_path_of_a_merged_capture_is_the_same_move():
    # The generator lists one of the two ways round; the other way is the same move.
    pos = parse_fen("W:WKe3:Bd4,f4,d6,f6")
    (one,) = [m for m in legal_moves(pos) if m.end == m.start]
    for typed in ("e3:c5:e7:g5:e3", "e3:g5:e7:c5:e3", "e3:g5:e3", "e3:e3"):
        assert parse_move(pos, typed) == one
    # The intermediate landing squares of a king may differ too: b2 takes c3 landing on d4,
    # e5 or f6 (from each it takes g7).
    pos = parse_fen("W:WKb2:Bc3,g7")
    for typed in ("b2:d4:h8", "b2:e5:h8", "b2:f6:h8", "b2:h8"):
        assert move_text(parse_move(pos, typed)) == "b2:d4:h8"


def test_a_path_that_breaks_the_rules_is_not_accepted_as_another_path():
    pos = parse_fen("W:WKe3:Bd4,f4,d6,f6")
    with pytest.raises(IllegalMoveError):
        parse_move(pos, "e3:c5:e7:c5:e3")  # d6 would be taken twice
    with pytest.raises(IllegalMoveError):
        parse_move(parse_fen("W:WKb2:Bc3,g7"), "b2:g7:h8")  # lands on a piece
    with pytest.raises(IllegalMoveError):
        # From d4 the king cannot go on over c5: b6, taken, still stands there.
        parse_move(parse_fen("W:WKe1:Bc3,b6,e7,e5,c5"), "e1:a5:d8:f6:d4:b6")


@pytest.mark.parametrize(
    "typed", ["d4", "hello", "", "c3-", "c3--d4", "c3x", "c3,d4", "c3-d4!", "- c3 d4", "c3-i9"]
)
def test_syntax_errors(typed: str):
    with pytest.raises(MoveSyntaxError) as info:
        parse_move(START, typed)
    assert "c3-d4" in str(info.value) and info.value.candidates == []


def test_light_square_is_a_syntax_error_naming_it():
    with pytest.raises(MoveSyntaxError, match="d5 is a light square"):
        parse_move(START, "c3-d5")


def test_no_piece_there():
    with pytest.raises(IllegalMoveError) as info:
        parse_move(START, "e5-f6")
    assert str(info.value) == "there is no piece on e5"
    assert len(info.value.candidates) == 7


def test_opponents_piece():
    with pytest.raises(IllegalMoveError) as info:
        parse_move(START, "f6-g5")
    assert str(info.value) == "the piece on f6 is Black's; you play White"


def test_piece_that_cannot_move_lists_all_legal_moves():
    with pytest.raises(IllegalMoveError) as info:
        parse_move(START, "b2-c3")
    assert "b2 cannot move" in str(info.value) and "g3-h4" in str(info.value)
    assert len(info.value.candidates) == 7


def test_wrong_move_of_a_piece_lists_that_piece_moves():
    with pytest.raises(IllegalMoveError) as info:
        parse_move(START, "c3-e5")
    assert str(info.value) == "c3-e5 is not legal: the piece on c3 can play c3-b4 or c3-d4"
    assert moves_text(info.value.candidates) == ["c3-b4", "c3-d4"]


def test_capture_compulsory_names_the_captures():
    pos = parse_fen(CAPTURE)
    with pytest.raises(IllegalMoveError) as info:
        parse_move(pos, "a1-b2")
    assert str(info.value) == "you must capture: c3:e5:g7"
    with pytest.raises(IllegalMoveError) as info:
        parse_move(pos, "c3-b4")
    assert str(info.value) == "c3-b4 is not legal: the piece on c3 must capture: c3:e5:g7"
    with pytest.raises(IllegalMoveError, match="must capture: c3:e5:g7"):
        parse_move(pos, "c3:e5")  # the capture goes on while it can: stopping is illegal


def test_ambiguous_shortened_capture_lists_the_candidates():
    pos = parse_fen("W:WKd4:Bc5,e5,g5,c7,f8")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(pos, "d4:h4")
    assert moves_text(info.value.candidates) == ["d4:b6:d8:h4", "d4:f6:h4"]
    assert "d4:b6:d8:h4" in str(info.value) and "d4:f6:h4" in str(info.value)
    assert move_text(parse_move(pos, "d4:f6:h4")) == "d4:f6:h4"
    assert move_text(parse_move(pos, "d4:d8:h4")) == "d4:b6:d8:h4"


def test_no_legal_move_at_all():
    with pytest.raises(IllegalMoveError, match="White has no legal move"):
        parse_move(parse_fen("W:Wd4:Bc5,e5,b6,f6"), "d4-c5")


def test_move_errors_are_value_errors_with_one_line_messages():
    ambiguous = parse_fen("W:WKd4:Bc5,e5,g5,c7,f8")
    for pos, typed in [(START, "zz"), (START, "e5-f6"), (ambiguous, "d4:h4")]:
        with pytest.raises(MoveError) as info:
            parse_move(pos, typed)
        assert isinstance(info.value, ValueError) and "\n" not in str(info.value)


def test_every_legal_move_parses_back_from_its_text():
    rng = random.Random(3)
    for pos in itertools.chain([START], random_walk(rng, 149)):
        legal = legal_moves(pos)
        for m in legal:
            assert parse_move(pos, move_text(m), legal) == m
