#!/usr/bin/env python3
"""Find shots in random games and print them as combos rules, for a rule author to curate.

A *shot* (udar) is a quiet move that gives material away (the opponent must capture: capture
is compulsory) so that a bigger capture opens; a *breakthrough* gives men away to crown one.
This script plays random games, and in every quiet position with White to move looks for a
move that the forced continuation proves: the opponent's every reply, our best answer, and
then all the captures that follow (they are forced) — and it must come out ahead of every
quiet alternative. For each one it prints a rule whose board fixes the squares the line uses
and their neighbours (the rest ``?``), with ``sacrifice:`` and the source FEN in a comment, so
the author can name it, trim it, and add its test (tests/test_kb_shipped.py).

    python tools/find_shots.py [--games 400] [--seed 7] [--min-gain 1] [--crown]

Nothing here runs at play time; it only drafts text.
"""

from __future__ import annotations

import argparse
import random
import sys

# The referee the tests prove rules with (an exhaustive search on the move generator only):
# a rule drafted here is found by the same count it is later checked by.
from kbdraughts.referee import balance, forces, move_squares, resolve
from kbdraughts.board import RAYS, WHITE, Move, Position, captures, legal_moves, play
from kbdraughts.game import random_walk
from kbdraughts.kb.rules.pattern import position_cells
from kbdraughts.kb.rules.rule import Rule, make_rule
from kbdraughts.kb.writer import format_rule
from kbdraughts.notation import fen, move_text


def line_squares(pos: Position, us: int, depth: int, out: set[int]) -> int:
    """Like :func:`resolve`, collecting the squares every opponent reply and our best answers
    use (starts, landings, taken pieces)."""
    moves = legal_moves(pos)
    if not moves:
        return -99 if pos.side == us else 99
    if depth <= 0 and not moves[0].captured:
        return balance(pos, us)
    scored = []
    for m in moves:
        seen: set[int] = set()
        v = line_squares(play(pos, m), us, depth - 1, seen)
        scored.append((v, m, seen))
    if pos.side == us:
        v, m, seen = max(scored, key=lambda x: x[0])
        out.update(seen | move_squares(m))
        return v
    for _, m, seen in scored:
        out.update(seen | move_squares(m))
    return min(v for v, _, _ in scored)


def _neighbours(squares: set[int]) -> set[int]:
    out = set(squares)
    for s in squares:
        for ray in RAYS[s]:
            if ray:
                out.add(ray[0])
    return out


def draft(n: int, pos: Position, hit: tuple[Move, int, int, set[int]]) -> Rule:
    """The rule drafted from a proved shot, fixing the squares of its line and their
    neighbours (the rest ``?``)."""
    move, given, gain, squares = hit
    cells = position_cells(pos, keep=_neighbours(squares))
    return make_rule(f"draft-{n}", move_text(move), cells=cells, name=describe(pos, move),
                     priority=gain, sacrifice=given)


def find(pos: Position, min_gain: int, crown: bool) -> tuple[Move, int, int, set[int]] | None:
    """A proved shot for White in a quiet position: (move, men given, gain, squares)."""
    if pos.side != WHITE or captures(pos):
        return None
    now = balance(pos, WHITE)
    best_quiet = None
    found = None
    for m in legal_moves(pos):
        after = play(pos, m)
        replies = captures(after)
        if not replies:
            continue
        squares: set[int] = set()
        v = line_squares(after, WHITE, 2, squares)
        if crown:
            if not _crowns(after, 3):
                continue
        elif v - now < min_gain:
            continue
        given = max(r.captured.bit_count() for r in replies)
        if found is None or v > found[2]:
            found = (m, given, v - now, squares | move_squares(m))
    if found is None:
        return None
    for m in legal_moves(pos):  # a shot must beat every quiet alternative
        after = play(pos, m)
        if not captures(after):
            best_quiet = max(best_quiet or -99, resolve(after, WHITE, 2))
    if best_quiet is not None and best_quiet - now >= found[2] and not crown:
        return None
    return found


def _crowns(pos: Position, depth: int) -> bool:
    """Whether White forces a new king within ``depth`` plies (White to reply after Black)."""
    kings = (pos.white & pos.kings).bit_count()
    return forces(pos, WHITE, depth, lambda p: (p.white & p.kings).bit_count() > kings)


def describe(pos: Position, move: Move) -> str:
    """The forced line in words: our move, the replies, our best capture."""
    after = play(pos, move)
    replies = legal_moves(after)
    words = [move_text(move)]
    if len(replies) == 1:
        words.append(move_text(replies[0]) + " forced")
        answers = legal_moves(play(after, replies[0]))
        if answers and answers[0].captured:
            best = max(answers, key=lambda m: resolve(play(play(after, replies[0]), m), WHITE, 0))
            words.append(move_text(best) + (" crowning" if best.crowned else ""))
    else:
        words.append(" or ".join(move_text(r) for r in replies))
    return "shot: " + ", ".join(words)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--min-gain", type=int, default=1)
    ap.add_argument("--crown", action="store_true", help="find breakthroughs to the crown")
    args = ap.parse_args(argv[1:])
    rng = random.Random(args.seed)
    seen = set()
    n = 0
    for _ in range(args.games):
        for pos in random_walk(rng, rng.randint(10, 70)):
            hit = find(pos, args.min_gain, args.crown)
            if hit is None or hit[2] > 12:  # nothing, or a won game rather than a shot
                continue
            key = (move_text(hit[0]), frozenset((s, pos.piece_at(s)) for s in _neighbours(hit[3])))
            if key in seen:
                continue
            seen.add(key)
            n += 1
            print(f"# from {fen(pos)}: gives {hit[1]}, nets {hit[2]:+d}")
            print(format_rule(draft(n, pos, hit)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
