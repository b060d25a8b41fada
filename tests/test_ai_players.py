"""Players: specs, legality on random positions, and what each baseline does."""

from __future__ import annotations

import random

import pytest

from kbdraughts.ai import PlayerSpecError, make_player
from kbdraughts.ai.match import Tally, opening, play_game, run_game
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen

SPECS = ["random", "greedy", "search:2", "kb:1:nokb", "kb:2:nokb:20ms"]


def random_games(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        game = Game()
        for _ in range(rng.randrange(0, 80)):
            if game.result is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        yield game


@pytest.mark.parametrize("spec", SPECS)
def test_every_player_plays_legal_moves(spec):
    player = make_player(spec, seed=1)
    for game in random_games(12, seed=len(spec)):
        choice = player.choose(game)
        if not game.legal_moves():
            assert choice is None
        else:
            assert choice.move in game.legal_moves()


def test_names():
    assert make_player("kb:1").name == "kb:1"
    assert make_player("KB:2:nokb").name == "kb:2:nokb"
    assert make_player("search:3").name == "search:3"


@pytest.mark.parametrize("spec", ["kb:0", "kb:9", "kb:x", "kb:1:fast", "search", "search:0",
                                  "search:a", "greedy:2", "stockfish"])
def test_bad_specs(spec):
    with pytest.raises(PlayerSpecError) as e:
        make_player(spec)
    assert "\n" not in str(e.value)


def test_greedy_takes_the_most():
    game = Game(parse_fen("W:Wc3,a3:Bd4,b4,h8"))
    assert move_text(make_player("greedy", seed=0).choose(game).move) == "a3:c5:e3"


def test_search_baseline_sees_a_shot():
    # c3-d4 hangs a man to e5:c3 and g3-f4 to e5:g3; the search sees both.
    game = Game(parse_fen("W:Wc3,g3:Be5,h8"))
    move = make_player("search:3").choose(game).move
    assert move_text(move) != "c3-d4" and move_text(move) != "g3-f4"


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
