"""The meaning of a motif is its Datalog: the compiled path answers as pyDatalog does.

For every shipped motif the test writes the rule as it stands in combos/motifs.txt into a
pyDatalog program (through :meth:`kbdraughts.kb.rules.datalog.Program.add_clause`: the head names the
motif's square variables, the body is its literals one for one, a ``define`` is its own
clauses), states each position as facts, and asks pyDatalog for every binding; the compiled
path (groundings filtered by square masks, residual checks) must give the same set of bindings,
motif by motif, on 1,000 positions from random games (:func:`kbdraughts.game.random_walk`).

The choice for the predicates that need the move generator: geometry and the square states
are *facts* (the geometry asserted once, the position's squares given with each question);
counts, library and ``after(...)`` predicates are answered by Python resolvers
(:meth:`Program.predicate`) that call the vocabulary's functions on the position
(:class:`kbdraughts.kb.motifs.vocab.Board`), with the arguments pyDatalog has bound. So this test
checks the compiler (unfolding, grounding, masks, mirroring, the order of residual checks)
against Datalog's own evaluation, not the library predicates' draughts meaning (the examples
and ``rules check --prove`` check that).
"""

from __future__ import annotations

import random

import pytest

from kbdraughts.board import BLACK, mirror_position
from kbdraughts.game import random_walk
from kbdraughts.kb.rules.datalog import Program, Var
from kbdraughts.kb.motifs.ground import square_vars
from kbdraughts.kb.knowledge import read_combos
from kbdraughts.kb.motifs.motif import COMPARISONS, VOCABULARY, is_var
from kbdraughts.kb.motifs.index import MotifIndex
from kbdraughts.kb.motifs.vocab import GEOMETRY, STATES, Board, state_of
from kbdraughts.resources import combos_dir
from kbdraughts.squares import SQUARES, mirror_square

POSITIONS = 1000


def _name(pred: str) -> str:
    return pred if pred in COMPARISONS else "m_" + pred


def _program(motifs, board_of):
    p = Program()
    for pred, rows in GEOMETRY.items():
        p.assert_facts(_name(pred), rows)
    for pred, info in VOCABULARY.items():
        if info.kind in ("count", "library", "after"):
            p.predicate(_name(pred), len(info.types),
                        lambda *args, pred=pred: board_of().library(pred, tuple(args)))
    # A square state no piece is in gets no fact: a clause that never holds keeps each
    # position predicate defined for pyDatalog, whatever the position.
    p.assert_facts("m_no_square", [(-1,)])
    for pred in STATES:
        p.add_clause((_name(pred), [Var("S")]), [("m_no_square", [Var("S")], False),
                                                 (">", [Var("S"), 100], False)])
    heads = {}
    for motif, _ in motifs:
        for d in motif.defines:
            p.add_clause(("m_def_" + d.name, [Var(v) for v in d.params]), _body(d.body, motif))
        head = "motif_" + motif.id.replace("-", "_")
        shown = square_vars(motif)
        p.add_clause((head, [Var(v) for v in shown]), _body(motif.body, motif))
        heads[motif.id] = (head, shown)
    return p, heads


def _body(lits, motif):
    names = {d.name for d in motif.defines}
    return [(("m_def_" + l.pred) if l.pred in names else _name(l.pred),
             [Var(a) if is_var(a) else a for a in l.args], l.negated) for l in lits]


def _positions():
    rng = random.Random(20261123)
    out = []
    while len(out) < POSITIONS:
        out.extend(random_walk(rng, 160))
    return out[:POSITIONS]


def _compare(motifs, positions, as_played: bool) -> dict[str, int]:
    """Assert the compiled index and pyDatalog find the same bindings of every motif in each
    position (seen from White); how many positions each motif was found in. ``as_played``
    asks the index the position as played (Black's turned round by the index itself)."""
    current = {}
    program, heads = _program(motifs, lambda: current["board"])
    index = MotifIndex(motifs)
    found = {m.id: 0 for m, _ in motifs}
    for pos in positions:
        view = mirror_position(pos) if pos.side == BLACK else pos
        current["board"] = Board(view)
        facts = {_name(pred): [(s,) for s in SQUARES if state_of(view, s) & mask]
                 for pred, mask in STATES.items()}
        turn = mirror_square if as_played and pos.side == BLACK else (lambda s: s)
        compiled: dict[str, set] = {}
        for hit in index.hits(pos if as_played else view, every=True):
            compiled.setdefault(hit.motif.id, set()).add(tuple(turn(s) for _, s in hit.bindings))
        ours = (view.white.bit_count(), (view.white & view.kings).bit_count())
        theirs = (view.black.bit_count(), (view.black & view.kings).bit_count())
        for motif, _ in motifs:
            head, shown = heads[motif.id]
            asked = set()
            if motif.counts_fit(ours, theirs):
                asked = set(program.ask(head, *[Var(v) for v in shown], given=facts))
            assert compiled.get(motif.id, set()) == asked, (motif.id, pos)
            found[motif.id] += bool(asked)
    return found


@pytest.fixture(scope="module")
def shipped():
    _, motifs, _, errors, _ = read_combos([combos_dir() / "motifs.txt"])
    assert not errors and len(motifs) >= 6
    return motifs


def test_compiled_motifs_answer_as_pydatalog_does(shipped):
    seen = _compare(shipped, _positions(), as_played=True)
    # The comparison means something only where motifs are found: most of them are.
    assert sum(1 for n in seen.values() if n) >= 4, seen


#: Motifs written to use every part of the vocabulary: a define with two clauses (unfolded),
#: a negated define (checked per candidate), constants, comparisons of squares and of numbers,
#: counts, every library and after predicate, a capture path, a warning.
VOCABULARY_MOTIFS = """\
define behind(X) :- next(X, Y, bl), our_piece(Y)
define behind(X) :- next(X, Y, br), our_piece(Y)
define near_theirs(X) :- next(X, Y, D), their_piece(Y)

motif v-capture
  play: S:T
  when: our_piece(S), empty(T), capture(S, T, N), N >= 2, their_pieces(Q), Q >= N
  gain: 1
  example: W:Wc3:Bd4

motif v-guarded-step
  play: S-T
  when: our_man(S), next(S, T, D), forward(D), empty(T), behind(T), not near_theirs(T),
    step(S, T), after(S-T, they_take(N)), N == 0, after(S-T, safe(T))
  gain: 1
  example: W:Wc3:Bd4

motif v-king
  play: K-T
  pieces: white kings 1..12
  when: our_king(K), ray(K, T, D), empty(T), not main_road(T), king_move(K, T),
    king_attacks(K, A), after(K-T, king_attacks(T, B)), B >= A, their_kings(M), M <= 1,
    our_pieces(P), P > M, after(K-T, threat(G)), G >= 0, after(K-T, gains_within(3, 0))
  gain: 1
  example: W:Wc3:Bd4

motif v-road
  play: S-T
  when: our_piece(S), main_road(S), rank(S, R), R != 4, not king(S), next(S, T, fr),
    S != T, empty(T), jump(S, X, Y), not their_man(X), not their_king(Y), step(S, T),
    after(S-T, exchange(N)), N >= 0, their_men(Q), Q > 2
  gain: 1
  example: W:Wc3:Bd4

motif v-seventh
  play: S-T
  when: our_man(S), rank(S, 7), next(S, T, D), empty(T), crown_square(T), step(S, T),
    after(S-T, crowns_within(1)), after(S-T, forced_take(T))
  promise: crowns
  example: W:Wc3:Bd4

motif v-constant
  play: c3-d4
  when: our_man(c3), empty(d4), not their_piece(e5), step(c3, d4), our_men(N), N >= 8
  gain: 1
  example: W:Wc3:Bd4

motif v-catch
  play: K-T
  pieces: black 1..2
  when: our_king(K), ray(K, T, D), empty(T), king_move(K, T), after(K-T, catches_within(2))
  promise: catches the lone king
  example: W:Wc3:Bd4

motif v-their-shot
  when: their_man(S), next(S, T, D), not forward(D), empty(T), their_shot(S, T, N), N >= 0
  warning: they have a quiet move
  example: W:Wc3:Bd4

motif v-threat-now
  play: S-T
  when: our_man(S), next(S, T, D), forward(D), empty(T), step(S, T), threat_now(P), P >= 0
  gain: 1
  example: W:Wc3:Bd4

motif v-hanging
  when: our_piece(X), piece(X), not man(b2), hanging(X, N), N >= 1, our_kings(K), K == 0
  warning: a piece of ours hangs
  example: W:Wc3:Bd4
"""


def test_every_predicate_of_the_vocabulary_answers_as_pydatalog_does(tmp_path):
    from kbdraughts.kb.motifs.motif import VOCABULARY as vocab

    f = tmp_path / "vocabulary.txt"
    f.write_text(VOCABULARY_MOTIFS)
    _, motifs, _, errors, _ = read_combos([f])
    assert not errors, errors
    used = {lit.pred for m, _ in motifs for lit in m.body}
    used |= {lit.pred for m, _ in motifs for d in m.defines for lit in d.body}
    assert set(vocab) <= used, set(vocab) - used  # the test covers the whole vocabulary
    found = _compare(motifs, _positions()[:400], as_played=False)
    assert sum(1 for n in found.values() if n) >= 5, found
