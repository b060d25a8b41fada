"""``kbdraughts hub`` as a GUI author reads it and under faults (issue 40, items 9, 12, 14-17):
no memory for its table, a ``level`` it cannot take, nodes counted over the whole search, the
score in one unit, a position with no legal move, a faulty rule file of the user's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts.ai import engine as engine_module
from kbdraughts.match.hub import read_line, read_move, write_position
from kbdraughts.match.hub_engine import HubEngine
from kbdraughts.notation import parse_fen
from kbdraughts.board import legal_moves
from test_match_hub import MIDDLE, Wire, hub, send  # noqa: F401  (hub: the engine fixture)


def ready(engine: HubEngine, wire: Wire, *params: str) -> list[str]:
    send(engine, "hub", *params, "init")
    return [x for x in wire.until("ready") if not x.startswith(("id ", "param ", "wait"))]


# -- item 12: a level it cannot take is an error, not a search of something else ---------------

@pytest.mark.parametrize("line, fault", [
    ("level depth=1.5", "depth must be a whole number"),
    ("level infinite=3", "infinite takes no value"),
    ("level time=-5", "time must be a number from 0"),
    ("level time=-2 inc=1", "time must be a number from -1"),
    ("level moves=2.5 time=30", "moves must be a whole number"),
    ("level nodes=1e3", "nodes must be a whole number"),
])
def test_a_level_it_cannot_take_is_an_error(hub, line, fault):
    engine, wire = hub
    send(engine, line, "ping")
    said = wire.until("pong")
    assert len(said) == 2 and said[0].startswith("error message=") and fault in said[0], said


def test_a_nearly_flagged_clock_is_still_a_level(hub):
    """pydraughts sends the time less the increment: below 0 while T + I is not."""
    engine, wire = hub
    send(engine, "level time=-0.5 inc=1", "level depth=3", "level infinite", "ping")
    assert wire.until("pong") == ["pong"]


# -- item 14 and 15: nodes since go, the score in men in the reason too ------------------------

def test_nodes_count_the_whole_search_since_go_as_scan_s(hub):
    engine, wire = hub
    ready(engine, wire, "set-param name=egdb-pieces value=0")
    searched: list[int] = []
    analyse = engine.engine.analyse

    def counted(*args, **kwargs):
        choice = analyse(*args, **kwargs)
        searched.append(choice.searched.nodes)
        return choice

    engine.engine.analyse = counted
    send(engine, f"pos pos={write_position(parse_fen(MIDDLE[0]))}", "level depth=6",
         "go analyze")
    infos = [read_line(x).args for x in wire.until("done") if x.startswith("info")]
    totals = [sum(searched[:i + 1]) for i in range(len(searched))]
    assert [int(i["nodes"]) for i in infos] == totals, (infos, searched)
    last = infos[-1]
    assert float(last["nps"]) == pytest.approx(
        int(last["nodes"]) / float(last["time"]) / 1e6, rel=0.05, abs=0.002)


def test_the_reason_gives_the_score_in_men_as_the_score_key(hub):
    engine, wire = hub
    ready(engine, wire, "set-param name=egdb-pieces value=0")
    for text in MIDDLE[:3]:
        send(engine, f"pos pos={write_position(parse_fen(text))}", "level depth=4",
             "go analyze")
        infos = [read_line(x).args for x in wire.until("done") if x.startswith("info")]
        for info in infos:
            assert info["reason"].startswith(f"search depth {info['depth']}: "
                                             f"score {info['score']},"), info


# -- item 16: no legal move -------------------------------------------------------------------

def test_no_legal_move_is_answered_as_scan_answers_it(hub):
    """Scan's ``go`` on a position without a move says ``done`` with no move and nothing else
    (its GUI never asks); the engine goes on."""
    engine, wire = hub
    ready(engine, wire)
    pos = parse_fen("W:Wa1:Bb2,c3")  # a1's man is blocked: no move
    assert not legal_moves(pos)
    send(engine, f"pos pos={write_position(pos)}", "level move-time=1", "go think", "ping")
    assert wire.until("pong") == ["done", "pong"]


# -- item 9: no memory for the table ----------------------------------------------------------

def _short_of_memory(monkeypatch, limit: int | None) -> None:
    """make_searcher fails as the native core does without the memory: for a table of more
    than ``limit`` positions (None: any table)."""
    make = engine_module.make_searcher

    def make_within(evaluate, **options):
        if limit is None or options.get("tt_size", 0) > limit:
            raise MemoryError
        return make(evaluate, **options)

    monkeypatch.setattr(engine_module, "make_searcher", make_within)


def test_a_table_there_is_no_memory_for_is_said_and_a_smaller_one_used(hub, monkeypatch):
    engine, wire = hub
    _short_of_memory(monkeypatch, 1 << 16)
    said = ready(engine, wire, "set-param name=tt-size value=24")
    assert said[0] == ('error message="not enough memory for a search table of 2**24 '
                       'positions: it holds 2**16"') and said[1:] == ["ready"], said
    assert engine.engine is not None and engine.engine.tt_size == 1 << 16
    pos = parse_fen(MIDDLE[1])
    send(engine, f"pos pos={write_position(pos)}", "level depth=3", "go think")
    done = read_line(wire.until("done")[-1]).args
    assert read_move(pos, done["move"], legal_moves(pos))


def test_no_memory_for_any_table_is_an_error_and_the_engine_goes_on(hub, monkeypatch):
    engine, wire = hub
    _short_of_memory(monkeypatch, None)
    said = ready(engine, wire, "set-param name=tt-size value=24")
    assert len(said) == 2 and said[0] == ('error message="not enough memory for the engine, '
                                          'even with the smallest search table (tt-size 14)"')
    send(engine, f"pos pos={write_position(parse_fen(MIDDLE[1]))}", "level depth=3",
         "go think", "ping")
    said = wire.until("pong")
    assert said[0].startswith("error message=") and said[-1] == "pong", said


# -- item 17: a faulty rule file of the user's is named on stderr at init -----------------------

def test_a_faulty_rule_file_of_the_user_s_is_named_at_init(tmp_path: Path):
    combos = tmp_path / "kbdraughts" / "combos"
    combos.mkdir(parents=True)
    (combos / "mine.txt").write_text("rule bad.1\nthis is not a rule\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "kbdraughts.cli", "hub", "--egdb-pieces=0"],
        input="hub\ninit\nquit\n", capture_output=True, text=True, timeout=120,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("ready"), proc.stdout
    errors = proc.stderr.splitlines()
    assert errors[0].startswith(f"{combos / 'mine.txt'}:1: error: "), proc.stderr
    assert errors[-1].startswith("kbdraughts hub: 3 errors in the rule files: the rules with "
                                 "them were skipped"), proc.stderr
