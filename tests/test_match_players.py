"""Players: built from PlayerSpec values, legality on random positions, what each baseline does."""

from __future__ import annotations

import random

import pytest

from kbdraughts.match.players import make_player
from kbdraughts.ai.spec import DEFAULT_LEVEL, MAX_LEVEL, PlayerSpec, PlayerSpecError
from kbdraughts.ai import engine, spec as spec_module
from kbdraughts.match.players import EnginePlayer
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


def test_a_spec_value_builds_the_player_its_text_does():
    spec = PlayerSpec.parse("kb:2:nokb:20ms")
    player = make_player(spec, seed=3)
    assert isinstance(player, EnginePlayer) and player.name == "kb:2:nokb:20ms"
    e = player.engine
    assert (e.level, e.use_kb, e.movetime_ms, e.seed, e.kb) == (2, False, 20, 3, None)
    assert make_player(PlayerSpec.parse("search:3")).name == "search:3"
    assert make_player(PlayerSpec("greedy")).name == "greedy"


def test_names_are_the_canonical_spec():
    assert make_player("kb").name == "kb:4"
    assert make_player("kb:1:nokb").name == "kb:1:nokb"
    assert make_player("kb:4:200ms").name == "kb:4:200ms"


def test_a_shared_knowledge_base_is_passed_to_the_engine():
    class NoRules:
        def firing(self, pos, legal=None):
            return []

    kb = NoRules()
    assert make_player("kb:1", kb=kb).engine.kb is kb
    assert make_player("kb:1:nokb", kb=kb).engine.kb is None  # the spec says no rules


@pytest.mark.parametrize("text", ["human", "me"])
def test_a_human_is_not_an_ai_player(text):
    with pytest.raises(PlayerSpecError, match="^human is not an AI player$"):
        make_player(text)
    with pytest.raises(PlayerSpecError):
        make_player(PlayerSpec("human"))


def test_levels_and_spec_errors_have_one_definition():
    assert engine.MAX_LEVEL is spec_module.MAX_LEVEL == MAX_LEVEL
    assert engine.DEFAULT_LEVEL == spec_module.DEFAULT_LEVEL == DEFAULT_LEVEL
    assert PlayerSpecError is spec_module.PlayerSpecError
