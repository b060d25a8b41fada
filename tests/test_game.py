"""A game: moves, undo, and how it ends (no move loses; the FMJD-64 draw rules)."""

from __future__ import annotations

import random
from typing import Callable

import pytest

from kbdraughts.board import BLACK, START, WHITE, captures, legal_moves, play
from kbdraughts.game import Game, Reason, Result
from kbdraughts.notation import move_text, parse_fen, parse_move, parse_square


def push(game: Game, *texts: str) -> Game:
    for t in texts:
        game.push(parse_move(game.position, t))
    return game


def quiet_plies(
    game: Game, plies: int, seed: int = 0, man_move_at: Callable[[int], bool] = lambda ply: False,
    keep: str = "",
) -> None:
    """Play ``plies`` moves that take nothing, crown nothing, offer the opponent no capture,
    leave it a move and bring no position a third time: king moves, except a man move on the
    plies ``man_move_at`` picks; pieces on the squares in ``keep`` ("b6,c5") never move.

    A seeded depth-first search over sorted move texts: the line found does not depend on the
    order the generator lists moves in, and a dead end is backed out of."""
    rng = random.Random(seed)
    target = game.ply + plies
    kept = {parse_square(n) for n in keep.split(",") if n}
    budget = [20000]  # moves tried; a search that cannot succeed fails fast
    deepest = [game.ply]

    def options() -> list:
        pos = game.position
        want_man = man_move_at(game.ply)
        found = []
        for m in game.legal_moves():
            after = play(pos, m)
            if (
                m.is_capture or m.crowned or (not pos.kings >> m.start & 1) != want_man
                or m.start in kept
                or captures(after) or game.repetitions(after) >= 2 or not legal_moves(after)
            ):
                continue
            found.append(m)
        found.sort(key=move_text)
        rng.shuffle(found)
        return found

    def search() -> bool:
        if game.ply == target:
            return True
        assert game.result is None, f"ended early at ply {game.ply}: {game.result}"
        for m in options():
            budget[0] -= 1
            if budget[0] < 0:
                return False
            game.push(m)
            deepest[0] = max(deepest[0], game.ply)
            if search():
                return True
            game.pop()
        return False

    assert search(), f"no line of {plies} quiet plies found (got to ply {deepest[0]})"


#: White men that shut Black's king in the a7-b8 corner: none of these pieces can ever be
#: taken or take, so the kings elsewhere move freely for as long as a test needs.
LOCK = "b6,c5,c7,d6"


# --- basics ---------------------------------------------------------------------------------


def test_new_game():
    g = Game()
    assert g.position == START and g.side == WHITE and g.ply == 0
    assert g.positions == [START] and g.moves == [] and g.result is None
    assert len(g.legal_moves()) == 7


def test_push_records_moves_positions_and_side():
    g = push(Game(), "c3-d4", "f6-g5")
    assert [move_text(m) for m in g.moves] == ["c3-d4", "f6-g5"]
    assert len(g.positions) == 3 and g.ply == 2 and g.side == WHITE
    assert g.legal_moves() == legal_moves(g.position)


def test_illegal_push_is_refused():
    g = Game()
    wrong = legal_moves(parse_fen("W:Wa1:Bh8"))[0]
    with pytest.raises(ValueError):
        g.push(wrong)
    assert g.ply == 0


def test_undo_and_pop_restore_the_game():
    g = push(Game(), "c3-d4", "f6-g5", "d4-e5")
    m = g.pop()
    assert move_text(m) == "d4-e5" and g.ply == 2
    assert g.undo() and g.undo() and g.position == START
    assert not g.undo()
    assert g.legal_moves() == legal_moves(START)


def test_result_text_and_pdn():
    assert str(Result(None, Reason.REPETITION)) == "Draw (threefold repetition)"
    assert str(Result(WHITE, Reason.BLOCKED)) == "White wins (no legal move)"
    assert str(Result(BLACK, Reason.NO_PIECES)) == "Black wins (no pieces left)"
    assert [Result(w, Reason.RESIGNATION).pdn for w in (WHITE, BLACK, None)] == [
        "1-0", "0-1", "1/2-1/2",
    ]


# --- losing by having no move ---------------------------------------------------------------


def test_blocked_side_loses():
    g = Game(parse_fen("W:Wa1:Bb2,c3"))
    assert g.legal_moves() == []
    assert g.result == Result(BLACK, Reason.BLOCKED)


def test_side_without_pieces_loses():
    g = Game(parse_fen("W:Wc3:Bd4"))
    assert g.result is None
    push(g, "c3:e5")
    assert g.result == Result(WHITE, Reason.NO_PIECES)
    with pytest.raises(ValueError):
        g.push(legal_moves(parse_fen("B:Wa1:Bh6"))[0])  # the game is over
    assert g.undo() and g.result is None


def test_a_side_without_pieces_has_lost_even_when_it_is_the_other_sides_turn():
    # Issue 11: `--fen 'W:Wa1:B'` was not seen as finished until White moved.
    for text, winner in [("W:Wa1:B", WHITE), ("B:W:BKh8", BLACK)]:
        g = Game(parse_fen(text))
        assert g.result == Result(winner, Reason.NO_PIECES)
        with pytest.raises(ValueError, match="over"):
            g.push(g.legal_moves()[0])
    assert Game(parse_fen("W:W:B")).result == Result(BLACK, Reason.NO_PIECES)  # the mover's loss


def test_blocked_after_a_move():
    g = push(Game(parse_fen("B:Wa1:Ba3,c3")), "a3-b2")
    assert g.result == Result(BLACK, Reason.BLOCKED)


# --- the players' word ------------------------------------------------------------------------


def test_resign_and_agree_draw_end_the_game_and_undo_reopens_it():
    g = push(Game(), "c3-d4")
    g.resign(BLACK)
    assert g.result == Result(WHITE, Reason.RESIGNATION)
    assert g.undo() and g.result is None
    g.agree_draw()
    assert g.result == Result(None, Reason.AGREEMENT)
    with pytest.raises(ValueError):
        g.push(g.legal_moves()[0])


def test_undo_takes_back_a_resignation_or_agreed_draw_before_any_move():
    # Issue 11: undo after resign took back moves; after a draw agreed on move 1 there was
    # "nothing to undo".
    g = push(Game(), "c3-d4", "f6-g5")
    g.resign(WHITE)
    assert g.undo() and g.result is None and g.ply == 2
    assert g.undo() and g.ply == 1
    g = Game()
    g.agree_draw()
    assert g.undo() and g.result is None and g.ply == 0
    assert not g.undo()


# --- draws ------------------------------------------------------------------------------------


def test_threefold_repetition():
    start = parse_fen("W:WKc1:BKh8")
    g = Game(start)
    cycle = ["c1-d2", "h8-g7", "d2-c1", "g7-h8"]
    push(g, *cycle)
    assert g.repetitions() == 2 and g.result is None
    push(g, *cycle[:3])
    assert g.result is None
    push(g, cycle[3])
    assert g.repetitions() == 3
    assert g.result == Result(None, Reason.REPETITION) == g.draw_reason()
    g.undo()
    assert g.result is None and g.repetitions(start) == 2


def test_repetition_counts_the_side_to_move():
    white_to_move = parse_fen("W:WKc1,a3:BKh8")
    g = Game(white_to_move)
    push(g, "a3-b4")
    assert g.repetitions(white_to_move) == 1
    assert g.repetitions(white_to_move._replace(side=BLACK)) == 0


def test_three_kings_against_a_lone_king_draw_after_the_strong_sides_15th_move():
    g = Game(parse_fen(f"W:WKa1,Kc1,Ke1,{LOCK}:BKa7"))
    quiet_plies(g, 28, seed=1)  # 14 moves of White and 14 of Black
    assert g.result is None
    quiet_plies(g, 1, seed=2)  # White's 15th move; 29 king-only plies: not that rule yet
    assert g.result == Result(None, Reason.LONE_KING)
    g.undo()
    assert g.result is None


def test_lone_king_count_goes_on_through_man_moves_of_the_strong_side():
    g = Game(parse_fen(f"W:WKa1,Kc1,Ke1,a3,{LOCK}:BKa7"))
    quiet_plies(g, 28, seed=3, man_move_at=lambda ply: ply in (10, 20), keep=LOCK)
    assert [move_text(m) for m in g.moves[10:21:10]] == ["a3-b4", "b4-a5"]
    assert g.result is None
    quiet_plies(g, 1, seed=4)
    assert g.result == Result(None, Reason.LONE_KING)


def test_lone_king_count_starts_when_the_balance_arises():
    g = Game(parse_fen(f"W:WKa1,Kc1,Ke1,a3,{LOCK}:BKa7,h4"))
    push(g, "a1-b2", "a7-b8", "b2-a1", "b8-a7", "a1-b2", "h4-g3")
    assert g.result is None and g.legal_moves()[0].is_capture
    push(g, "e1:h4")  # Black's last man is taken: three kings against a lone king from now
    assert g.position.counts() == (5, 3, 0, 1)
    quiet_plies(g, 29, seed=5, man_move_at=lambda ply: ply == 20, keep=LOCK)  # White's 1..14
    assert g.result is None
    quiet_plies(g, 1, seed=6)  # White's 15th move after the capture
    assert g.result == Result(None, Reason.LONE_KING)


def test_fifteen_moves_of_kings_only_two_kings_against_one_is_no_lone_king_case():
    g = Game(parse_fen(f"W:WKa1,Kc1,{LOCK}:BKa7"))
    quiet_plies(g, 29, seed=8)
    assert g.result is None
    quiet_plies(g, 1, seed=9)  # White and Black have each made 15 king moves
    assert g.result == Result(None, Reason.KING_MOVES_ONLY)


def test_a_man_move_restarts_the_king_moves_count():
    g = Game(parse_fen(f"W:WKa1,Kc1,a3,{LOCK}:BKa7"))
    quiet_plies(g, 21, seed=12, man_move_at=lambda ply: ply == 20, keep=LOCK)
    assert move_text(g.moves[-1]) == "a3-b4"
    quiet_plies(g, 29, seed=13)  # 29 king-only plies after the man move
    assert g.result is None
    quiet_plies(g, 1, seed=14)
    assert g.result == Result(None, Reason.KING_MOVES_ONLY)


def _every_25(ply: int) -> bool:
    """A man move every 25 plies keeps the king-moves-only rule away."""
    return ply % 25 == 24


@pytest.mark.parametrize(
    "fen_text, limit",
    [
        ("W:WKc1,a3:BKf8,h6", 60),  # 4 pieces: 30 moves each
        ("W:WKc1,a3,e3:BKf8,h6", 60),  # 5 pieces
        ("W:WKc1,a3,e3:BKf8,h6,f6", 120),  # 6 pieces: 60 moves each
        ("W:WKc1,a3,e3,g3:BKf8,h6,f6", 120),  # 7 pieces
    ],
)
def test_king_endings_without_change_of_balance(fen_text: str, limit: int):
    g = Game(parse_fen(fen_text))
    quiet_plies(g, limit - 1, seed=limit, man_move_at=_every_25)
    assert g.result is None
    quiet_plies(g, 1, seed=limit + 1, man_move_at=_every_25)
    assert g.result == Result(None, Reason.ENDING_LIMIT)
    g.undo()
    assert g.result is None


def test_eight_pieces_have_no_ending_limit():
    g = Game(parse_fen(f"W:WKc1,a3,e3,{LOCK}:BKa7"))
    quiet_plies(g, 121, seed=20, man_move_at=lambda ply: ply % 26 == 24, keep=LOCK)
    assert g.result is None


def test_a_capture_restarts_the_ending_count():
    g = Game(parse_fen("W:WKc1,f2,a3:BKd8,h4,c7"))  # 6 pieces
    quiet_plies(g, 21, seed=1)  # kings only; the men on f2 and h4 wait
    push(g, "h4-g3", "f2:h4")  # 5 pieces now: 30 moves each from here, not from the start
    assert sum(g.position.counts()) == 5
    quiet_plies(g, 59, seed=11, man_move_at=_every_25)
    assert g.result is None
    quiet_plies(g, 1, seed=21, man_move_at=_every_25)
    assert g.result == Result(None, Reason.ENDING_LIMIT)


def test_draw_counts_reach_their_limit_as_the_rule_ends_the_game():
    # For the toolbar (issue 11): the draw rules announced before they end the game.
    def counts(g: Game) -> dict[Reason, str]:
        return {c.reason: str(c) for c in g.draw_counts()}

    g = Game(parse_fen(f"W:WKa1,Kc1,Ke1,{LOCK}:BKa7"))
    assert counts(g) == {Reason.LONE_KING: "3 kings v 1: 0/15"}
    quiet_plies(g, 28, seed=1)
    assert counts(g)[Reason.LONE_KING] == "3 kings v 1: 14/15"
    assert counts(g)[Reason.KING_MOVES_ONLY] == "kings only 14/15"
    quiet_plies(g, 1, seed=2)
    assert counts(g)[Reason.LONE_KING] == "3 kings v 1: 15/15"
    assert g.result == Result(None, Reason.LONE_KING)
    g = Game(parse_fen("W:WKc1,a3:BKf8,h6"))
    quiet_plies(g, 59, seed=60, man_move_at=_every_25)
    assert counts(g)[Reason.ENDING_LIMIT] == "king ending 29/30"
    quiet_plies(g, 1, seed=61, man_move_at=_every_25)
    assert counts(g)[Reason.ENDING_LIMIT] == "king ending 30/30"
    assert g.result == Result(None, Reason.ENDING_LIMIT)
    assert Game().draw_counts() == []


def test_undo_restores_the_draw_counters():
    g = Game(parse_fen(f"W:WKa1,Kc1,{LOCK}:BKa7"))
    quiet_plies(g, 30, seed=25)
    assert g.result == Result(None, Reason.KING_MOVES_ONLY)
    moves = list(g.moves)
    for _ in range(5):
        g.undo()
    assert g.result is None
    for m in moves[25:]:
        g.push(m)
    assert g.result == Result(None, Reason.KING_MOVES_ONLY)


# --- the draw rules ahead (the console's warning one move before) ---------------------------


def ahead(g: Game) -> list[tuple[Reason, int, int]]:
    return [(d.reason, d.plies, d.side) for d in g.draws_ahead()]


def test_the_lone_king_rule_is_announced_one_move_by_each_side_before_it_ends_the_game():
    g = Game(parse_fen(f"W:WKa1,Kc1,Ke1,{LOCK}:BKa7"))
    quiet_plies(g, 26, seed=1)  # White has made 13 of its 15 moves and is to move
    assert ahead(g) == []
    quiet_plies(g, 1, seed=2)  # Black to move, then White's 15th move ends it
    assert ahead(g) == [(Reason.LONE_KING, 2, WHITE)]
    quiet_plies(g, 1, seed=3)  # the king-moves count runs too, a ply behind
    assert ahead(g) == [(Reason.LONE_KING, 1, WHITE), (Reason.KING_MOVES_ONLY, 2, BLACK)]
    quiet_plies(g, 1, seed=4)
    assert g.result == Result(None, Reason.LONE_KING) and ahead(g) == []


def test_the_king_moves_rule_is_announced_and_a_man_move_puts_it_off():
    g = Game(parse_fen(f"W:WKa1,Kc1,a3,{LOCK}:BKa7"))
    quiet_plies(g, 28, seed=8, keep=f"a3,{LOCK}")
    assert ahead(g) == [(Reason.KING_MOVES_ONLY, 2, BLACK)]
    quiet_plies(g, 1, seed=9, keep=f"a3,{LOCK}")
    assert ahead(g) == [(Reason.KING_MOVES_ONLY, 1, BLACK)]
    g.pop()
    push(g, "a3-b4")  # a man moves: the count starts again
    assert ahead(g) == []


def test_the_ending_limit_is_announced_with_the_side_that_makes_the_last_move():
    g = Game(parse_fen("W:WKc1,a3:BKf8,h6"))
    quiet_plies(g, 59, seed=60, man_move_at=_every_25)
    assert ahead(g) == [(Reason.ENDING_LIMIT, 1, BLACK)]
    g.pop()  # 58 plies: White to move, then Black's move ends it
    assert ahead(g) == [(Reason.ENDING_LIMIT, 2, BLACK)]
    g.pop()
    assert ahead(g) == []


def test_a_third_repetition_is_announced_with_the_moves_that_make_it():
    g = push(Game(parse_fen("W:WKc1:BKh8")), "c1-d2", "h8-g7", "d2-c1", "g7-h8", "c1-d2")
    assert [d.reason for d in g.draws_ahead()] == []  # Black's h8-g7 brings a 2nd time only
    push(g, "h8-g7", "d2-c1")
    (d,) = g.draws_ahead()
    assert (d.reason, d.plies, [move_text(m) for m in d.moves]) == (
        Reason.REPETITION, 1, ["g7-h8"])
    g.push(d.moves[0])
    assert g.result == Result(None, Reason.REPETITION)
