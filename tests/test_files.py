"""kbdraughts/files.py: lines as an editor counts them, UTF-8 with its line, text made safe
to show, files written whole (issue 11)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kbdraughts import files
from kbdraughts.files import (
    NotUtf8Error, SpecialFileError, control_character, decode_text, editor_lines, printable,
    read_form, write_atomic,
)


@pytest.mark.parametrize("text, lines", [
    ("", []), ("a", ["a"]), ("a\n", ["a"]), ("a\n\n", ["a", ""]), ("a\r\nb\r\n", ["a", "b"]),
    ("a\r\r\nb", ["a\r", "b"]),
    ("a\fb\x1cc\x85d\u2028e\u2029f\vg\n", ["a\fb\x1cc\x85d\u2028e\u2029f\vg"]),
    ("a\rb\n", ["a\rb"]),
])
def test_editor_lines(text, lines):
    assert editor_lines(text) == lines


def test_decode_names_the_line_of_the_first_bad_byte():
    assert decode_text("\ufeffcafé\n".encode(), "f") == "café\n"
    for data, line in [(b"\xff", 1), (b"a\nb\n\xc3", 3), (b"\xef\xbb\xbfa\n\xe9", 2),
                       (b"a\n" * 5 + b"\xed\xa0\x80", 6)]:  # the last: a surrogate
        with pytest.raises(NotUtf8Error) as e:
            decode_text(data, "dir/f.txt")
        assert str(e.value) == f"dir/f.txt:{line}: error: not UTF-8 text: save the file as UTF-8"
        assert e.value.line == line and isinstance(e.value, ValueError)


def test_printable_and_control_character():
    assert printable("plain é ♛ \t text") == "plain é ♛ \t text"
    assert printable("\x1b[2J\x00\x7f\x9b\u2028\n") == "\\x1b[2J\\x00\\x7f\\x9b\\u2028\\x0a"
    assert control_character("a\tb") is None and control_character("a\x1bb") == "U+001B"


def test_write_atomic_replaces_whole_and_keeps_the_mode(tmp_path: Path):
    f = tmp_path / "x.txt"
    f.write_text("old\n")
    f.chmod(0o640)
    write_atomic(f, "new ♛\n")
    assert f.read_text(encoding="utf-8") == "new ♛\n" and f.stat().st_mode & 0o777 == 0o640
    write_atomic(f, "more\n", append=True)
    assert f.read_text(encoding="utf-8") == "new ♛\nmore\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]


def test_write_atomic_follows_a_link(tmp_path: Path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch):
    f = tmp_path / "x.txt"
    f.write_text("thirty rules\n")

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OSError):
        write_atomic(f, "a cut fil")
    assert f.read_text() == "thirty rules\n"
    assert os.listdir(tmp_path) == ["x.txt"]


def test_a_fifo_or_a_device_is_refused_never_replaced(tmp_path: Path):
    # issue 28, item 6: 'save' onto a FIFO replaced it with a regular file
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SpecialFileError, match="it is a FIFO, not a regular file"):
        write_atomic(fifo, "1. c3-d4 *\n")
    assert fifo.is_fifo() and not list(tmp_path.glob(".*.tmp"))
    link = tmp_path / "full"
    link.symlink_to("/dev/null")
    with pytest.raises(SpecialFileError, match="it is a device"):
        write_atomic(link, "x")
    assert Path("/dev/null").is_char_device()


def test_a_file_is_written_back_in_the_form_it_came(tmp_path: Path):
    # issue 28, items 2-3: the encoding, the byte-order mark and the stray bytes kept
    for data in (b"\xef\xbb\xbf\xd0\xa5\xd0\xbe\xd0\xb4\r\n\xe9\r\n",  # UTF-8, a stray byte
                 "Ход\r\n".encode("cp1251") + b"\x98\xc0\xc1\n",  # cp1251, a byte it lacks
                 b"\xff\xfe" + "Ход\n".encode("utf-16-le"), b"caf\xe9\n"):
        text, form, _ = read_form(data, "f")
        assert "\ufffd" not in text
        write_atomic(tmp_path / "out", text, form=form)
        assert (tmp_path / "out").read_bytes() == data
