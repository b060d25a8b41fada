"""``kbdraughts rules match|show`` with rule files of one's own, ``--rules`` once per path.

(The formats of ``rules check|match|show`` are asserted in tests/test_kb_match.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.cli import main


@pytest.fixture
def two_files(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "a.txt"
    a.write_text("rule first\n  position: W:Wc3:Bd4\n  play: c3:e5\n", encoding="utf-8")
    b = tmp_path / "more"
    b.mkdir()
    (b / "b.txt").write_text("rule second\n  position: W:Wc3:Bb4\n  play: c3:a5\n",
                             encoding="utf-8")
    return a, b


def test_rules_match_with_rules_repeated(two_files, capsys):
    a, b = two_files
    assert main(["rules", "match", "--rules", str(a), "--rules", str(b),
                 "W:Wc3:Bd4", "W:Wc3:Bb4", "W:Wa1:Bh8"]) == 0
    assert capsys.readouterr().out == "first\nsecond\n\n"
    # FENs before, between and after: each --rules takes exactly one PATH.
    assert main(["rules", "match", "W:Wc3:Bd4", "--rules", str(a), "--rules", str(b)]) == 0
    assert capsys.readouterr().out == "first\n"


def test_one_rules_takes_one_path(two_files, capsys):
    """`--rules A B` (several paths after one --rules) is no longer read: B is a FEN."""
    a, b = two_files
    assert main(["rules", "match", "--rules", str(a), str(b)]) == 2
    assert capsys.readouterr().err.startswith("kbdraughts: bad FEN:")


def test_rules_show_looks_in_every_path(two_files, capsys):
    a, b = two_files
    assert main(["rules", "show", "second", "--rules", str(a), "--rules", str(b)]) == 0
    out = capsys.readouterr().out
    assert "b.txt:1" in out and "play: c3:a5" in out
    assert main(["rules", "show", "second", "--rules", str(a)]) == 2
    assert "no rule 'second' among 1 rules" in capsys.readouterr().err
