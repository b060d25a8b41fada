"""``teach`` (ui/teach.py): the person's taught.txt is never lost, cut or misread (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.board import START, legal_moves
from kbdraughts.notation import move_text
from kbdraughts.ui import teach as teach_module
from kbdraughts.ui.teach import taught_file, teach


def _move(text: str):
    return next(m for m in legal_moves(START) if move_text(m) == text)


def test_a_taught_file_not_utf8_is_named_and_left_alone(tmp_path: Path):
    path = tmp_path / "taught.txt"
    data = b"# mine\nrule taught-1\n  name: caf\xe9\n"
    path.write_bytes(data)
    taught = teach(START, _move("c3-d4"), path)
    assert not taught.ok and not taught.written and taught.line == 3
    assert taught.checked.startswith(f"{path}:3: error: not UTF-8")
    assert path.read_bytes() == data


def test_the_console_says_so_and_the_game_goes_on(tmp_path: Path):
    from ui_driver import play_session

    taught_file().parent.mkdir(parents=True, exist_ok=True)
    taught_file().write_bytes(b"\xff\xfe r\x00u\x00l\x00e\x00")
    app, shown = play_session("teach c3-d4\rc3-d4\rquit\r", tmp_path)
    assert f"The rule was not kept: {taught_file()}:1: error: not UTF-8" in shown
    assert "Traceback" not in shown
    assert [move_text(m) for m in app.game.moves][:1] == ["c3-d4"]


def test_teach_writes_through_a_temporary_file(tmp_path: Path, monkeypatch):
    # A kill or a full disk while writing must leave the old rules whole: teach never opens
    # taught.txt itself for writing, it hands the whole text to write_atomic.
    path = tmp_path / "taught.txt"
    teach(START, _move("c3-d4"), path)
    before = path.read_text(encoding="utf-8")
    written = []

    def failing(target, text, append=False):
        written.append((Path(target), append))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(teach_module, "write_atomic", failing)
    with pytest.raises(OSError):
        teach(START, _move("e3-f4"), path)
    assert written == [(path, False)] and path.read_text(encoding="utf-8") == before


def test_a_huge_taught_number_does_not_crash(tmp_path: Path):
    path = tmp_path / "taught.txt"
    path.write_text("rule taught-" + "9" * 5000 + "\n  position: W:Wc3:Bf6\n  play: c3-d4\n"
                    "rule taught-7\n  position: W:Wc3:Bf6\n  play: c3-b4\n", encoding="utf-8")
    taught = teach(START, _move("c3-d4"), path)
    assert taught.ok and taught.rule_id == "taught-8"
