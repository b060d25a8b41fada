"""kb/cache.py: a rule file read from the parse cache is the file parsed, field by field.

Nothing here lists Rule's fields by hand: a field added to Rule is compared here, and kept by
the cache, without a change to either.
"""

from __future__ import annotations

import ast
import dataclasses
import marshal
from pathlib import Path

import pytest

from kbdraughts.kb import cache
from kbdraughts.kb.rules.rule import Diagnostic, Rule
from kbdraughts.resources import combos_dir

TEXT = """\
symbols:
  x = . w b
rule c-1
  name: a pattern with every field
  side: black
  pieces: white 2..5, black 3
  priority: -1
  sacrifice: 1
  board:
    - ? - ? - ? - ?  8
    ? - ? - ? - ? -  7
    - ? - ? - ? - ?  6
    ? - b - x - ? -  5
    - ? - . - ? - ?  4
    ? - ? - ? - ? -  3
    - ? - ? - ? - ?  2
    ? - ? - ? - ? -  1
  play: c5-b4

rule c-2
  position: W:Wc3,Ka1:Bd4
  play: c3:e5
"""


def assert_same_fields(cached: list, parsed: list, kind: type) -> None:
    assert len(cached) == len(parsed)
    for a, b in zip(cached, parsed):
        for f in dataclasses.fields(kind):
            assert getattr(a, f.name) == getattr(b, f.name), f.name


def load_twice(tmp_path: Path, monkeypatch, text: bytes, shown: str):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first = cache.parse_file(text, shown)
    assert list((tmp_path / "kbdraughts" / "cache").glob("rules-*.marshal"))
    return first, cache.parse_file(text, shown)


def test_a_cached_file_is_the_parsed_file_field_by_field(tmp_path: Path, monkeypatch):
    (rules, warnings, errors), (again, warnings_again, _) = load_twice(
        tmp_path, monkeypatch, TEXT.encode(), "mine.txt")
    assert errors == [] and len(rules) == 2 and warnings
    assert all(type(r.id) is str for r in again)
    assert_same_fields(again, rules, Rule)
    assert_same_fields(warnings_again, warnings, Diagnostic)
    for a, b in zip(again, rules):  # what parsing computed comes back too
        assert (a.pattern, a.patterns, a.exact, a.constrained) == (
            b.pattern, b.patterns, b.exact, b.constrained)


def test_the_shipped_openings_come_back_from_the_cache(tmp_path: Path, monkeypatch):
    path = combos_dir() / "openings.txt"  # the largest shipped file
    (rules, _, errors), (again, _, _) = load_twice(tmp_path, monkeypatch, path.read_bytes(),
                                                   str(path))
    assert errors == []
    assert_same_fields(again, rules, Rule)


def test_an_entry_written_for_other_fields_is_refused(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    rules, _, _ = cache.parse_file(TEXT.encode(), "mine.txt")
    names, raw, warnings, errors = marshal.loads(cache._dump(rules, [], []))
    stale = marshal.dumps((names[:-1], [(v[:-1], *rest) for v, *rest in raw], warnings,
                           errors))
    with pytest.raises(ValueError):  # parse_file then parses the text again
        cache._load(stale)


def test_every_module_of_the_parser_names_the_cache_entries():
    # A change to any kb module the parser stands on must make the cached entries stale.
    package = Path(cache.__file__).parent  # kbdraughts/kb
    seen, todo = set(), ["kbdraughts.kb.combos"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = package.joinpath(*name.split(".")[2:]).with_suffix(".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
            if not module.startswith("kbdraughts.kb"):
                continue
            for alias in node.names:  # ``from kbdraughts.kb.rules import fields``: a module
                if package.joinpath(*f"{module}.{alias.name}".split(".")[2:]).with_suffix(
                        ".py").is_file():
                    todo.append(f"{module}.{alias.name}")
            if package.joinpath(*module.split(".")[2:]).with_suffix(".py").is_file():
                todo.append(module)
    sources = {str(p.relative_to(package.parent)) for p in cache._PARSER_SOURCES}
    needed = {name.split(".", 1)[1].replace(".", "/") + ".py" for name in seen}
    assert needed <= sources, needed - sources


def test_the_line_reader_names_the_cache_entries():
    # kbdraughts/files.py decides what a line is (issue 11): a change there makes entries stale.
    assert Path(cache.__file__).parent.parent / "files.py" in cache._PARSER_SOURCES


def test_a_file_with_a_faulty_motif_is_cached_with_its_errors(tmp_path: Path, monkeypatch):
    """A motif past the work budget costs its seconds once: the file comes back from the
    cache with the good rules and the error, and nothing is compiled again."""
    from kbdraughts.kb.motifs import ground

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    # A tenth of the work budget: spent within the time limit even on a loaded machine (a
    # time limit does not cache the file: another run may not reach it).
    monkeypatch.setattr(ground, "WORK_LIMIT", ground.WORK_LIMIT // 10)
    slow = ("motif slow\n  play: A-B\n  when: our_man(A), our_man(B), our_man(C), our_man(D), "
            "our_man(E), our_man(F), A < B, B < C, C < D, D < E, E < F, F < A, step(A, B)\n"
            "  gain: 1\n  example: W:Wc3:Bh8\n")
    data = (TEXT + slow).encode()
    first = cache.parse_file_all(data, "mine.txt")
    assert "motif slow takes more than" in str(first[3][0]) and "steps" in str(first[3][0])

    def compiled_again(*args):
        raise AssertionError("compiled again")

    monkeypatch.setattr(cache, "_compile", compiled_again)
    told: list[str] = []
    again = cache.parse_file_all(data, "mine.txt", told.append)
    assert told == []  # from the cache
    assert [r.id for r in again[0]] == [r.id for r in first[0]] and again[1] == first[1] == []
    assert again[3] == first[3] and "motif slow takes more than" in str(again[3][0])
