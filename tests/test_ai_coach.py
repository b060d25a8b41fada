"""The coach (ai/coach.py): a note is written only where the referee confirms the rule's claim
(ai/claims.py, tested in test_ai_claims.py), on the shipped rules and on motif-shaped rules."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from kbdraughts.ai.claims import CROWNS
from kbdraughts.ai.coach import ALLOWED, MISSED, _avoidable, annotate, real_shots
from kbdraughts.board import BLACK, WHITE, legal_moves
from kbdraughts.game import Game
from kbdraughts.kb.knowledge import KnowledgeBase, load_knowledge_base
from kbdraughts.kb.rule import make_rule
from kbdraughts.notation import move_text, parse_fen, parse_move
from kbdraughts.resources import combos_dir

#: shot-01 of combos/motifs.txt fires here for White: e3-d4 c5:e3 d2:f4:h6 nets a man.
SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"
#: The same a move earlier: Black's man on d6, and d6-c5 walks into the shot.
BEFORE_SHOT_01 = "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base()


def game_of(fen: str, *moves: str) -> Game:
    game = Game(parse_fen(fen))
    for text in moves:
        game.push(parse_move(game.position, text))
    return game


def texts(moves) -> list[str]:
    return [move_text(m) for m in moves]


# -- the notes --------------------------------------------------------------------------------


def test_a_missed_shot_is_noted_with_its_rule_line_and_gain(kb):
    game = game_of(SHOT_01, "g3-h4")
    [note] = annotate(game, kb=kb)
    assert (note.ply, note.side, note.kind) == (0, WHITE, MISSED)
    assert note.shot.rule.id == "shot-01" and move_text(note.shot.move) == "e3-d4"
    assert note.shot.nets == 1 and texts(note.shot.line) == ["e3-d4", "c5:e3", "d2:f4:h6"]
    assert note.text == "missed: shot-01 e3-d4 wins a man (combos/motifs.txt:15)"
    assert kb.rule("shot-01").line == 15


def test_playing_the_shot_is_no_miss(kb):
    assert annotate(game_of(SHOT_01, "e3-d4", "c5:e3", "d2:f4:h6"), kb=kb) == []


def test_walking_into_the_shot_is_allowed_and_the_side_filter_keeps_one_side(kb):
    game = game_of(BEFORE_SHOT_01, "d6-c5", "g3-h4")
    notes = annotate(game, kb=kb)
    assert [(n.ply, n.side, n.kind, n.shot.rule.id) for n in notes] == [
        (0, BLACK, ALLOWED, "shot-01"), (1, WHITE, MISSED, "shot-01")]
    assert notes[0].text == "allowed: shot-01 e3-d4 wins a man (combos/motifs.txt:15)"
    assert [n.kind for n in annotate(game, BLACK, kb)] == [ALLOWED]
    assert [n.kind for n in annotate(game, WHITE, kb)] == [MISSED]


def test_a_rule_whose_claim_does_not_hold_is_never_a_note(tmp_path):
    # A pattern that fires anywhere White has a man on c3 and claims to net a man.
    pos = parse_fen("W:Wc3,a1:Bh8,f8")
    cells = ["?"] * 32
    cells[9] = "w"  # c3 in SQUARES order (a1, c1, e1, g1, b2, d2, f2, h2, a3, c3, ...)
    bluff = make_rule("bluff-1", "c3-d4", cells=tuple(cells), name="threat c3-d4, nets 1",
                      path=str(tmp_path / "mine.txt"), line=1)
    kb = KnowledgeBase([bluff])
    assert [m.rule.id for m in kb.firing(pos)] == ["bluff-1"]
    assert real_shots(kb, pos) == []
    assert annotate(game_of("W:Wc3,a1:Bh8,f8", "a1-b2"), kb=kb) == []


class Motifs:
    """A knowledge base of motif-shaped rules: each fires its move where the FEN says."""

    def __init__(self, where: dict, **fields):
        self.where = where
        self.rule = SimpleNamespace(id="shot", name="give one, take two", line=40,
                                    path=str(combos_dir() / "motifs.txt"), exact=False,
                                    priority=1, sacrifice=1, gain=1, promise=None, warning=False)
        for key, value in fields.items():
            setattr(self.rule, key, value)

    def firing(self, pos, legal=None):
        text = self.where.get(pos)
        if text is None:
            return []
        move = parse_move(pos, text)
        return [SimpleNamespace(rule=self.rule, mirrored=False, layer="motif", move=move,
                                bindings=(("S", move.start), ("T", move.end)))]


def test_a_motif_is_noted_by_its_declared_gain_only_when_it_holds():
    pos = parse_fen(SHOT_01)
    game = game_of(SHOT_01, "g3-h4")
    [note] = annotate(game, kb=Motifs({pos: "e3-d4"}))
    assert note.text == "missed: shot e3-d4 wins a man (combos/motifs.txt:40)"
    assert annotate(game, kb=Motifs({pos: "e3-d4"}, gain=2)) == []  # it nets one, not two
    assert annotate(game, kb=Motifs({pos: "e3-d4"}, gain=None, warning=True)) == []


def test_an_unavoidable_loss_is_not_blamed_on_the_move():
    # Black's only move, g7-f6, lets White's e3-d4 win a man: nothing else was possible.
    game = game_of("B:Wg1,e3,b4,h6:Bh2,g7,h8", "g7-f6")
    assert len(legal_moves(game.positions[0])) == 1
    kb = Motifs({game.position: "e3-d4"}, gain=1)
    assert [s.move for s in real_shots(kb, game.position)] == [
        parse_move(game.position, "e3-d4")]
    assert annotate(game, kb=kb) == []  # (walking into shot-01 with a way out is: above)


def test_a_shot_the_opponent_already_had_is_not_blamed_on_the_next_move():
    # White lets c3-d4 pass (b2-a3); Black's f6-g5 leaves it there (another move would have
    # stopped it), but f6-g5 did not give it: the only note is White's miss.
    game = game_of("W:Wc1,b2,c3,a7:Be3,c5,f6,b8", "b2-a3", "f6-g5")
    kb = Motifs({game.positions[0]: "c3-d4", game.positions[2]: "c3-d4"})
    [shot] = real_shots(kb, game.positions[2])
    assert _avoidable(shot, game.positions[1], game.moves[1], game.positions[2])
    assert [(n.ply, n.kind) for n in annotate(game, kb=kb)] == [(0, MISSED)]
    # had White not had it before, Black's move would be the one that allowed it
    kb = Motifs({game.positions[2]: "c3-d4"})
    assert [(n.ply, n.kind) for n in annotate(game, kb=kb)] == [(1, ALLOWED)]


def test_a_crowning_is_noted_as_missed_never_as_allowed(kb):
    # breakthrough-4 of combos/motifs.txt: c5-d6 gives a man so that a man crowns
    game = game_of("W:Wc5,f6,h6:Bc7,d8", "c5-b6")
    notes = annotate(game, kb=kb)
    assert [(n.kind, n.shot.rule.id, n.shot.claim.kind) for n in notes] == [
        (MISSED, "breakthrough-4", CROWNS)]
    assert notes[0].text == "missed: breakthrough-4 c5-d6 crowns (combos/motifs.txt:620)"
    # Black's a3-b2 leaves White the breakthrough: real, but a crowning is not blamed
    game = game_of("B:Wc5,f6,h6:Bc7,d8,a3", "a3-b2")
    assert [s.rule.id for s in real_shots(kb, game.position)] == ["breakthrough-4"]
    assert annotate(game, kb=kb) == []


def test_a_stopped_review_returns_what_it_found():
    stop = threading.Event()
    stop.set()
    assert annotate(game_of(SHOT_01, "g3-h4"), kb=Motifs({}), stop=stop) == []
