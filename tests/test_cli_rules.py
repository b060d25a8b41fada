"""``kbdraughts rules check|match|show`` (cli/rules.py): their output formats, and rule files
of one's own given with ``--rules`` once per path."""

from __future__ import annotations

from pathlib import Path
import io

import pytest

from kbdraughts.board import SQUARES
from kbdraughts.cli import main

from kb_boards import rows_text


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
    assert "no rule 'second' among 1 rule (1 exact, 0 patterns)\n" in capsys.readouterr().err


def write_rules(tmp_path: Path) -> Path:
    f = tmp_path / "mine.txt"
    f.write_text(
        "# my rules\nrule first\n  position: W:Wc3:Bd4\n  play: c3:e5\n\n"
        "rule second\n  priority: 3\n  board:\n" + rows_text({s: "?" for s in SQUARES})
        + "\n  play: c3-d4\n")
    return f


def test_rules_match_prints_ids_in_ai_order(tmp_path: Path, capsys):
    f = write_rules(tmp_path)
    assert main(["rules", "match", "W:Wc3:Bd4", "W:Wa1:Bh8", "B:Wa1:Bh8", "--rules", str(f)]) == 0
    assert capsys.readouterr().out == "first second\nsecond\nsecond\n"


def test_rules_match_reads_stdin_line_by_line(tmp_path: Path, capsys, monkeypatch):
    f = write_rules(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("W:Wc3:Bd4\nnonsense\nB:Wa1:Bh8\n"))
    assert main(["rules", "match", "--rules", str(f)]) == 2
    out = capsys.readouterr()
    assert out.out == "first second\nerror\nsecond\n"
    assert out.err.startswith("kbdraughts: bad FEN:")


def test_a_bad_rule_is_skipped_and_named_the_rest_loads(tmp_path: Path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("rule x\n  play: c3-d4\n\nrule ok\n  position: W:Wc3:Bd4\n  play: c3:e5\n")
    assert main(["rules", "match", "W:Wc3:Bd4", "--rules", str(bad)]) == 0
    out = capsys.readouterr()
    assert out.out == "ok\n"  # the rule after the faulty one still loads
    assert out.err.splitlines() == [
        f"{bad}:1: error: rule x has no 'board:' or 'position:'",
        "kbdraughts rules match: 1 error in the rule files: the rules with them were skipped, the "
        "rest of the knowledge base loaded (see 'kbdraughts rules check')"]
    assert main(["rules", "match", "W:Wc3:Bd4", "--strict", "--rules", str(bad)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.splitlines()[-1].startswith(
        "kbdraughts rules match: 1 error in the rule files (--strict")
    assert main(["rules", "show", "ok", "--rules", str(bad)]) == 0
    assert "play: c3:e5" in capsys.readouterr().out


def test_a_missing_rules_path_is_still_refused(tmp_path: Path, capsys):
    assert main(["rules", "match", "W:Wc3:Bd4", "--rules", str(tmp_path / "no.txt")]) == 2
    assert capsys.readouterr().err == (
        f"kbdraughts rules match: {tmp_path / 'no.txt'}: no such file or directory\n")


def test_rules_check_reports_and_summarises(tmp_path: Path, capsys):
    write_rules(tmp_path)
    (tmp_path / "warn.txt").write_text("rule w\n  board:\n" + rows_text({s: "?" for s in SQUARES})
                                       + "\n  play: a1-b2\n")
    assert main(["rules", "check", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("mine.txt:17: warning: play starts on c3, which the board does not fix "
                           "to a white piece: the move can never be legal")
    assert out[-2].endswith("warn.txt:11: warning: play lands on b2, which the board does not fix "
                            "empty: the move can never be legal")
    assert out[-1] == "2 files, 3 rules (1 exact, 2 patterns), 4 warnings, 0 errors"
    (tmp_path / "broken.txt").write_text("rule b\n  position: W:Wc3:Bd4\n  play: c3-c5\n")
    assert main(["rules", "check", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.endswith("broken.txt:3: error: bad play 'c3-c5': c3 and c5 are not on one "
                             "diagonal") for line in out)
    assert out[-1] == "3 files, 3 rules (1 exact, 2 patterns), 4 warnings, 1 error"


def test_rules_check_shipped_and_missing_path(capsys):
    assert main(["rules", "check"]) == 0
    assert "0 errors" in capsys.readouterr().out
    assert main(["rules", "check", "no/such/dir"]) == 2
    assert "no/such/dir: no such file or directory" in capsys.readouterr().err


def test_rules_show_draws_rule_and_mirror(tmp_path: Path, capsys):
    f = write_rules(tmp_path)
    assert main(["rules", "show", "first", "--rules", str(f)]) == 0
    out = capsys.readouterr().out
    assert f"{f}:2" in out or "mine.txt:2" in out
    assert "    . - w - . - . -  3" in out  # c3 as written
    assert "    - . - . - b - .  6" in out  # f6 in the mirror
    assert "play: c3:e5" in out and "play: f6:d4" in out
    assert main(["rules", "show", "nope", "--rules", str(f)]) == 2
    assert "no rule 'nope'" in capsys.readouterr().err


DATA = Path(__file__).parent / "data" / "rules"


def test_rules_check_names_each_fault_of_a_file(capsys, monkeypatch):
    monkeypatch.chdir(DATA.parent.parent.parent)  # paths are shown relative to the directory
    assert main(["rules", "check", "tests/data/rules/errors.txt"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "tests/data/rules/errors.txt:6: error: row 6 has 7 cells; it needs 8 (light squares '-',"
        " dark a symbol)",
        "tests/data/rules/errors.txt:20: error: unknown symbol 'X' on d4; built in: . w W b B ? "
        "+ * @ (define others under 'symbols:')",
        "tests/data/rules/errors.txt:33: error: d3 is a light square: write '-' there, not 'b'",
        "tests/data/rules/errors.txt:40: error: bad play 'c3-e4': e4 is a light square",
        "tests/data/rules/errors.txt:43: error: reversed range 5..3 for white: write 3..5",
        "tests/data/rules/errors.txt:47: error: duplicate rule id 'bad-play'",
        "tests/data/rules/errors.txt:51: error: rule no-play has no 'play:' (the move to play)",
        "1 file, 0 rules (0 exact, 0 patterns), 0 warnings, 7 errors",
    ]


def test_a_clean_file_with_every_feature(capsys):
    assert main(["rules", "check", str(DATA / "good.txt")]) == 0
    assert capsys.readouterr().out.endswith("1 file, 3 rules (1 exact, 2 patterns), 0 warnings, "
                                            "0 errors\n")
    assert main(["rules", "match", "--rules", str(DATA / "good.txt"), "W:Wc3,d2:Bd4,f6",
                 "W:Wc3,e3:Bd4,f6", "B:Wd4:Bf6",
                 "B:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,g3,b4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"]) == 0
    # d2 is a white man, allowed by Z; with e3 white instead, d2 is empty: Z allows that too.
    assert capsys.readouterr().out == "good.shot_1\ngood.shot_1\ngood-compact\ngood-opening\n"


#: A motif and a define whose faults are on the lines under their heads (issue 28, item 30).
FAULTS_BELOW = """\
# mine

motif m-1
  name: shot: give one, take two
  play: S-T
  when: our_man(S), next(S, T, D), forward(D), empty(T),
    jump(E, T, L), their_piece(E), bogus_pred(S),
    step(S, T), after(S-T, they_take(1)),
    N > 1
  gain: 1
  example: W:Wa1,c1,g1,b2,d2,h2,e3,g3:Bc5,g5,b6,a7,e7,g7,b8,f8,h8

define foo(X) :-
  our_man(X),
  bad_pred(X)
"""


def test_a_rule_error_names_the_line_of_the_fault(tmp_path: Path, capsys):
    path = tmp_path / "mine.txt"
    path.write_text(FAULTS_BELOW)
    assert main(["rules", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:7: error: unknown predicate bogus_pred/1" in out
    assert f"{path}:15: error: unknown predicate bad_pred/1" in out


def test_one_count_of_the_knowledge_base_everywhere(tmp_path: Path, capsys):
    """Issue 28, item 33: teach said "768 rules" (rules and motifs together) where rules check
    said "748 rules"; both now say the one summary."""
    from kbdraughts.ui.teach import check_knowledge_base

    assert main(["rules", "check", "--positions", "0"]) == 0
    summary = capsys.readouterr().out.splitlines()[-1]
    size = summary.split(", ", 1)[1].rsplit(", ", 2)[0]  # "748 rules (683 exact, ...), 18 motifs"
    assert size.endswith(" motifs") and " rules (" in size
    said, ok = check_knowledge_base(tmp_path / "none.txt")
    assert ok and said == f"the knowledge base loads it: {size}"


def test_rules_show_gives_a_motifs_pieces(capsys):
    assert main(["rules", "show", "main-road"]) == 0
    assert "  pieces: white 3..12, black 1..3\n" in capsys.readouterr().out
    assert main(["rules", "show", "catch-lone-king"]) == 0
    assert "  pieces: black 1, black kings 1\n" in capsys.readouterr().out
    assert main(["rules", "show", "shot-1-for-2"]) == 0
    assert "pieces:" not in capsys.readouterr().out  # any number: nothing to say
