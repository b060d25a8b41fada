"""Positions to learn from: self-play games of the native search at a fixed depth, each quiet
position labelled by the game's result and by the search's own score there.

A game opens with random plies (drawn from its seed) so that games differ; after them each side
plays the search's move at ``depth``, and now and then (``noise``) a random one, so the games
visit positions a search of its own would avoid. A position is kept when the side to move has
no capture (the evaluation is asked only there: captures are the search's to resolve). A game
that reaches MAX_PLIES is judged by material: a man and a half ahead wins.

A file is one position a line, ``FEN RESULT SCORE GAME``: the result for White (1, 0.5, 0),
the search's score for the side to move in hundredths of a man (its depth-``depth`` verdict),
and the game's number, so that a held-out set keeps whole games apart.

Games run on local processes (``jobs``), or on a Ray cluster (:mod:`kbdraughts.tune.cluster`):
each game is a function of its number and the settings alone, so any worker may play it and the
file is the same whoever played.

>>> lines = play_game(Settings(depth=2, opening_plies=4, max_plies=12), 7)
>>> all(len(line.split()) == 4 for line in lines) and lines[0].endswith(" 7")
True
"""

from __future__ import annotations

import os
import random
from itertools import count
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, TypeVar

from kbdraughts.eval.heuristic import Heuristic, default_heuristic, material
from kbdraughts.ai.layers import recurring_positions
from kbdraughts.ai.native_search import SHORT_TT_SIZE, make_searcher
from kbdraughts.ai.search import MATE_ZONE
from kbdraughts.board import WHITE
from kbdraughts.errors import KbdraughtsError
from kbdraughts.files import check_readable, write_whole
from kbdraughts.game import Game
from kbdraughts.notation import fen

__all__ = ["Settings", "play_game", "played_lines", "write_games", "MAX_PLIES", "ADJUDICATE",
           "resume", "GamesFileError", "in_batches", "batched", "BATCH"]

#: Plies after which a game is judged by material.
MAX_PLIES = 200
#: The material lead (a man and a half) that wins a game judged at MAX_PLIES.
ADJUDICATE = 150


@dataclass(frozen=True)
class Settings:
    """How the games are played: the same settings and number give the same game."""

    depth: int = 6
    opening_plies: int = 6
    noise: float = 0.02
    seed: int = 1
    heuristic: str | None = None  # a heuristic file; None: the shipped one
    max_plies: int = MAX_PLIES


_HEURISTICS: dict[str | None, Heuristic] = {}


def _searcher(settings: Settings):
    """A new searcher (its table empty: a game must not depend on the games played before it
    in the same process) on the heuristic, read once per process."""
    h = _HEURISTICS.get(settings.heuristic)
    if h is None:
        h = _HEURISTICS[settings.heuristic] = (Heuristic.from_file(settings.heuristic)
                                               if settings.heuristic else default_heuristic())
    return make_searcher(h.evaluate, tt_size=SHORT_TT_SIZE)


def play_game(settings: Settings, number: int) -> list[str]:
    """Game ``number``: its quiet positions after the opening as data lines."""
    rng = random.Random(f"{settings.seed}:{number}")
    searcher = _searcher(settings)
    game = Game()
    kept: list[tuple[str, float]] = []
    while game.result is None and game.ply < settings.max_plies:
        pos = game.position
        legal = game.legal_moves()
        if game.ply < settings.opening_plies or rng.random() < settings.noise:
            game.push(rng.choice(legal))
            continue
        res = searcher.search(pos, max_depth=settings.depth, history=recurring_positions(game))
        if not legal[0].captured and abs(res.score) < MATE_ZONE:
            kept.append((fen(pos), res.score))
        game.push(res.move or legal[0])
    result = _white_result(game)
    return [f"{f} {result:g} {round(score)} {number}" for f, score in kept]


def _white_result(game: Game) -> float:
    """The game's result for White: by the rules, or by material at the ply limit."""
    result = game.result
    if result is not None:
        return 0.5 if result.winner is None else float(result.winner == WHITE)
    m = material(game.position) * (1 if game.position.side == WHITE else -1)
    return 1.0 if m >= ADJUDICATE else 0.0 if m <= -ADJUDICATE else 0.5


def _play_many(args: tuple[Settings, list[int]]) -> list[list[str]]:
    settings, numbers = args
    return [play_game(settings, n) for n in numbers]


def played_lines(settings: Settings, games: int, jobs: int = 1, first: int = 0,
                 cluster: str | None = None) -> Iterator[list[str]]:
    """Each game's lines, games ``first`` .. ``first + games - 1``, as they finish (in
    order of their numbers within each batch)."""
    batches = batched(range(first, first + games), BATCH)
    return in_batches(_play_many, ((settings, b) for b in batches), jobs, cluster)


T = TypeVar("T")
R = TypeVar("R")

#: Games a task: a process or a Ray worker plays (or scores) this many at a time.
BATCH = 8


def batched(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter), read as they are needed.

    >>> list(batched(range(5), 2))
    [[0, 1], [2, 3], [4]]
    """
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def in_batches(work: Callable[[T], list[R]], items: Iterable[T], jobs: int = 1,
               cluster: str | None = None) -> Iterator[R]:
    """``work(item)`` for each item, on this process, on ``jobs`` local processes or on a Ray
    cluster; the items of each result in the order of the items (a batch of games a task)."""
    if cluster is not None:
        from kbdraughts.tune.cluster import run_on_cluster
        results: Iterable[list[R]] = run_on_cluster(cluster, work, items)
    elif jobs <= 1:
        results = map(work, items)
    else:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(jobs)
        try:
            yield from (r for batch in pool.imap(work, items) for r in batch)
        finally:
            pool.terminate()
        return
    for batch in results:
        yield from batch


def write_games(out: Path, settings: Settings, games: int, jobs: int = 1,
                cluster: str | None = None, progress=None) -> int:
    """Play ``games`` games into ``out`` (appending after the games already there, so a run
    cut short goes on where it stopped: :func:`resume`); the number of positions written.
    A FIFO or a device is refused (OSError)."""
    check_readable(out, "written")
    first = resume(out) if out.exists() else 0
    n = 0
    with out.open("ab", buffering=0) as f:
        if f.seek(0, os.SEEK_END) == 0:
            write_whole(f, (f"# kbdraughts tune games: depth {settings.depth}, seed "
                            f"{settings.seed}, {settings.opening_plies} random opening plies, "
                            f"random moves {settings.noise:g}; FEN RESULT SCORE GAME\n"
                            ).encode("utf-8"))
        for done, lines in enumerate(played_lines(settings, games, jobs, first, cluster), 1):
            # a game at a time, whole: a full disk leaves the games before it; a kill may cut
            # the game being written, and resume() takes it out
            write_whole(f, "".join(line + "\n" for line in lines).encode("utf-8"))
            n += len(lines)
            if progress is not None:
                progress(done, n)
    return n


class GamesFileError(KbdraughtsError, ValueError):
    """A data file that 'tune games' cannot go on with; ``str`` is ``path:line: error: ...``."""


#: The longest line of a data file (a FEN of 32 pieces and three numbers is some 120 bytes).
MAX_LINE = 4096


def resume(out: Path) -> int:  # type: ignore[return]  # its loop over count(1) ends by return
    """The number of the game to go on with in the data file ``out``: the one after the
    highest there. A last line cut short (a kill or a full disk while writing) is taken out
    with the rest of its game's lines, and that game played again (a game is a function of
    its number: the same lines); a blank line is passed over; any other line that is no data
    line is GamesFileError."""
    first, block = 0, (0, -1, 0)  # the last game's lines: where they start, its number, first
    offset = 0
    with out.open("rb+") as f:
        for i in count(1):
            line = f.readline(MAX_LINE + 1)
            if not line:
                return first
            if not line.endswith(b"\n"):
                if f.read(1):
                    raise GamesFileError(f"{out}:{i}: error: a line of more than {MAX_LINE} "
                                         "bytes: not a data file of 'tune games'")
                start, number, before = block if block[1] >= 0 else (offset, -1, first)
                f.truncate(start)  # the cut line and its game's lines go; the game is replayed
                return max(before, number, 0)
            words = line.split(b"#", 1)[0].split()
            if words:
                if len(words) not in (2, 4) or (len(words) == 4 and not words[3].isdigit()):
                    raise GamesFileError(f"{out}:{i}: error: not a line of 'tune games' "
                                         "(FEN RESULT SCORE GAME)")
                game = int(words[3]) if len(words) == 4 else i
                if game != block[1]:
                    block = (offset, game, first)
                first = max(first, game + 1)
            offset += len(line)
