"""The evaluation's schema (kbdraughts/eval/features.py): every list of features, the C enums,
counts and mask layout derive from it; the checked-in C header is its text; a new feature is
one entry there (and one function per implementation)."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace

import pytest

from kbdraughts import native
from kbdraughts.board import START
from kbdraughts.eval import evaluation, features, heuristic, terms
from kbdraughts.eval.features import (
    GENERATOR, HEADER_PATH, LAYOUT, MASKS, SCHEMA, Feature, Kind, Layout, Mask, Shape, header,
    stale,
)

C_PROGRAM = r"""
#include <stdio.h>
#include <stdint.h>
typedef uint64_t Bitboard;
#define NSQ 36
#include "features.h"
int main(void)
{
    EvalMasks masks = {0};
    printf("%d %d %d %d %d %d\n", N_FEATURES, N_MEN_SUMS, N_OTHERS, N_PHASES, N_MASKS,
           MAX_EVAL_BITS + (int)masks.off);
#define X(C, name) printf("%d " #name "\n", C);
    KBD_OTHERS(X)
#undef X
#define X(C) printf("phase %d\n", C);
    KBD_PHASES(X)
#undef X
#define M(name) printf("mask " #name "\n");
    KBD_MASKS(M, M, M, M)
    return 0;
}
"""


def test_the_checked_in_header_is_the_schemas():
    diff = stale()
    assert not diff, (f"kbdraughts/csrc/{HEADER_PATH.name} is stale: run `{GENERATOR}` "
                      f"(then rebuild the core: pip install -e .)\n{diff}")
    assert features.main(["--check"]) == 0


def test_every_list_of_features_is_the_schemas():
    names = tuple(f.name for f in SCHEMA)
    assert terms.POSITION_FEATURES == evaluation.POSITION_FEATURES == names
    assert terms.KINDS["value"] == terms.KINDS["pattern"] == terms.KINDS["region"] == names
    assert heuristic.POSITION_FEATURES == names
    assert evaluation.MEN_SUMS == tuple(f.name for f in SCHEMA if f.kind is Kind.MEN_SUM)
    assert evaluation.OTHERS == tuple(f.name for f in SCHEMA if f.kind is not Kind.MEN_SUM)
    assert set(evaluation.MEN_SUMS) | set(evaluation.OTHERS) == set(names)
    assert len(evaluation.men_sums(START)) == len(evaluation.MEN_SUMS)
    assert len(evaluation.other_features(START)) == len(evaluation.OTHERS)
    assert len(evaluation.man_values(0, 0)) == len(evaluation.MEN_SUMS)
    assert set(evaluation._native_masks()) == {m.name for m in MASKS}


def test_the_kinds_decide_how_a_feature_is_weighed():
    # A phase is the same for both sides (never turned for Black); a condition may not be
    # weighed with `per`.
    black = START._replace(side=1)
    values = dict(zip(evaluation.POSITION_FEATURES, evaluation.position_features(black)))
    assert values["opening"] == 1 and values["endgame"] == 0
    for f in SCHEMA:
        if f.kind is Kind.CONDITION:
            with pytest.raises(terms.HeuristicFileError, match=f"'{f.name}' is a phase"):
                terms.parse_terms(f"value v 2 per {f.name}\n")
            terms.parse_terms(f"value v 2 when {f.name}\n")
        else:
            terms.parse_terms(f"value v 2 per {f.name}\n")


def _with_new_features() -> Layout:
    """The schema with two features more, as a contributor would add them: a difference
    after ``kings`` and a sum over men at the end, and a mask."""
    schema = list(SCHEMA)
    at = [f.name for f in schema].index("kings") + 1
    schema.insert(at, Feature("king_tempo", Kind.DIFFERENCE, "our kings' ranks, less theirs"))
    schema.append(Feature("edge_men", Kind.MEN_SUM, "men on the a and h files"))
    masks = (*MASKS, Mask("edge", Shape.ONE, "the a and h files"))
    return Layout(tuple(schema), masks)


def test_a_new_feature_is_one_schema_entry():
    new = _with_new_features()
    # The order of the values, the groups the evaluation computes apart, the kinds' lists:
    assert new.position_features == (*LAYOUT.position_features[:4], "king_tempo",
                                     *LAYOUT.position_features[4:], "edge_men")
    assert new.others == ("kings", "king_tempo", *LAYOUT.others[1:])
    assert new.men_sums == (*LAYOUT.men_sums, "edge_men")
    assert new.phases == LAYOUT.phases and new.weighable[-1] == "edge_men"
    # The C header follows: the enums in their places, the X-macro, the counts, the mask.
    text, old = header(new), header(LAYOUT)
    assert text != old
    assert "#define N_FEATURES 21" in text and "#define N_FEATURES 19" in old
    others = re.search(r"enum \{\n    O_KINGS.*?N_OTHERS\n\};", text, re.S)
    assert others and re.findall(r"    (O_\w+),", others.group(0))[:3] == [
        "O_KINGS", "O_KING_TEMPO", "O_ENDGAME"]
    men = re.search(r"enum \{\n    M_.*?N_MEN_SUMS\n\};", text, re.S)
    assert men and re.findall(r"    (M_\w+),", men.group(0))[-1] == "M_EDGE_MEN"
    assert "    X(O_KINGS, kings) \\\n    X(O_KING_TEMPO, king_tempo) \\\n" in text
    assert "    ONE(edge)\n#define N_MASKS 11" in text
    assert "    Bitboard edge; /* the a and h files */\n} EvalMasks;" in text
    # Nothing else of the header changed: the new lines are all the difference.
    added = set(text.splitlines()) - set(old.splitlines())
    assert {line.strip() for line in added} == {
        "#define N_FEATURES 21", "O_KING_TEMPO, /* our kings' ranks, less theirs */",
        "M_EDGE_MEN, /* men on the a and h files */", "X(O_KING_TEMPO, king_tempo) \\",
        "ONE(edge)", "MAN_VALUES(man_values) \\", "#define N_MASKS 11",
        "Bitboard edge; /* the a and h files */"}


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
@pytest.mark.parametrize("layout", [LAYOUT, _with_new_features()], ids=["shipped", "new"])
def test_the_header_compiles_to_the_schemas_numbers(layout, tmp_path):
    (tmp_path / "features.h").write_text(header(layout))
    (tmp_path / "main.c").write_text(C_PROGRAM)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", "main", "main.c"],
                   cwd=tmp_path, check=True, capture_output=True)
    lines = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    counts = [int(x) for x in lines[0].split()]
    n_others = len(layout.others)
    assert counts == [len(layout.features), len(layout.men_sums), n_others,
                      len(layout.phases), len(layout.masks), features.MAX_CONDITIONS]
    assert lines[1:1 + n_others] == [f"{i} {name}" for i, name in enumerate(layout.others)]
    assert lines[1 + n_others:1 + n_others + len(layout.phases)] == [
        f"phase {layout.others.index(p)}" for p in layout.phases]
    assert lines[1 + n_others + len(layout.phases):] == [f"mask {m.name}" for m in layout.masks]


def test_a_feature_without_its_python_function_is_refused(monkeypatch):
    new = _with_new_features()
    monkeypatch.setattr(evaluation, "SCHEMA", new.features)
    monkeypatch.setattr(evaluation, "POSITION_FEATURES", new.position_features)
    monkeypatch.setattr(evaluation, "MEN_SUMS", new.men_sums)
    monkeypatch.setattr(evaluation, "OTHERS", new.others)
    monkeypatch.setattr(evaluation, "_FUNCTIONS", dict(evaluation._FUNCTIONS))
    with pytest.raises(ImportError, match=r"no @computes function for \['king_tempo', "
                                          r"'edge_men'\]"):
        evaluation._functions()

    @evaluation.computes("king_tempo")
    def king_tempo(white: int, black: int, kings: int, us: int, empty: int) -> int:
        return 7

    @evaluation.computes("edge_men")
    def edge_man(square: int, side: int) -> int:
        return 1

    men, others = evaluation._functions()  # each in its place of the schema's order
    assert men[-1] is edge_man and others[1] is king_tempo
    with pytest.raises(ValueError, match="two functions compute the feature 'men'"):
        evaluation.computes("men")(edge_man)


def test_a_schema_with_a_name_twice_or_not_an_identifier_is_refused():
    with pytest.raises(ValueError, match="'kings' is in the schema twice"):
        Layout((*SCHEMA, replace(SCHEMA[3])), MASKS)
    with pytest.raises(ValueError, match="'Bad-name': a lower-case identifier"):
        Layout((*SCHEMA, Feature("Bad-name", Kind.DIFFERENCE, "")), MASKS)


@pytest.mark.skipif(native.core is None, reason=f"no native core: {native.why_pure}")
def test_the_core_takes_the_masks_by_the_schemas_names():
    core, masks = native.core, evaluation._native_masks()
    core.set_masks(masks)  # the same masks: accepted, nothing changes
    missing = {k: v for k, v in masks.items() if k != "run_path"}
    with pytest.raises(KeyError, match="no mask 'run_path'"):
        core.set_masks(missing)
    with pytest.raises(KeyError, match="does not hold"):
        core.set_masks({**masks, "edge": 0})
    with pytest.raises(TypeError, match="man_values needs a tuple of 6"):
        core.set_masks({**masks, "man_values": (((1, 2),) * 36,) * 2})
    with pytest.raises(TypeError, match="by name"):
        core.set_masks(tuple(masks.values()))
    assert core.men_sums(START) == evaluation.men_sums(START)
