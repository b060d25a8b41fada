"""A data file's positions scored again by a deeper search: the games of 'tune games' are played
at depth 8, where the middle game is not yet decided; their positions searched 10 or 12 plies
deep tell the fit more (issue 39). Results and games stay as they were; only the score changes.

A game's positions are searched in their order by one searcher of its own (its table kept from
one position to the next, as in the game), so a game's new lines are a function of its old lines
and the depth alone: any process or Ray worker may score it, and a run cut short goes on where it
stopped (:func:`kbdraughts.tune.games.resume` on the file written). A position the deeper search
finds decided (a forced win or loss) is left out, as the games leave them out.

>>> lines = ["W:Wc3,e3:Bd6,f6 0.5 10 4", "B:Wd4,e3:Bd6,f6 0.5 -5 4"]
>>> [line.split()[3] for line in rescore_game(2, lines)]
['4', '4']
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kbdraughts.ai.native_search import SHORT_TT_SIZE, make_searcher
from kbdraughts.ai.search import MATE_ZONE
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.files import check_readable, write_whole
from kbdraughts.notation import parse_fen
from kbdraughts.tune.games import BATCH, MAX_LINE, GamesFileError, batched, in_batches, resume

__all__ = ["rescore_game", "source_games", "write_rescored"]


def rescore_game(depth: int, lines: list[str]) -> list[str]:
    """One game's data lines with each score replaced by a ``depth``-ply search's."""
    searcher = make_searcher(default_heuristic().evaluate, tt_size=SHORT_TT_SIZE)
    out = []
    for line in lines:
        fen_text, result, _, game = line.split()
        score = searcher.search(parse_fen(fen_text), max_depth=depth).score
        if abs(score) < MATE_ZONE:
            out.append(f"{fen_text} {result} {round(score)} {game}")
    return out


def _rescore_many(args: tuple[int, list[list[str]]]) -> list[list[str]]:
    depth, games = args
    return [rescore_game(depth, lines) for lines in games]


def source_games(path: Path, first: int) -> Iterator[list[str]]:
    """The data lines of ``path``, a game's lines together, from game ``first`` on (comments
    and blank lines left out); a line that is no data line of 'tune games' is
    GamesFileError with its ``path:line``."""
    check_readable(path, fifo=True)

    def data_lines() -> Iterator[tuple[int, str]]:
        with path.open(encoding="utf-8", errors="replace") as f:
            for i, line in enumerate(iter(lambda: f.readline(MAX_LINE + 1), ""), 1):
                words = line.split("#", 1)[0].split()
                if not words:
                    continue
                if len(line) > MAX_LINE or len(words) != 4 or not words[3].isdigit():
                    raise GamesFileError(f"{path}:{i}: error: not a line of 'tune games' "
                                         "(FEN RESULT SCORE GAME)")
                if int(words[3]) >= first:
                    yield int(words[3]), " ".join(words)

    for _, lines in groupby(data_lines(), key=lambda pair: pair[0]):
        yield [line for _, line in lines]


def write_rescored(source: Path, out: Path, depth: int, games: int, jobs: int = 1,
                   cluster: str | None = None,
                   progress: Callable[[int, int], None] | None = None) -> int:
    """Score ``games`` more games of ``source`` at ``depth`` into ``out`` (appended after the
    games already there); the number of positions written."""
    check_readable(out, "written")
    first = resume(out) if out.exists() else 0
    todo: Iterable[list[str]] = (g for _, g in zip(range(games), source_games(source, first)))
    n = 0
    with out.open("ab", buffering=0) as f:
        if f.seek(0, 2) == 0:
            write_whole(f, (f"# kbdraughts tune rescore: the positions of {source.name} "
                            f"scored at depth {depth}; FEN RESULT SCORE GAME\n").encode("utf-8"))
        batches = batched(todo, BATCH)
        for done, lines in enumerate(in_batches(_rescore_many, ((depth, b) for b in batches),
                                                jobs, cluster), 1):
            write_whole(f, "".join(line + "\n" for line in lines).encode("utf-8"))
            n += len(lines)
            if progress is not None:
                progress(done, n)
    return n

