"""Matches: games to their end, illegal moves, seeded openings, colours, records."""

from __future__ import annotations

from kbdraughts.ai.players import make_player
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.ai.match import Tally, opening, play_game, run_game
from kbdraughts.game import Game


def test_a_game_is_played_to_its_end():
    game, reason, illegal = play_game(make_player("greedy", 1), make_player("random", 2))
    assert illegal == "" and (game.result is not None or reason.startswith("move cap"))


def test_an_illegal_move_loses_the_game():
    class Cheat:
        name = "cheat"

        def choose(self, game, stop=None):
            other = make_player("random", 0).choose(Game())  # a move from another position
            return other

    game, reason, illegal = play_game(Cheat(), make_player("random", 1))
    assert reason == "illegal move" and "cheat played" in illegal
    assert game.result.winner == 1


def test_openings_vary_with_the_seed_and_pair():
    assert opening(1, 0) == opening(1, 0)
    assert opening(1, 0) != opening(2, 0) or opening(1, 1) != opening(2, 1)
    assert len(opening(1, 0)) == 4


def test_colours_alternate_and_points_add_up():
    t = Tally()
    for i in range(4):
        rec = run_game(("greedy", "random", i, 5, 300))
        assert (rec.white == "greedy") == (i % 2 == 0)
        t.add(rec)
    assert t.games == 4 and t.wins + t.draws + t.losses == 4
    assert t.line("greedy", "random").startswith("greedy vs random: +")


def test_records_name_the_players_as_the_match_was_given_them():
    rec = run_game(("kb:1:nokb", "random", 0, 7, 12))
    assert (rec.white, rec.black) == ("kb:1:nokb", "random")
    same = run_game((PlayerSpec.parse("kb:1:nokb"), PlayerSpec("random"), 0, 7, 12))
    assert (same.white, same.black, same.moves) == ("kb:1:nokb", "random", rec.moves)
