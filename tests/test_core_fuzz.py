"""Fuzzing the core's three text inputs (issue 11): whatever a person or a file gives,
`parse_fen` raises only FenError, `parse_move` only MoveError, and `parse_pdn` /
`read_pdn_file` only PdnError, with a one-line message. Seeded and bounded (a few seconds).
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from kbdraughts.board import START, Position, legal_moves
from kbdraughts.game import Game, random_walk
from kbdraughts.notation import FenError, MoveError, fen, move_text, parse_fen, parse_move
from kbdraughts.pdn import PdnError, game_to_pdn, parse_pdn, read_pdn_file

DATA = Path(__file__).parent / "data"

#: Characters a hostile or careless input holds: the notation's own, separators Python's
#: str.splitlines() and \s treat as line ends or spaces, NUL, other digits, brackets.
ALPHABET = (
    "abcdefghijkKWBwb012345678999:,.-x×X /\\;$!?*(){}[]\"'\t\n\r "
    "\x00\x1c\x1d\x1e\x85\u2028\u2029\x0b\x0c\ufeff²٣é\U0001f600"
)


def mutate(rng: random.Random, text: str, steps: int = 3) -> str:
    """``text`` with a few random edits: insert, delete, replace, duplicate or cut."""
    for _ in range(rng.randint(1, steps)):
        i = rng.randint(0, len(text))
        j = min(len(text), i + rng.randint(0, 8))
        edit = rng.randrange(5)
        if edit == 0:
            text = text[:i] + rng.choice(ALPHABET) + text[i:]
        elif edit == 1:
            text = text[:i] + text[j:]
        elif edit == 2:
            text = text[:i] + "".join(rng.choice(ALPHABET) for _ in range(j - i)) + text[j:]
        elif edit == 3:
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] if rng.random() < 0.5 else text[i:]
    return text


def junk(rng: random.Random, longest: int = 40) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, longest)))


def sample_positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    walks = (random_walk(rng, rng.randint(1, 120)) for _ in itertools.count())
    positions = [START, parse_fen("W:WKc1:Bd2,b4,f4,b6,d6,f6"), parse_fen("B:WKa1:B")]
    for walk in walks:
        positions.extend(walk)
        if len(positions) >= count:
            return positions[:count]
    return positions


# --- FEN ------------------------------------------------------------------------------------


def _check_fen(text: str) -> None:
    try:
        pos = parse_fen(text)
    except FenError as e:
        assert "\n" not in str(e) and str(e)
    else:
        assert parse_fen(fen(pos)) == pos  # what it accepted, it writes back readably


def test_fen_reader_raises_only_fen_errors_on_mutated_fens_and_junk():
    rng = random.Random(2024)
    fens = [fen(p) for p in sample_positions(5, 200)]
    for _ in range(1500):
        _check_fen(mutate(rng, rng.choice(fens)))
    for _ in range(300):
        _check_fen(junk(rng))


@pytest.mark.parametrize(
    "text",
    [
        "\x1c", "\x85", "\u2028", "\x00", "W:W\x00a1:B", "W:Wa1\u2028:B", "\x1cW:Wa1:B\x85",
        "W:W" + "9" * 5000 + ":B", "W:W1" + "0" * 100_000 + ":B", "W:Wa1:B" + ",c3" * 50_000,
        "W" * 200_000, ":" * 100_000, "W:W²:B", "W:WK:B", "W:W,:B", "W:Wa1:B:", "W:Wa1:Bh8.."
    ],
    ids=lambda text: f"{text[:12]!r}..{len(text)}",
)
def test_fen_reader_on_control_characters_long_input_and_huge_numbers(text: str):
    _check_fen(text)


# --- typed moves ----------------------------------------------------------------------------


def test_typed_moves_raise_only_move_errors():
    rng = random.Random(7)
    positions = sample_positions(9, 150)
    for pos in positions:
        legal = legal_moves(pos)
        texts = [move_text(m) for m in legal] or ["c3-d4"]
        for _ in range(12):
            typed = mutate(rng, rng.choice(texts)) if rng.random() < 0.8 else junk(rng, 20)
            try:
                move = parse_move(pos, typed, legal)
            except MoveError:
                continue
            assert move in legal


# --- PDN ------------------------------------------------------------------------------------


def _check_pdn(text: str) -> None:
    try:
        parse_pdn(text, "fuzz.pdn")
    except PdnError as e:
        assert str(e).startswith("fuzz.pdn:") and "\n" not in str(e)


def test_pdn_reader_raises_only_pdn_errors_on_mutated_games():
    rng = random.Random(11)
    shipped = (DATA / "games.pdn").read_text(encoding="utf-8")
    written = "\n".join(game_to_pdn(_walk_game(seed)) for seed in range(4))
    for n in range(400):
        _check_pdn(mutate(rng, shipped if n % 2 else written, steps=6))


def _walk_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game()
    while game.result is None and game.ply < 60:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_pdn_files_of_random_bytes_raise_only_pdn_errors(tmp_path: Path):
    rng = random.Random(13)
    shipped = (DATA / "games.pdn").read_bytes()
    path = tmp_path / "fuzz.pdn"
    for _ in range(60):
        data = bytearray(shipped)
        for _ in range(rng.randint(1, 10)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        try:
            read_pdn_file(path)
        except PdnError as e:
            assert str(e).startswith(f"{path}:") and "\n" not in str(e)
