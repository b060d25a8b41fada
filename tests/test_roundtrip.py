"""Every move the core prints reads back as that move; every game it writes reads back the same.

A property over many seeded random games (a few seconds): what `moves`, Tab and the PDN writer
print is a move's full path, and a full path always names its own move, even when it is also part
of a longer capture's path (issue 11).
"""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import legal_moves
from kbdraughts.game import Game
from kbdraughts.notation import move_text, moves_text, parse_fen, parse_move
from kbdraughts.pdn import game_to_pdn, parse_pdn

GAMES = 200
MAX_PLIES = 300


def random_games(seed: int, count: int = GAMES):
    """Seeded random games, played to their end by the rules or to MAX_PLIES."""
    for n in range(count):
        rng = random.Random(seed * 100_003 + n)
        game = Game()
        while game.result is None and game.ply < MAX_PLIES:
            game.push(rng.choice(game.legal_moves()))
        yield game


@pytest.mark.parametrize(
    "fen_text, typed, longer",
    [
        ("W:WKc1:Bd2,b4,f4,b6,d6,f6", "c1:e3:a7", "c1:e3:g5:e7:c5:a7"),
        ("W:Wb2,b4:Bg3,c5,g5,a7,c7,e7,g7", "b4:d6:b8", "b4:d6:f8:h6:f4:b8"),
    ],
)
def test_a_full_path_inside_a_longer_capture_names_its_own_move(fen_text, typed, longer):
    pos = parse_fen(fen_text)
    listed = moves_text(legal_moves(pos))
    assert typed in listed and longer in listed
    assert move_text(parse_move(pos, typed)) == typed
    assert move_text(parse_move(pos, longer)) == longer


def test_a_full_path_in_a_pdn_game_loads():
    text = '[FEN "W:WKc1:Bd2,b4,f4,b6,d6,f6"]\n\n1. c1:e3:a7 *\n'
    (back,) = parse_pdn(text)
    assert [move_text(m) for m in back.game.moves] == ["c1:e3:a7"]


def test_every_move_of_many_random_games_reads_back_from_its_text():
    checked = 0
    # Seed 1 meets a full path inside a longer one (refused as ambiguous before issue 11).
    for game in random_games(seed=1):
        for pos in game.positions:
            legal = legal_moves(pos)
            for move in legal:
                assert parse_move(pos, move_text(move), legal) == move, (pos, move_text(move))
                checked += 1
    assert checked > 10_000


def test_every_random_game_written_as_pdn_reads_back_with_the_same_moves():
    games = list(random_games(seed=2))  # one game holds such a path too
    text = "\n".join(game_to_pdn(g, {"Round": str(i)}) for i, g in enumerate(games))
    back = parse_pdn(text, "<random games>")
    assert len(back) == len(games)
    for game, read in zip(games, back):
        assert read.game.moves == game.moves
        assert read.game.result == game.result
