"""How often each rule or motif fires, and how often its claim holds by the referee: the
figures behind ``kbdraughts rules stats`` and the precision warning of ``rules check``.

A rule *fires* in a position when its move is legal there (a warning motif: when it is found;
it plays no move); each (rule, move) counts once per position. A firing is *right* when the
rule's claim (:func:`kbdraughts.ai.claims.claim_of`: a motif's ``gain``/``promise``/warning,
a pattern rule's name) holds by the referee, exactly as ``bench/motifs.py`` and the coach count
it (:func:`kbdraughts.ai.claims.holds`, :func:`kbdraughts.ai.claims.danger_is_real`); a rule
that claims nothing (an opening line) is counted fired only. Each judgement may visit at most
:data:`JUDGE_NODES` positions; one that needs more (many kings) is counted *unjudged*, neither
right nor false.

The positions, quiet (the side to move has a move and no capture) and each once:

- :func:`random_positions`: the positions of seeded random games (random moves, 10 to 80
  plies each), the sample ``rules stats`` and ``rules check`` use by default. Random play
  leaves more pieces loose than real play does, so a motif that is precise there is precise
  in games; bench/motifs.py measures on level-1 self-play instead;
- :func:`game_positions`: every position of games (a PDN file's).

>>> from kbdraughts.kb.knowledge import load_knowledge_base
>>> kb = load_knowledge_base()
>>> stats = measure(kb, random_positions(2026, 300), ["threat"])
>>> [(s.rule.id, s.fired >= s.right) for s in stats]
[('threat', True)]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from kbdraughts.ai.claims import DANGER, DANGER_PLIES, Claim, claim_of, gain_of, holds
from kbdraughts.board import Move, Position, captures, legal_moves
from kbdraughts.game import random_walk
from kbdraughts.referee import Nodes, OutOfNodes, balance, resolve

__all__ = ["RuleStats", "measure", "random_positions", "game_positions", "SEED",
           "JUDGE_NODES", "WORST", "MIN_PLIES", "MAX_PLIES"]

#: The default seed of the random games.
SEED = 2026
#: Plies of one random game: from MIN_PLIES to MAX_PLIES, drawn from the seed.
MIN_PLIES, MAX_PLIES = 10, 80
#: Positions one judgement of a claim may visit (the shipped claims need a few hundred).
JUDGE_NODES = 20_000
#: False firings kept per rule, the worst first.
WORST = 3


@dataclass(frozen=True)
class FalseFiring:
    """A firing whose claim did not hold: the position, the move (None for a warning) and
    what the move nets against the best defence (pieces; None for a warning or unknown)."""

    position: Position
    move: Move | None
    nets: int | None


@dataclass
class RuleStats:
    """One rule's or motif's figures over a sample of positions."""

    rule: Any  # a Rule or a Motif
    claim: Claim | None
    fired: int = 0
    right: int = 0
    unjudged: int = 0
    worst: list[FalseFiring] = field(default_factory=list)

    @property
    def judged(self) -> int:
        """Firings whose claim was judged (right or false)."""
        return self.fired - self.unjudged if self.claim is not None else 0

    @property
    def wrong(self) -> int:
        return self.judged - self.right

    @property
    def precision(self) -> float | None:
        """Right firings among those judged, 0..1; None without a claim or a judged firing."""
        return self.right / self.judged if self.judged else None

    def keep(self, false: FalseFiring, limit: int = WORST) -> None:
        """Remember ``false`` if it is among the ``limit`` worst (least netted first; a
        warning's, or one of equal net, in the order met)."""
        self.worst.append(false)
        self.worst.sort(key=_badness)  # stable: equals stay in the order met
        del self.worst[limit:]


def _badness(f: FalseFiring) -> int:
    return f.nets if f.nets is not None else 0


def random_positions(seed: int, count: int) -> list[Position]:
    """The first ``count`` distinct quiet positions of random games drawn from ``seed``."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    out: list[Position] = []
    games = 0
    while len(out) < count and games < 10 * count + 100:  # a finite loop whatever happens
        games += 1
        for pos in random_walk(rng, rng.randint(MIN_PLIES, MAX_PLIES)):
            if pos not in seen and legal_moves(pos) and not captures(pos):
                seen.add(pos)
                out.append(pos)
                if len(out) == count:
                    break
    return out


def game_positions(games: Iterable[Any], count: int | None = None) -> list[Position]:
    """The distinct quiet positions of ``games`` (objects with ``positions``, such as
    :class:`kbdraughts.game.Game`), in game order, at most ``count``."""
    seen: set[Position] = set()
    out: list[Position] = []
    for game in games:
        for pos in game.positions:
            if pos not in seen and legal_moves(pos) and not captures(pos):
                seen.add(pos)
                out.append(pos)
                if count is not None and len(out) == count:
                    return out
    return out


def measure(kb: Any, positions: Iterable[Position], ids: Sequence[str] | None = None,
            worst: int = WORST) -> list[RuleStats]:
    """The figures of each rule and motif of ``kb`` (a KnowledgeBase; drafts included), or of
    those named in ``ids``, over ``positions``: in file order (rules, then motifs)."""
    wanted = set(ids) if ids is not None else None
    table: dict[str, RuleStats] = {}
    for rule in [*kb.rules, *kb.motifs]:
        if wanted is None or rule.id in wanted:
            table[rule.id] = RuleStats(rule, claim_of(rule))
    for pos in positions:
        legal = legal_moves(pos)
        seen: set[tuple[str, Move | None]] = set()
        for m in kb.matches(pos, legal, drafts=True):
            stats = table.get(m.rule.id)
            if stats is None or (m.rule.id, m.move) in seen:
                continue
            claim = stats.claim
            if m.move is None and not (claim is not None and claim.kind == DANGER):
                continue  # the rule applies but its move is not legal: it does not fire
            seen.add((m.rule.id, m.move))
            stats.fired += 1
            if claim is None:
                continue
            verdict = _judge(claim, pos, m.move)
            if verdict is None:
                stats.unjudged += 1
            elif verdict:
                stats.right += 1
            else:
                stats.keep(FalseFiring(pos, m.move, _nets(pos, m.move)), worst)
    return list(table.values())


def _judge(claim: Claim, pos: Position, move: Move | None) -> bool | None:
    """Whether the claim holds (None: not judged within JUDGE_NODES)."""
    nodes = Nodes(JUDGE_NODES)
    try:
        if claim.kind == DANGER:
            # claims.danger_is_real, with the referee bounded
            them = 1 - pos.side
            turned = pos._replace(side=them)
            return resolve(turned, them, DANGER_PLIES, nodes) - balance(turned, them) >= 1
        assert move is not None
        return holds(claim, pos, move, nodes)
    except OutOfNodes:
        return None


def _nets(pos: Position, move: Move | None) -> int | None:
    """What ``move`` nets against the best defence (None for a warning, or past the budget)."""
    if move is None:
        return None
    try:
        return gain_of(pos, move, nodes=Nodes(JUDGE_NODES))
    except OutOfNodes:
        return None
