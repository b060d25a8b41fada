"""PlayerSpec: one parse, one text form, options kept when the level changes."""

from __future__ import annotations

import pytest

from kbdraughts.ai.spec import (
    DEFAULT_LEVEL, MAX_LEVEL, MOVETIME_MS, PlayerSpec, PlayerSpecError, check_level,
)


@pytest.mark.parametrize("text, canonical", [
    ("kb", f"kb:{DEFAULT_LEVEL}"),
    ("KB:1", "kb:1"),
    ("kb:1:nokb", "kb:1:nokb"),
    ("kb:nokb", f"kb:{DEFAULT_LEVEL}:nokb"),
    ("kb:4:200ms", "kb:4:200ms"),
    ("kb:2:nokb:50ms", "kb:2:nokb:50ms"),
    (f"kb:3:{MOVETIME_MS}ms", "kb:3"),
    ("random", "random"), (" Greedy ", "greedy"), ("search:6", "search:6"),
    ("human", "human"), ("you", "human"), ("me", "human"), ("person", "human"),
])
def test_text_round_trips(text: str, canonical: str):
    spec = PlayerSpec.parse(text)
    assert str(spec) == canonical
    assert PlayerSpec.parse(str(spec)) == spec


def test_fields():
    assert PlayerSpec.parse("kb:2:nokb:300ms") == PlayerSpec("kb", 2, False, 300)
    assert PlayerSpec.parse("search:3").depth == 3
    assert PlayerSpec.parse("human").is_human and not PlayerSpec.parse("kb").is_human
    assert PlayerSpec.parse("kb:1").uses_kb
    assert not PlayerSpec.parse("kb:1:nokb").uses_kb
    assert not PlayerSpec.parse("random").uses_kb


def test_with_level_keeps_the_other_options():
    spec = PlayerSpec.parse("kb:1:nokb:200ms")
    assert str(spec.with_level(3)) == "kb:3:nokb:200ms"
    assert spec.with_level(3).with_level(1) == spec
    assert PlayerSpec.parse("random").with_level(2) == PlayerSpec.parse("random")
    with pytest.raises(PlayerSpecError, match=f"level must be from 1 to {MAX_LEVEL}, got 9"):
        spec.with_level(9)


def test_without_kb():
    assert str(PlayerSpec.parse("kb:2:200ms").without_kb()) == "kb:2:nokb:200ms"
    assert PlayerSpec.parse("greedy").without_kb() == PlayerSpec.parse("greedy")


@pytest.mark.parametrize("text, message", [
    ("wizard", "unknown player 'wizard'"),
    ("kb:7", f"level must be from 1 to {MAX_LEVEL}, got 7"),
    ("kb:0", "level must be from 1 to"),
    ("kb:²", "'²' is not a level"),
    ("kb:1:fast", "'fast' is not a level, 'nokb' or a time"),
    ("kb:0ms", "'0ms' is not a level"),
    ("kb:3600001ms", "'3600001ms' is not a level"),
    ("kb:" + "9" * 5000 + "ms", "is not a level"),
    ("search:0", "search depth must be a number 1..20"),
    ("search:x", "search depth must be a number"),
    ("search:²", "search depth must be a number"),
    ("search", "unknown player"),
    ("random:2", "unknown player"),
    ("human:1", "unknown player"),
    ("", "unknown player"),
])
def test_bad_specs_say_what_would_do(text: str, message: str):
    with pytest.raises(PlayerSpecError, match=message.replace("(", r"\(").replace(".", r"\.")):
        PlayerSpec.parse(text)


def test_a_spec_error_is_a_value_error_with_one_line():
    with pytest.raises(ValueError) as e:
        PlayerSpec.parse("kb:1:x:y")
    assert "\n" not in str(e.value)


def test_the_longest_time_is_the_command_lines_too():
    from kbdraughts.ai.spec import MAX_MOVETIME_MS
    from kbdraughts.cli.engine import MAX_MOVETIME_MS as COMMAND_LINE_MAX

    assert PlayerSpec.parse(f"kb:4:{MAX_MOVETIME_MS}ms").movetime_ms == MAX_MOVETIME_MS
    assert COMMAND_LINE_MAX == MAX_MOVETIME_MS  # one bound, written twice to keep start-up light


def test_the_largest_node_budget_is_the_command_lines_too():
    from kbdraughts.ai.spec import MAX_NODES
    from kbdraughts.cli.args import MAX_NODES as COMMAND_LINE_MAX

    assert PlayerSpec.parse(f"kb:4:{MAX_NODES}nodes").nodes == MAX_NODES
    with pytest.raises(PlayerSpecError):
        PlayerSpec.parse(f"kb:4:{MAX_NODES + 1}nodes")
    assert COMMAND_LINE_MAX == MAX_NODES  # one bound, written twice to keep start-up light


def test_check_level():
    assert [check_level(n) for n in range(1, MAX_LEVEL + 1)] == list(range(1, MAX_LEVEL + 1))
    with pytest.raises(PlayerSpecError):
        check_level(MAX_LEVEL + 1)


def test_an_external_engine_only_where_asked_for():
    text = "cmd:python -m kbdraughts.cli bestmove --level 1 'my file'"
    spec = PlayerSpec.parse(text, external=True)
    assert spec.kind == "cmd" and spec.command == text[4:] and str(spec) == text
    assert PlayerSpec.parse(str(spec), external=True) == spec
    assert PlayerSpec.parse(" CMD:  Engine X ", external=True).command == "Engine X"
    assert not spec.is_human and not spec.uses_kb and spec.with_level(2) == spec
    with pytest.raises(PlayerSpecError, match="play in 'kbdraughts match' only"):
        PlayerSpec.parse(text)  # a saved game's tag never starts a program
    for bad, message in (("cmd:", "names no program"), ("cmd:  ", "names no program"),
                         ("cmd:'x", "cannot read the command")):
        with pytest.raises(PlayerSpecError, match=message):
            PlayerSpec.parse(bad, external=True)
    with pytest.raises(PlayerSpecError, match=r"also cmd:PROGRAM ARGS or hub:PROGRAM ARGS\)"):
        PlayerSpec.parse("wizard", external=True)
