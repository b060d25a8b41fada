"""Issue 20's target on real games: every note of the coach checked again by a deeper search, the
moves that lose material by force counted, and the share of them the coach notes and a rule names.

    python bench/master.py --pdn FILE [--moves-depth L] [--judge J] [--seed S] [--engine MS]
                           [--list]

Run it on any PDN collection (master games typed from a tournament book, a club's games). The
figures, each beside its anchor from the same run:

- *moves losing a man by force*: a move after which the best play loses a man or more compared
  with the best move. Precisely: in the position P before the move (side to move s), the
  material search (a man 100, a king 250, captures resolved to their end at the leaves; the
  coach's deep search, no reductions) scores the best move ``L`` plies deep,
  ``best = S_L(P)``, and the move played ``played = -S_{L-1}(P')`` (P' the position after
  it; a side left without a move has lost). The move *loses a man by force* when
  ``best - played >= 100``. Anchor: the same count for a random legal move in each of these
  positions (``--seed``).
- *noted*: of those moves, the share the coach (``annotate``, its deep check unbounded by time
  here: the same notes on any machine) writes an error note on (loses, allowed, missed),
  beside the anchor of the coach without its hunt (every move searched 12 plies deep after
  the proofs: :func:`kbdraughts.coach.annotator.annotate`); the share whose note names a rule of the
  knowledge base (a motif or a pattern); and the share where a rule of the knowledge base
  names the opponent's refutation (the search's best reply in P') or the better move (its
  best move in P), proved at the rule's horizon, note or not.
- *notes held*: each note the coach writes, judged again by its own check ``J`` plies deep
  (default 20, beyond the coach's deepest: 16, and 18 for the hunt's notes); by kind.
  Anchors: the coach without its hunt, the coach confirming at depth 10 only (before issue
  20's master games), and every claim proved at its horizon (what it would write without a
  deep check), judged the same way; and how many of the error notes fall on moves losing a
  man by force at depth ``L``. ``--engine MS``: each note judged too by the
  engine's own search (level 4's evaluation and reductions, ``MS`` a position, so not the
  same on every machine): an error's move three quarters of a man worse than the best move,
  a combination three quarters of a man up.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Sequence

from kbdraughts.coach.annotator import (
    ALLOWED, CONFIRM, ERRORS, LOSES, MISSED, PLAYED, Note, _Coach, _Proved, annotate, named_moves,
)
from kbdraughts.coach.deep_check import DeepCheck
from kbdraughts.ai.engine import Engine
from kbdraughts.board import BLACK, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.notation import move_text
from kbdraughts.proof import GAME, prove

MOVES_DEPTH = 14  # the outside engine's depth in issue 20
JUDGE = 20
SEED = 2026
LOST = 100  # a man
KINDS = (LOSES, ALLOWED, MISSED, PLAYED)


def games_of(pdn: str) -> list[Game]:
    """The games of ``pdn`` that can be read (a broken one named on stderr, skipped)."""
    from kbdraughts.pdn import load_pdn_file

    read = load_pdn_file(pdn)
    for error in read.errors:
        print(f"bench/master.py: {error}; game skipped", file=sys.stderr)
    return [g.game for g in read.games]


class Losses:
    """The material search ``depth`` plies deep over every position of a game: what each move
    played (and a random one) gives away against the best move, and the search's best moves."""

    def __init__(self, depth: int):
        self.depth = depth
        self.searcher = DeepCheck(per_check=None, depth=depth).searcher

    def score(self, pos, depth: int) -> tuple[int, object]:
        """``S_depth(pos)`` for the side to move, clipped to a won game, and its best move."""
        if not legal_moves(pos):
            return -GAME, None
        found = self.searcher.search(pos, max_depth=depth)
        return int(max(-GAME, min(GAME, found.score))), found.move

    def after(self, pos, move) -> tuple[int, object]:
        """The score of ``move`` in ``pos`` (``-S_{depth-1}`` of the position after it) and
        the search's best reply there."""
        value, reply = self.score(play(pos, move), self.depth - 1)
        return -value, reply

    def game(self, game: Game, rng: random.Random) -> list[dict]:
        """Per move: ``loss`` (best - played), ``random_loss`` (best - a random legal move),
        ``best`` and ``reply`` (the search's best move before, its best reply after)."""
        rows = []
        for ply, move in enumerate(game.moves):
            pos = game.positions[ply]
            best, best_move = self.score(pos, self.depth)
            played, reply = self.after(pos, move)
            other, _ = self.after(pos, rng.choice(legal_moves(pos)))
            rows.append({"loss": best - played, "random_loss": best - other,
                         "best": best_move, "reply": reply})
        return rows


def proved_of(game: Game, note: Note) -> _Proved:
    """The claim behind ``note`` as the coach compared it: the move played against every other
    move (loses, allowed), the better move against the move played (missed), the move alone
    (played)."""
    before, move = game.positions[note.ply], game.moves[note.ply]
    if note.kind in (LOSES, ALLOWED):
        return _Proved(note, before, move, tuple(m for m in legal_moves(before) if m != move))
    if note.kind == MISSED:
        return _Proved(note, before, note.line[0], (move,))
    return _Proved(note, before, move, ())


def engine_holds(searcher, game: Game, note: Note, ms: int) -> bool:
    """Whether the engine's own search (its full evaluation, ``ms`` a position) agrees with
    ``note``: an error's move three quarters of a man worse than the best move (its score
    before the move against after it), a combination's move three quarters of a man up."""
    before, after = game.positions[note.ply], game.positions[note.ply + 1]

    def score(pos) -> int:
        if not legal_moves(pos):
            return -GAME
        return int(max(-GAME, min(GAME, searcher.search(pos, movetime_ms=ms).score)))

    played = -score(after)
    if note.kind == PLAYED:
        return played - prove(before, before.side, 0).value >= CONFIRM
    return score(before) - played >= CONFIRM


def claim_key(note: Note) -> tuple:
    return note.ply, note.kind, note.line[0]


def move_number(game: Game, ply: int) -> str:
    """``12. c3-d4`` or ``12... f6-g5``, as the game numbers its moves."""
    first_black = game.positions[0].side == BLACK
    number = (ply + first_black) // 2 + 1
    dots = "..." if game.positions[ply].side == BLACK else "."
    return f"{number}{dots} {move_text(game.moves[ply])}"


def measure(games: Sequence[Game], kb, moves_depth: int, judge: int, seed: int,
            listing: list[str] | None = None, engine_ms: int = 0) -> Counter:
    """The counts the report prints (see the module's docstring); ``listing`` gets a line per
    move losing a man by force (the game, the move, the loss, the coach's note);
    ``engine_ms``: each note also judged by the engine's own search, that long a position."""
    counts: Counter = Counter()
    rng = random.Random(seed)
    losses = Losses(moves_depth)
    engine = Engine(level=4).searcher if engine_ms else None
    for number, game in enumerate(games, 1):
        rows = losses.game(game, rng)
        shipped = annotate(game, kb=kb, check=DeepCheck(per_check=None))
        unhunted = annotate(game, kb=kb, check=DeepCheck(per_check=None, hunt=None))
        shallow = annotate(game, kb=kb, check=DeepCheck(per_check=None, deepest=0, hunt=None))
        proof = _Coach(game, kb, DeepCheck(per_check=None))
        claims = [p.note for ply in range(len(game.moves)) for p in proof.proved(ply)]
        judged = _Coach(game, kb, DeepCheck(per_check=None, depth=judge, deepest=judge))
        held = {}
        for note in claims + shallow + unhunted + shipped:
            if claim_key(note) not in held:
                held[claim_key(note)] = judged.confirm(proved_of(game, note)) is not None
        for note in shipped if engine is not None else ():
            counts["engine held", note.kind] += engine_holds(engine, game, note, engine_ms)
        for what, notes in (("shipped", shipped), ("unhunted", unhunted), ("shallow", shallow),
                            ("proved", claims)):
            for note in notes:
                counts[what, note.kind] += 1
                counts[what + " held", note.kind] += held[claim_key(note)]
                if note.kind in ERRORS:
                    counts[what + " on a loss"] += rows[note.ply]["loss"] >= LOST
                    counts[what + " errors"] += 1
        errors = {n.ply: n for n in shipped if n.kind in ERRORS}
        unhunted_errors = {n.ply for n in unhunted if n.kind in ERRORS}
        for ply, row in enumerate(rows):
            counts["moves"] += 1
            counts["random lost"] += row["random_loss"] >= LOST
            if row["loss"] < LOST:
                continue
            counts["lost"] += 1
            note = errors.get(ply)
            counts["lost noted"] += note is not None
            counts["lost noted unhunted"] += ply in unhunted_errors
            counts["lost named"] += note is not None and note.rule is not None
            before, after = game.positions[ply], game.positions[ply + 1]
            named = (row["best"] in named_moves(kb, before)
                     or (row["reply"] is not None and row["reply"] in named_moves(kb, after)))
            counts["lost kb"] += named
            if listing is not None:
                said = (f"{note.kind}" + (f" ({note.rule.id})" if note.rule is not None else "")
                        if note is not None else "no note")
                listing.append(f"game {number}, {move_number(game, ply)}: loses "
                               f"{row['loss'] / 100:.2f} men at depth {moves_depth}; coach: "
                               f"{said}; a rule names the idea: {'yes' if named else 'no'}")
    return counts


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole if whole else 0:.0f}%)"


def report(counts: Counter, moves_depth: int, judge: int, seed: int, engine_ms: int = 0
           ) -> list[str]:
    """The figures, each beside its anchor."""
    lost = counts["lost"]
    lines = [
        f"moves losing a man or more by force (material search, depth {moves_depth}): "
        f"{_share(lost, counts['moves'])}; anchor, a random legal move in the same positions "
        f"(seed {seed}): {_share(counts['random lost'], counts['moves'])}",
        f"  noted by the coach (loses, allowed, missed): {_share(counts['lost noted'], lost)}; "
        f"anchor, the coach without its hunt (the proofs' horizon only): "
        f"{_share(counts['lost noted unhunted'], lost)}",
        f"  the note names a rule: {_share(counts['lost named'], lost)}; a rule names the "
        f"refutation or the better move: {_share(counts['lost kb'], lost)}",
    ]
    for what, words in (("shipped", "notes written (the coach as shipped: the proofs confirmed "
                                    "at depth 10, the hunt at 12, then to 16)"),
                        ("unhunted", "anchor: the coach without its hunt"),
                        ("shallow", "anchor: notes confirmed at depth 10 only, no hunt"),
                        ("proved", "anchor: claims proved at the horizon")):
        total = sum(counts[what, k] for k in KINDS)
        held = sum(counts[what + " held", k] for k in KINDS)
        kinds = ", ".join(f"{k} {counts[what + ' held', k]}/{counts[what, k]}" for k in KINDS)
        lines.append(f"{words}: held at depth {judge}: {_share(held, total)} ({kinds}); "
                     f"error notes on a move losing a man at depth {moves_depth}: "
                     f"{_share(counts[what + ' on a loss'], counts[what + ' errors'])}")
    if any(k[0] == "engine held" for k in counts if isinstance(k, tuple)):
        total = sum(counts["shipped", k] for k in KINDS)
        held = sum(counts["engine held", k] for k in KINDS)
        kinds = ", ".join(f"{k} {counts['engine held', k]}/{counts['shipped', k]}" for k in KINDS)
        lines.append(f"notes written, held by the engine's own search (level 4's evaluation, "
                     f"{engine_ms} ms a position): {_share(held, total)} ({kinds})")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pdn", required=True, help="the games (a PDN file)")
    p.add_argument("--moves-depth", type=int, default=MOVES_DEPTH,
                   help=f"the search that judges every move, plies (default {MOVES_DEPTH})")
    p.add_argument("--judge", type=int, default=JUDGE,
                   help=f"the check that judges the notes, plies (default {JUDGE})")
    p.add_argument("--seed", type=int, default=SEED, help=f"the random moves' seed ({SEED})")
    p.add_argument("--engine", type=int, default=0, metavar="MS",
                   help="also judge each note by the engine's own search, MS a position "
                   "(default 0: not)")
    p.add_argument("--list", action="store_true",
                   help="list each move losing a man by force, with the coach's note")
    args = p.parse_args(argv)
    from kbdraughts.kb.knowledge import load_knowledge_base

    started = time.perf_counter()
    games = games_of(args.pdn)
    listing: list[str] | None = [] if args.list else None
    counts = measure(games, load_knowledge_base(), args.moves_depth, args.judge, args.seed,
                     listing, args.engine)
    for line in listing or ():
        print(line)
    print(f"bench/master.py: {args.pdn}: {len(games)} games, {counts['moves']} moves; "
          f"{time.perf_counter() - started:.0f} s")
    for line in report(counts, args.moves_depth, args.judge, args.seed, args.engine):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
