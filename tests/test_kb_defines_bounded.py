"""Defines nested or widened past reason (issue 11 and 12 of the defects): a chain of 600 in the
person's combos folder is one error at the define past the limit, ``file:line`` with the limit
named; only that define and what calls it are left out, the rest of the knowledge base answers,
and every command (``rules check``, ``bestmove``, ``annotate``, ``match``, ``play``) goes on
saying so; checking defines costs work linear in the file; expanding and interpreting them
have budgets. The work is counted in function calls, never timed."""

from __future__ import annotations

import cProfile
import os
import pstats
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts.kb.motifs.defines import DEPTH_LIMIT, SIZE_LIMIT
from kbdraughts.kb.knowledge import load_knowledge_base, read_combos
from kbdraughts.kb.combos import parse_combos
from kbdraughts.notation import parse_fen
from kbdraughts.resources import combos_dir, data_dir

CHAIN = 600
START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
#: A motif of the chain's file that calls a define well within the limit: it must load.
NEAR = "motif near-m\n  play: S-T\n  when: d3(S), next(S, T, fl), empty(T), step(S, T)\n" \
       "  gain: 1\n  status: draft\n"


def chain(n: int = CHAIN, deepest_first: bool = True, negated: bool = False) -> str:
    """``define d{i}(X) :- d{i-1}(X)`` for i < n (the deepest first: checked callers before
    their callees), a motif calling the last (or its ``not``), and NEAR."""
    lines = ["define d0(X) :- our_man(X)"] + [f"define d{i}(X) :- d{i - 1}(X)"
                                                for i in range(1, n)]
    if deepest_first:
        lines.reverse()
    call = f"our_man(S), not d{n - 1}(S)" if negated else f"d{n - 1}(S)"
    lines += ["", "motif chain-m", "  play: S-T",
              f"  when: {call}, next(S, T, fl), empty(T), step(S, T)", "  gain: 1",
              "  status: draft", ""]
    return "\n".join(lines) + "\n" + NEAR


def line_of(text: str, head: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(head))


def expected_errors(path: Path, text: str) -> list[str]:
    crossing = f"d{DEPTH_LIMIT}"  # the first define past the limit: d0 is 1 deep
    at = line_of(text, f"define {crossing}(")
    return [f"{path}:{at}: error: define {crossing} nests defines {DEPTH_LIMIT + 1} deep "
            f"({crossing} -> d{DEPTH_LIMIT - 1} -> ... -> d0), more than the limit of "
            f"{DEPTH_LIMIT}: call fewer defines through one another",
            f"{path}:{line_of(text, 'motif chain-m')}: error: motif chain-m calls define "
            f"{crossing} (line {at}), which has an error"]


@pytest.mark.parametrize("deepest_first", [True, False])
@pytest.mark.parametrize("negated", [False, True])
def test_a_chain_of_600_defines_is_one_error_at_the_define_past_the_limit(
        tmp_path: Path, deepest_first: bool, negated: bool):
    text = chain(deepest_first=deepest_first, negated=negated)
    path = tmp_path / "chain.txt"
    path.write_text(text)
    _, motifs, _, errors, _ = read_combos([path])
    assert sorted(map(str, errors), key=lambda e: int(e.split(":")[1])) == \
        expected_errors(path, text)
    assert [m.id for m, _ in motifs] == ["near-m"]  # the rest of the file loads
    # ... with only the defines it calls: a cache entry does not grow with the file
    assert [d.name for d in motifs[0][0].defines] == ["d3", "d2", "d1", "d0"][::(
        1 if deepest_first else -1)]


def _mine(text: str) -> Path:
    """``text`` as the person's own rule file, in the data folder's combos."""
    mine = data_dir() / "combos" / "chain.txt"
    mine.parent.mkdir(parents=True, exist_ok=True)
    mine.write_text(text)
    return mine


def test_the_chain_in_the_persons_folder_costs_only_itself():
    shipped = load_knowledge_base([combos_dir()])
    text = chain()
    mine = _mine(text)
    kb = load_knowledge_base(skip_faulty=True)
    assert list(map(str, kb.errors)) == expected_errors(mine, text)
    assert len(kb) == len(shipped) + 1  # every shipped rule and motif, and near-m
    motif = next(m for m in shipped.motifs if m.examples and not m.warning)
    fen = motif.examples[0][0]
    assert motif.id in [m.rule.id for m in kb.matches(parse_fen(fen))]  # still answers


def run(*args: str, keys: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kbdraughts.cli", *args], input=keys,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})


def test_every_command_goes_on_and_names_the_define(tmp_path: Path):
    text = chain()
    errors = expected_errors(_mine(text), text)
    check = run("rules", "check", "--positions", "0")
    assert check.returncode == 1 and check.stderr == "", check.stderr
    assert all(e in check.stdout.splitlines() for e in errors), check.stdout
    best = run("bestmove", "--level", "1", START)
    assert best.returncode == 0 and len(best.stdout.split()) == 1, best.stderr
    assert best.stderr.splitlines()[:2] == errors and "Traceback" not in best.stderr
    assert run("bestmove", "--level", "1", "--strict", START).returncode == 2
    game = tmp_path / "g.pdn"
    game.write_text('[Result "*"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 2. g3-f4 *\n')
    notes = run("annotate", str(game))
    assert notes.returncode == 0 and "1. c3-d4" in notes.stdout, notes.stderr
    assert notes.stderr.splitlines()[:2] == errors
    games = run("match", "--games", "1", "kb:1", "random")
    assert games.returncode == 0 and "kb:1 vs random: " in games.stdout, games.stderr
    assert "Traceback" not in games.stderr


def test_play_says_truthfully_what_loaded():
    """The start note named the chain's file and said "the rest loaded" while the AI, past
    Python's recursion limit, played without any knowledge base."""
    _mine(chain())
    out = run("play", "--level", "1", keys="c3-d4\nquit\n")
    assert out.returncode == 0, out.stderr
    assert ("Note: the knowledge base skipped the blocks with errors (chain.txt:568, "
            "chain.txt:602); the rest loaded.") in out.stdout  # d32's line and chain-m's
    assert "without its knowledge base" not in out.stdout
    assert "Black plays " in out.stdout


def test_a_note_for_rule_files_that_cannot_be_read_says_the_ai_plays_without_them():
    from kbdraughts.kb.rules.rule import Diagnostic
    from kbdraughts.ui.knowledge import UNREADABLE, kb_help, start_note

    failed = [Diagnostic("/home/me/combos", 0, "error", f"{UNREADABLE}: OSError: gone")]
    note = start_note(failed)
    assert "the rest loaded" not in note and "plays without its knowledge base" in note
    assert not any("the rest of each file loaded" in line for line in kb_help(failed))


def doubling(n: int = 30) -> str:
    """Each define calls the one before it twice: unfolded, the last is 2**29 conditions."""
    lines = ["define e0(X) :- our_man(X)"] + [f"define e{i}(X) :- e{i - 1}(X), e{i - 1}(X)"
                                                for i in range(1, n)]
    return "\n".join(lines) + (f"\nmotif wide\n  play: S-T\n  when: our_man(S), not e{n - 1}(S),"
                               " next(S, T, fl), empty(T), step(S, T)\n  gain: 1\n"
                               "  status: draft\n")


def test_a_define_that_unfolds_past_the_limit_is_refused_where_it_crosses_it():
    text = doubling()
    _, motifs, _, errors = parse_combos(text, "wide.txt")
    crossing = next(i for i in range(30) if 2 ** i > SIZE_LIMIT)  # e{i} unfolds to 2**i
    assert [str(e) for e in errors] == [
        f"wide.txt:{crossing + 1}: error: define e{crossing} unfolds to more than "
        f"{SIZE_LIMIT:,} conditions (each call counted as the conditions of its define), the "
        "limit: call fewer defines, or call them fewer times",
        f"wide.txt:31: error: motif wide calls define e{crossing} (line {crossing + 1}), which "
        "has an error"]
    assert motifs == []


def test_unfolding_a_chain_spends_the_compile_budget_and_says_so():
    from kbdraughts.kb.motifs.ground import Budget, CompileError, by_name, unfold

    motif = next(m for m in parse_combos(chain(20), "c.txt")[1] if m.id == "chain-m")
    defines = by_name(motif.defines)
    # d19(S) is our_man(S), 20 defines down
    assert unfold(motif.body, defines, motif.id) == [
        (motif.body[0]._replace(pred="our_man"), *motif.body[1:])]
    with pytest.raises(CompileError, match="chain-m takes more than 10 steps to unfold its "
                                           "defines: call fewer defines"):
        unfold(motif.body, defines, motif.id, Budget(motif.id, steps=10))


#: A ``not`` of a define that orders four free empty squares in a circle: never true, and it
#: tries 30**4 placements to learn so, for each candidate.
CIRCLE = """\
define circle(X) :- our_man(X), empty(A), empty(B), empty(C), empty(D), A < B, B < C, C < D,
  D < A
motif circle-m
  play: S-T
  when: our_man(S), not circle(S), next(S, T, fl), empty(T), step(S, T)
  gain: 1
  example: W:Wc3:Bh8
"""


def test_the_interpreter_stops_at_its_steps_and_rules_check_says_so(tmp_path: Path):
    from kbdraughts.kb.motifs.interpret import SOLVE_STEPS, OutOfSteps, Steps, solve
    from kbdraughts.kb.motifs.vocab import Board

    motif = parse_combos(CIRCLE, "c.txt")[1][0]
    board = Board(parse_fen("W:Wc3:Bh8"))
    steps = Steps(1_000)
    with pytest.raises(OutOfSteps):
        next(solve(motif.body, {}, board, {"circle": list(motif.defines)}, steps))
    assert steps.left < 0
    path = tmp_path / "circle.txt"
    path.write_text(CIRCLE)
    out = run("rules", "check", "--positions", "0", str(path))
    assert out.returncode == 1 and out.stderr == "", out.stderr
    assert (f"{path}:7: error: motif circle-m does not fire in its example W:Wc3:Bh8: checking "
            f"its conditions there takes more than {SOLVE_STEPS:,} steps") in out.stdout


def _calls(text: str) -> int:
    """The function calls parsing and checking ``text`` takes."""
    profile = cProfile.Profile()
    profile.enable()
    parse_combos(text, "x.txt")
    profile.disable()
    return pstats.Stats(profile).total_calls  # type: ignore[attr-defined]


def test_checking_defines_is_linear_in_their_number():
    """4,000 defines took 45 s and 50,000 over two minutes and 2.5 GB: each define's types
    were worked out again for every define. Now the work per define is the same at 400,
    4,000 and 50,000, for a chain (most of it past the depth limit) and for a tree."""
    def tree(n: int) -> str:
        return "define d0(X) :- our_man(X)\n" + "".join(
            f"define d{i}(X) :- our_man(X), d{(i - 1) // 2}(X)\n" for i in range(1, n))

    for make, sizes in ((tree, (400, 4_000)), (lambda n: chain(n), (400, 4_000, 50_000))):
        anchor = _calls(make(sizes[0])) / sizes[0]
        for n in sizes[1:]:
            assert _calls(make(n)) / n < 1.2 * anchor, n


def test_a_define_whose_fault_is_under_its_head_takes_its_callers_with_it(tmp_path: Path):
    """The fault on the define's second line did not mark it faulty (faults were matched to
    defines by the head's line): the motif calling it loaded, and matching it raised KeyError."""
    path = tmp_path / "below.txt"
    path.write_text("define foo(X) :-\n  our_man(X),\n  bad_pred(X)\n\nmotif m-1\n  play: S-T\n"
                    "  when: foo(S), next(S, T, fl), empty(T), step(S, T)\n  gain: 1\n"
                    "  status: draft\n")
    _, motifs, _, errors, _ = read_combos([path])
    assert [str(e) for e in errors] == [
        f"{path}:3: error: unknown predicate bad_pred/1",
        f"{path}:5: error: motif m-1 calls define foo (line 3), which has an error"]
    assert motifs == []
    out = run("rules", "match", "--rules", str(path), "W:Wc3:Bh8")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
