#!/usr/bin/env python3
"""Check the opening book's moves with the native search at depth 20, and record the verdicts.

    nice -n 10 python tools/check_book.py [--depth 20] [--minutes M] [--limit N] [--from-end]

For each book move (``kbdraughts.kb.book``: the named openings, then the master games' first
moves) that ``bench/data/book_checks.txt`` has no check of at ``--depth`` or deeper, the search
(the default evaluation, ``combos/heuristic.txt``) finds the best move and its score; when the
book's move is another, a second search of that move alone scores it. Each verdict is appended
as one line at once, so a run stopped at any time keeps what it measured and the next goes on
from there; ``tools/gen_openings.py`` reads the file. A check takes 20 to 60 s on this 2-core
machine: run it in the background, one process, or two on two cores (one with --from-end).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.kb.book import MIN_DEPTH, BookMove, Check, book_lines, book_moves, read_checks
from kbdraughts.notation import fen, move_text
from kbdraughts.pdn import read_pdn_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "bench" / "data" / "ussr1924.pdn"
CHECKS = ROOT / "bench" / "data" / "book_checks.txt"
HEADER = """\
# The opening book's moves checked by the native search: FEN, the book's move, the depth,
# its score, the search's best move and the best's score (hundredths of a man, for the side
# to move). Written by tools/check_book.py; read by tools/gen_openings.py.
"""


def check(searcher, book: BookMove, depth: int) -> Check:
    """The depth-``depth`` verdict on one book move."""
    best = searcher.search(book.position, max_depth=depth)
    score = best.score
    if best.move != book.move:
        score = searcher.search(book.position, max_depth=depth, moves=[book.move]).score
    return Check(fen(book.position), move_text(book.move), depth, round(score),
                 move_text(best.move), round(best.score))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=MIN_DEPTH)
    parser.add_argument("--minutes", type=float, default=0, help="stop after this long")
    parser.add_argument("--limit", type=int, default=0, help="check at most this many")
    parser.add_argument("--from-end", action="store_true",
                        help="the last moves first: a second process beside one from the start "
                             "(each skips what the file has gained since it began)")
    args = parser.parse_args(argv)
    if not CHECKS.exists():
        CHECKS.write_text(HEADER, encoding="utf-8")
    done = read_checks(CHECKS.read_text(encoding="utf-8"))
    todo = [b for b in book_moves(book_lines(read_pdn_file(GAMES)))
            if (c := done.get((fen(b.position), move_text(b.move)))) is None
            or c.depth < args.depth]
    # A ply at a time over every line (the named openings first within a ply): a run stopped
    # early has checked the first moves of all the lines, the ones the book plays most.
    todo.sort(key=lambda b: len(b.path))
    if args.from_end:
        todo.reverse()
    if args.limit:
        todo = todo[:args.limit]
    print(f"{len(todo)} book moves to check at depth {args.depth}", flush=True)
    searcher = make_searcher(default_heuristic().evaluate)
    began = time.perf_counter()
    for n, book in enumerate(todo, 1):
        if args.minutes and time.perf_counter() - began > args.minutes * 60:
            break
        c = read_checks(CHECKS.read_text(encoding="utf-8")).get(
            (fen(book.position), move_text(book.move)))
        if c is not None and c.depth >= args.depth:
            continue  # checked meanwhile by another process
        t = time.perf_counter()
        verdict = check(searcher, book, args.depth)
        with CHECKS.open("a", encoding="utf-8") as f:
            f.write(f"{verdict}  # {book.rule_id}\n")
        print(f"{n}/{len(todo)} {book} loss {verdict.loss} {time.perf_counter() - t:.1f}s",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
