"""Shared fixtures only. Every test gets its own user data directory, so none reads or writes
the real ``~/.local/share/kbdraughts``."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg_data")))


@pytest.fixture(scope="session")
def _built_tables(tmp_path_factory: pytest.TempPathFactory):
    """The endgame tables a first need builds (up to 4 pieces with the native core, 3
    without), built once for the session."""
    from kbdraughts.egdb.probe import Database
    folder = tmp_path_factory.mktemp("egdb")
    db = Database(folder)
    db.table(next(iter(_one_material())))  # builds them all at first need
    return folder


def _one_material():
    from kbdraughts.egdb.index import material_of
    from kbdraughts.notation import parse_fen
    yield material_of(parse_fen("W:WKc1:BKa1"))


@pytest.fixture
def endgame_tables(_built_tables, monkeypatch: pytest.MonkeyPatch, tmp_path_factory):
    """The tables already there, as on a machine that built them once: in this test's data
    directory (a link to the session's), and the engine's default database reading them."""
    import os

    from kbdraughts.egdb import probe
    data = tmp_path_factory.mktemp("xdg_tables")
    (data / "kbdraughts").mkdir()
    (data / "kbdraughts" / "egdb").symlink_to(_built_tables)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(probe, "_default", None)
    assert os.environ["XDG_DATA_HOME"] == str(data)
    return _built_tables
