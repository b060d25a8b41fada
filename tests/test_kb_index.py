"""The pyDatalog matcher against a brute-force reference, the AI's order, isolation, commands."""

from __future__ import annotations

import io
import re
import random
import threading
from pathlib import Path

import pytest

from kbdraughts.game import random_walk
from kbdraughts.board import SQUARES, START, Position, legal_moves
from kbdraughts.cli import main
from kbdraughts.kb import KnowledgeBase, load_knowledge_base, parse_rules
from kbdraughts.board import mirror_position
from kbdraughts.kb.rules import pattern_applies
from kbdraughts.notation import fen, move_text, parse_fen

_CELL = {None: ".", (0, False): "w", (0, True): "W", (1, False): "b", (1, True): "B"}
_LOOSE = {".": ".?", "w": "w+?@", "W": "W+?@", "b": "b*?@", "B": "B*?@"}


def random_position(rng: random.Random) -> Position:
    pos = START
    for pos in random_walk(rng, rng.randint(0, 50)):
        pass
    return pos


def rows_text(cells: dict[int, str]) -> str:
    out = []
    for rank in range(7, -1, -1):
        out.append("    " + " ".join(
            cells[SQUARES[rank * 4 + f // 2]] if (f + rank) % 2 == 0 else "-" for f in range(8)))
    return "\n".join(out)


def random_rule(rng: random.Random, i: int, pos: Position) -> str:
    """A rule drawn from ``pos``: exact, or a pattern loosening some squares (so some rules
    match positions other than their source, and some never match anything)."""
    moves = legal_moves(pos) or [None]
    move = rng.choice(moves)
    play_text = move_text(move) if move else "c3-d4"
    exact = rng.random() < 0.3
    cells = {}
    for s in SQUARES:
        c = _CELL[pos.piece_at(s)]
        cells[s] = c if exact or rng.random() < 0.3 else rng.choice(_LOOSE[c])
    wn, bn = pos.white.bit_count(), pos.black.bit_count()
    pieces = rng.choice(["any", f"white {wn}", f"black {max(0, bn - 1)}..{bn}",
                         f"white {min(wn + 1, 12)}..12", f"white {wn}, black {bn}..{min(bn + 1, 12)}"])
    return (f"rule r{i}\n  side: {'black' if pos.side else 'white'}\n"
            f"  priority: {rng.randint(-1, 2)}\n  pieces: {pieces}\n  board:\n{rows_text(cells)}\n"
            f"  play: {play_text}\n")


def reference(rules, pos: Position) -> list[tuple[str, bool]]:
    """Every rule and mirror checked square by square, ordered by the issue's words."""
    found = []
    for order, r in enumerate(rules):
        for mirrored, p in enumerate(r.patterns):
            if pattern_applies(p, pos):
                lay = 0 if r.capture else 1 if r.exact else 2
                found.append(((lay, -r.priority, -r.constrained, order), (r.id, bool(mirrored))))
    return [x for _, x in sorted(found)]


@pytest.mark.parametrize("seed", range(6))
def test_matcher_agrees_with_brute_force(seed: int):
    rng = random.Random(seed)
    sources = [random_position(rng) for _ in range(60)]
    text = "\n".join(random_rule(rng, i, p) for i, p in enumerate(sources))
    rules, _, errors = parse_rules(text, "random.txt")
    assert errors == []
    kb = KnowledgeBase(rules)
    probes = sources[:30] + [mirror_position(p) for p in sources[:15]] + [
        random_position(rng) for _ in range(30)]
    total = 0
    for pos in probes:
        got = [(m.rule.id, m.mirrored) for m in kb.matches(pos)]
        assert got == reference(rules, pos), fen(pos)
        total += len(got)
    assert total >= 20  # the test really exercises matches


def test_matches_carry_layer_and_legal_move():
    rules, _, _ = parse_rules(
        "rule quiet\n  board:\n" + rows_text({s: "?" for s in SQUARES}) + "\n  play: c3-d4\n"
        "rule take\n  board:\n" + rows_text({s: "?" for s in SQUARES}) + "\n  play: c3:e5\n",
        "t.txt")
    kb = KnowledgeBase(rules)
    pos = parse_fen("W:Wc3:Bd4")
    ms = kb.matches(pos)
    assert [(m.rule.id, m.layer) for m in ms if not m.mirrored] == [("take", "capture"),
                                                                    ("quiet", "pattern")]
    assert [m.rule.id for m in kb.firing(pos)] == ["take"]  # capture is compulsory
    assert move_text(kb.firing(pos)[0].move) == "c3:e5"


def test_opening_rules_fire_from_the_start():
    kb = load_knowledge_base()
    firing = kb.firing(START)
    assert len(firing) == 7 and all(m.layer == "exact" and not m.mirrored for m in firing)
    assert sorted(move_text(m.move) for m in firing) == sorted(
        move_text(m) for m in legal_moves(START))


def test_two_knowledge_bases_do_not_see_each_other():
    a = KnowledgeBase(parse_rules("rule only-a\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "a")[0])
    b = KnowledgeBase(parse_rules("rule only-b\n  position: W:Wc3:Bf6\n  play: c3-b4\n", "b")[0])
    pos = parse_fen("W:Wc3:Bf6")
    assert [m.rule.id for m in a.matches(pos)] == ["only-a"]
    assert [m.rule.id for m in b.matches(pos)] == ["only-b"]
    del b
    assert [m.rule.id for m in a.matches(pos)] == ["only-a"]


def test_other_pydatalog_programs_are_left_alone():
    from pyDatalog import pyDatalog

    pyDatalog.assert_fact("heur_weight", "x", 3)
    kb = KnowledgeBase(parse_rules("rule r\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "r")[0])
    assert kb.matches(parse_fen("W:Wc3:Bf6"))
    assert pyDatalog.ask("heur_weight(X, Y)").answers == [("x", 3)]
    with pytest.raises(AttributeError):  # "Predicate without definition": not in this program
        pyDatalog.ask("kb_exact(X, Y)")
    pyDatalog.retract_fact("heur_weight", "x", 3)


def test_a_knowledge_base_answers_from_another_thread():
    kb = KnowledgeBase(parse_rules("rule r\n  position: W:Wc3:Bf6\n  play: c3-d4\n", "r")[0])
    out = []
    t = threading.Thread(target=lambda: out.append([m.rule.id for m in kb.firing(
        parse_fen("W:Wc3:Bf6"))]))
    t.start()
    t.join()
    assert out == [["r"]]


# --- commands ----------------------------------------------------------------------------------


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
    assert out.out == "first second\n\nsecond\n"
    assert out.err.startswith("kbdraughts: bad FEN:")


def test_rules_match_bad_rule_file_exits_2(tmp_path: Path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("rule x\n  play: c3-d4\n")
    assert main(["rules", "match", "W:Wc3:Bd4", "--rules", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:1: error: rule x has no 'board:' or 'position:'" in err
    assert "Traceback" not in err


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


def test_matcher_agrees_with_brute_force_in_large_classes():
    # Over 256 rules share side and counts: the bit-sliced classes are split in chunks.
    rng = random.Random(99)
    sources = [random_position(rng) for _ in range(700)]
    text = "\n".join(re.sub(r"  pieces: .*\n", "", random_rule(rng, i, p))
                     for i, p in enumerate(sources))
    rules, _, errors = parse_rules(text, "large.txt")
    assert errors == [] and len(rules) == 700
    kb = KnowledgeBase(rules)
    found = 0
    for pos in sources[:15] + [random_position(rng) for _ in range(15)]:
        got = [(m.rule.id, m.mirrored) for m in kb.matches(pos)]
        assert got == reference(rules, pos), fen(pos)
        found += len(got)
    assert found >= 15
