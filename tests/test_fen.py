"""Numbered squares in PDN FEN: the PDN standard's numbering (1 = b8 ... 32 = g1), read
everywhere a FEN is read, written when asked."""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import SQUARES, START, legal_moves, play
from kbdraughts.fen import FenError, fen, numbered_square, parse_fen, square_number
from kbdraughts.squares import SQUARE_NAMES


def test_numbering_is_the_pdn_standards():
    names = {n: SQUARE_NAMES[numbered_square(n)] for n in range(1, 33)}
    assert [names[n] for n in (1, 2, 3, 4, 5, 8, 9, 29, 32)] == [
        "b8", "d8", "f8", "h8", "a7", "g7", "b6", "a1", "g1"]
    assert sorted(square_number(s) for s in SQUARES) == list(range(1, 33))


def test_numbering_matches_pydraughts_board():
    """pydraughts keeps its board as a 32-character string, square 1 first, in this numbering:
    a position read from square names puts each piece on the square's number."""
    draughts = pytest.importorskip("draughts")
    rng = random.Random(5)
    pos = START
    for _ in range(60):
        board = draughts.Board(variant="russian", fen=fen(pos))
        cells = board._game.get_fen()[1:]  # side to move, then squares 1..32
        for n, cell in enumerate(cells, 1):
            piece = pos.piece_at(numbered_square(n))
            expected = "e" if piece is None else ("wb"[piece[0]].upper() if piece[1] else "wb"[piece[0]])
            assert cell == expected, (fen(pos), n)
        moves = legal_moves(pos)
        pos = play(pos, rng.choice(moves)) if moves else START


def test_the_issue_example_reads():
    pos = parse_fen("B:W18,19,21,22,23:B3,6,8,12")
    assert fen(pos) == "B:Wa3,c3,e3,d4,f4:Bh6,c7,g7,f8"
    assert fen(pos, numbered=True) == "B:W18,19,21,22,23:B3,6,8,12"


def test_numbered_and_named_round_trip_on_random_positions():
    rng = random.Random(9)
    pos = START
    for _ in range(200):
        assert parse_fen(fen(pos, numbered=True)) == pos
        moves = legal_moves(pos)
        pos = play(pos, rng.choice(moves)) if moves else START


def test_ranges_kings_and_mixed_items():
    assert parse_fen("W:W21-32:B1-12") == START
    assert parse_fen("W:WK29,c3:BK4,b6") == parse_fen("W:WKa1,c3:BKh8,b6")
    assert parse_fen("W:Wk29:BK1-2") == parse_fen("W:WKa1:BKb8,Kd8")


@pytest.mark.parametrize("text, message", [
    ("W:W0:B1", "square 0 does not exist"),
    ("W:W33:B1", "square 33 does not exist"),
    ("W:W5-3:B1", "a range of squares goes up"),
    ("W:W30-40:B1", "square 33 does not exist"),
    ("W:W5:B9,K5", "a7 is listed for both sides"),
    ("W:W1:B32", "a White man on b8 stands on its crowning rank"),
])
def test_numbered_mistakes_have_reasons(text: str, message: str):
    with pytest.raises(FenError) as info:
        parse_fen(text)
    assert message in str(info.value)
