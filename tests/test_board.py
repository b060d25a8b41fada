"""The rules core: squares, positions, and the move generator on named tricky positions."""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import (
    BB_BOARD, BB_CROWN, BLACK, JUMPS, RAYS, SQUARES, START, WHITE, Position, captures,
    count_moves, divide, legal_moves, perft, play, quiet_moves,
)
from kbdraughts.notation import SQUARE_NAMES, fen, move_text, parse_fen, parse_square


def moves(fen_text: str) -> list[str]:
    return sorted(move_text(m) for m in legal_moves(parse_fen(fen_text)))


def move_named(pos: Position, text: str):
    (m,) = [m for m in legal_moves(pos) if move_text(m) == text]
    return m


def sq(name: str) -> int:
    return parse_square(name)


def bb(*names: str) -> int:
    return sum(1 << sq(n) for n in names)


# --- squares and positions ------------------------------------------------------------------


def test_squares_are_the_32_dark_squares_in_reading_order_without_ghost_bits():
    assert len(SQUARES) == 32 and len(set(SQUARES)) == 32
    assert not {4, 13, 22, 31} & set(SQUARES)
    assert [SQUARE_NAMES[s] for s in SQUARES[:5]] == ["a1", "c1", "e1", "g1", "b2"]
    assert SQUARE_NAMES[SQUARES[-1]] == "h8"
    assert BB_BOARD.bit_count() == 32
    assert BB_CROWN[WHITE] == bb("b8", "d8", "f8", "h8")
    assert BB_CROWN[BLACK] == bb("a1", "c1", "e1", "g1")


def test_diagonal_steps_are_constant_shifts():
    d4 = sq("d4")
    assert (sq("c5"), sq("e5"), sq("e3"), sq("c3")) == (d4 + 4, d4 + 5, d4 - 4, d4 - 5)
    up_left, up_right, down_right, down_left = RAYS[d4]
    assert [SQUARE_NAMES[s] for s in up_left] == ["c5", "b6", "a7"]
    assert [SQUARE_NAMES[s] for s in up_right] == ["e5", "f6", "g7", "h8"]
    assert [SQUARE_NAMES[s] for s in down_right] == ["e3", "f2", "g1"]
    assert [SQUARE_NAMES[s] for s in down_left] == ["c3", "b2", "a1"]
    assert RAYS[sq("a1")][0] == () and RAYS[sq("h8")][1] == ()
    assert {(SQUARE_NAMES[o], SQUARE_NAMES[l]) for o, l in JUMPS[sq("a1")]} == {("b2", "c3")}


def test_start_position():
    assert START.counts() == (12, 0, 12, 0)
    assert START.side == WHITE
    assert fen(START) == (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    )
    assert moves(fen(START)) == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]


def test_position_accessors():
    pos = parse_fen("B:Wa1,Kd4:Bb6,Kh8")
    assert pos.piece_at(sq("a1")) == (WHITE, False)
    assert pos.piece_at(sq("d4")) == (WHITE, True)
    assert pos.piece_at(sq("b6")) == (BLACK, False)
    assert pos.piece_at(sq("h8")) == (BLACK, True)
    assert pos.piece_at(sq("c3")) is None
    assert pos.men(WHITE) == bb("a1") and pos.kings_of(WHITE) == bb("d4")
    assert pos.pieces(BLACK) == bb("b6", "h8") and pos.kings_of(BLACK) == bb("h8")
    assert pos.counts() == (1, 1, 1, 1)
    assert hash(pos) == hash(parse_fen(fen(pos))) and pos == parse_fen(fen(pos))


# --- men -----------------------------------------------------------------------------------


def test_men_move_one_square_forward_only():
    assert moves("W:Wd4:Bh8") == ["d4-c5", "d4-e5"]
    assert moves("B:Wa1:Bd4") == ["d4-c3", "d4-e3"]
    assert moves("W:Wa3:Bh8") == ["a3-b4"]  # the edge leaves one way
    assert moves("W:Wd4:Bc5,e5,b6,f6") == []  # blocked forward, nothing to take: no move


def test_men_capture_backwards():
    assert moves("W:Wd4:Bc3") == ["d4:b2"]
    assert moves("B:Wd4:Be5") == ["e5:c3"]
    assert moves("B:We3:Bd2,h8") == ["d2:f4"]


def test_capture_is_compulsory():
    pos = parse_fen("W:Wc3,e3,a1,h2:Bd4")
    assert moves(fen(pos)) == ["c3:e5", "e3:c5"]
    assert quiet_moves(pos)  # quiet moves exist but are not legal
    assert legal_moves(pos) == captures(pos)


def test_any_capture_may_be_chosen_not_only_the_longest():
    # The man on a3 takes one piece, the man on e3 two: both are legal (no majority rule).
    assert moves("W:Wa3,e3:Bb4,f4,f6,h8") == ["a3:c5", "e3:g5:e7"]


def test_a_capture_goes_on_while_it_can():
    assert moves("W:Wa1:Bb2,d4,f6,h8") == ["a1:c3:e5:g7"]
    assert moves("W:Wa1:Bb2,d4,d6") == ["a1:c3:e5:c7"]


def test_man_crowned_at_the_end_of_a_quiet_move():
    pos = parse_fen("W:Wg7:Bh6")
    assert moves(fen(pos)) == ["g7-f8", "g7-h8"]
    m = move_named(pos, "g7-h8")
    assert m.crowned and not m.is_capture
    assert play(pos, m) == parse_fen("B:WKh8:Bh6")
    black = parse_fen("B:Wa1:Bb2,h2")
    assert all(m.crowned for m in legal_moves(black))
    assert play(black, move_named(black, "b2-c1")) == parse_fen("W:Wa1:BKc1,h2")


def test_man_not_crowned_moving_elsewhere():
    assert not any(m.crowned for m in legal_moves(parse_fen("W:Wf6:Bh2")))


def test_crowning_mid_capture_goes_on_as_a_king():
    pos = parse_fen("W:Wb6:Bc7,e7")
    assert moves(fen(pos)) == ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]
    m = move_named(pos, "b6:d8:h4")
    assert m.crowned and m.captured == bb("c7", "e7") and m.path == (sq("d8"), sq("h4"))
    assert play(pos, m) == parse_fen("B:WKh4:B")


def test_man_crowned_by_a_capture_that_ends_on_the_last_rank():
    pos = parse_fen("W:Wb6:Bc7,g3")
    (m,) = legal_moves(pos)
    assert move_text(m) == "b6:d8" and m.crowned
    assert play(pos, m).kings == bb("d8")
    black = parse_fen("B:Wd2:Be3")
    (m,) = legal_moves(black)
    assert move_text(m) == "e3:c1" and m.crowned


def test_man_crowned_mid_capture_takes_from_a_distance_like_a_king():
    # As a man on d8 it could not take f6 (two squares away); as a king it must.
    assert moves("W:Wb6:Bc7,f6") == ["b6:d8:g5", "b6:d8:h4"]


# --- kings ---------------------------------------------------------------------------------


def test_king_moves_any_distance_until_blocked():
    assert moves("W:WKd4:Bg7,h8") == [
        "d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2", "d4-f6",
        "d4-g1",
    ]


def test_king_captures_from_a_distance_and_lands_anywhere_beyond():
    assert moves("W:WKa1:Bd4") == ["a1:e5", "a1:f6", "a1:g7", "a1:h8"]


def test_king_must_land_where_it_can_continue():
    assert moves("W:WKa1:Bc3,e5") == ["a1:d4:f6", "a1:d4:g7", "a1:d4:h8"]


def test_king_cannot_jump_two_pieces_in_a_row_or_its_own():
    assert moves("W:WKa1:Bc3,d4") == ["a1-b2"]
    assert moves("W:WKa1,b2:Bh8") == ["b2-a3", "b2-c3"]


def test_turkish_strike_taken_pieces_block_and_stay_until_the_move_ends():
    pos = parse_fen("W:WKe1:Bc3,b6,e7,e5,c5")
    texts = moves(fen(pos))
    assert "e1:a5:d8:f6:d4" in texts
    # From d4 the man on c5 could be taken only by landing on b6, where the taken man still is.
    assert not any(t.startswith("e1:a5:d8:f6:d4:") for t in texts)
    m = move_named(pos, "e1:a5:d8:f6:d4")
    assert m.captured == bb("c3", "b6", "e7", "e5")
    assert play(pos, m) == parse_fen("B:WKd4:Bc5")
    assert texts == sorted([
        "e1:a5:c7:f4", "e1:a5:c7:g3", "e1:a5:c7:h2", "e1:a5:d8:f6:d4",
        "e1:b4:d6:f4", "e1:b4:d6:f8", "e1:b4:d6:g3", "e1:b4:d6:h2",
    ])


def test_no_piece_is_taken_twice():
    # The king circles four men; it may not take one again on a second round.
    for m in legal_moves(parse_fen("W:WKe3:Bd4,f4,d6,f6")):
        assert m.captured.bit_count() == len(m.path)


def test_duplicate_capture_paths_are_one_move_and_perft_counts_it_once():
    # e3:c5:e7:g5:e3 and e3:g5:e7:c5:e3 start and end on e3 and take the same four men.
    pos = parse_fen("W:WKe3:Bd4,f4,d6,f6")
    all_four = bb("d4", "f4", "d6", "f6")
    round_trips = [m for m in legal_moves(pos) if m.end == sq("e3") and m.captured == all_four]
    assert len(round_trips) == 1
    assert move_text(round_trips[0]) in ("e3:c5:e7:g5:e3", "e3:g5:e7:c5:e3")
    keys = [(m.start, m.end, m.captured) for m in legal_moves(pos)]
    assert len(keys) == len(set(keys)) == 5
    assert perft(pos, 1) == 5 and count_moves(pos) == 5


def test_paths_differing_only_in_landing_squares_are_one_move():
    # b2 takes c3 landing on d4, e5 or f6, each of which then takes g7: one move b2:?:h8.
    pos = parse_fen("W:WKb2:Bc3,g7")
    (m,) = legal_moves(pos)
    assert m.start == sq("b2") and m.end == sq("h8") and m.captured == bb("c3", "g7")


def test_black_king_captures_and_its_kings_are_removed_when_taken():
    pos = parse_fen("B:WKc3,e5:BKa1")
    assert moves(fen(pos)) == ["a1:d4:f6", "a1:d4:g7", "a1:d4:h8"]
    after = play(pos, move_named(pos, "a1:d4:g7"))
    assert after == parse_fen("W:W:BKg7")
    assert after.kings == bb("g7")


def test_black_side_moves_mirror_white():
    assert moves("B:Wa1:Bb6,d6") == ["b6-a5", "b6-c5", "d6-c5", "d6-e5"]
    assert moves("B:Wc3,a1:Bb4") == ["b4:d2"]


# --- play ----------------------------------------------------------------------------------


def test_play_moves_the_piece_flips_the_side_and_removes_what_it_took():
    pos = parse_fen("W:Wa1:Bb2,d4,f6,h8")
    m = move_named(pos, "a1:c3:e5:g7")
    after = play(pos, m)
    assert after == parse_fen("B:Wg7:Bh8")
    assert pos == parse_fen("W:Wa1:Bb2,d4,f6,h8")  # positions are values: unchanged
    king = parse_fen("W:WKa1:Bh8")
    assert play(king, move_named(king, "a1-d4")) == parse_fen("B:WKd4:Bh8")


def test_play_every_move_keeps_the_bitboards_consistent():
    rng = random.Random(5)
    for _ in range(20):
        pos = START
        for _ in range(120):
            ms = legal_moves(pos)
            if not ms:
                break
            m = rng.choice(ms)
            after = play(pos, m)
            assert not after.white & after.black
            assert after.kings & ~(after.white | after.black) == 0
            assert (after.white | after.black) & ~BB_BOARD == 0
            mover = after.pieces(pos.side)
            assert mover.bit_count() == pos.pieces(pos.side).bit_count()
            taken = pos.pieces(1 - pos.side).bit_count() - after.pieces(1 - pos.side).bit_count()
            assert taken == m.captured.bit_count()
            assert after.side == 1 - pos.side
            pos = after


def test_count_moves_and_divide_agree_with_legal_moves():
    rng = random.Random(11)
    pos = START
    for _ in range(60):
        ms = legal_moves(pos)
        assert count_moves(pos) == len(ms)
        if not ms:
            break
        assert sum(n for _, n in divide(pos, 2)) == perft(pos, 2)
        pos = play(pos, rng.choice(ms))


def test_no_moves_without_pieces():
    assert legal_moves(parse_fen("W:W:Bh8")) == []
    assert perft(parse_fen("W:W:Bh8"), 3) == 0


@pytest.mark.parametrize("text", ["W:Wb6:Bc7,e7", "W:WKa1:Bc3,e5", "W:WKe1:Bc3,b6,e7,e5,c5"])
def test_move_values_are_consistent(text: str):
    for m in legal_moves(parse_fen(text)):
        assert m.path[-1] == m.end and m.is_capture
        assert m.captured.bit_count() == len(m.path)
