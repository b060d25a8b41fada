"""The combos format: parsing, mirroring and the ``path:line`` diagnostics rule authors see."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.board import BLACK, WHITE
from kbdraughts.kb.knowledge import load_knowledge_base, read_rule_files
from kbdraughts.kb.combos import RuleFileError, parse_rules
from kbdraughts.kb.combos import ALL_STATES, BUILTIN_SYMBOLS
from kbdraughts.notation import parse_square

DATA = Path(__file__).parent / "data" / "rules"

EMPTY_BOARD = """\
  board:
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
    - ? - ? - ? - ?
    ? - ? - ? - ? -
"""


def board(**cells: str) -> str:
    """A 'board:' block of '?' with some squares set: board(c3="w", d4="b")."""
    rows = EMPTY_BOARD.splitlines()
    out = [rows[0]]
    for r, row in enumerate(rows[1:]):
        rank = 8 - r
        chars = row.split()
        for name, sym in cells.items():
            if int(name[1]) == rank:
                chars["abcdefgh".index(name[0])] = sym
        out.append("    " + " ".join(chars))
    return "\n".join(out) + "\n"


def one(text: str):
    rules, warnings, errors = parse_rules(text, "t.txt")
    return rules, [str(w) for w in warnings], [str(e) for e in errors]


def test_fields_and_defaults():
    rules, warnings, errors = one(
        "rule a.b_c-1\n  name: A shot # with a comment\n  side: black\n"
        "  pieces: white 3..4, black 1\n  priority: -2\n  sacrifice: 1\n"
        + board(f6="b", e5="w", d4=".", c3="w") + "  play: f6:d4:b2 # the move\n"
    )
    assert errors == []
    (r,) = rules
    assert (r.id, r.name, r.side, r.priority, r.sacrifice) == ("a.b_c-1", "A shot", BLACK, -2, 1)
    assert r.pieces == ((3, 4), (1, 1))
    assert r.capture and not r.exact and r.play == "f6:d4:b2"
    assert r.line == 1 and r.path == "t.txt"
    # b2 is not fixed empty: a warning naming the play line
    assert warnings == ["t.txt:16: warning: play lands on b2, which the board does not fix empty: "
                        "the move can never be legal"]


def test_defaults_are_white_priority_zero_any_counts():
    (r,), _, errors = one("rule x\n" + board(c3="w", d4=".") + "  play: c3-d4\n")
    assert errors == []
    assert (r.side, r.priority, r.sacrifice, r.pieces) == (WHITE, 0, 0, ((0, 12), (0, 12)))
    assert r.constrained == 2 and not r.capture


def test_rows_without_spaces_with_rank_digits_and_file_letters():
    text = (
        "rule compact\n  board:\n"
        + "".join(f"    {row}{8 - i}\n" for i, row in enumerate(
            ["-?-?-?-?", "?-?-?-?-", "-?-?-?-?", "?-w-?-?-",
             "-?-?-?-?", "?-?-?-?-", "-?-?-?-?", "?-?-?-?-"]))
        + "    a b c d e f g h\n  play: c5-d6\n")
    rules, _, errors = one(text)
    assert errors == [] and rules[0].allowed[17] == BUILTIN_SYMBOLS["w"]  # c5


def test_position_rule_is_exact_and_takes_its_side():
    (r,), warnings, errors = one("rule o\n  position: B:Wc3:Bf6\n  play: f6-e5\n")
    assert errors == [] and warnings == []
    assert r.exact and r.side == BLACK and r.exact_position().black == 1 << parse_square("f6")


def test_custom_symbols():
    text = "symbols:\n  Z = . w\n  Q = *\nrule s\n" + board(c3="w", d4="Z", e5="Q") + "  play: c3-d4\n"
    (r,), _, errors = one(text)
    assert errors == []
    assert r.allowed[9] == BUILTIN_SYMBOLS["w"]  # c3
    assert r.allowed[13] == BUILTIN_SYMBOLS["."] | BUILTIN_SYMBOLS["w"]  # d4
    assert r.symbols == {"Z": 0b11, "Q": BUILTIN_SYMBOLS["*"]}


def test_mirror_turns_the_board_and_swaps_everything():
    (r,), _, _ = one("rule m\n  pieces: white 2, black 5..7\n" + board(c3="w", d4="b", e5=".")
                     + "  play: c3:e5\n")
    own, mirror = r.patterns
    assert mirror.side == BLACK and mirror.white == (5, 7) and mirror.black == (2, 2)
    assert r.play_text(True) == "f6:d4"
    f6, e5, d4 = (parse_square(n) for n in ("f6", "e5", "d4"))
    assert mirror.allow[3] & (1 << f6) and not mirror.allow[1] & (1 << f6)  # black man on f6
    assert mirror.allow[1] & (1 << e5) and not mirror.allow[0] & (1 << e5)  # white man on e5
    assert mirror.allow[0] & (1 << d4) and not mirror.allow[0] & (1 << e5 | 1 << f6)
    assert own.allow[0] & (1 << e5) and not own.allow[0] & (1 << d4)


@pytest.mark.parametrize("text, expected", [
    ("rule x\n  board:\n    - ? - ?\n  play: c3-d4\n",
     "t.txt:3: error: the board has 1 row; it needs 8 (rank 8 first)"),
    ("rule x\n" + board().replace("- ? - ? - ? - ?", "- ? - ? - ? -", 1) + "  play: c3-d4\n",
     "t.txt:3: error: row 8 has 7 cells; it needs 8"),
    ("rule x\n" + board(c3="Z") + "  play: c3-d4\n", "t.txt:8: error: unknown symbol 'Z' on c3"),
    ("rule x\n" + board(d3="w") + "  play: c3-d4\n",
     "t.txt:8: error: d3 is a light square: write '-' there, not 'w'"),
    ("rule x\n" + board(c3="-") + "  play: c3-d4\n", "t.txt:8: error: c3 is a dark square"),
    ("rule x\n" + board(c3="w") + "  play: c3-e4\n",
     "t.txt:11: error: bad play 'c3-e4': e4 is a light square"),
    ("rule x\n" + board(c3="w") + "  play: c3-f6\n  \n",
     None),  # a king could: no error (a warning at most)
    ("rule x\n" + board(c3="w") + "  play: c3-d5\n",
     "t.txt:11: error: bad play 'c3-d5': d5 is a light square"),
    ("rule x\n" + board(c3="w") + "  play: c3-c5\n",
     "t.txt:11: error: bad play 'c3-c5': c3 and c5 are not on one diagonal"),
    ("rule x\n" + board(c3="w") + "  play: c3:d4\n",
     "t.txt:11: error: bad play 'c3:d4': a capture jumps over a piece"),
    ("rule x\n" + board(c3="w") + "  play: hello\n", "t.txt:11: error: bad play 'hello'"),
    ("rule x\n  pieces: white 4..2\n" + board(c3="w") + "  play: c3-d4\n",
     "t.txt:2: error: reversed range 4..2 for white: write 2..4"),
    ("rule x\n  pieces: white 13\n" + board(c3="w") + "  play: c3-d4\n",
     "t.txt:2: error: white count 13 is more than 12 pieces"),
    ("rule x\n" + board(c3="w"), "t.txt:1: error: rule x has no 'play:'"),
    ("rule x\n  play: c3-d4\n", "t.txt:1: error: rule x has no 'board:' or 'position:'"),
    ("rule x\n  side: red\n" + board(c3="w") + "  play: c3-d4\n",
     "t.txt:2: error: side must be white or black, got 'red'"),
    ("rule x\n  priority: high\n" + board(c3="w") + "  play: c3-d4\n",
     "t.txt:2: error: priority must be an integer, got 'high'"),
    ("rule x\n  sacrifice: -1\n" + board(c3="w") + "  play: c3-d4\n",
     "t.txt:2: error: sacrifice must be a whole number"),
    ("rule x\n  colour: white\n" + board(c3="w") + "  play: c3-d4\n",
     "t.txt:2: error: unknown field 'colour'"),
    ("rule x y\n", "t.txt:1: error: expected 'rule ID'"),
    ("rule x\n" + board(c3="w", d4=".") + "play: c3-d4\n",
     "t.txt:11: error: 'play:' must be indented under its 'rule ID' line"),
    ("hello\n", "t.txt:1: error: expected 'rule ID' or 'symbols:', got 'hello'"),
    ("rule x\n  position: W:Wc3:Bc3\n  play: c3-d4\n", "t.txt:2: error: bad position: c3 is listed"),
    ("rule x\n  side: black\n  position: W:Wc3:Bf6\n  play: c3-d4\n",
     "t.txt:3: error: the position has white to move but 'side:' says black"),
    ("rule x\n" + board(c3="w") + "  play: c3-d4\nsymbols:\n  Z = .\n",
     "t.txt:12: error: 'symbols:' must come before the file's first rule"),
    ("symbols:\n  w = .\n", "t.txt:2: error: 'w' cannot be redefined"),
    ("rule x\n" + board(c3="w") + "    ? - ? - ? - ? -\n  play: c3-d4\n",
     "t.txt:11: error: the board has more than 8 rows"),
    ("rule x\n" + board(c3="w") + "  play: c3-d4\nrule x\n" + board(c3="w") + "  play: c3-b4\n",
     "t.txt:12: error: duplicate rule id 'x'"),
])
def test_errors_name_path_and_line(text: str, expected: str | None):
    _, _, errors = one(text)
    if expected is None:
        assert errors == []
    else:
        assert errors and errors[0].startswith(expected), errors


@pytest.mark.parametrize("cells, play, warning", [
    ({"c3": "?", "d4": "."}, "c3-d4", "play starts on c3, which the board does not fix to a white"),
    ({"c3": "w", "d4": "?"}, "c3-d4", "play lands on d4, which the board does not fix empty"),
    ({"c3": "w", "d4": "?", "e5": "."}, "c3:e5", "play takes between c3 and e5, but no square"),
    ({"c3": "w", "b2": "."}, "c3-b2", "a man on c3 cannot move to b2"),
])
def test_never_legal_plays_are_warnings(cells: dict, play: str, warning: str):
    rules, warnings, errors = one("rule x\n" + board(**cells) + f"  play: {play}\n")
    assert errors == [] and len(rules) == 1
    assert any(warning in w and w.startswith("t.txt:11: warning:") for w in warnings), warnings


def test_a_king_capture_over_empty_squares_is_fine():
    _, warnings, errors = one("rule k\n" + board(a1="W", b2=".", c3="b", d4=".", e5=".")
                              + "  play: a1:e5\n")
    assert errors == [] and warnings == []


def test_a_rule_file_is_never_executed(tmp_path: Path):
    f = tmp_path / "evil.txt"
    f.write_text("rule x\n  name: __import__('os').system('touch PWNED')\n  play: c3-d4\n")
    with pytest.raises(RuleFileError):
        load_knowledge_base([f])
    assert len(load_knowledge_base([f], skip_faulty=True).errors) == 1
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()


def test_duplicate_ids_across_files_are_reported_at_the_second(tmp_path: Path):
    rule = "rule same\n" + board(c3="w", d4=".") + "  play: c3-d4\n"
    (tmp_path / "a.txt").write_text(rule)
    (tmp_path / "b.txt").write_text("\n\n" + rule + "rule other\n" + board(c3="w", d4=".")
                                    + "  play: c3-d4\n")
    kb = load_knowledge_base([tmp_path], skip_faulty=True)  # the second "same" skipped alone
    assert [(r.id, Path(r.path).name) for r in kb.rules] == [("same", "a.txt"),
                                                             ("other", "b.txt")]
    (error,) = kb.errors
    assert str(error).endswith("b.txt:3: error: duplicate rule id 'same' (first at "
                               f"{error.path[:-5]}a.txt:1)")
    with pytest.raises(RuleFileError):
        load_knowledge_base([tmp_path])


def test_one_faulty_block_costs_that_block_alone(tmp_path: Path):
    """A bad rule, a bad motif and a motif calling a bad define are skipped, each named at its
    line; every other rule and motif of the file, and of the other files, loads."""
    good = "rule good\n" + board(c3="w", d4=".") + "  play: c3-d4\n"
    (tmp_path / "a.txt").write_text(
        "rule short\n  board:\n    - ? - ? - ? - ?\n  play: c3-d4\n\n" + good
        + "define bad(X) :- our_man(X), nonsense(X)\n"
        "motif uses-bad\n  play: S-T\n  when: bad(S), next(S, T, fl), step(S, T)\n"
        "  gain: 1\n  example: W:Wc3:Bh8\n"
        "motif broken\n  play: S-\n  when: our_man(S)\n  gain: 1\n  example: W:Wc3:Bh8\n"
        "motif fine\n  play: S-T\n  when: our_man(S), next(S, T, fl), empty(T), step(S, T)\n"
        "  promise: crowns\n  example: W:Wc3:Bh8\n")
    (tmp_path / "b.txt").write_text(good.replace("good", "other"))
    kb = load_knowledge_base([tmp_path], skip_faulty=True)
    assert [r.id for r in kb.rules] == ["good", "other"] and [m.id for m in kb.motifs] == ["fine"]
    assert [(Path(d.path).name, d.line) for d in kb.errors] == [
        ("a.txt", 3), ("a.txt", 17), ("a.txt", 18), ("a.txt", 24)]
    assert "unknown predicate nonsense/1" in kb.errors[1].message
    assert "motif uses-bad calls define bad (line 17), which has an error" in kb.errors[2].message
    assert "got an empty term" in kb.errors[3].message


def test_directories_skip_the_heuristic_file(tmp_path: Path):
    (tmp_path / "heuristic.txt").write_text("this is not the combos format\n")
    (tmp_path / "mine.txt").write_text("rule m\n" + board(c3="w", d4=".") + "  play: c3-d4\n")
    kb = load_knowledge_base([tmp_path])
    assert [r.id for r in kb.rules] == ["m"]


def test_missing_path_is_an_error(tmp_path: Path):
    with pytest.raises(RuleFileError) as e:
        load_knowledge_base([tmp_path / "nope.txt"])
    assert str(e.value) == f"{tmp_path / 'nope.txt'}: error: no such file or directory"


def test_default_knowledge_base_adds_the_users_rules(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    user = tmp_path / "kbdraughts" / "combos"
    user.mkdir(parents=True)
    (user / "mine.txt").write_text("rule my-own\n" + board(c3="w", d4=".") + "  play: c3-d4\n")
    rules, _, errors, files = read_rule_files()
    assert errors == []
    assert "my-own" in {r.id for r in rules}
    assert not any(f.endswith("heuristic.txt") for f in files)
    assert any(f.endswith("openings.txt") for f in files)


def test_shipped_knowledge_base_is_clean():
    rules, warnings, errors, files = read_rule_files()
    assert errors == [] and warnings == []
    assert sum(1 for r in rules if r.exact) >= 200  # the opening book's checked moves
    assert sum(1 for r in rules if not r.exact) >= 40


def test_all_states_symbol():
    assert BUILTIN_SYMBOLS["?"] == ALL_STATES


def test_compiled_cache_follows_the_text(tmp_path: Path):
    f = tmp_path / "mine.txt"
    f.write_text("rule c\n" + board(c3="w", d4=".", b4=".") + "  play: c3-d4\n")
    first = load_knowledge_base([f]).rule("c")
    again = load_knowledge_base([f]).rule("c")
    assert (again.play, again.allowed, again.exact, again.constrained, again.pattern) == (
        first.play, first.allowed, first.exact, first.constrained, first.pattern)
    f.write_text("rule c\n" + board(c3="w", d4=".", b4=".") + "  play: c3-b4\n")
    assert load_knowledge_base([f]).rule("c").play == "c3-b4"


def test_an_unreadable_cache_entry_is_parsed_again(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    f = tmp_path / "mine.txt"
    f.write_text("rule c\n" + board(c3="w", d4=".") + "  play: c3-d4\n")
    load_knowledge_base([f])
    (entry,) = (tmp_path / "data" / "kbdraughts" / "cache").glob("rules-*.marshal")
    entry.write_bytes(b"garbage")
    assert load_knowledge_base([f]).rule("c").play == "c3-d4"


def test_a_byte_order_mark_is_not_text(tmp_path: Path):
    f = tmp_path / "bom.txt"
    f.write_bytes("\ufeffrule b\n  position: W:Wc3:Bf6\n  play: c3-d4\n".encode("utf-8"))
    assert [r.id for r in load_knowledge_base([f]).rules] == ["b"]


def test_a_file_that_is_not_utf8_is_an_error(tmp_path: Path):
    f = tmp_path / "latin.txt"
    f.write_bytes(b"rule b\n  name: caf\xe9\n  position: W:Wc3:Bf6\n  play: c3-d4\n")
    (error,) = load_knowledge_base([f], skip_faulty=True).errors  # the file is skipped whole, and named
    assert str(error).endswith("latin.txt:2: error: not UTF-8 text: save the file as UTF-8")
    with pytest.raises(RuleFileError):
        load_knowledge_base([f])


# --- issue 11: huge numbers, line breaks, control characters, bytes -----------------------

ONE_RULE = "rule r\n  name: {name}\n  priority: {priority}\n  pieces: {pieces}\n" \
    "  position: W:Wc3:Bf6\n  play: c3-d4\n"


@pytest.mark.parametrize("field, value, message", [
    ("priority", "9" * 5000, "priority 999999999999... (5000 characters) is too large"),
    ("priority", "-" + "1" * 19, "is too large (at most 18 digits)"),
    ("pieces", "white " + "7" * 4301, "white count 777777777777... (4301 characters) is more than"),
    ("pieces", "black 1.." + "7" * 5000, "black count 1..777777777"),
    ("pieces", "white 1" + "0" * 20 + "..2", "count 100000000000000000000..2 is more than 12"),
])
def test_numbers_too_large_are_an_error_at_their_line(field, value, message):
    values = {"name": "n", "priority": "1", "pieces": "any", field: value}
    _, _, errors = parse_rules(ONE_RULE.format(**values), "big.txt")
    line = 3 if field == "priority" else 4
    assert [(e.line, e.level) for e in errors] == [(line, "error")], errors
    assert message in errors[0].message and len(str(errors[0])) < 200


def test_numbers_with_leading_zeros_and_the_largest_are_read():
    text = ONE_RULE.format(name="n", priority="-" + "0" * 5000 + "9" * 18, pieces="white 0001")
    (rule,), _, errors = parse_rules(text, "ok.txt")
    assert errors == [] and rule.priority == -int("9" * 18) and rule.pieces[0] == (1, 1)


def test_a_sacrifice_of_5000_digits(tmp_path: Path, capsys):
    from kbdraughts.cli import main

    f = tmp_path / "big.txt"
    f.write_text("rule r\n  sacrifice: " + "1" * 5000 + "\n  position: W:Wc3:Bf6\n"
                 "  play: c3-d4\n", encoding="utf-8")
    assert main(["rules", "check", str(f)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{f}:2: error: sacrifice 111111111111... (5000 characters) is too")
    assert main(["rules", "match", "--rules", str(f), "W:Wc3:Bf6"]) == 0  # r skipped, named
    assert capsys.readouterr().err.startswith(f"{f}:2: error: sacrifice ")
    assert main(["rules", "match", "--strict", "--rules", str(f), "W:Wc3:Bf6"]) == 2


@pytest.mark.parametrize("brk", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                 "\u2029", "\r\r", "\x00", "\x7f"])
def test_line_numbers_are_the_editors(brk):
    # Only \n ends a line, one \r before it goes with it: every later line keeps its number.
    # Any other control character is an error at its line (it would reach the terminal).
    text = ("# a comment may hold one: " + brk + "\r\n"
            "rule a\r\n  name: page" + brk + "two\r\n  position: W:Wc3:Bf6\r\n  play: c3-d4\r\n"
            "rule b\n  position: W:Wc3:Bf6\n  play: c3-c4\n")
    _, _, errors = parse_rules(text, "lines.txt")
    assert [(e.line, e.message.split(" (")[0]) for e in errors] == [
        (3, f"control character U+{ord(brk[-1]):04X} in the line"),
        (8, "bad play 'c3-c4': c4 is a light square"),
    ]


def test_crlf_files_read_as_lf_files():
    text = ONE_RULE.format(name="n", priority="1", pieces="any")
    assert parse_rules(text.replace("\n", "\r\n"), "f.txt")[0][0].name == "n"


def test_a_name_with_an_escape_sequence_is_refused_and_never_echoed(tmp_path: Path, capsys):
    from kbdraughts.cli import main

    f = tmp_path / "esc.txt"
    f.write_text(ONE_RULE.format(name="\x1b[2Jgone", priority="1", pieces="any"),
                 encoding="utf-8")
    assert main(["rules", "check", str(f)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{f}:2: error: control character U+001B in the line")
    assert "\x1b" not in out


def test_a_file_not_utf8_through_rules_check(tmp_path: Path, capsys):
    from kbdraughts.cli import main

    f = tmp_path / "latin.txt"
    # A byte-order mark first, the bad byte just after a line break: still line 3.
    f.write_bytes(b"\xef\xbb\xbf# mine\nrule b\n\xe9\n  position: W:Wc3:Bf6\n  play: c3-d4\n")
    assert main(["rules", "check", str(f)]) == 1
    assert capsys.readouterr().out.startswith(
        f"{f}:3: error: not UTF-8 text: save the file as UTF-8\n")


def test_file_text_on_the_screen_is_escaped():
    from kbdraughts.kb.combos import Diagnostic, make_rule
    from kbdraughts.kb.writer import show_rule
    from kbdraughts.notation import parse_fen

    rule = make_rule("t-1", "c3-d4", position=parse_fen("W:Wc3:Bf6"),
                     name="evil\x1b[2J\x9b31m\u2028", path="/tmp/x\x1b]0;t\x07.txt", line=2)
    shown = show_rule(rule)
    assert "\x1b" not in shown and "\x9b" not in shown and "\u2028" not in shown
    assert "evil\\x1b[2J\\x9b31m\\u2028" in shown and "/tmp/x\\x1b]0;t\\x07.txt:2" in shown
    d = Diagnostic("a\x1b[2J.txt", 3, "error", "bad \x1b")
    assert str(d) == "a\\x1b[2J.txt:3: error: bad \\x1b"


def test_bestmove_explain_never_shows_a_raw_escape_from_a_rule_file(tmp_path: Path, capsys):
    from kbdraughts.cli import main

    f = tmp_path / "esc.txt"
    f.write_text("rule r\n  name: \x1b[2Jwiped\n  position: W:Wc3:Bf6\n  play: c3-d4\n",
                 encoding="utf-8")
    assert main(["bestmove", "--rules", str(f), "--explain", "--level", "1", "W:Wc3:Bf6"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith(f"{f}:2: error: control character U+001B")  # r skipped, named
    assert "\x1b" not in out + err and err.count("\n") == 2 and "# rule" not in out
    assert main(["bestmove", "--rules", str(f), "--strict", "W:Wc3:Bf6"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "\x1b" not in err
