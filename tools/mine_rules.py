#!/usr/bin/env python3
"""Mine tactics from level-1 games as pattern rules fixing only the squares their lines use.

Level 1 looks one ply ahead (plus capture trees): it plays its own one-move shots through the
bait term, but not a quiet move that sets up a win of material a move later, and it does not
see such a threat of the opponent's coming. A rule fires before the weighted move, so each
threat written down is one level 1 now plays; a shot written down is also one it avoids
allowing (the heuristic's ``shot-danger`` term values every rule the opponent could play).

This script plays level-1 games (without the knowledge base), and wherever the side to move
has a quiet move that wins material against every defence within ``--plies`` plies and the
captures that follow (a threat, or a shot: men given so that more are taken), it drafts a
pattern rule:

1. fix the squares of the move and its principal line (and the source's kings: elsewhere the
   board says ``x``, no king);
2. look for a refutation: a position of the mined games that the board matches where the
   move does not win (or, ``--fillings`` times running, a random filling of the free squares);
   fix the squares the refutation's line used to their state in the source, and repeat;
3. drop the rule when it grows past ``--max-fixed`` squares, or when it fails anywhere in the
   positions of ``--sample-games`` more games (which also rank the rules: most used first).

``--defend`` mines the safe move where level 1 played one that lost a man instead (tried;
it did not raise the score). ``--max-pieces N`` mines only positions with N pieces or fewer:
most level-1 games are decided there (tried with 10 over 3,000 games: ~800 more rules kept
and the score against level 1 without the knowledge base stayed where it was).
``--refilter FILE`` drops the rules of a file that fail in fresh games;
``--soundness GAMES.pdn`` prints how often the shipped tactics keep the material.

Rules are written for White (a Black shot is mirrored), deduplicated, with the source
position in a comment; the output is a combos file (it made ``combos/tactics.txt``, dropped
since the motifs measured better: see combos/README.md; ``--soundness`` audits such a file when
one is loaded, ``tools/audit_rules.py`` any rule file).

    python tools/mine_rules.py --games 400 --seed 5 --fillings 1 > drafts.txt
    python tools/mine_rules.py --refilter drafts.txt --sample-games 300 --seed 77 > tactics.txt

Nothing here runs at play time; it only drafts text.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import NamedTuple

from kbdraughts.board import (
    RAYS, SQUARES, WHITE, Move, Position, captures, legal_moves, mirror_position, play,
)
from kbdraughts.game import Game
from kbdraughts.kb.rules.pattern import BUILTIN_SYMBOLS, position_cells
from kbdraughts.kb.rules.rule import Rule, make_rule
from kbdraughts.kb.writer import format_rule, format_symbols
from kbdraughts.notation import fen, move_text
from kbdraughts.referee import balance, move_squares, principal_line, resolve
from kbdraughts.squares import SQUARE_RANK, mirror_square

#: The symbol of the squares a mined rule does not fix: anything but a king.
NO_KING = {"x": BUILTIN_SYMBOLS["."] | BUILTIN_SYMBOLS["w"] | BUILTIN_SYMBOLS["b"]}


def wins(pos: Position, plies: int) -> list[tuple[Move, int]]:
    """The quiet moves of the side to move that net at least one piece against every defence
    within ``plies`` more plies and the captures that follow, with the net gain."""
    if captures(pos):
        return []
    us = pos.side
    now = balance(pos, us)
    out = []
    for m in legal_moves(pos):
        gain = resolve(play(pos, m), us, plies) - now
        if gain >= 1:
            out.append((m, gain))
    return out


_HOLDS: dict = {}


def defences(pos: Position, played: Move, plies: int) -> list[tuple[Move, int, set[int]]]:
    """When the move level 1 played in ``pos`` loses a piece within ``plies`` plies and the
    captures that follow, the quiet move that loses nothing (the best such), what it nets,
    and the squares of the line that punished the played move (the danger the rule sees)."""
    if captures(pos) or played.captured:
        return []
    us = pos.side
    now = balance(pos, us)
    lost, punish = principal_line(play(pos, played), us, plies)
    if lost - now >= 0:
        return []
    best = max(((resolve(play(pos, m), us, plies) - now, m) for m in legal_moves(pos)),
               key=lambda x: x[0])
    if best[0] < 0:
        return []
    danger = set(move_squares(played))
    for m in punish:
        danger |= move_squares(m)
    return [(best[1], best[0], danger)]


def holds(pos: Position, move: Move, gain: int, plies: int) -> bool:
    """Whether the move still nets ``gain`` in ``pos`` (True when it cannot be played: a rule
    whose move is illegal does not fire, so such a filling refutes nothing)."""
    key = (pos, move, gain, plies)
    if key not in _HOLDS:
        _HOLDS[key] = move not in legal_moves(pos) or (
            resolve(play(pos, move), pos.side, plies) - balance(pos, pos.side) >= gain)
    return _HOLDS[key]


def quiet_threat(pos: Position) -> bool:
    """Whether the side not to move could capture now: such a filling is a position where the
    shot's author already hangs a man elsewhere; the shot does not claim to mend that."""
    return bool(captures(pos._replace(side=1 - pos.side)))


def fill(source: Position, fixed: set[int], rng: random.Random) -> Position:
    """``source`` on the fixed squares, random men elsewhere (never on their crowning rank, at
    most 12 pieces a side): the rules say ``x`` (no king) on every square they do not fix."""
    white = black = kings = 0
    for s in SQUARES:
        if s in fixed:
            p = source.piece_at(s)
        else:
            r = rng.random()
            if r < 0.55:
                p = None
            elif r < 0.77:
                p = (0, False)
            else:
                p = (1, False)
            if p is not None and not p[1] and SQUARE_RANK[s] == (7 if p[0] == 0 else 0):
                p = None
        if p is None:
            continue
        if p[0] == 0:
            white |= 1 << s
        else:
            black |= 1 << s
        if p[1]:
            kings |= 1 << s
    if white.bit_count() > 12 or black.bit_count() > 12:
        return fill(source, fixed, rng)
    return Position(white, black, kings, source.side)


def generalise(pos: Position, move: Move, gain: int, plies: int, rng: random.Random,
               fillings: int, max_fixed: int, real: list[Position] = (),
               danger: set[int] = frozenset()) -> set[int] | None:
    """The squares a sound rule must fix (None when they exceed ``max_fixed``): start from
    the move and its principal line; add the squares of every refutation found in the
    ``real`` positions the board matches, then in ``fillings`` random fillings running."""
    # The source's kings are fixed too: the rule's 'x' allows no king anywhere else.
    fixed = set(move_squares(move)) | {s for s in SQUARES if pos.kings >> s & 1} | set(danger)
    for m in principal_line(play(pos, move), pos.side, plies)[1]:
        fixed |= move_squares(m)
    real = real_for(real, move)
    tries = 0
    while tries < fillings:
        trial = refuting(pos, fixed, move, gain, plies, real)
        if trial is None:
            tries += 1
            trial = fill(pos, fixed, rng)
            if quiet_threat(trial) or holds(trial, move, gain, plies):
                continue
        new: set[int] = set()
        for m in principal_line(play(trial, move), trial.side, plies)[1]:
            new |= move_squares(m) - fixed
        if not new:  # refuted by a piece that stands (or is missing) off the line
            near = {n for s in fixed for ray in RAYS[s] for n in ray[:1]} - fixed
            near = {s for s in near if trial.piece_at(s) != pos.piece_at(s)}
            if not near:
                near = {s for s in SQUARES
                        if s not in fixed and trial.piece_at(s) != pos.piece_at(s)}
            new = set(rng.sample(sorted(near), min(2, len(near))))
        fixed |= new
        if len(fixed) > max_fixed:
            return None
        tries = 0
    return fixed


_REAL: dict = {}
#: Real positions checked per move at most (the scan repeats as the board grows).
REAL_MAX = 1500


def real_for(real: list[Position], move: Move) -> list[Position]:
    """The positions of ``real`` where a white piece stands on the move's start and its end
    is empty (cached: the same few hundred moves recur)."""
    key = (id(real), move.start, move.end)
    if key not in _REAL:
        _REAL[key] = [p for p in real if p.white >> move.start & 1
                      and not (p.white | p.black) >> move.end & 1][:REAL_MAX]
    return _REAL[key]


def refuting(source: Position, fixed: set[int], move: Move, gain: int, plies: int,
             real: list[Position]) -> Position | None:
    """A position of ``real`` the board (``fixed`` as in ``source``, no king elsewhere)
    matches where the move does not win ``gain``, or None."""
    mask = sum(1 << s for s in fixed)
    w, b, k = source.white & mask, source.black & mask, source.kings & mask
    for p in real:
        if (p.white & mask == w and p.black & mask == b and p.kings & mask == k
                and not p.kings & ~mask and not holds(p, move, gain, plies)):
            return p
    return None


def game_positions(games: int, seed: int) -> list[Position]:
    return [p for p, _ in game_moves(games, seed)]


def game_moves(games: int, seed: int) -> list[tuple[Position, Move]]:
    """Positions from level-1 games without the knowledge base, after a few random plies."""
    from kbdraughts.ai.engine import Engine

    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = Game()
        engine = Engine(level=1, use_kb=False, seed=seed * 1000 + g)
        for ply in range(160):
            if game.result is not None:
                break
            legal = game.legal_moves()
            if not legal:
                break
            pos = game.position
            if ply < rng.randint(2, 8):
                game.push(rng.choice(legal))
            else:
                game.push(engine.choose(game).move)
            out.append((pos, game.moves[-1]))
    return out


class Shot(NamedTuple):
    """A mined rule: the source position (White to move), its move, what it nets, and the
    squares it fixes; ``fires`` and ``holds`` count the sample positions it fired in / won."""

    source: Position
    move: Move
    gain: int
    plies: int
    fixed: frozenset[int]

    def masks(self) -> tuple[int, int, int, int]:
        fixed = sum(1 << s for s in self.fixed)
        src = self.source
        return fixed, src.white & fixed, src.black & fixed, src.kings & fixed

    def applies(self, pos: Position) -> bool:
        """The rule's board fits ``pos`` (White to move): the fixed squares as in the source,
        no king elsewhere."""
        fixed, w, b, k = self.masks()
        return (pos.white & fixed == w and pos.black & fixed == b and pos.kings & fixed == k
                and not pos.kings & ~fixed)

    def rule(self, rule_id: str) -> Rule:
        """The rule: the fixed squares as in the source, ``x`` (no king) elsewhere."""
        replies = captures(play(self.source, self.move))
        given = max((r.captured.bit_count() for r in replies), default=0)
        kind = (f"shot {move_text(self.move)} gives {given}" if given else
                f"threat {move_text(self.move)}" if self.gain else
                f"defence {move_text(self.move)}, where level 1 loses a man")
        return make_rule(rule_id, move_text(self.move), name=f"{kind}, nets {self.gain}",
                         cells=position_cells(self.source, self.fixed, "x"),
                         priority=self.gain, sacrifice=given, symbols=NO_KING)

    def text(self, rule_id: str, fires: int, won: int) -> str:
        """The rule in the combos format, after a comment naming its source."""
        return (f"# from {fen(self.source)}: {len(self.fixed)} squares; in the sample it fired "
                f"{fires} times and won {won}\n" + format_rule(self.rule(rule_id)))


HEADER = """\
# Tactics mined from level-1 games by tools/mine_rules.py ({how}): quiet moves that
# win material against every defence within {plies} plies and the captures that follow --
# threats level 1 cannot see (it looks one ply ahead) and shots it must not allow (the
# heuristic's shot-danger term values every rule the opponent could play).
#
# Each board fixes the squares of the winning line and of every refutation found in the real
# positions of the mined games that it matched; 'x' elsewhere: no king there (kings' long moves
# refute most local tactics). Each rule won wherever it fired in {sample} more games; the
# comment above it names the position it was mined from, and `priority:` is what it nets.
# A board cannot see the whole board: in fresh games about 92% of the firings keep the
# material by a 4-ply search (`python tools/mine_rules.py --soundness GAMES.pdn`).
# tests/test_kb_tactics.py proves each rule in its source position.

""" + format_symbols(NO_KING)

def as_white(pos: Position) -> Position:
    return pos if pos.side == WHITE else mirror_position(pos)


def mine(played: list[tuple[Position, Move]], plies: int, rng: random.Random, fillings: int,
         max_fixed: int, defend: bool = False, max_pieces: int = 24) -> list[Shot]:
    """Generalised shots of ``positions``, deduplicated."""
    out: dict = {}
    real = list({as_white(p) for p, _ in played})
    for pos, done in played:
        if (pos.white | pos.black).bit_count() > max_pieces:
            continue
        found = defences(pos, done, plies) if defend else \
            [(m, gain, set()) for m, gain in wins(pos, plies)]
        for move, gain, danger in found:
            if gain > 4:  # a won game, not a shot
                continue
            src = as_white(pos)
            mv = move if src is pos else mirror_move(move, src)
            if src is not pos:
                danger = {mirror_square(s) for s in danger}
            fixed = generalise(src, mv, gain, plies, rng, fillings, max_fixed, real, danger)
            if fixed is None:
                continue
            shot = Shot(src, mv, gain, plies, frozenset(fixed))
            if len(out) % 50 == 0:
                print(f"# {len(out)} rules so far", file=sys.stderr, flush=True)
            out.setdefault((move_text(mv), shot.masks()), shot)
    return list(out.values())


def score(shot: Shot, sample: list[Position]) -> tuple[int, int]:
    """(fires, wins): sample positions where the rule fires, and where its shot nets what it
    says."""
    fires = won = 0
    fixed, w, b, k = shot.masks()
    for pos in sample:
        if (pos.white & fixed == w and pos.black & fixed == b and pos.kings & fixed == k
                and not pos.kings & ~fixed and shot.move in legal_moves(pos)):
            fires += 1
            won += holds(pos, shot.move, shot.gain, shot.plies)
    return fires, won


def soundness(pdn_paths: list[str], plies: int = 4) -> int:
    """Over every position of the games where a rule of combos/tactics.txt fires, whether its
    move keeps the material by a ``plies``-ply material search (the check levels 2+ make):
    prints one line per failure and the ratio."""
    from kbdraughts.eval.heuristic import material
    from kbdraughts.ai.search import Searcher
    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.pdn import read_pdn_file
    from kbdraughts.values import MAN_VALUE

    kb = load_knowledge_base()
    fired = kept = 0
    for path in pdn_paths:
        for game in read_pdn_file(path):
            for pos in game.game.positions:
                for match in kb.firing(pos):
                    if not match.rule.path.endswith("tactics.txt") or match.move is None:
                        continue
                    fired += 1
                    res = Searcher(material).search(play(pos, match.move), max_depth=plies - 1)
                    lost = material(pos) - -res.score
                    if lost <= match.rule.sacrifice * MAN_VALUE + MAN_VALUE // 2:
                        kept += 1
                    else:
                        print(f"{match.rule.id} {move_text(match.move)} loses {lost / 100:g} "
                              f"in {fen(pos)}")
                    break  # the first tactic that fires is the one the AI plays
    print(f"{kept} of {fired} firings keep the material by a {plies}-ply search "
          f"({kept / max(fired, 1):.1%})")
    return 0


def refilter(path: str, games: int, seed: int, plies: int) -> int:
    """Print the rule file ``path`` without the rules that fail, in the positions of ``games``
    fresh games, to win what they promise (``priority``) where they fire."""
    import re

    from kbdraughts.kb.knowledge import load_knowledge_base

    kb = load_knowledge_base(paths=[Path(path)])
    failed: set[str] = set()
    fired = 0
    for pos in {p for p in game_positions(games, seed)}:
        for match in kb.firing(pos):
            if match.move is None or match.rule.id in failed:
                continue
            fired += 1
            if not holds(pos, match.move, match.rule.priority, plies):
                failed.add(match.rule.id)
    dropped = {r.line for r in kb.rules if r.id in failed}  # where the parser found them
    kept, start = [], 1
    for block in re.split(r"(?m)^(?=# from )", Path(path).read_text()):  # a rule and its source
        end = start + block.count("\n")
        if not any(start <= line < end for line in dropped):
            kept.append(block)
        start = end
    sys.stdout.write("".join(kept))
    print(f"# {fired} firings, {len(failed)} rules dropped", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--sample-games", type=int, default=200,
                    help="more games (another seed) whose positions rank the rules")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fillings", type=int, default=300)
    ap.add_argument("--max-fixed", type=int, default=16)
    ap.add_argument("--plies", type=int, default=2,
                    help="plies after the move (then captures) within which it must win")
    ap.add_argument("--keep", type=int, default=200, help="rules written, most used first")
    ap.add_argument("--prefix", default="tactic")
    ap.add_argument("--defend", action="store_true",
                    help="mine defences: the safe move where level 1 played one that loses")
    ap.add_argument("--soundness", nargs="+", metavar="PDN",
                    help="instead of mining: check the shipped tactics in these games")
    ap.add_argument("--refilter", metavar="RULES",
                    help="instead of mining: drop the rules of this file that fail in "
                         "--sample-games fresh games (--seed)")
    ap.add_argument("--max-pieces", type=int, default=24,
                    help="mine only positions with at most this many pieces (endgames)")
    args = ap.parse_args(argv[1:])
    if args.refilter:
        return refilter(args.refilter, args.sample_games, args.seed, args.plies)
    if args.soundness:
        return soundness(args.soundness)
    rng = random.Random(args.seed)
    found = mine(game_moves(args.games, args.seed), args.plies, rng, args.fillings,
                 args.max_fixed, args.defend, args.max_pieces)
    print(f"# {len(found)} rules mined", file=sys.stderr)
    sample = [as_white(p) for p in game_positions(args.sample_games, args.seed + 7919)]
    ranked = []
    lost = 0
    for shot in found:
        fires, won = score(shot, sample)
        if fires and won == fires and (shot.gain or fires >= 2):
            ranked.append((fires, -len(shot.fixed), shot))
        lost += won < fires
    ranked.sort(key=lambda x: (-x[0], -x[1], move_text(x[2].move)))
    print(f"# {len(ranked)} fired in the sample and always won, {lost} lost somewhere",
          file=sys.stderr)
    print(HEADER.format(how=f"--games {args.games} --seed {args.seed}", plies=args.plies,
                        sample=args.sample_games))
    for n, (fires, _, shot) in enumerate(ranked[: args.keep], 1):
        print(shot.text(f"{args.prefix}-{n}", fires, fires))
    return 0


def mirror_move(move: Move, mirrored: Position) -> Move:
    """``move`` turned 180 degrees: the same move in the mirrored position."""
    flip = mirror_square
    return next(m for m in legal_moves(mirrored)
                if m.start == flip(move.start) and m.end == flip(move.end)
                and [flip(s) for s in m.path] == list(move.path))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
