"""Our legal moves against an independent implementation: pydraughts (variant "russian").

Compared as sets of (from, to, captured set). pydraughts lists every capture path, so its list is
merged by that key first (the issue's rule: paths with the same start, end and taken set are one
move). Positions: seeded random games from the start, and seeded random king-heavy placements.

pydraughts numbers the 32 dark squares 1..32 the way :data:`SQUARES` orders them: 1 = a1,
2 = c1, 3 = e1, 4 = g1, 5 = b2, ..., 32 = h8 (checked below against its own FEN output).
"""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import (
    BB_CROWN, BLACK, SQUARES, START, WHITE, Move, Position, legal_moves, play,
)
from kbdraughts.notation import SQUARE_NAMES, fen, move_text, moves_text, parse_fen

draughts = pytest.importorskip(
    "draughts", reason="pydraughts is the test oracle (pip install pydraughts)"
)
if not hasattr(draughts, "Board"):  # the test extra holds lidraughts-bot's 0.5.7
    pytest.skip("the oracle needs pydraughts >= 0.6 (.ci/run runs it in a venv of its own)",
                allow_module_level=True)

#: pydraughts square number -> our square, and back.
FROM_NUMBER = {n: sq for n, sq in enumerate(SQUARES, 1)}
TO_NUMBER = {sq: n for n, sq in FROM_NUMBER.items()}

Key = tuple[int, int, frozenset]


def numeric_fen(pos: Position) -> str:
    """Our position as pydraughts' numeric FEN (``W:W1,K14:B32``)."""
    parts = ["B" if pos.side else "W"]
    for colour, bb in (("W", pos.white), ("B", pos.black)):
        items = [
            ("K" if pos.kings >> sq & 1 else "") + str(TO_NUMBER[sq])
            for sq in SQUARES if bb >> sq & 1
        ]
        parts.append(colour + ",".join(items))
    return ":".join(parts)


def oracle_moves(board) -> dict[Key, object]:
    """pydraughts' legal moves by (from, to, captured set): one per merged capture."""
    moves = {}
    for m in board.legal_moves():
        steps = m.steps_move
        key = (
            FROM_NUMBER[steps[0]], FROM_NUMBER[steps[-1]],
            frozenset(FROM_NUMBER[c] for c in m.captures),
        )
        moves.setdefault(key, m)
    return moves


def oracle_keys(pos: Position) -> set[Key]:
    return set(oracle_moves(draughts.Board(variant="russian", fen=numeric_fen(pos))))


def key_of(m: Move) -> Key:
    return m.start, m.end, frozenset(sq for sq in SQUARES if m.captured >> sq & 1)


def our_keys(pos: Position) -> set[Key]:
    return {key_of(m) for m in legal_moves(pos)}


def describe(keys: set[Key]) -> list[str]:
    return sorted(
        f"{SQUARE_NAMES[a]}-{SQUARE_NAMES[b]} x{{{','.join(sorted(SQUARE_NAMES[c] for c in t))}}}"
        for a, b, t in keys
    )


def random_game_positions(games: int, seed: int, max_plies: int = 120) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = START
        for _ in range(max_plies):
            ms = legal_moves(pos)
            if not ms:
                break
            out.append(pos)
            pos = play(pos, rng.choice(ms))
    return out


def random_king_positions(
    count: int, seed: int, kings: tuple[int, int] = (1, 3), men: tuple[int, int] = (0, 4),
) -> list[Position]:
    """A few men and kings on each side placed at random; no man on its crowning rank."""
    rng = random.Random(seed)
    out = []
    king_range, man_range = kings, men
    while len(out) < count:
        squares = rng.sample(SQUARES, 32)
        white = black = kings = 0
        for side in (WHITE, BLACK):
            for is_king in (True, False):
                n = rng.randint(*king_range) if is_king else rng.randint(*man_range)
                placed = 0
                while placed < n:
                    sq = squares.pop()
                    if not is_king and BB_CROWN[side] >> sq & 1:
                        continue  # a man there would already be a king; skip the square
                    if side == WHITE:
                        white |= 1 << sq
                    else:
                        black |= 1 << sq
                    if is_king:
                        kings |= 1 << sq
                    placed += 1
        out.append(Position(white, black, kings, rng.choice((WHITE, BLACK))))
    return out


def crowded_positions(count: int, seed: int) -> list[Position]:
    """Mid-games with kings: random placements of 0-2 kings and 4-8 men a side, each followed
    by up to 20 random plies (so men meet kings, crown, and take in every direction)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        (pos,) = random_king_positions(1, rng.randrange(1 << 30), kings=(0, 2), men=(4, 8))
        for _ in range(rng.randint(4, 20)):
            ms = legal_moves(pos)
            if not ms:
                break
            out.append(pos)
            pos = play(pos, rng.choice(ms))
    return out[:count]


def test_square_numbering_matches_pydraughts():
    """pydraughts reads our numeric FEN and writes it back with square names: same position."""
    pos = Position(1 << SQUARES[13], 1 << SQUARES[31], 1 << SQUARES[31], WHITE)
    assert numeric_fen(pos) == "W:W14:BK32"
    assert draughts.Board(variant="russian", fen=numeric_fen(pos)).fen == "W:Wd4:BKh8"
    for pos in [START] + random_king_positions(20, seed=1):
        board = draughts.Board(variant="russian", fen=numeric_fen(pos))
        assert parse_fen(board.fen) == pos


@pytest.mark.parametrize(
    "kind, positions",
    [
        ("random games", lambda: random_game_positions(games=30, seed=2024)),
        ("king-heavy", lambda: random_king_positions(1500, seed=7)),
        ("crowded", lambda: crowded_positions(1000, seed=11)),
    ],
    ids=["random-games", "king-heavy", "crowded"],
)
def test_legal_moves_agree_with_pydraughts(kind, positions):
    checked = captures = crowning = multiple = 0
    disagreements = []
    for pos in positions():
        ours, theirs = our_keys(pos), oracle_keys(pos)
        checked += 1
        ms = legal_moves(pos)
        captures += any(m.is_capture for m in ms)
        crowning += any(m.is_capture and m.crowned for m in ms)
        multiple += any(len(t) > 1 for _, _, t in ours)
        if ours != theirs:
            disagreements.append(
                f"{fen(pos)}\n    only ours: {describe(ours - theirs)}"
                f"\n    only pydraughts: {describe(theirs - ours)}"
                f"\n    ours: {moves_text(legal_moves(pos))}"
            )
    # The sample must exercise the hard rules, not only quiet moves.
    assert checked >= 1000 and captures >= 300 and crowning >= 20 and multiple >= 50, (
        checked, captures, crowning, multiple,
    )
    assert not disagreements, f"{len(disagreements)} of {checked} {kind} positions differ:\n" + (
        "\n".join(disagreements[:10])
    )


def test_positions_after_each_move_agree_with_pydraughts():
    """play(): what is taken, where the piece ends, crowning (also mid-capture), side to move."""
    positions = random_game_positions(games=6, seed=99) + random_king_positions(300, seed=8)
    played = crowned = 0
    wrong = []
    for pos in positions:
        board = draughts.Board(variant="russian", fen=numeric_fen(pos))
        theirs = oracle_moves(board)
        for m in legal_moves(pos):
            board.push(theirs[key_of(m)])
            after = parse_fen(board.fen)
            board.pop()
            played += 1
            crowned += m.crowned
            if after != play(pos, m):
                wrong.append(
                    f"{fen(pos)} {move_text(m)}: ours {fen(play(pos, m))}, pydraughts {fen(after)}"
                )
    assert played >= 1500 and crowned >= 30, (played, crowned)
    assert not wrong, f"{len(wrong)} of {played} moves differ:\n" + "\n".join(wrong[:10])
