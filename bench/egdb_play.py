"""The endgame tables in play, measured against issue 21's targets, each beside the same AI
without the tables in the same run.

    python bench/egdb_play.py [--quick] [--seed N] [--judged N] [--won N] [--drawn N]
                              [--movetime MS] [--pieces 4|5] [--only judge|play]
                              [--min-distance PLIES]

(a) **Draw judgement.** ``--judged`` positions (default 1,000) of 2..``--pieces`` pieces with a
king on each side, drawn at random from the tables' indices (seeded), half of them given a
random walk of quiet moves so that the draw rules' counters run (up to 58 plies; none where a
capture is pending). The truth is
the database's verdict with the draw rules on top (``ai/endgame.judge``; a position whose
verdict is unsure, a man that may reset the 15-move count, is drawn again and counted). For
each side: it should offer a draw exactly when the position is drawn, and take one exactly
when it is drawn or lost for it. Measured: ``Engine.offers_draw`` and ``Engine.draw_verdict``
of the default level with the tables, and the same without them (today's 4-ply judgement,
``Engine(egdb=False)``), as the share that agrees with the truth.

(b) **Play.** ``--won`` won and ``--drawn`` drawn positions of 3..``--pieces`` pieces (any
material, no capture pending at the start; the draw counters at zero), drawn at random. The
default level (``Engine(level=4)``, the knowledge base and the tables) plays the winning side
of each won one, and a side of each drawn one (in turn the side to move and the other); the
database's best defence plays the other side: the longest loss (``ai/endgame.decide``), or a
move that keeps the draw, chosen at random among them (seeded). The game's draw rules end the
games (``kbdraughts/game.py``). Measured: the won ones won, the drawn ones not lost; and the
same positions played by the level without the tables (``Engine(level=4, egdb=False)``:
neither its first layer nor its search's nodes read them), both at ``--movetime`` ms a move
(default 50: the search decides in the tables' drawn positions among the moves that keep the
draw, and everywhere without them). Most random won positions are near a conversion;
``--min-distance 10`` plays only those 10 plies or more from it (a different sample: the
same seed, a filter).

The positions are seeded and the same in every run; a timed search is not, so the figures
without the tables may move a little from run to run. ``--quick`` judges 200 positions and plays
40 won and 40 drawn ones. The 5-piece tables are used when all are built (``kbdraughts egdb
build --pieces 5``), else 4 pieces, and the run says which.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from typing import Callable, NamedTuple

from kbdraughts.ai import endgame
from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.ai.engine import Engine
from kbdraughts.ai.rulebook import KnowledgeBase, load_default_kb
from kbdraughts.board import Move, Position, captures, legal_moves, play
from kbdraughts.egdb import build, probe
from kbdraughts.egdb.index import Material, material_of, materials, size, unrank
from kbdraughts.egdb.probe import DRAW, WIN
from kbdraughts.game import Game
from kbdraughts.notation import fen, parse_fen
from kbdraughts.squares import side_name

SEED = 21
#: The longest random walk before a judged position, in plies (the 15-move rule is 30).
WALK_PLIES = 58
#: A game still going after this many plies is stopped and counted apart.
MAX_PLIES = 300
MOVETIME_MS = 50

Defence = Callable[[Game], Move]


# -- the tables ---------------------------------------------------------------------------------


def tables_ready(want: int = 5) -> int:
    """The most pieces (4 or ``want``) whose tables are all there, building those of 4 at first
    need (the engine's own database, waited for)."""
    db = probe.default()
    db.table(material_of(parse_fen("W:WKc1:BKa1")))  # starts the first-need build
    db.wait()
    for n in range(want, probe.AUTO_PIECES, -1):
        if all(build.load(db.folder, m)[0] is not None for m in materials(n) if m.pieces == n):
            return n
    return min(want, probe.AUTO_PIECES)


def random_position(rng: random.Random, kinds: list[Material]) -> Position:
    """A position of a material drawn from ``kinds``, uniform over that table's indices."""
    m = rng.choice(kinds)
    return unrank(m, rng.randrange(size(m)))


def kinds_of(pieces: range, kings_both: bool) -> list[Material]:
    """The materials of ``pieces`` pieces (those with a king on each side: ``kings_both``)."""
    return [m for m in materials(max(pieces)) if m.pieces in pieces
            and (not kings_both or (m.wk and m.bk))]


# -- (a) the draw judgement ---------------------------------------------------------------------


def walk(game: Game, rng: random.Random, plies: int) -> None:
    """Up to ``plies`` random moves that neither take nor crown nor leave a capture to the
    reply, so the draw counters run; stops before a move that would end the game."""
    for _ in range(plies):
        pos = game.position
        quiet = [m for m in game.legal_moves() if not m.captured and not m.crowned
                 and not captures(play(pos, m))]
        if not quiet:
            return
        game.push(rng.choice(quiet))
        if game.result is not None:
            game.pop()
            return


def judged_games(count: int, pieces: int, seed: int) -> tuple[list[Game], int]:
    """``count`` games in positions of 2..``pieces`` pieces with a king on each side whose
    verdict the database gives (draw rules on top), and how many were drawn and passed over
    as unsure."""
    rng = random.Random(seed)
    kinds = kinds_of(range(2, pieces + 1), kings_both=True)
    games: list[Game] = []
    unsure = 0
    while len(games) < count:
        game = Game(random_position(rng, kinds))
        if game.result is not None:
            continue
        if rng.random() < 0.5:
            walk(game, rng, rng.randint(1, WALK_PLIES))
        if endgame.judge(game.position, *game_counters(game)) is None:
            unsure += 1
            continue
        games.append(game)
    return games, unsure


class Agreement(NamedTuple):
    """How often a judge agrees with the database, over positions and both sides."""

    offers: int  # offered exactly when drawn
    accepts: int  # took a draw exactly when drawn or lost
    asked: int  # judgements of each kind (positions x 2 sides)
    wrong: list[str]  # the first disagreements, as "FEN side offer|accept"


def agreement(engine: Engine, games: list[Game], keep: int = 5) -> Agreement:
    """``engine``'s draw offers and acceptances against the database's verdict."""
    offers = accepts = 0
    wrong: list[str] = []
    for game in games:
        verdict = endgame.judge(game.position, *game_counters(game))
        assert verdict is not None
        for side in (0, 1):
            outcome = verdict.outcome if game.side == side else -verdict.outcome
            if engine.offers_draw(game, side)[0] == (outcome == 0):
                offers += 1
            elif len(wrong) < keep:
                wrong.append(f"{fen(game.position)} side {side} offer")
            if engine.draw_verdict(game, side)[0] == (outcome <= 0):
                accepts += 1
            elif len(wrong) < keep:
                wrong.append(f"{fen(game.position)} side {side} accept")
    return Agreement(offers, accepts, 2 * len(games), wrong)


# -- (b) play ------------------------------------------------------------------------------------


class Start(NamedTuple):
    """A position to play from: the side the AI plays, and the database's verdict for it."""

    position: Position
    ai_side: int
    outcome: int  # for the AI's side: +1 won, 0 drawn
    distance: int  # the board's plies to the next conversion (0 for a draw)


def play_starts(won: int, drawn: int, pieces: int, seed: int, min_distance: int = 0
                ) -> list[Start]:
    """``won`` won and ``drawn`` drawn positions of 3..``pieces`` pieces, quiet (no capture
    pending), the AI on the winning side of a won one (``min_distance`` plies or more from the
    next conversion) and on either side of a drawn one."""
    rng = random.Random(seed)
    kinds = kinds_of(range(3, pieces + 1), kings_both=False)
    wins: list[Start] = []
    draws: list[Start] = []
    while len(wins) < won or len(draws) < drawn:
        pos = random_position(rng, kinds)
        legal = legal_moves(pos)
        if not legal or legal[0].captured:
            continue
        v = endgame.judge(pos, 0, 0, legal=legal)
        if v is None:
            continue
        if v.outcome and len(wins) < won and v.distance >= min_distance:
            side = pos.side if v.outcome > 0 else 1 - pos.side
            wins.append(Start(pos, side, 1, v.distance))
        elif not v.outcome and len(draws) < drawn:
            side = pos.side if len(draws) % 2 == 0 else 1 - pos.side
            draws.append(Start(pos, side, 0, 0))
    return wins + draws


def table_defence(rng: random.Random, fallbacks: Counter[str]) -> Defence:
    """The database's best defence: the longest loss, or a draw-keeping move at random; where
    the rules' effect is unsure (a man may reset the 15-move count), by the board's values
    alone (counted in ``fallbacks``)."""
    def choose(game: Game) -> Move:
        legal = game.legal_moves()
        d = endgame.decide(game.position, legal, *game_counters(game))
        if d is not None:
            return rng.choice(d.keeping) if d.verdict.outcome == 0 else d.best
        fallbacks["by the board"] += 1
        return board_best(game.position, legal)
    return choose


def board_best(pos: Position, legal: list[Move]) -> Move:
    """The best move by the tables' values alone: a win soonest, a loss latest, else a draw."""
    def worth(move: Move) -> tuple[int, int]:
        after = play(pos, move)
        if not after.pieces(after.side) or not legal_moves(after):
            return (1, 0)
        found = probe.probe(after)
        if found is None or found[0] == DRAW:
            return (0, 0)
        value, d = found  # for the side to move after the move: the mover's opposite
        return (-1, d) if value == WIN else (1, -d)
    return max(legal, key=worth)


class Played(NamedTuple):
    """How one game from a Start ended, for the AI's side."""

    score: int  # +1 won, 0 drawn, -1 lost, STOPPED: still going at MAX_PLIES
    plies: int
    reason: str


STOPPED = 2


def play_from(start: Start, ai: Engine, defence: Defence) -> Played:
    """``ai`` plays ``start.ai_side`` against ``defence`` until the game ends by the rules."""
    game = Game(start.position)
    while game.result is None and game.ply < MAX_PLIES:
        if game.side == start.ai_side:
            choice = ai.choose(game)
            assert choice is not None
            game.push(choice.move)
        else:
            game.push(defence(game))
    result = game.result
    if result is None:
        return Played(STOPPED, game.ply, "stopped")
    score = 0 if result.winner is None else 1 if result.winner == start.ai_side else -1
    return Played(score, game.ply, result.reason.value)


class Tally(NamedTuple):
    """The games of one engine from one kind of start."""

    won: int
    drawn: int
    lost: int
    stopped: int
    reasons: Counter[str]
    plies: list[int]
    failed: list[str]  # FENs of the starts that missed the target (won not won, drawn lost)


def tally(starts: list[Start], ai: Engine, seed: int, fallbacks: Counter[str],
          on_game: Callable[[int], None] | None = None) -> Tally:
    """Every start played by ``ai`` against the tables' defence (seeded per start)."""
    won = drawn = lost = stopped = 0
    reasons: Counter[str] = Counter()
    plies: list[int] = []
    failed: list[str] = []
    for i, start in enumerate(starts):
        rng = random.Random(f"{seed} {fen(start.position)}")
        p = play_from(start, ai, table_defence(rng, fallbacks))
        won += p.score == 1
        drawn += p.score == 0
        lost += p.score == -1
        stopped += p.score == STOPPED
        reasons[p.reason] += 1
        plies.append(p.plies)
        if (start.outcome == 1 and p.score != 1) or (start.outcome == 0 and p.score == -1):
            failed.append(f"{fen(start.position)} (AI {side_name(start.ai_side)})")
        if on_game:
            on_game(i)
    return Tally(won, drawn, lost, stopped, reasons, plies, failed)


# -- the run -------------------------------------------------------------------------------------


def engines(movetime_ms: int, seed: int, kb: KnowledgeBase | None) -> tuple[Engine, Engine]:
    """The default level with the tables, and the same without them."""
    return (Engine(level=4, movetime_ms=movetime_ms, seed=seed, kb=kb),
            Engine(level=4, movetime_ms=movetime_ms, seed=seed, kb=kb, egdb=False))


def percent(n: int, of: int) -> str:
    return f"{n}/{of} ({100 * n / of:.1f}%)" if of else "0/0"


def progress(label: str, total: int) -> Callable[[int], None]:
    def note(i: int) -> None:
        if sys.stderr.isatty():
            print(f"\r  {label} {i + 1}/{total}", end="" if i + 1 < total else "\n",
                  file=sys.stderr, flush=True)
    return note


def run_judgement(count: int, pieces: int, seed: int, kb: KnowledgeBase | None) -> None:
    start = time.process_time()
    games, unsure = judged_games(count, pieces, seed)
    truth = Counter(("drawn" if v.outcome == 0 else "won/lost")
                    + (" by the rules" if v.by_rules else "")
                    for v in (endgame.judge(g.position, *game_counters(g)) for g in games))
    counted = sum(bool(game_counters(g)[1]) for g in games)
    print(f"(a) draw judgement: {len(games)} positions of 2..{pieces} pieces, a king on each "
          f"side, {counted} after a walk that ran the counters; passed over as unsure: "
          f"{unsure}")
    print(f"    the database says: {dict(sorted(truth.items()))}")
    with_tables, without = engines(MOVETIME_MS, seed, kb)
    for name, engine in (("with the tables", with_tables),
                         ("4-ply judgement (anchor)", without)):
        a = agreement(engine, games)
        print(f"    {name:26} offers agree {percent(a.offers, a.asked)}, "
              f"acceptances agree {percent(a.accepts, a.asked)}")
        for w in a.wrong[:3]:
            print(f"      e.g. {w}")
    print(f"    CPU {time.process_time() - start:.0f} s")


def run_play(won: int, drawn: int, pieces: int, seed: int, movetime_ms: int,
             kb: KnowledgeBase | None, min_distance: int = 0) -> None:
    start = time.process_time()
    starts = play_starts(won, drawn, pieces, seed, min_distance)
    wins = [s for s in starts if s.outcome == 1]
    draws = [s for s in starts if s.outcome == 0]
    by_pieces = Counter(sum(s.position.counts()) for s in starts)
    dist = [s.distance for s in wins] or [0]
    print(f"(b) play at {movetime_ms} ms a move against the database's best defence: "
          f"{len(wins)} won and {len(draws)} drawn positions of 3..{pieces} pieces "
          f"(by pieces {dict(sorted(by_pieces.items()))}); the won ones' plies to the next "
          f"conversion: mean {statistics.mean(dist):.1f}, 10 or more in "
          f"{sum(d >= 10 for d in dist)}, longest {max(dist)}")
    with_tables, without = engines(movetime_ms, seed, kb)
    for name, engine in (("kb:4 with the tables", with_tables),
                         ("kb:4 without (anchor)", without)):
        fallbacks: Counter[str] = Counter()
        tw = tally(wins, engine, seed, fallbacks, progress(f"{name}, won", len(wins)))
        td = tally(draws, engine, seed, fallbacks, progress(f"{name}, drawn", len(draws)))
        print(f"    {name:22} won positions: won {percent(tw.won, len(wins))}, drawn "
              f"{tw.drawn}, lost {tw.lost}, stopped {tw.stopped}; drawn positions: not lost "
              f"{percent(len(draws) - td.lost, len(draws))} (won {td.won}, lost {td.lost}, "
              f"stopped {td.stopped})")
        ends = tw.reasons + td.reasons
        print(f"      how they ended: {dict(ends.most_common())}; mean plies "
              f"{statistics.mean(tw.plies + td.plies or [0]):.1f}; defence by the board's values "
              f"alone: {sum(fallbacks.values())} moves")
        for f in (tw.failed + td.failed)[:3]:
            print(f"      missed: {f}")
    print(f"    CPU {time.process_time() - start:.0f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="200 judged, 40 won, 40 drawn")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--judged", type=int, default=None)
    ap.add_argument("--won", type=int, default=None)
    ap.add_argument("--drawn", type=int, default=None)
    ap.add_argument("--movetime", type=int, default=MOVETIME_MS, help="ms a move in play")
    ap.add_argument("--pieces", type=int, choices=(4, 5), default=5,
                    help="the most pieces (5 only when those tables are built)")
    ap.add_argument("--only", choices=("judge", "play"), default=None, help="one part only")
    ap.add_argument("--min-distance", type=int, default=0,
                    help="won positions at least this many plies from the next conversion")
    args = ap.parse_args(argv)
    judged = args.judged if args.judged is not None else 200 if args.quick else 1000
    won = args.won if args.won is not None else 40 if args.quick else 200
    drawn = args.drawn if args.drawn is not None else 40 if args.quick else 200
    pieces = tables_ready(args.pieces)
    print(f"endgame tables of up to {pieces} pieces in {probe.default().folder}"
          f"{'' if pieces == args.pieces else f' (those of {args.pieces} are not all built)'}; "
          f"seed {args.seed}; load average {os.getloadavg()[0]:.2f}")
    kb = load_default_kb()
    if args.only in (None, "judge"):
        run_judgement(judged, pieces, args.seed, kb)
    if args.only in (None, "play"):
        run_play(won, drawn, pieces, args.seed, args.movetime, kb, args.min_distance)
    return 0


if __name__ == "__main__":
    sys.exit(main())
