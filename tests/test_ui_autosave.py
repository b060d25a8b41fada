"""The autosave: one file per game named by time and pid, written whole, locked while a
kbdraughts plays it; a game with no move is not kept; ``resume`` passes over games open
elsewhere and unreadable files, naming them."""

from __future__ import annotations

import os
from pathlib import Path

from kbdraughts.game import Game
from kbdraughts.notation import parse_fen
from kbdraughts.pdn import read_pdn_file
from kbdraughts.ui.autosave import (
    Autosave, GameLock, GameOpen, last_unfinished, resume, skipped_note)

TAGS = {"White": "You", "Black": "random"}


def played(plies: int, fen: str | None = None) -> Game:
    game = Game(parse_fen(fen)) if fen else Game()
    for _ in range(plies):
        game.push(game.legal_moves()[0])
    return game


def aged(path: Path, seconds_ago: float) -> Path:
    stamp = os.path.getmtime(path) - seconds_ago
    os.utime(path, (stamp, stamp))
    return path


def test_one_file_per_game_named_by_time_and_pid(tmp_path: Path):
    first, second = Autosave(tmp_path), Autosave(tmp_path)
    first.save(played(1), TAGS)
    second.save(played(2), TAGS)
    assert first.path != second.path
    assert f"_{os.getpid()}" in first.path.name and first.path.suffix == ".pdn"
    assert [g.game.ply for p in (first.path, second.path) for g in read_pdn_file(p)] == [1, 2]
    assert sorted(tmp_path.glob("*.pdn")) == sorted([first.path, second.path])


def test_a_game_taken_back_to_the_start_leaves_no_unfinished_file(tmp_path: Path):
    autosave, game = Autosave(tmp_path), played(2)
    path = autosave.save(game, TAGS)
    assert path is not None and read_pdn_file(path)[0].game.ply == 2
    game.pop(), game.pop()
    assert autosave.save(game, TAGS) is None
    assert not path.exists() and autosave.path is None and last_unfinished(tmp_path) is None
    assert not list(tmp_path.glob("*.lock"))
    assert autosave.save(played(1), TAGS) is not None  # the next move: a file again
    set_up = Autosave(tmp_path / "fen")  # a set-up position is worth keeping without a move
    game = played(1, "W:WKa1:BKh8")
    set_up.save(game, TAGS)
    game.pop()
    assert set_up.save(game, TAGS) == set_up.path and set_up.path.exists()


def test_resume_skips_a_game_with_no_move_written_by_an_older_version(tmp_path: Path):
    (tmp_path / "old.pdn").write_text('[Event "kbdraughts game"]\n[Result "*"]\n\n*\n')
    assert last_unfinished(tmp_path) is None


def test_a_game_open_in_one_kbdraughts_is_not_resumed_by_another(tmp_path: Path):
    older = Autosave(tmp_path)
    older.save(played(1), TAGS)
    aged(older.path, 60)
    older.close()  # that kbdraughts has ended: its game may be resumed
    running = Autosave(tmp_path)
    running.save(played(3), TAGS)  # still playing: locked
    found, notes = resume(tmp_path)
    assert found is not None and found.path == older.path and found.saved.game.ply == 1
    assert [skipped_note(n) for n in notes] == [
        f"{running.path}: that game is open in another kbdraughts (pid {os.getpid()}); "
        "left to it."]
    try:  # the resumed game is locked in turn, until its autosave closes
        GameLock.take(older.path)
        raise AssertionError("the resumed game was not locked")
    except GameOpen as e:
        assert e.pid == os.getpid()
    found.autosave.close()
    running.close()
    found, notes = resume(tmp_path)
    assert found is not None and found.path == running.path and notes == []
    found.autosave.close()
    assert not list(tmp_path.glob("*.lock"))  # no lock file left behind


def test_resume_names_unreadable_files_and_goes_on(tmp_path: Path):
    good = Autosave(tmp_path)
    good.save(played(2), TAGS)
    good.close()
    aged(good.path, 60)
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n\n1. c3-d4 } b6-a5 *\n')
    found, notes = resume(tmp_path)
    assert found is not None and found.path == good.path
    assert len(notes) == 1
    assert skipped_note(notes[0]).startswith(f"Skipped an unreadable saved game: {bad}:3")
    found.autosave.close()


def test_a_failed_autosave_keeps_the_last_good_file(tmp_path: Path, monkeypatch):
    autosave = Autosave(tmp_path)
    path = autosave.save(played(1), TAGS)

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    assert autosave.save(played(3), TAGS) is None
    assert autosave.error == f"could not autosave to {tmp_path}: No space left on device"
    assert read_pdn_file(path)[0].game.ply == 1  # the file is whole, the old game in it
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_what_a_kill_left_in_the_games_folder_goes_and_nothing_in_use(tmp_path: Path):
    # issue 28, item 20: kill -9 left .tmp and .lock files (40 after 80 kills)
    import subprocess
    import sys

    from kbdraughts.game import Game
    from kbdraughts.notation import parse_move
    from kbdraughts.ui.autosave import Autosave, GameLock

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    folder = tmp_path / "games"
    folder.mkdir()
    left = [folder / f".a.pdn.{dead}.tmp", folder / "b.pdn.lock"]
    kept = [folder / f".c.pdn.{os.getpid()}.tmp", folder / "d.pdn.lock", folder / "e.pdn"]
    for path in left + kept:
        path.write_text("x")
    held = GameLock.take(folder / "d.pdn")  # a game being played: its lock stays
    game = Game()
    game.push(parse_move(game.position, "c3-d4"))
    saved = Autosave(folder).save(game, {})
    assert saved is not None and saved.exists()
    assert not any(p.exists() for p in left) and all(p.exists() for p in kept)
    assert held is not None
    held.release()
