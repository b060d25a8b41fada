"""PDN FEN: squares named (round trips, tolerance, one-line reasons) or numbered as the PDN
standard numbers them (1 = b8 ... 32 = g1), read everywhere a FEN is read, written when
asked."""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import BLACK, SQUARES, START, legal_moves, play
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
    if not hasattr(draughts, "Board"):  # the test extra holds lidraughts-bot's 0.5.7
        pytest.skip("pydraughts >= 0.6's Board (.ci/run runs this in a venv of its own)")
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


# --- named squares --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "W:Wa1,c3,Kd4:Bb6,Kh8",
        "B:WKa1:B",
        "W:W:BKh8",
        "W:W:B",
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    ],
)
def test_fen_round_trips_exactly(text: str):
    assert fen(parse_fen(text)) == text


def test_fen_of_random_positions_round_trips():
    rng = random.Random(9)
    pos = START
    for _ in range(200):
        assert parse_fen(fen(pos)) == pos
        legal = legal_moves(pos)
        if not legal:
            pos = START
            continue
        pos = play(pos, rng.choice(legal))


@pytest.mark.parametrize(
    "text",
    [
        " W : Wa1 , c3 ,Kd4 : Bb6,Kh8 ",
        "W:Wa1,c3,Kd4:Bb6,Kh8.",
        "W:Wa1,c3,Kd4:Bb6,Kh8 .\n",
        "W:Bb6,Kh8:Wa1,c3,Kd4",
        "w:wa1,C3,kD4:bb6,kh8",
        "W:Wd4,a1,c3:Bb6,Kh8".replace("d4", "Kd4"),
    ],
)
def test_fen_tolerates_whitespace_final_dot_section_order_case_and_square_order(text: str):
    assert fen(parse_fen(text)) == "W:Wa1,c3,Kd4:Bb6,Kh8"


def test_fen_empty_section():
    pos = parse_fen("B:WKa1:B")
    assert pos.white == 1 << SQUARES[0] and pos.black == 0 and pos.side == BLACK
    assert parse_fen("B:B:WKa1") == pos


@pytest.mark.parametrize(
    "text, message",
    [
        ("X:Wa1:Bb6", "unknown side to move 'X'"),
        ("W:Wa2:Bb6", "a2 is a light square"),
        ("W:Wz9:Bb6", "'z9' is not a square"),
        ("W:Wa10:Bb6", "'a10' is not a square"),
        ("W:Wa1,a1:Bb6", "a1 is listed twice"),
        ("W:Wa1:Ba1", "a1 is listed for both sides"),
        ("W:WKa1:Bb6,Ka1", "a1 is listed for both sides"),
        ("W:Wb8:Bb6", "White man on b8 stands on its crowning rank"),
        ("B:Wa3:Bc1", "Black man on c1 stands on its crowning rank"),
        ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:Bh6", "White has 13 pieces; at most 12"),
        ("W:Wa1:Bb4,d4,f4,h4,a5,c5,e5,g5,b6,d6,f6,h6,a7", "Black has 13 pieces; at most 12"),
        ("hello world", "is not a FEN"),
        ("", "empty FEN"),
        ("W:Wa1", "expected side:White pieces:Black pieces"),
        ("W", "is not a FEN"),
        ("W:Wa1:Bb6:Bc7", "expected side:White pieces:Black pieces"),
        ("W:Wa1:Wb6", "White section appears twice"),
        ("W:Xa1:Bb6", "must start with W or B"),
        ("W:Wa1,,c3:Bb6", "empty square name"),
        ("W:Wa1:Bb6,", "empty square name"),
        ("W:WKKa1:Bb6", "'KKa1' is not a square"),
        ("W:W33:B32", "square 33 does not exist: numbered squares are 1..32"),
        ("W:W0:B1", "square 0 does not exist"),
        ("W:W5-3:B1", "a range of squares goes up"),
        ("W:W30-40:B1", "square 33 does not exist"),
        ("W:W5:B9,K5", "a7 is listed for both sides"),
        ("W:W1:B32", "a White man on b8 stands on its crowning rank"),
        ("W:Wa1:Bb6..", "'b6.' is not a square"),
    ],
)
def test_fen_rejections_have_one_line_reasons(text: str, message: str):
    with pytest.raises(FenError) as info:
        parse_fen(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_king_on_crowning_rank_is_fine():
    assert fen(parse_fen("W:WKb8:BKa1")) == "W:WKb8:BKa1"


def test_numbered_fens_are_read_by_the_commands_too():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "kbdraughts.cli", "moves",
                          "B:W18,19,21,22,23:B3,6,8,12", "W:W33:B1"],
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.splitlines() == ["h6-g5 c7-b6 c7-d6 g7-f6 f8-e7", "error"]
    assert "square 33 does not exist" in out.stderr and out.returncode == 2


def test_a_numbered_square_with_zeros_before_it_is_that_square():
    # issue 28, item 19: W:W00001:B5 was refused as "square 1 does not exist"
    with pytest.raises(FenError, match="a White man on b8 stands on its crowning rank"):
        parse_fen("W:W00001:B5")
    assert parse_fen("W:WK00001:B5") == parse_fen("W:WK1:B5") == parse_fen("W:WK01:B05")
    with pytest.raises(FenError, match="square 00033 does not exist"):
        parse_fen("W:W00033:B5")
