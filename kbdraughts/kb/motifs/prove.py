"""What ``rules check`` asks of a motif's examples: that it fires there, and (``--prove``)
that its claim holds against every defence, by an exhaustive search on the move generator.

The judge is the referee (:mod:`kbdraughts.referee`): a material minimax over a fixed number
of plies, then every forced capture to its end; pieces are counted, men and kings alike.

- ``gain: N``: after the example's move, the referee's value over :data:`GAIN_PLIES` plies is
  at least N pieces above the balance before it;
- ``crowns``: a new king of ours stands after their reply, whatever they do, within
  :data:`PROMISE_PLIES` plies;
- ``catches the lone king``: the opponent has no piece, or no move, within :data:`PROMISE_PLIES`;
- ``holds the main road``: our piece stands on a1-h8 and no capture of theirs takes it;
- a warning: were it their move, their best move and the captures that follow net them at
  least one piece.
"""

from __future__ import annotations

from kbdraughts.referee import Nodes, OutOfNodes, balance, forces, nets, resolve
from kbdraughts.board import Position, captures, legal_moves, play
from kbdraughts.kb.motifs.ground import Compiled
from kbdraughts.kb.motifs.interpret import SOLVE_STEPS
from kbdraughts.kb.motifs.motif import Motif
from kbdraughts.kb.motifs.index import MotifHit, MotifIndex
from kbdraughts.kb.motifs.vocab import GEOMETRY
from kbdraughts.notation import FenError, parse_fen
from kbdraughts.squares import mirror_square
from kbdraughts.wording import plural

__all__ = ["example_hit", "prove", "GAIN_PLIES", "PROMISE_PLIES"]

GAIN_PLIES = 3
PROMISE_PLIES = 5
#: The positions one proof may visit (some seconds); the shipped examples need at most 446.
PROVE_NODES = 500_000
_MAIN_ROAD = {r[0] for r in GEOMETRY["main_road"]}


def example_hit(motif: Motif, compiled: Compiled, fen: str) -> MotifHit | str:
    """The motif's hit in the example position, or why there is none."""
    try:
        pos = parse_fen(fen)
    except FenError as e:
        return f"bad example position: {e}"
    index = MotifIndex([(motif, compiled)])
    hits = index.hits(pos, drafts=True)
    if not hits and index.unjudged:
        return (f"motif {motif.id} does not fire in its example {fen}: checking its conditions "
                f"there takes more than {SOLVE_STEPS:,} steps (the limit; a 'not' of a define "
                "whose squares are free tries every square for each)")
    if not hits:
        return f"motif {motif.id} does not fire in its example {fen}"
    if not motif.warning and hits[0].move is None:
        return f"motif {motif.id}'s move is not legal in its example {fen}"
    return hits[0]


def _kings(pos: Position, side: int) -> int:
    return (pos.pieces(side) & pos.kings).bit_count()


def prove(motif: Motif, pos: Position, hit: MotifHit) -> str | None:
    """None when the claim holds in ``pos`` after the hit's move, else what fails (also a
    search past PROVE_NODES positions: an example with many kings is no proof)."""
    try:
        return _prove(motif, pos, hit, Nodes(PROVE_NODES))
    except OutOfNodes:
        return (f"not proved within {PROVE_NODES:,} positions of the referee's search: give "
                "an example with fewer pieces")


def _prove(motif: Motif, pos: Position, hit: MotifHit, nodes: Nodes) -> str | None:
    us, them = pos.side, 1 - pos.side
    if motif.warning:
        theirs = pos._replace(side=them)
        got = resolve(theirs, them, 1, nodes) - balance(theirs, them)
        return None if got >= 1 else f"they net {plural(got, 'piece')}, not at least 1"
    assert hit.move is not None
    after = play(pos, hit.move)
    if motif.gain is not None:
        got = nets(pos, after, us, GAIN_PLIES, nodes)
        return None if got >= motif.gain else (
            f"nets {plural(got, 'piece')} within {GAIN_PLIES} plies, not {motif.gain}")
    if motif.promise == "crowns":
        base = _kings(pos, us)
        ok = forces(after, us, PROMISE_PLIES, lambda q: q.side == us and _kings(q, us) > base,
                    nodes)
    elif motif.promise == "catches the lone king":
        ok = forces(after, us, PROMISE_PLIES, lambda q: not q.pieces(them)
                    or (q.side == them and not legal_moves(q)), nodes)
    else:
        end = hit.move.end
        on_road = (mirror_square(end) if hit.mirrored else end) in _MAIN_ROAD
        ok = on_road and not any(m.captured >> end & 1 for m in captures(after))
    return None if ok else f"does not prove '{motif.promise}' against every defence"
