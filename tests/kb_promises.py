"""What a shipped hand-written rule promises, checked by a small exhaustive search.

The AI's capture tree is not used on purpose: these checks stand on the referee
(:mod:`kbdraughts.referee`, an exhaustive material minimax built only on the move
generator), which the rule tools draft with too. Every check takes the position *after* the rule's move, with
``us`` the side that played it; ``rule_move`` finds that move.
"""

from __future__ import annotations

from typing import Any

from kbdraughts.referee import forces
from kbdraughts.board import SQUARES, Move, Position, captures, legal_moves, mirror_position, play
from kbdraughts.notation import SQUARE_NAMES, parse_fen

MAIN_ROAD = {s for s in SQUARES if SQUARE_NAMES[s] in ("a1", "b2", "c3", "d4", "e5", "f6", "g7",
                                                       "h8")}


def rule_move(kb: Any, rule_id: str, fen: str, mirrored: bool) -> tuple[Position, Move]:
    """The position ``fen`` (turned round for the mirrored rule) and the move ``rule_id``
    plays there; fails when the rule does not fire."""
    pos = parse_fen(fen)
    if mirrored:
        pos = mirror_position(pos)
    fired = [m for m in kb.firing(pos) if m.rule.id == rule_id and m.mirrored == mirrored]
    assert fired, f"{rule_id} does not fire in {fen}" + (" (mirrored)" if mirrored else "")
    return pos, fired[0].move


def kings(pos: Position, side: int) -> int:
    return (pos.pieces(side) & pos.kings).bit_count()


def crowns(before: Position, after: Position, us: int, plies: int = 3) -> bool:
    """A new king for ``us`` within ``plies`` plies after the move, whatever the defence."""
    base = kings(before, us)
    return forces(after, us, plies, lambda p: kings(p, us) > base)


def catches(after: Position, us: int, plies: int = 2) -> bool:
    """The opponent's last piece is taken (or it cannot move) within ``plies`` plies."""
    them = 1 - us
    return forces(after, us, plies, lambda p: not p.pieces(them)
                  or (p.side == them and not legal_moves(p)))


def king_square(pos: Position, side: int) -> int | None:
    ks = pos.pieces(side) & pos.kings
    return ks.bit_length() - 1 if ks else None


def holds_main_road(after: Position, us: int, landing: int) -> bool:
    """Our king stands on the long diagonal a1-h8 and the opponent cannot take it next."""
    return (landing in MAIN_ROAD and after.pieces(us) >> landing & 1
            and not any(m.captured >> landing & 1 for m in captures(after)))


def lone_king_survives(after: Position, us: int) -> bool:
    """Every reply leaves our king on the board, and we always have a move after which it
    still cannot be taken (two plies of the strong side's best tries)."""
    for reply in legal_moves(after):
        p = play(after, reply)
        if not p.pieces(us):
            return False
        moves = legal_moves(p)
        if not moves:
            return False
        if not any(not any(m.captured & play(p, mine).pieces(us)
                           for m in captures(play(p, mine))) for mine in moves):
            return False
    return True
