"""Named knowledge means what its name says (issue 38): every `value` and `pattern` weight of the
shipped heuristic file has the sign its line declares (``# sign: +``), or the comment above it
says why not, with the measurement."""

from __future__ import annotations

from kbdraughts.eval.terms import parse_terms
from kbdraughts.resources import combos_dir
from kbdraughts.tune.signs import declared_signs, sign_faults

SHIPPED = (combos_dir() / "heuristic.txt").read_text(encoding="utf-8")


def test_every_named_weight_has_its_declared_sign_or_says_why_not():
    assert sign_faults(SHIPPED) == []


def test_every_named_term_is_read_with_its_declaration():
    named = {t.name: t.weight for t in parse_terms(SHIPPED) if t.kind in ("value", "pattern")}
    declared = {d.name: d.weight for d in declared_signs(SHIPPED)}
    assert declared == named and all(d.sign for d in declared_signs(SHIPPED))


def test_a_weight_against_its_sign_needs_a_measured_reason():
    line = "pattern triangle -6.61 c1=w e1=w d2=w  # sign: +"
    assert sign_faults(line)  # unexplained
    assert sign_faults("# why not: it is bad.\n" + line)  # no figure
    assert not sign_faults("# why not: measured -0.4 a man over 1.4 M positions.\n" + line)
    assert not sign_faults(line.replace("-6.61", "6.61"))
    assert sign_faults("# why not: measured -0.4.\n\n" + line)  # a blank line parts them
