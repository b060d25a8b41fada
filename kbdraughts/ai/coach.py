"""The coach: a game read back with the knowledge base, noting what each move missed or allowed.

For every move of the game (of one side, or both):

- *missed*: a rule of the mover fired (a motif or a pattern rule with a claim, never an opening
  line nor a warning), the mover played something else, and the rule's move really was better:
  its claim holds against every defence (:func:`kbdraughts.ai.claims.holds`) and the move
  played does not achieve as much (for a gain: it nets fewer pieces by the same count);
- *allowed*: after the move, a rule of the opponent fires whose claim holds, the opponent did
  not have the same shot on its previous turn already (the move gave it), and another move
  would have avoided it (a gain: another move keeps more material over the next three plies
  and the captures after them; the catch of a lone king: after another move the opponent
  cannot force it, and that move keeps as much material by the same count). A crowning and
  the main road are noted as missed, never as allowed: a forced exchange can put a crowning
  off past any short bound, so denying it is not measured.

Every claim is measured by the referee before it is said, so the coach never calls a non-win
a miss. Notes read ``missed: shot-01 e3-d4 wins a man (combos/motifs.txt:15)``.

>>> from kbdraughts.game import Game
>>> from kbdraughts.kb.knowledge import load_knowledge_base
>>> from kbdraughts.notation import parse_fen, parse_move
>>> game = Game(parse_fen(
...     "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"))
>>> game.push(parse_move(game.position, "g3-f4"))
>>> [note.text for note in annotate(game, kb=load_knowledge_base())]
['missed: shot-01 e3-d4 wins a man (combos/motifs.txt:15)']
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from kbdraughts.ai.capture_tree import exchange
from kbdraughts.ai.claims import (
    CATCH_PLIES, CATCHES, DANGER, GAIN, GAIN_PLIES, Claim, claim_of, gain_of, holds,
)
from kbdraughts.ai.explain import rule_place
from kbdraughts.referee import forces, resolve
from kbdraughts.ai.rulebook import KnowledgeBase, load_default_kb
from kbdraughts.board import Move, Position, Side, legal_moves, play
from kbdraughts.files import printable
from kbdraughts.game import Game
from kbdraughts.notation import move_text

__all__ = ["Note", "Shot", "annotate", "real_shots", "expected_line", "MISSED", "ALLOWED"]

MISSED, ALLOWED = "missed", "allowed"
#: Plies after our move over which an "allowed" loss is compared with the other moves: the
#: opponent's move and the two plies its claim is checked over.
BLAME_PLIES = GAIN_PLIES + 1


@dataclass(frozen=True)
class Shot:
    """A rule's move in a position whose claim the referee confirmed: the rule, its move,
    the claim, what the move nets (pieces, by the referee's count) and the expected line (the
    move and the captures that follow it by the capture tree)."""

    rule: Any  # a FiringRule: id, name, path, line (and a motif's gain, promise)
    move: Move
    claim: Claim
    nets: int
    line: tuple[Move, ...]

    def words(self) -> str:
        """``shot-01 e3-d4 wins a man (combos/motifs.txt:15)``."""
        measured = self.nets if self.claim.kind == GAIN else None
        return (f"{printable(self.rule.id)} {move_text(self.move)} "
                f"{self.claim.words(measured)} ({rule_place(self.rule)})")


@dataclass(frozen=True)
class Note:
    """What the coach says about the move of ply ``ply`` (an index into ``game.moves``),
    played by ``side``: ``kind`` is MISSED (the mover's ``shot`` was there) or ALLOWED (the
    move let the opponent play ``shot``)."""

    ply: int
    side: Side
    kind: str
    shot: Shot

    @property
    def text(self) -> str:
        return f"{self.kind}: {self.shot.words()}"


def expected_line(pos: Position, move: Move) -> tuple[Move, ...]:
    """``move`` and the captures the capture tree expects after it (the forced reply, ours)."""
    return (move,) + exchange(play(pos, move), pos.side).moves


def real_shots(kb: KnowledgeBase, pos: Position, legal: Sequence[Move] | None = None
               ) -> list[Shot]:
    """The rules firing in ``pos`` whose claim the referee confirms, one per move, in the
    knowledge base's order (opening lines and warnings left out)."""
    legal = legal_moves(pos) if legal is None else legal
    seen: set[Move] = set()
    out = []
    for match in kb.firing(pos, legal):
        move = match.move
        if move is None or move in seen or match.layer == "exact":
            continue
        claim = claim_of(match.rule)
        if claim is None or claim.kind == DANGER or not holds(claim, pos, move):
            continue
        seen.add(move)
        out.append(Shot(match.rule, move, claim, gain_of(pos, move), expected_line(pos, move)))
    return out


def annotate(game: Game, side: Side | None = None, kb: KnowledgeBase | None = None,
             stop: threading.Event | None = None) -> list[Note]:
    """The coach's notes on ``game``, in the order of its moves: on ``side``'s moves, or on
    both sides' (None). ``kb``: the knowledge base (default: the shipped one and the user's);
    ``stop`` set: the notes found so far."""
    kb = load_default_kb() if kb is None else kb
    shots = _ShotsOf(kb, game)
    notes: list[Note] = []
    for ply, move in enumerate(game.moves):
        if stop is not None and stop.is_set():
            break
        mover = game.positions[ply].side
        if side is not None and mover != side:
            continue
        before = game.positions[ply]
        missed = _missed(before, move, shots(ply))
        if missed is not None:
            notes.append(Note(ply, mover, MISSED, missed))
        had = {(s.rule.id, s.move) for s in shots(ply - 1)} if ply else set()
        allowed = _allowed(before, move, [s for s in shots(ply + 1)
                                          if (s.rule.id, s.move) not in had])
        if allowed is not None:
            notes.append(Note(ply, mover, ALLOWED, allowed))
    return notes


class _ShotsOf:
    """The real shots of each position of a game, found once (a position's shots serve the
    move played in it and the move that led to it)."""

    def __init__(self, kb: KnowledgeBase, game: Game):
        self.kb, self.game = kb, game
        self.found: dict[int, list[Shot]] = {}

    def __call__(self, i: int) -> list[Shot]:
        if i not in self.found:
            pos = self.game.positions[i]
            self.found[i] = real_shots(self.kb, pos) if legal_moves(pos) else []
        return self.found[i]


def _missed(before: Position, played: Move, shots: Iterable[Shot]) -> Shot | None:
    """The best shot of the mover the move played falls short of (most pieces netted first)."""
    best: Shot | None = None
    for shot in shots:
        if shot.move == played or not _better(shot, before, played):
            continue
        if best is None or shot.nets > best.nets:
            best = shot
    return best


def _better(shot: Shot, before: Position, played: Move) -> bool:
    """The shot's move achieves more than the move played: nets more, or keeps a promise the
    move played does not, at no more material than the shot declares it gives."""
    nets = gain_of(before, played)
    if shot.claim.kind == GAIN:
        return shot.nets > nets
    given = int(getattr(shot.rule, "sacrifice", 0) or 0)
    return shot.nets >= nets - given and not holds(shot.claim, before, played)


def _allowed(before: Position, played: Move, shots: Iterable[Shot]) -> Shot | None:
    """The opponent's best shot after ``played`` that another move would have avoided."""
    after = play(before, played)
    best: Shot | None = None
    for shot in shots:
        if (best is None or shot.nets > best.nets) and _avoidable(shot, before, played, after):
            best = shot
    return best


def _avoidable(shot: Shot, before: Position, played: Move, after: Position) -> bool:
    """Another move than ``played`` in ``before`` would have denied the opponent ``shot``."""
    us, them = before.side, 1 - before.side
    others = [m for m in legal_moves(before) if m != played]
    kept = resolve(after, us, BLAME_PLIES)
    if shot.claim.kind == GAIN:
        return any(resolve(play(before, m), us, BLAME_PLIES) > kept for m in others)
    if shot.claim.kind != CATCHES:
        # A crowning can be put off past any short bound by a forced exchange, and the main
        # road is a plan, not a loss: denying either is not measured, so never blamed.
        return False

    def caught(p: Position) -> bool:
        return not p.pieces(us) or (p.side == us and not legal_moves(p))

    # a move that denies it at a price in material is no better: it must keep as much
    return any(not forces(play(before, m), them, CATCH_PLIES + 1, caught)
               and resolve(play(before, m), us, BLAME_PLIES) >= kept for m in others)
