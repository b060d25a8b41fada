"""The coach: a game read back move by move, with notes a player can trust.

For every move of the game (of one side, or both), in a player's words:

- *loses*: the move loses material by force, another move did not ("loses a man: after
  b6-c5, e3-d4 wins a man by force: b6-c5 e3-d4 c5:e3 d2:f4:h6");
- *allowed*: the same, where a rule of the knowledge base names the opponent's idea
  ("White's c3-d4 allowed the shot g3-f4 (give one, take two): White loses a man");
- *missed*: another move won material by force and the move played did not (named by the
  mover's rule when one fires for it: "Black missed the shot ...");
- *played*: the move won material by force with an idea: a sacrifice (the reply must capture)
  that wins more back, or a rule's shot, threat or fork (a crowning is a plan, not noted)
  ("played: the shot e3-d4 (give one, take two): White wins a man").

No false note. Every note is

1. *proved*: an exhaustive material minimax (:mod:`kbdraughts.proof`, a king counted as
   2.5 men) over ``HORIZONS`` plies after the move and every capture after them shows the
   loss (or gain) of at least a man, against the best of the other moves; then
2. *confirmed*: the alpha-beta search on the same material (:mod:`kbdraughts.coach.deep_check`,
   10 plies on the native core) still finds at least ``CONFIRM`` (three quarters of a man)
   at stake, the move and its alternative searched to one depth; then, while the budget
   lasts, the notes confirmed are searched again two plies deeper at a time, to 16 plies,
   and a note a deeper search refutes is withdrawn. A claim the deep search refutes, or one
   the budget cannot check, is not written.

Which moves are looked at closely is decided by a screen (the same search, shallow, on every
position): a move whose screen shows no change of material gets no note there. Then, while
the budget lasts, the *hunt*: every other move searched ``HUNT_DEPTH`` (12) plies deep against
the best of the others, for the losses no short proof shows (in master games most of them:
of the 1924 championship's moves that lose a man at depth 14, a 5-ply search sees fewer
than a third). There the search is the proof: exhaustive (material only, no reductions) to
the depth it states, its line the one the note shows; searched again deeper as the proved
notes are, and two plies further (to 18), since its claim stands on the search alone.

The rule's file and line, the horizon and the depth are written only when asked
(``Note.words(verbose=True)``).

>>> from kbdraughts.game import Game
>>> from kbdraughts.kb.knowledge import load_knowledge_base
>>> from kbdraughts.notation import parse_fen, parse_move
>>> game = Game(parse_fen(
...     "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"))
>>> game.push(parse_move(game.position, "g3-f4"))
>>> [note.text for note in annotate(game, kb=load_knowledge_base())]
['White missed the shot e3-d4 (e3-d4 gives a man, c5:e3 is forced, d2:f4:h6 takes two): it wins a man: e3-d4 c5:e3 d2:f4:h6']
"""  # noqa: E501 (the doctest's output is one line)

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from kbdraughts.capture_tree import exchange
from kbdraughts.ai.claims import DANGER, GAIN, claim_of, holds_weighed
from kbdraughts.coach.note import (
    ALLOWED, ERRORS, LOSES, MISSED, PLAYED, PROVED, SIDE_NAMES, Note, gain, idea_of,
    idea_words, once, shown,
)
from kbdraughts.coach.deep_check import Comparison, DeepCheck
from kbdraughts.coach.verdict import MoveVerdict
from kbdraughts.ai.rulebook import KnowledgeBase, RuleLayer, load_default_kb
from kbdraughts.board import Move, Position, Side, captures, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.proof import GAME, at_least, prove
from kbdraughts.referee import Nodes, OutOfNodes

__all__ = ["Note", "annotate", "named_moves", "expected_line", "idea_of", "idea_words",
           "LOSES", "MISSED", "ALLOWED", "PLAYED", "ERRORS", "HORIZONS", "CONFIRM", "SIDE_NAMES"]

#: Plies after the move the proof looks (then every capture to its end): the shortest that
#: proves the claim is the one stated.
HORIZONS = (2, 4)
#: What the deep search must still find of the material a note proves (PROVED, a man).
CONFIRM = 75
#: The screen's threshold: a smaller change of material is not looked at closely.
SCREEN = 50
#: Plies deeper than the others a note of the hunt is searched again: its claim stands on the
#: search alone (on the 29 games of 1924, 3 of its 21 notes held at 16 plies and not at 18).
HUNT_BEYOND = 2
#: Positions one proof may visit (with many kings a capture resolution alone explodes).
PROOF_NODES = 300_000


def named_moves(kb: KnowledgeBase, pos: Position, legal: Sequence[Move] | None = None
                ) -> dict[Move, Any]:
    """The moves in ``pos`` a rule of the knowledge base names, with the first rule (in the
    knowledge base's order) whose claim holds by material within its horizon (opening
    lines and warnings left out: they name no idea)."""
    legal = legal_moves(pos) if legal is None else legal
    out: dict[Move, Any] = {}
    for match in kb.firing(pos, legal):
        move = match.move
        if move is None or move in out or match.layer == RuleLayer.EXACT:
            continue
        claim = claim_of(match.rule)
        if claim is None or claim.kind == DANGER:
            continue
        try:
            if holds_weighed(claim, pos, move, Nodes(PROOF_NODES)):
                out[move] = match.rule
        except OutOfNodes:
            continue
    return out


def expected_line(pos: Position, move: Move) -> tuple[Move, ...]:
    """``move`` and the captures the capture tree expects after it (the forced reply, ours)."""
    return (move,) + exchange(play(pos, move), pos.side).moves


@dataclass(frozen=True)
class _Proved:
    """A note proved at its horizon, waiting for the deep search: ``first`` and ``others``
    are the root moves it compares in ``before`` (the move played, or the better one, against
    the alternatives); ``best`` the material the better side must keep (centi-men, from the
    position before the move)."""

    note: Note
    before: Position
    first: Move
    others: tuple[Move, ...]


class _Coach:
    """The notes of one game: its positions screened once, each move whose screen shows a
    change of material proved exhaustively; then (:meth:`confirm`) the proved notes checked
    by the deep search, the budget shared among them."""

    def __init__(self, game: Game, kb: KnowledgeBase, check: DeepCheck):
        self.game, self.kb, self.check = game, kb, check
        self.named: dict[int, dict[Move, Any]] = {}
        self.screened: dict[int, tuple[int, Move | None]] = {}
        self.bases: dict[Position, int | None] = {}

    def base(self, pos: Position) -> int | None:
        """The material of ``pos`` for the side to move, its captures resolved (what a claim
        is measured from); None when that takes more than PROOF_NODES positions. Kept: the
        proof, the hunt and every deeper check of a move ask it of the same position."""
        if pos not in self.bases:
            try:
                self.bases[pos] = prove(pos, pos.side, 0, Nodes(PROOF_NODES)).value
            except OutOfNodes:
                self.bases[pos] = None
        return self.bases[pos]

    def names(self, i: int) -> dict[Move, Any]:
        if i not in self.named:
            pos = self.game.positions[i]
            self.named[i] = named_moves(self.kb, pos) if legal_moves(pos) else {}
        return self.named[i]

    def screen(self, i: int) -> tuple[int, Move | None]:
        if i not in self.screened:
            self.screened[i] = self.check.screen(self.game.positions[i])
        return self.screened[i]

    def proved(self, ply: int) -> list[_Proved]:
        """The notes the move of ``ply`` deserves by the exhaustive proof."""
        before, move = self.game.positions[ply], self.game.moves[ply]
        base = self.base(before)
        if base is None:
            return []
        (best, hint), played = self.screen(ply), -self.screen(ply + 1)[0]
        out: list[_Proved] = []
        try:
            if best - played >= SCREEN:
                out += self.faults(ply, before, move, base, hint)
            if played - base >= SCREEN:
                out += self.deeds(ply, before, move, base)
        except OutOfNodes:
            pass
        return out

    # -- what went wrong ----------------------------------------------------------------

    def faults(self, ply: int, before: Position, move: Move, base: int, hint: Move | None
               ) -> list[_Proved]:
        """LOSES or ALLOWED, and MISSED, at the shortest horizon that proves them."""
        us = before.side
        others = [m for m in legal_moves(before) if m != move]
        if not others:
            return []
        after = play(before, move)
        named = self.names(ply)
        # the witnesses tried first: the ideas the mover had, then the screen's best move
        order = sorted(others, key=lambda m: (m not in named, m != hint))
        for horizon in HORIZONS:
            nodes = Nodes(PROOF_NODES)
            mine = prove(after, us, horizon, nodes)
            loses = mine.value <= base - PROVED and bool(mine.line)
            # a move that keeps a man more (and, for a miss, wins one): asked by a null window
            need = mine.value + PROVED if loses else max(mine.value, base) + PROVED
            alt_move = next((m for m in order
                             if at_least(play(before, m), us, horizon, need, nodes)), None)
            if alt_move is not None:
                break
        else:
            return []
        alt = prove(play(before, alt_move), us, horizon, nodes)
        out = []
        if loses:
            reply = mine.line[0]
            rule = self.names(ply + 1).get(reply)
            line = (move, *mine.line)
            note = Note(ply, us, ALLOWED if rule is not None else LOSES, base - mine.value,
                        line, reply, rule, horizon, 0, 0, gain(before, line, 1 - us))
            out.append(_Proved(note, before, move, tuple(others)))
        if alt.value >= base + PROVED:
            line = (alt_move, *alt.line)
            note = Note(ply, us, MISSED, alt.value - base, line, alt_move,
                        named.get(alt_move), horizon, 0, 0, gain(before, line, us))
            out.append(_Proved(note, before, alt_move, (move,)))
        return out

    # -- what went right ----------------------------------------------------------------

    def deeds(self, ply: int, before: Position, move: Move, base: int) -> list[_Proved]:
        """PLAYED: the move wins material by force, and is a rule's idea or a sacrifice (the
        reply must capture): taking what was left hanging is no combination."""
        us = before.side
        after = play(before, move)
        sacrifice = not move.captured and bool(captures(after))
        for horizon in HORIZONS:
            mine = prove(after, us, horizon, Nodes(PROOF_NODES))
            if mine.value - base >= PROVED:
                break
        else:
            return []
        rule = self.names(ply).get(move)
        if not sacrifice and (rule is None or (c := claim_of(rule)) is None or c.kind != GAIN):
            return []  # a crowning or a road taken is a plan, not a combination
        line = (move, *mine.line)
        note = Note(ply, us, PLAYED, mine.value - base, line, move, rule, horizon, 0, 0,
                    gain(before, line, us))
        return [_Proved(note, before, move, ())]

    # -- the deep search's own proof ------------------------------------------------------

    def hunt(self, ply: int) -> list[_Proved]:
        """LOSES or ALLOWED, and MISSED, as the deep search proves them ``check.hunt`` plies
        deep: the move played against the best of the others, both to one depth; the notes
        come confirmed at that depth."""
        before, move = self.game.positions[ply], self.game.moves[ply]
        us = before.side
        others = tuple(m for m in legal_moves(before) if m != move)
        if not others or self.check.hunt is None:
            return []
        deep = self.check.compare(before, move, others, self.check.hunt)
        if deep is None or len(deep.scores) < 2:  # no comparison, or the move is the best
            return []
        base = self.base(before)
        if base is None:
            return []
        first = deep.scores[move]
        alt_move, other = max(((m, v) for m, v in deep.scores.items() if m != move),
                              key=lambda mv: mv[1])
        out = []
        lost = min(base - first, other - first)
        if lost >= PROVED:
            line = shown(before, self.check.line(before, move, deep.depth), 1 - us, -base)
            if len(line) > 1:
                reply = line[1]
                rule = self.names(ply + 1).get(reply)
                note = Note(ply, us, ALLOWED if rule is not None else LOSES, lost, line, reply,
                            rule, deep.depth, 0, 0, gain(before, line, 1 - us))
                out.append(_Proved(self._confirmed(note, deep.depth, lost), before, move,
                                   others))
        won = min(other - base, other - first)
        if won >= PROVED:
            line = shown(before, self.check.line(before, alt_move, deep.depth), us, base)
            note = Note(ply, us, MISSED, won, line, alt_move, self.names(ply).get(alt_move),
                        deep.depth, 0, 0, gain(before, line, us))
            out.append(_Proved(self._confirmed(note, deep.depth, won), before, alt_move,
                               (move,)))
        self.check.confirmed += len(out)
        self.check.hunted += len(out)
        return out

    # -- the deep search's word -----------------------------------------------------------

    def confirm(self, proved: _Proved) -> Note | None:
        """The note with the deep search's depth and figure, or None when the search (at
        the depth the time allows) does not find at least CONFIRM at stake."""
        found = self._at_stake(proved, None)
        if found is None:
            return None
        deep, at_stake = found
        if at_stake < CONFIRM:
            self.check.refuted += 1
            return None
        self.check.confirmed += 1
        return self._confirmed(proved.note, deep.depth, at_stake)

    def deepen(self, proved: _Proved, note: Note, depth: int) -> Note | None:
        """``note`` searched again ``depth`` plies deep: with the new depth and figure, or
        None when that search refutes it (counted refuted, no longer confirmed); as it was
        when the budget is spent or the search reaches no deeper than the note's depth."""
        refused = self.check.refused
        found = None if self.check.spent else self._at_stake(proved, depth)
        self.check.refused = refused  # a deeper look refused: the note keeps its depth
        if found is None or found[0].depth <= note.depth:  # a decided game: known already
            return note
        deep, at_stake = found
        if at_stake < CONFIRM:
            self.check.confirmed -= 1
            self.check.refuted += 1
            return None
        return self._confirmed(proved.note, deep.depth, at_stake)

    def _confirmed(self, note: Note, depth: int, at_stake: int) -> Note:
        """``note`` as the deep search confirmed it: the amount no more than it found."""
        amount = min(note.amount, at_stake) if at_stake < GAME // 2 else note.amount
        return replace(note, amount=amount - amount % (PROVED // 2), depth=depth,
                       deep=at_stake)

    def _at_stake(self, proved: _Proved, depth: int | None) -> tuple[Comparison, int] | None:
        """The deep search's comparison (``depth`` plies, default the check's) and the
        material it finds at stake for the claim; None when the search could not be made."""
        note, before = proved.note, proved.before
        deep = self.check.compare(before, proved.first, proved.others, depth)
        if deep is None:
            return None
        base = self.base(before)
        if base is None:
            return None
        first = deep.scores[proved.first]
        other = max((v for m, v in deep.scores.items() if m != proved.first), default=None)
        if note.kind in (LOSES, ALLOWED):  # the move played loses, another move keeps more
            at_stake = min(base - first, (other if other is not None else first) - first)
        elif note.kind == MISSED:  # the better move wins, and more than the move played
            at_stake = min(first - base, first - (other if other is not None else base))
        else:  # PLAYED: the move wins
            at_stake = first - base
        return deep, at_stake


def annotate(game: Game, side: Side | None = None, kb: KnowledgeBase | None = None,
             stop: threading.Event | None = None, check: DeepCheck | None = None,
             verdicts: Sequence[MoveVerdict] | None = None) -> list[Note]:
    """The coach's notes on ``game``, in the order of its moves: on ``side``'s moves, or on
    both sides' (None). ``kb``: the knowledge base (default: the shipped one and the
    user's); ``check``: the deep search and its budget of nodes (default: unbounded, each
    check at most :data:`kbdraughts.coach.deep_check.CHECK_NODES`), spent on the notes
    proved in the order of the moves; ``stop`` set: the notes so far. ``verdicts``: the
    grades (:func:`kbdraughts.coach.grade.grade_game`): an error note is then written only
    on a graded move, and the hunt searches only the graded moves no proof explains; None:
    every error proved, and every move hunted."""
    kb = load_default_kb() if kb is None else kb
    check = DeepCheck() if check is None else check
    coach = _Coach(game, kb, check)
    stopped = stop.is_set if stop is not None else lambda: False
    graded = None if verdicts is None else {v.ply for v in verdicts if v.grade is not None}
    ours = [ply for ply in range(len(game.moves))
            if side is None or game.positions[ply].side == side]
    proved: list[_Proved] = []
    for ply in ours:
        if stopped():
            break
        proved += [p for p in coach.proved(ply) if p.note.kind == PLAYED or graded is None
                   or p.note.ply in graded]
    kept: list[tuple[_Proved, Note]] = []
    for p in proved:
        if stopped():
            break
        note = coach.confirm(p)
        if note is not None:
            kept.append((p, note))
    kept = _deepened(coach, kept, stopped)
    # then the losses no short proof shows, while the budget lasts, deepened in their turn
    judged = {p.note.ply for p in proved if p.note.kind in ERRORS}
    hunted: list[tuple[_Proved, Note]] = []
    for ply in ours:
        if stopped() or check.spent:
            break
        if ply not in judged and (graded is None or ply in graded):
            hunted += [(p, p.note) for p in coach.hunt(ply)]
    kept += _deepened(coach, hunted, stopped, HUNT_BEYOND)
    return once(game, sorted((note for _, note in kept), key=lambda n: n.ply))


def _deepened(coach: _Coach, kept: list[tuple[_Proved, Note]], stopped: Callable[[], bool],
              beyond: int = 0) -> list[tuple[_Proved, Note]]:
    """``kept`` searched again deeper while the budget lasts (a man won in 10 plies can be
    given back in 14), to the check's deepest and ``beyond``, the notes a deeper search
    refutes withdrawn."""
    for depth in coach.check.deeper(beyond):
        deeper = [(p, note if stopped() else coach.deepen(p, note, depth)) for p, note in kept]
        kept = [(p, note) for p, note in deeper if note is not None]
    return kept
