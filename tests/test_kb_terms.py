"""heuristic.txt's format and its pyDatalog question (eval/terms.py)."""

from __future__ import annotations

import itertools
import threading

import pytest

from kbdraughts.eval.terms import (
    KINDS, MOVE_FEATURES, HeuristicFileError, Term, TermQuestion, parse_terms, read_terms,
)
from kbdraughts.resources import combos_dir


def test_a_line_is_a_term():
    text = ("# a comment\n\nweight bait -1.5 per exchange when man_move and not endgame  # why\n"
            "value kings 40 per kings\n")
    assert parse_terms(text, "h.txt") == [
        Term("weight", "bait", -1.5, "exchange", (("man_move", True), ("endgame", False)), 3),
        Term("value", "kings", 40.0, "kings", (), 4),
    ]


@pytest.mark.parametrize("text, message", [
    ("weight crowning two when crowns", "expected 'weight|value NAME NUMBER"),
    ("score crowning 2", "unknown term kind 'score'"),
    ("weight crowning 2 when flying", "unknown weight feature 'flying'"),
    ("value centre 2 per crowns", "unknown value feature 'crowns'"),
    ("weight a 1\nweight a 2", "duplicate weight term 'a'"),
    ("weight a 1 when crowns or man_move", "bad condition 'crowns or man_move'"),
])
def test_file_errors_name_path_and_line(text, message):
    with pytest.raises(HeuristicFileError) as e:
        parse_terms("# header\n" + text, "h.txt")
    line = 2 + text.count("\n")
    assert str(e.value).startswith(f"h.txt:{line}: error: ")
    assert message in str(e.value)


def test_an_unknown_feature_lists_the_known_ones():
    with pytest.raises(HeuristicFileError) as e:
        parse_terms("value centre 2 per crowns")
    assert str(e.value).endswith(f"(known: {', '.join(KINDS['value'])})")


def expected(terms: list[Term], kind: str, signature: int) -> list[str]:
    """The terms whose conditions hold, read directly off the terms."""
    feats = KINDS[kind]
    return sorted(t.name for t in terms if t.kind == kind and all(
        bool(signature >> feats.index(f) & 1) == holds for f, holds in t.needs))


def test_the_question_agrees_with_the_conditions_read_directly():
    terms = parse_terms("""
    weight a 1 when crowns
    weight b 2 when crowns and not man_move
    weight c 3 per advance when not endgame and man_move
    weight d 4
    value e 5 per centre_men when not endgame
    value f 6 when kings and centre_men
    """)
    q = TermQuestion(terms)
    for kind, feats in KINDS.items():
        mentioned = sorted({feats.index(f) for t in terms if t.kind == kind for f, _ in t.needs})
        for bits in itertools.product((0, 1), repeat=len(mentioned)):
            sig = sum(1 << i for i, b in zip(mentioned, bits) if b)
            assert q.applicable(kind, sig) == expected(terms, kind, sig)


def test_the_shipped_terms_answer_as_their_conditions_say():
    terms = parse_terms((combos_dir() / "heuristic.txt").read_text(encoding="utf-8"))
    q = TermQuestion(terms)
    for kind, sigs in (("weight", (0, 1, 0b101, 1 << MOVE_FEATURES.index("endgame"),
                                   1 << MOVE_FEATURES.index("has_king"))),
                       ("value", (0, 1, 0b10000, 0b11111))):
        for sig in sigs:
            assert q.applicable(kind, sig) == expected(terms, kind, sig)


def test_a_weight_and_a_value_term_of_one_name_keep_their_own_conditions():
    terms = parse_terms("weight centre 8 when not endgame\nvalue centre 6 when not endgame\n")
    has_king = 1 << MOVE_FEATURES.index("has_king")  # the index of value's 'endgame'
    assert TermQuestion(terms).applicable("weight", has_king) == ["centre"]
    assert TermQuestion(terms).applicable("value", has_king) == []


def test_a_question_asked_first_from_two_threads_at_once():
    terms = parse_terms("weight x 7 when crowns\nweight y 1 when not crowns\n")
    q = TermQuestion(terms)
    out: dict[int, list[str]] = {}
    threads = [threading.Thread(target=lambda s=s: out.__setitem__(s, q.applicable("weight", s)))
               for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert out == {0: ["y"], 1: ["x"]}


# --- issue 11: a hostile or damaged heuristic file gives path:line, never a crash -----------


def test_terms_named_true_and_false_stay_names():
    # pyDatalog once turned the names True/False into booleans; kb.datalog passes values.
    q = TermQuestion(parse_terms("weight True 1 when crowns\nweight False 2 when not crowns\n"
                                 "value None 3\n"))
    assert q.applicable("weight", 1) == ["True"] and q.applicable("weight", 0) == ["False"]
    assert q.applicable("value", 0) == ["None"]


@pytest.mark.parametrize("weight", ["9" * 400, "1" + "0" * 309, "10001", "-10001",
                                    "99999999999999999999.5"])
def test_a_weight_too_large_is_refused_at_its_line(weight):
    with pytest.raises(HeuristicFileError) as e:
        parse_terms(f"# header\nweight a 1\nweight huge {weight} when crowns\n", "h.txt")
    assert str(e.value).startswith("h.txt:3: error: weight ")
    assert "too large" in str(e.value) and len(str(e.value)) < 200


def test_the_largest_weight_is_accepted():
    assert [t.weight for t in parse_terms("weight a 10000\nweight b -10000.0\n")] \
        == [10000.0, -10000.0]


@pytest.mark.parametrize("brk", ["\f", "\x0b", "\x1c", "\x85", "\u2028", "\u2029", "\r\r"])
def test_line_numbers_are_the_editors(brk):
    # Only \n ends a line (and one \r before it): a form feed or U+2028 inside a line is a
    # control character at that line, and every later line keeps its number.
    text = f"weight a 1\r\n# note {brk} in a comment\r\nweight b 2 {brk}\nweight c x\n"
    with pytest.raises(HeuristicFileError) as e:
        parse_terms(text, "h.txt")
    assert str(e.value).startswith("h.txt:3: error: control character U+")
    with pytest.raises(HeuristicFileError) as e:
        parse_terms(text.replace(f" {brk}\n", "\n"), "h.txt")
    assert str(e.value).startswith("h.txt:4: error: expected")


def test_crlf_and_cr_crlf_lines_keep_their_numbers():
    with pytest.raises(HeuristicFileError) as e:
        parse_terms("weight a 1\r\n\r\nweight b 2\r\nweight c x\r\n", "h.txt")
    assert str(e.value).startswith("h.txt:4: error: expected")
    with pytest.raises(HeuristicFileError) as e:
        parse_terms("weight a 1\r\r\nweight c x\r\r\n", "h.txt")
    assert str(e.value).startswith("h.txt:1: error: control character U+000D")


def test_an_escape_sequence_in_a_line_is_refused_and_not_echoed():
    with pytest.raises(HeuristicFileError) as e:
        parse_terms("weight a\x1b[2J 1\n", "h.txt")
    assert str(e.value) == "h.txt:1: error: control character U+001B in the line"


def test_a_file_not_utf8_names_the_line_of_the_first_bad_byte():
    with pytest.raises(HeuristicFileError) as e:
        read_terms(b"weight a 1\n# caf\xe9\nweight b 2\n", "h.txt")
    assert str(e.value).startswith("h.txt:2: error: not UTF-8")
    assert read_terms("\ufeffweight a 1\n".encode(), "h.txt")[0].name == "a"  # a BOM is fine
