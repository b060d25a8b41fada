"""What the program says of files it cannot use (issue 40, item 12): a device given as rules
named as one, a board no game reaches warned of, UTF-16 text without its mark read."""

from __future__ import annotations

import pytest

from kbdraughts.cli import main
from kbdraughts.pdn import load_pdn_file

CROWDED = """rule many
  board:
    - b - b - b - b
    b - b - b - b -
    - b - b - b - b
    b - . - . - . -
    - . - . - . - .
    . - w - . - . -
    - . - . - . - .
    . - . - . - . -
  play: c3-d4
"""


@pytest.mark.parametrize("argv, says", [
    (["bestmove", "--rules", "/dev/zero", "W:Wc3:Bd6"],
     "kbdraughts bestmove: /dev/zero: error: a device, not a rule file or a directory of them"),
    (["rules", "check", "/dev/zero"],
     "kbdraughts rules check: /dev/zero: a device, not a rule file or a directory of them"),
    (["rules", "check", "/no/such/rules.txt"],
     "kbdraughts rules check: /no/such/rules.txt: no such file or directory"),
])
def test_a_device_as_rules_is_named_as_one(argv, says, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(says)


def test_a_board_of_13_black_men_is_warned_of(tmp_path, capsys):
    path = tmp_path / "many.txt"
    path.write_text(CROWDED, encoding="utf-8")
    assert main(["rules", "check", str(path), "--positions", "0"]) == 0
    out = capsys.readouterr().out
    assert ("many.txt:1: warning: rule many: its board holds 13 black pieces, and a side has "
            "at most 12") in out
    assert "1 warning, 0 errors" in out


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_its_mark_is_read_and_written_back_so(encoding, tmp_path, capsys):
    text = '[Event "Кубок"]\n1. c3-d4 f6-g5 *\n'
    source, out = tmp_path / "g.pdn", tmp_path / "out.pdn"
    source.write_bytes(text.encode(encoding))
    read = load_pdn_file(source)
    assert [g.tags["Event"] for g in read.games] == ["Кубок"]
    assert read.warnings == [f"{source}: UTF-16 text without a byte-order mark; read as such, "
                             "and written back so"]
    # --no-eval: no evaluation on every move (tests/test_pdn_marks.py); nothing else to note
    assert main(["annotate", str(source), "-o", str(out), "--no-eval"]) == 0
    assert out.read_bytes() == source.read_bytes()
