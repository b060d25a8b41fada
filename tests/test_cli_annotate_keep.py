"""``annotate -o`` loses nothing of a file: written onto its own input every game stays (those
not annotated, and those that cannot be read, byte for byte), and any output keeps the
input's encoding, byte-order mark, line ends and the bytes that are not text (issue 28, items
1-3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CMD = [sys.executable, "-m", "kbdraughts.cli"]
#: Black walks into a shot (d6-c5) that White lets pass: the coach always has a note here.
FEN = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
NOTED = f'[Event "noted"]\n[FEN "{FEN}"]\n\n{{Вступление}} 1... d6-c5 2. g3-h4 c7-d6 *\n'
BROKEN = '[Event "broken"]\n\n1. c3-d4 c3-e5 {не ход} *\n'
PLAIN = '[Event "plain"]\n\n1. c3-d4 {центр} f6-g5 *\n'


def annotate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(CMD + ["annotate", "--budget", "6", *args], capture_output=True,
                          timeout=120, env=os.environ.copy())


def test_onto_its_input_every_game_stays_those_not_annotated_byte_for_byte(tmp_path: Path):
    path = tmp_path / "three.pdn"
    original = "\n".join([PLAIN, BROKEN, NOTED]).encode("utf-8")
    path.write_bytes(original)
    out = annotate(str(path), "--game", "3", "-o", str(path))
    assert out.returncode == 0, out.stderr
    after = path.read_bytes()
    head = "\n".join([PLAIN, BROKEN]).encode("utf-8")
    assert after.startswith(head) and b"{coach: " in after[len(head):]
    # the whole file, the unreadable game kept as it was (named, not dropped)
    out = annotate(str(path), "-o", str(path))
    assert out.returncode == 1 and b"kept as it was" in out.stderr
    assert BROKEN.encode("utf-8") in path.read_bytes()
    assert path.read_bytes().count(b"[Event ") == 3


def test_onto_its_input_through_a_hard_link(tmp_path: Path):
    path, link = tmp_path / "a.pdn", tmp_path / "b.pdn"
    path.write_text(PLAIN + "\n" + NOTED, encoding="utf-8")
    os.link(path, link)
    assert annotate(str(path), "--game", "2", "-o", str(link)).returncode == 0
    written = link.read_text(encoding="utf-8")
    assert written.startswith(PLAIN) and "{coach: " in written  # game 1 kept, 2 annotated


def test_a_stray_byte_in_utf8_is_kept_and_cyrillic_stays_cyrillic(tmp_path: Path):
    path = tmp_path / "stray.pdn"
    data = NOTED.replace("{Вступление}", "{Вступление caf\udce9}").encode(
        "utf-8", "surrogateescape")
    path.write_bytes(data)
    out = annotate(str(path), "-o", str(path))
    assert out.returncode == 0, out.stderr
    after = path.read_bytes()
    assert "{Вступление caf".encode("utf-8") + b"\xe9}" in after and b"{coach: " in after
    assert "\ufffd".encode("utf-8") not in after
    assert f"{path}:4: 1 byte is not UTF-8 text; kept as it was".encode() in out.stderr


def test_utf16_a_bom_and_mixed_line_ends_are_written_back_as_they_came(tmp_path: Path):
    path = tmp_path / "u16.pdn"
    text = NOTED.replace("[Event \"noted\"]\n", "[Event \"noted\"]\r\n")
    path.write_bytes(b"\xff\xfe" + text.encode("utf-16-le"))
    assert annotate(str(path), "-o", str(path)).returncode == 0
    after = path.read_bytes()
    assert after.startswith(b"\xff\xfe")
    written = after[2:].decode("utf-16-le")
    assert "{coach: " in written and "Вступление" in written
    assert written.count("\r\n") == 1  # the one line that had it; no other LF became CRLF
    path.write_bytes(b"\xef\xbb\xbf" + NOTED.replace("\n", "\r\n").encode("utf-8"))
    out = tmp_path / "out.pdn"
    assert annotate(str(path), "-o", str(out)).returncode == 0
    after = out.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf") and after.count(b"\r\n") == after.count(b"\n")
