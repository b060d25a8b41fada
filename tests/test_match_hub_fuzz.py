"""The Hub under random and adversarial input (issue 40): whatever a client sends, each line is
answered or refused with ``error``, the session goes on (a ``ping`` after it is answered
``pong``), no exception escapes the loop, and it ends within a time limit.

The lines are drawn by Hypothesis from the protocol's own words (commands, parameter names,
``level`` keys, positions, moves) mixed with noise: unknown commands, broken quoting, huge and
negative numbers, control characters and text that is not ASCII. Every ``go`` is followed by
``stop`` so that a search without a limit ends; the engine plays at level 1 or 2 so that an
example costs milliseconds."""

from __future__ import annotations

import io
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbdraughts.match.hub_engine import HubEngine
from kbdraughts.match.hub_params import Params


def _params() -> Params:
    """Level 1, no endgame tables built, a small search table: an example costs milliseconds."""
    params = Params()
    for name, val in (("level", "1"), ("egdb-pieces", "0"), ("tt-size", "14")):
        params.set(name, val)
    return params

POSITIONS = ["Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeew",
             "BWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", "W", "Wbbbb", "x" * 33]
WORDS = ["hub", "init", "ping", "new-game", "stop", "ponder-hit", "quit-not", "pos", "level",
         "go", "set-param", "", "=", '"', "pos=", "moves=", "name=", "value="]
PARAMS = ["variant", "level", "kb", "egdb-folder", "egdb-pieces", "tt-size", "contempt",
          "numbering", "nonsense"]
NUMBERS = ["0", "1", "-1", "1.5", "1e3", "nan", "inf", "-inf", "99999999999999999999", "0x10",
           "", "3", "15"]
LEVEL_KEYS = ["depth", "nodes", "time", "inc", "moves", "move-time", "infinite", "bogus"]
MOVES = ["32-28", "9-13", "23x14", "c3-d4", "c3:e5", "1-1", "99-100", "-", "x"]

noise = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
value = st.one_of(st.sampled_from(NUMBERS), noise.filter(lambda s: '"' not in s))


@st.composite
def hub_line(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 6))
    if kind == 0:  # a parameter, valid or not (no table so large it costs seconds)
        name = draw(st.sampled_from(PARAMS))
        val = draw(st.one_of(value, st.sampled_from(["true", "false", "1", "2", "russian",
                                                      "mirrored", "14", "16"])))
        if name == "tt-size" and val.isdigit() and int(val) > 18:
            val = "16"
        if name == "level" and val.isdigit() and int(val) > 2:
            val = "2"
        if name in ("egdb-pieces", "egdb-folder"):  # tables are built in the background
            val = "0" if name == "egdb-pieces" else val
        return f'set-param name={name} value="{val}"'
    if kind == 1:
        pos = draw(st.one_of(st.sampled_from(POSITIONS), noise))
        moves = " ".join(draw(st.lists(st.sampled_from(MOVES), max_size=4)))
        return f'pos pos={pos} moves="{moves}"' if draw(st.booleans()) else f"pos pos={pos}"
    if kind == 2:
        keys = draw(st.lists(st.sampled_from(LEVEL_KEYS), min_size=1, max_size=3))
        return "level " + " ".join(
            k if draw(st.booleans()) and k == "infinite" else f"{k}={draw(value)}" for k in keys)
    if kind == 3:  # a search, always stopped at once by the line after it
        return "go " + draw(st.sampled_from(["think", "ponder", "analyze", "", "nonsense"]))
    if kind == 4:
        return " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=5)))
    if kind == 5:
        return draw(noise)
    return draw(st.sampled_from(["hub", "init", "ping", "new-game", "ponder-hit", "stop"]))


def _with_stops(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        out.append(line)
        if line.startswith("go"):
            out.append("stop")
    return out


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(hub_line(), max_size=12))
def test_the_hub_answers_anything_and_goes_on(endgame_tables, lines: list[str]) -> None:
    out = io.StringIO()
    engine = HubEngine(out, _params())
    script = ["hub", "set-param name=level value=1", "set-param name=egdb-pieces value=0",
              "init"] + _with_stops(lines) + ["stop", "ping"]
    start = time.perf_counter()
    assert engine.serve(script) == 0
    elapsed = time.perf_counter() - start
    said = out.getvalue().splitlines()
    assert said and said[-1] == "pong", said[-5:]
    # Every line the engine wrote is a Hub line: a known command word, nothing else.
    known = {"id", "param", "wait", "ready", "pong", "info", "done", "error"}
    assert {line.split(" ")[0] for line in said} <= known, said
    assert elapsed < 60, f"{len(script)} lines took {elapsed:.1f} s"


@pytest.mark.parametrize("line", [
    "pos pos=" + "b" * 1_000_000,
    "level " + "depth=1 " * 100_000,
    'set-param name=egdb-folder value="' + "x" * 1_000_000,
    "\x00" * 100_000,
    "go think " + "=" * 100_000,
])
def test_a_huge_line_is_refused_in_time(endgame_tables, line: str) -> None:
    out = io.StringIO()
    engine = HubEngine(out, _params())
    start = time.perf_counter()
    assert engine.serve(["hub", "init", line, "stop", "ping"]) == 0
    assert out.getvalue().splitlines()[-1] == "pong"
    assert time.perf_counter() - start < 30
