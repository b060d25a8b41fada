"""kb/writer.py: the combos format written back, read again as the same rules.

Equality is field by field over :func:`dataclasses.fields` of :class:`Rule` (``Rule`` compares
by identity), except ``path`` and ``line``: where a rule was read from, not what it says. What
the parser computes from the fields (the matcher's patterns, exactness, constrained squares)
and the warnings a rule earns are compared too.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kbdraughts.board import BLACK, START
from kbdraughts.kb.knowledge import NOT_RULES
from kbdraughts.kb.rules.pattern import BUILTIN_SYMBOLS
from kbdraughts.kb.rules.rule import Rule, make_rule
from kbdraughts.kb.combos import EXAMPLE, parse_rules
from kbdraughts.kb.writer import format_rule, format_rules, format_symbols
from kbdraughts.notation import parse_fen
from kbdraughts.resources import combos_dir

DATA = Path(__file__).parent / "data" / "rules"
WHERE = {"path", "line"}  # where a rule was read, not what it says
MEANING = [f.name for f in dataclasses.fields(Rule) if f.name not in WHERE]
FILES = sorted(p for p in combos_dir().glob("*.txt") if p.name not in NOT_RULES) + sorted(
    DATA.glob("*.txt"))


def assert_same(again: list[Rule], rules: list[Rule]) -> None:
    assert [r.id for r in again] == [r.id for r in rules]
    for a, r in zip(again, rules):
        for name in MEANING:
            assert getattr(a, name) == getattr(r, name), f"{r.where}: {name} differs"
        assert (a.patterns, a.exact, a.constrained) == (r.patterns, r.exact, r.constrained), r.where


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_shipped_rule_reads_back_the_same(path: Path):
    rules, warnings, errors = parse_rules(path.read_text(encoding="utf-8"), str(path))
    if path.name != "errors.txt":
        assert rules and not errors
    again, warnings_again, errors_again = parse_rules(format_rules(rules), "again.txt")
    assert errors_again == []
    assert_same(again, rules)
    assert [w.message for w in warnings_again] == [w.message for w in warnings]


def test_the_writer_writes_again_what_it_wrote():
    (rule,), _, _ = parse_rules(EXAMPLE, "example.txt")
    text = format_rule(rule)
    (again,), _, _ = parse_rules(text, "again.txt")
    assert format_rule(again) == text


def test_exact_rules_are_written_as_a_position_and_the_rest_as_a_board():
    exact = make_rule("o-1", "c3-d4", position=parse_fen("W:Wa1,c3:Bh8"), name="an opening")
    assert format_rule(exact) == ("rule o-1\n  name: an opening\n  side: white\n"
                                  "  position: W:Wa1,c3:Bh8\n  play: c3-d4\n")
    # A white man on rank 8 is no FEN (it would be a king): only a board holds it.
    cells = ("w",) + (".",) * 30 + ("w",)
    odd = make_rule("odd", "a1-b2", cells=cells)
    assert odd.exact and "  board:\n" in format_rule(odd)
    assert_same(parse_rules(format_rule(odd), "t")[0], [odd])


def test_every_field_is_written():
    symbols = {"x": BUILTIN_SYMBOLS["."] | BUILTIN_SYMBOLS["b"]}
    cells = ("x",) * 16 + ("?",) * 16
    rule = make_rule("all-fields", "h6:f4", cells=cells, side=BLACK, name="all of it",
                     priority=-3, sacrifice=2, pieces=((1, 4), (5, 5)), symbols=symbols)
    text = format_symbols(symbols) + format_rule(rule)
    again, _, errors = parse_rules(text, "t.txt")
    assert errors == []
    assert_same(again, [rule])
    assert "  pieces: white 1..4, black 5\n  priority: -3\n  sacrifice: 2\n" in text


def test_the_start_position_as_a_rule():
    rule = make_rule("start", "c3-d4", position=START)
    assert_same(parse_rules(format_rule(rule), "t")[0], [rule])


@pytest.mark.parametrize("name", ["a # comment", "two\nlines", " padded"])
def test_a_name_the_format_cannot_hold_is_refused(name: str):
    rule = make_rule("n", "c3-d4", position=START, name=name)
    with pytest.raises(ValueError, match="cannot be written"):
        format_rule(rule)


@pytest.mark.parametrize("name", ["esc\x1b[2J", "page\fbreak", "line\u2028sep", "cr\rhere",
                                  "nul\x00"])
def test_a_name_with_a_control_character_is_refused(name: str):
    # The parser refuses such a line (issue 11): the writer must not write what cannot be read.
    rule = make_rule("n", "c3-d4", position=START, name=name)
    with pytest.raises(ValueError, match="cannot be written") as e:
        format_rule(rule)
    assert "\x1b" not in str(e.value)


@pytest.mark.parametrize("kwargs, message", [
    (dict(rule_id="a b", play="c3-d4", position=START), "bad rule id"),
    (dict(rule_id="a", play="c3-e4", position=START), "e4 is a light square"),
    (dict(rule_id="a", play="c3-d4"), "either cells or a position"),
    (dict(rule_id="a", play="c3-d4", cells=("Z",) * 32), "32 known symbols"),
    (dict(rule_id="a", play="c3-d4", position=START, side=BLACK), "side"),
])
def test_make_rule_checks_what_the_parser_checks(kwargs: dict, message: str):
    with pytest.raises(ValueError, match=message):
        make_rule(**kwargs)


def test_rules_of_different_symbols_cannot_share_a_file():
    a = make_rule("a", "c3-d4", position=START)
    b = make_rule("b", "c3-d4", cells=("Z",) * 32, symbols={"Z": 1})
    with pytest.raises(ValueError):
        format_rules([a, b])
