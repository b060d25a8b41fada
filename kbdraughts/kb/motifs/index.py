"""The compiled motifs of a knowledge base, asked about a position.

All groundings of all motifs (see :mod:`kbdraughts.kb.motifs.ground`) are put in the bit-sliced
columns of :mod:`kbdraughts.kb.rules.index` (at most 32 ANDs of ints find every grounding whose
squares fit), ordered by motif (priority, then file order) and grounding. Only the groundings that
fit run their residual conditions, with every square bound. A position with Black to move is turned
round first (a motif is written for White), and the answer's squares and move turned back.

:func:`to_data` / :func:`from_data` turn a motif and its compiled form into plain tuples for
the rule cache (:mod:`kbdraughts.kb.cache`).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from kbdraughts.board import BLACK, Move, Position, legal_moves, mirror_position
from kbdraughts.kb.motifs.ground import Compiled, by_name, square_vars
from kbdraughts.kb.rules.index import _Class
from kbdraughts.kb.motifs.interpret import OutOfSteps, Steps, solve
from kbdraughts.kb.motifs.motif import Define, Lit, Motif
from kbdraughts.kb.rules.pattern import Pattern, position_states
from kbdraughts.kb.motifs.vocab import Board
from kbdraughts.squares import mirror_bits, mirror_square

__all__ = ["MotifIndex", "MotifHit", "to_data", "from_data"]

_CHUNK = 256


class MotifHit(NamedTuple):
    """A motif found in a position: its move there (None for a warning, or a move that is not
    legal) and its square variables' squares (board squares, after turning back)."""

    motif: Motif
    mirrored: bool
    move: Move | None
    bindings: tuple[tuple[str, int], ...]


class MotifIndex:
    """Motifs with their compiled groundings, answering :meth:`hits`."""

    def __init__(self, compiled: Sequence[tuple[Motif, Compiled]]):
        order = sorted(range(len(compiled)), key=lambda i: -compiled[i][0].priority)
        self.motifs = [compiled[i][0] for i in order]
        self._residuals = [compiled[i][1].residuals for i in order]
        self._defines = [by_name(m.defines) for m in self.motifs]
        self._shown = [tuple(square_vars(m)) for m in self.motifs]
        self._flat: list[tuple[int, int, dict]] = []
        members: list[tuple[int, Pattern]] = []
        for k, i in enumerate(order):
            for variant, env, allow in compiled[i][1].groundings:
                members.append((len(self._flat), Pattern(0, (0, 12), (0, 12), allow, (), False)))
                self._flat.append((k, variant, dict(env)))
        self._classes = [_Class(members[j:j + _CHUNK]) for j in range(0, len(members), _CHUNK)]
        self.unjudged: set[str] = set()

    def __len__(self) -> int:
        return len(self._flat)

    def hits(self, pos: Position, legal: Sequence[Move] | None = None,
             every: bool = False, warnings: bool = True, drafts: bool = False
             ) -> list[MotifHit]:
        """The motifs found in ``pos``, best first: one hit per motif and move (the first
        grounding's squares), or with ``every`` one per distinct binding of its squares.
        ``warnings=False`` skips the warning motifs (they play no move: the AI never asks);
        drafts are skipped unless ``drafts``. ``unjudged``: after it, the ids of the motifs
        whose conditions ran past their steps (``interpret.SOLVE_STEPS``) here, so not found."""
        if not self._flat:
            return []
        mirrored = pos.side == BLACK
        view = mirror_position(pos) if mirrored else pos
        if legal is not None and mirrored:
            legal = list(legal)
            board = Board(view, [_mirrored(m) for m in legal])
        else:
            board = Board(view, legal)
        states = position_states(view)
        ours = (view.white.bit_count(), (view.white & view.kings).bit_count())
        theirs = (view.black.bit_count(), (view.black & view.kings).bit_count())
        seen: set = set()
        out: list[MotifHit] = []
        steps: dict[int, Steps] = {}  # each motif's own: one past its budget costs no other
        self.unjudged = set()
        for cls in self._classes:
            for g in cls.fitting(states):
                k, variant, env = self._flat[g]
                motif = self.motifs[k]
                if (motif.warning and not warnings) or (motif.draft and not drafts) \
                        or not motif.counts_fit(ours, theirs):
                    continue
                if k not in steps:
                    steps[k] = Steps()
                try:
                    got = next(solve(self._residuals[k][variant], env, board, self._defines[k],
                                     steps[k]), None)
                except OutOfSteps:  # not judged within its steps: it is not found
                    self.unjudged.add(motif.id)
                    continue
                if got is None:
                    continue
                hit = self._hit(k, got, board, pos, legal, mirrored)
                key = (k, hit.bindings) if every else (k, hit.move)
                if key not in seen:
                    seen.add(key)
                    out.append(hit)
        return out

    def _hit(self, k: int, env: dict, board: Board, pos: Position,
             legal: Sequence[Move] | None, mirrored: bool) -> MotifHit:
        motif = self.motifs[k]
        turn = mirror_square if mirrored else (lambda s: s)
        bindings = tuple((v, turn(env[v])) for v in self._shown[k] if v in env)
        move = None
        if motif.play:
            squares = [env[t] if isinstance(t, str) else t for t in motif.play]
            move = _find(board.legal, squares, motif.capture)
            if move is not None and mirrored:
                move = _turned(move, pos, legal)
        return MotifHit(motif, mirrored, move, bindings)


def _find(legal: Sequence[Move], squares: list[int], capture: bool) -> Move | None:
    for m in legal:
        if m.start == squares[0] and m.end == squares[-1] and bool(m.captured) == capture:
            if not capture or len(squares) == 2 or list(m.path) == squares[1:]:
                return m
    return None


def _mirrored(m: Move) -> Move:
    return Move(mirror_square(m.start), mirror_square(m.end), mirror_bits(m.captured),
                tuple(mirror_square(s) for s in m.path), m.crowned)


def _turned(move: Move, pos: Position, legal: Sequence[Move] | None) -> Move | None:
    """The move of ``pos`` that is ``move`` (found on the turned board) turned back."""
    start, end = mirror_square(move.start), mirror_square(move.end)
    taken = mirror_bits(move.captured)
    for m in legal_moves(pos) if legal is None else legal:
        if m.start == start and m.end == end and m.captured == taken:
            return m
    return None


# --- plain data for the cache ---------------------------------------------------------------


def _lits(body) -> tuple:
    return tuple((lit.pred, tuple(lit.args), lit.negated) for lit in body)


def to_data(motif: Motif, compiled: Compiled) -> tuple:
    m = motif
    return ((m.id, m.path, m.line, m.name, m.priority, m.sacrifice, m.pieces, m.kings,
             tuple(m.play), m.play_line, m.capture, _lits(m.body), m.body_line, m.gain, m.promise,
             m.warning, m.examples,
             tuple((d.name, d.params, _lits(d.body), d.line) for d in m.defines), m.draft),
            (tuple(_lits(r) for r in compiled.residuals), compiled.groundings))


def _two_pairs(rows: Any) -> tuple[tuple[int, int], tuple[int, int]]:
    (a, b), (c, d) = rows  # marshal gives back the tuples to_data wrote
    return (a, b), (c, d)


def from_data(data: tuple) -> tuple[Motif, Compiled]:
    (mid, path, line, name, prio, sac, pieces, kings, play, play_line, cap, body, body_line, gain,
     promise, warning, examples, defines, draft), (residuals, groundings) = data
    lits = lambda rows: tuple(Lit(p, tuple(a), n) for p, a, n in rows)  # noqa: E731
    motif = Motif(mid, path, line, name, prio, sac, _two_pairs(pieces),
                  _two_pairs(kings), tuple(play), play_line, cap, lits(body), body_line,
                  gain, promise, warning,
                  tuple(tuple(e) for e in examples),
                  tuple(Define(n, tuple(ps), lits(b), ln) for n, ps, b, ln in defines), draft)
    return motif, Compiled(tuple(lits(r) for r in residuals), tuple(groundings))
