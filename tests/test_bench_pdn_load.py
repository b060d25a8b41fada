"""bench/pdn_load.py on a small file: the large file it makes holds copies of the 1924 games,
each read back as a game, and the game in its middle is the one ``--game N`` names. Nothing
here is timed."""

from __future__ import annotations

from pathlib import Path

from kbdraughts.pdn import PdnGame, load_pdn_file
from scripts import load_script


def test_the_large_file_is_copies_of_the_small_one_read_back_game_by_game(tmp_path: Path):
    bench = load_script("bench/pdn_load.py", "bench_pdn_load")
    path = tmp_path / "large.pdn"
    games = bench.make_large(path, 0.05)  # three copies of 29 games
    read = load_pdn_file(path)
    assert len(read) == games and games % 29 == 0 and games > 29
    middle = read.entry(games // 2)
    assert isinstance(middle, PdnGame) and middle.tags["Event"] == f"copy {games // 2 // 29}"
