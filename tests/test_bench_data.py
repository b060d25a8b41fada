"""The fixed position sets of the benchmarks parse and are what they claim to be.

``bench/data/middlegames.txt`` (read by ``bench/search.py``): one FEN a line, ``#`` comments;
every position a quiet middle game of men only, so the search's figures are measured where
issue 13 says the games go wrong. ``tests/data/tactics.txt`` (read by ``bench/tactics.py``):
``FEN | P | moves``, quiet positions where the side to move wins material within P plies with
any of the moves (see bench/tactics.py); the piece won in the short ones is proved again here by
the referee itself. ``bench/data/ussr1924.pdn`` (read by ``bench/master.py``): master games, every
one of which must read, since the bench skips a broken game and would measure fewer moves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.referee import balance, resolve
from kbdraughts.board import Position, captures, legal_moves, play
from kbdraughts.notation import fen, move_text, parse_fen
from kbdraughts.pdn import load_pdn_file
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
MIDDLEGAMES = ROOT / "bench" / "data" / "middlegames.txt"


def fen_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, FEN text) of each line that is not blank or a comment."""
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            out.append((n, text))
    return out


def check_middle_game(pos: Position) -> str:
    """What is wrong with ``pos`` as a bench middle game ("" when nothing)."""
    w, b = pos.white.bit_count(), pos.black.bit_count()
    if pos.kings:
        return "has kings"
    if not 14 <= w + b <= 22:
        return f"{w + b} pieces, not 14-22"
    if captures(pos):
        return "a capture is pending"
    if len(legal_moves(pos)) < 2:
        return "fewer than 2 legal moves"
    return ""


def test_middlegames_parse_and_are_quiet_middle_games():
    lines = fen_lines(MIDDLEGAMES)
    assert 20 <= len(lines) <= 40
    faults = []
    seen = set()
    for n, text in lines:
        pos = parse_fen(text)  # a bad FEN raises here, naming the text
        fault = check_middle_game(pos)
        if fen(pos) in seen:
            fault = "a duplicate"
        seen.add(fen(pos))
        if fault:
            faults.append(f"{MIDDLEGAMES.name}:{n}: {fault}: {text}")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("text, fault", [
    ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,d4:Be5,b6,d6,h6,a7,c7,e7,g7",
     "a capture is pending"),
    ("W:WKa1,c1,e1,g1,b2,d2,f2,h2:Bb6,d6,f6,h6,a7,c7,e7,g7,b8", "has kings"),
    ("W:Wa1,c1:Bb8,d8", "4 pieces, not 14-22"),
])
def test_the_check_finds_a_bad_position(text, fault):
    assert check_middle_game(parse_fen(text)) == fault


# -- tests/data/tactics.txt (read by bench/tactics.py) ----------------------------------------

TACTICS = ROOT / "tests" / "data" / "tactics.txt"
#: Shots this short are checked again here by the referee itself (plain minimax, no cuts).
REFEREE_PLIES = 5


def _bench_tactics():
    return load_script("bench/tactics.py", "bench_tactics")


def tactics_lines() -> list[tuple[int, Position, int, list[str]]]:
    """(line number, position, P, the winning moves' texts) of each shot of the set."""
    out = []
    for n, text in fen_lines(TACTICS):
        f, plies, moves = (x.strip() for x in text.split("|"))
        out.append((n, parse_fen(f), int(plies), moves.split()))
    return out


def test_tactics_parse_and_their_moves_are_legal_quiet_moves():
    lines = tactics_lines()
    assert len(lines) >= 10
    for n, pos, plies, moves in lines:
        where = f"tactics.txt:{n}"
        assert not captures(pos), f"{where}: a capture is pending"
        assert plies in (1, 3, 5, 7, 9), where
        legal = {move_text(m) for m in legal_moves(pos)}
        assert moves and set(moves) <= legal, f"{where}: {moves} not all legal ({legal})"


def test_the_short_shots_are_proved_by_the_referee():
    for n, pos, plies, moves in tactics_lines():
        if plies > REFEREE_PLIES:
            continue
        us, target = pos.side, balance(pos, pos.side) + 1
        assert resolve(pos, us, plies) >= target, f"tactics.txt:{n}: no gain in {plies} plies"
        by_text = {move_text(m): m for m in legal_moves(pos)}
        for m in moves:
            assert resolve(play(pos, by_text[m]), us, plies - 1) >= target, f"tactics.txt:{n}: {m}"


@pytest.mark.parametrize("index", range(6))
def test_the_bench_prover_counts_as_the_referee(index):
    prove = _bench_tactics().prove
    pos = [p for _, t in fen_lines(MIDDLEGAMES) for p in [parse_fen(t)]][index * 4]
    value = resolve(pos, pos.side, 3)
    for target in (value - 1, value, value + 1):
        assert prove(pos, pos.side, 3, target) == (value >= target)


def _value_minimax(pos: Position, us: int, plies: int, value) -> int:
    """referee.resolve with the bench's value count (a king worth 2.5 men), no cuts."""
    moves = legal_moves(pos)
    if not moves:
        return -99 if pos.side == us else 99
    if plies <= 0 and not moves[0].captured:
        return value(pos, us)
    values = [_value_minimax(play(pos, m), us, plies - 1, value) for m in moves]
    return max(values) if pos.side == us else min(values)


@pytest.mark.parametrize("index", range(4))
def test_the_bench_value_prover_counts_as_a_plain_minimax(index):
    tactics = _bench_tactics()
    pos = [parse_fen(t) for _, t in fen_lines(MIDDLEGAMES)][index * 7 + 1]
    best = _value_minimax(pos, pos.side, 3, tactics.value)
    for target in (best - 1, best, best + 1):
        prover = tactics.Prover(pos.side, target, count=tactics.value)
        assert prover.wins(pos, 3) == (best >= target)


# -- bench/data/ussr1924.pdn (read by bench/master.py) ----------------------------------------

USSR1924 = ROOT / "bench" / "data" / "ussr1924.pdn"


def test_the_master_games_all_read_with_their_tags():
    read = load_pdn_file(USSR1924)
    assert not read.errors, "\n".join(map(str, read.errors))
    assert not read.warnings, read.warnings
    assert len(read.games) >= 25
    for n, g in enumerate(read.games, 1):
        where = f"{USSR1924.name}:{g.line}: game {n}"
        assert g.game.moves, f"{where}: no moves"
        missing = {"Event", "Date", "White", "Black", "Result", "GameType"} - g.tags.keys()
        assert not missing, f"{where}: no tag {sorted(missing)}"
        assert g.tags["GameType"] == "25", where
        assert g.tags["Result"] == g.result, f"{where}: Result tag {g.tags['Result']} != {g.result}"


def test_the_master_bench_reads_every_game(capsys):
    games = load_script("bench/master.py", "bench_master").games_of(str(USSR1924))
    assert capsys.readouterr().err == ""  # a game it could not read is named there, and skipped
    assert len(games) == len(load_pdn_file(USSR1924).games)
