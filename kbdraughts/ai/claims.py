"""What a rule says its move achieves, and the referee's check that it does.

A motif states its claim (``gain: N`` men, or a ``promise:``; a ``warning`` plays no move and
states a danger). A pattern rule has no such field: the shipped files say what it does in its
name (``shot: ... takes two``, ``threat ..., nets 1``, ``breakthrough: ... crowns``, ``the lone
king's defence: ... onto the long diagonal``, ``Petrov's triangle, the catch``), and
:func:`claim_of` reads that; an exact rule (an opening line) claims nothing.

Every check stands on the referee (:mod:`kbdraughts.referee`, an exhaustive material
minimax on the move generator alone), within fixed bounds counted in plies *after* the move:

- a gain of N: the move nets at least N pieces (and at least one) within ``GAIN_PLIES`` plies
  and every forced capture after them (:func:`kbdraughts.referee.nets`): the move, the
  reply, our answer, then the captures to their end. This is also the "2-ply win" of
  :func:`two_ply_wins`, the one count the coach and ``bench/motifs.py`` share;
- crowns: a new king of ours within ``CROWN_PLIES`` plies whatever the defence;
- catches the lone king: the opponent has no piece, or no move, within ``CATCH_PLIES`` plies;
- holds the main road: the move ends on the long diagonal a1-h8 with a king that the reply
  cannot take;
- a danger (a warning): were it the opponent's move in this position, one move of theirs
  and the captures after it would net them a piece (``DANGER_PLIES``): a man hangs, or a shot
  is threatened.

>>> from kbdraughts.notation import parse_fen, parse_move
>>> pos = parse_fen("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8")
>>> shot, quiet = parse_move(pos, "e3-d4"), parse_move(pos, "a3-b4")
>>> holds(Claim(GAIN, 1), pos, shot), holds(Claim(GAIN), pos, quiet)
(True, False)
>>> [(move_text(m), n) for m, n in two_ply_wins(pos)]
[('e3-d4', 1)]
>>> Claim(GAIN, 2).words(), Claim(GAIN).words(1), Claim(CROWNS).words(), Claim(GAIN).words(99)
('wins two men', 'wins a man', 'crowns', 'wins the game')
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from kbdraughts.board import Move, Position, Side, captures, legal_moves, play
from kbdraughts.notation import move_text
from kbdraughts.proof import prove
from kbdraughts.referee import LOST, Nodes, balance, forces, nets, resolve
from kbdraughts.squares import SQUARE_NAMES, SQUARES
from kbdraughts.values import CROWN_GAIN, MAN_LOST, MAN_VALUE

__all__ = ["Claim", "GAIN", "CROWNS", "CATCHES", "MAIN_ROAD", "DANGER", "PROMISES",
           "GAIN_PLIES", "CROWN_PLIES", "CATCH_PLIES", "DANGER_PLIES", "GAME_WON", "claim_of",
           "holds", "holds_weighed", "gain_of", "two_ply_wins", "danger_is_real", "men_words",
           "claim_worth"]

GAIN, DANGER = "gain", "danger"
#: The promises a motif may make, as its files write them.
CROWNS, CATCHES, MAIN_ROAD = "crowns", "catches the lone king", "holds the main road"
PROMISES = (CROWNS, CATCHES, MAIN_ROAD)
#: Plies after the move within which a claim must hold (then captures to their end).
GAIN_PLIES = 2
CROWN_PLIES = 3
CATCH_PLIES = 2
DANGER_PLIES = 1
#: What a move "nets" when the opponent is left without a piece or a move within the bound:
#: the referee's LOST less any balance; no count of men comes near it.
GAME_WON = LOST // 2

MAIN_ROAD_SQUARES = frozenset(s for s in SQUARES if SQUARE_NAMES[s] in (
    "a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"))
_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NUMBER_WORDS = {w: i for i, w in enumerate(_NUMBERS)} | {"one": 1, "a man": 1}


def men_words(n: int) -> str:
    """``a man``, ``two men``, ``12 men``."""
    word = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{word} {'man' if n == 1 else 'men'}"


class Claim(NamedTuple):
    """What a rule's move achieves: ``kind`` is GAIN, DANGER or one of PROMISES; ``men`` the
    men a gain declares (0: not declared, at least one, as measured)."""

    kind: str
    men: int = 0

    def words(self, measured: int | None = None) -> str:
        """The claim as a coach says it; a gain says ``measured`` men when given."""
        if self.kind == GAIN:
            if measured is not None and measured >= GAME_WON:
                return "wins the game"
            return f"wins {men_words(measured if measured is not None else max(1, self.men))}"
        if self.kind == DANGER:
            return "a danger"
        return self.kind


# "takes two", "takes four and crowns", "nets 1", "gives a man", "gives two men"
_TAKES = re.compile(r"\btakes (\w+)")
_NETS = re.compile(r"\bnets (\d+)")
_GIVES = re.compile(r"\bgives (a man|\w+ men)")


def claim_of(rule: Any) -> Claim | None:
    """The claim of a rule (a motif's fields, else a pattern rule's name); None for a rule
    that claims nothing the referee can check (an opening line, a taught position)."""
    if getattr(rule, "warning", False):
        return Claim(DANGER)
    gain = getattr(rule, "gain", None)
    if gain:
        return Claim(GAIN, int(gain))
    promise = getattr(rule, "promise", None)
    if promise in PROMISES:
        return Claim(promise)
    if getattr(rule, "exact", False):
        return None
    return _named_claim(str(getattr(rule, "name", "") or "").lower())


def _named_claim(name: str) -> Claim | None:
    """A pattern rule's claim as the shipped files word it in its name."""
    if m := _NETS.search(name):
        return Claim(GAIN, int(m.group(1)))
    if m := _TAKES.search(name):
        taken = _NUMBER_WORDS.get(m.group(1), 1)
        given = _GIVES.search(name)
        lost = _NUMBER_WORDS.get(given.group(1).split()[0], 1) if given else 0
        return Claim(GAIN, max(1, taken - lost))
    if "catch" in name or "no safe square" in name:
        return Claim(CATCHES)
    if "long diagonal" in name or "main road" in name:
        return Claim(MAIN_ROAD)
    if "crowns" in name:
        return Claim(CROWNS)
    if name.startswith(("shot", "threat")):
        return Claim(GAIN)
    return None


# -- the checks ---------------------------------------------------------------------------


def claim_worth(rule: Any) -> int:
    """What ``rule``'s claim wins, on the capture tree's scale (a man MAN_LOST, a crowning
    CROWN_GAIN); 0 without a claim, or for a promise of no material. The weighted move turns
    the opponent's motifs round by it: their quiet threat or breakthrough takes nothing at once.

    >>> from types import SimpleNamespace as Rule
    >>> claim_worth(Rule(gain=2, promise=None)), claim_worth(Rule(gain=None, promise=CROWNS))
    (200, 200)
    """
    claim = claim_of(rule)
    if claim is None:
        return 0
    if claim.kind == GAIN:
        return max(1, claim.men) * MAN_LOST
    return CROWN_GAIN if claim.kind == CROWNS else 0


def gain_of(before: Position, move: Move, plies: int = GAIN_PLIES,
            nodes: Nodes | None = None) -> int:
    """Pieces ``move`` nets for the side that plays it, against the best defence, within
    ``plies`` plies after it and the captures that follow (GAME_WON or more: the opponent is
    left without a piece or a move). ``nodes``: the referee's budget (OutOfNodes past it)."""
    return nets(before, play(before, move), before.side, plies, nodes)


def _kings(pos: Position, side: Side) -> int:
    return (pos.pieces(side) & pos.kings).bit_count()


def holds(claim: Claim, before: Position, move: Move, nodes: Nodes | None = None) -> bool:
    """Whether ``move``, played in ``before``, does what ``claim`` says, whatever the defence
    (within the bounds above). A danger is no move's claim: see :func:`danger_is_real`.
    ``nodes``: the referee's budget (OutOfNodes past it)."""
    us = before.side
    after = play(before, move)
    if claim.kind == GAIN:
        return nets(before, after, us, GAIN_PLIES, nodes) >= max(1, claim.men)
    if claim.kind == CROWNS:
        base = _kings(before, us)
        return forces(after, us, CROWN_PLIES, lambda p: _kings(p, us) > base, nodes)
    if claim.kind == CATCHES:
        them = 1 - us
        return forces(after, us, CATCH_PLIES, lambda p: not p.pieces(them)
                      or (p.side == them and not legal_moves(p)), nodes)
    if claim.kind == MAIN_ROAD:
        return (move.end in MAIN_ROAD_SQUARES and bool(after.kings >> move.end & 1)
                and not any(m.captured >> move.end & 1 for m in captures(after)))
    return False


def holds_weighed(claim: Claim, before: Position, move: Move, nodes: Nodes | None = None
                  ) -> bool:
    """:func:`holds`, a gain counted in material as a player counts it (a king 2.5 men,
    :mod:`kbdraughts.proof`): the move's material after ``GAIN_PLIES`` plies and the
    captures after them, against every defence, exceeds the material before it (its
    captures resolved) by the men claimed. A shot that wins a man while the opponent crowns
    wins nothing here, though it nets a piece by the referee's count. Promises: as
    :func:`holds`. ``nodes``: the budget (OutOfNodes past it)."""
    if claim.kind != GAIN:
        return holds(claim, before, move, nodes)
    us = before.side
    base = prove(before, us, 0, nodes).value
    won = prove(play(before, move), us, GAIN_PLIES, nodes).value - base
    return won >= max(1, claim.men) * MAN_VALUE


def danger_is_real(pos: Position) -> bool:
    """Were it the opponent's move here, one move of theirs and the captures after it would
    net them a piece: the side to move has a man hanging, or faces a shot."""
    them = 1 - pos.side
    turned = pos._replace(side=them)
    return resolve(turned, them, DANGER_PLIES) - balance(turned, them) >= 1


def two_ply_wins(pos: Position) -> list[tuple[Move, int]]:
    """The moves of the side to move that net at least one piece within GAIN_PLIES plies and
    the captures after them (:func:`gain_of`), with what each nets, in move text order. Empty
    while a capture is pending: the benchmarks count quiet positions only."""
    if captures(pos):
        return []
    out = []
    for m in sorted(legal_moves(pos), key=move_text):
        n = gain_of(pos, m)
        if n >= 1:
            out.append((m, n))
    return out
