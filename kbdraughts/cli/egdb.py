"""``kbdraughts egdb build|probe|verify``: the endgame tables for scripts.

Output formats are relied upon by other programs; keep them exactly:

- ``egdb build [--pieces N] [--force]``: one line per table, ``NAME  WORDS  N positions  win W
  loss L draw D  longest P plies  S s`` (``read`` instead of the seconds for a table already
  whole on disk), then ``total: T tables, N positions, B MB on disk, S s``; a progress line on
  stderr when it is a terminal. A file in a table's place that cannot be read or replaced (a
  folder, a FIFO) is named on stderr and left as it is; the others are built; exit 2.
- ``egdb probe [FEN ...]``: one line per position, ``win N``, ``loss N``, ``draw`` (for the side
  to move, by the board; N the plies to the next capture or crowning) or ``unknown``, then
  ``  # `` and words; FENs from stdin when none are given, each answered as read. A line may
  be ``FEN moves ...`` as ``bestmove`` reads it: the game's draw counters are applied, and the
  words end with ``; drawn by the 15-move rule ...`` when a rule turns the board's win into a
  draw.
- ``egdb verify [--pieces N]``: one line per table, ``NAME ok`` or ``NAME N faults (first:
  FEN)`` or ``NAME not checked: why``; exit 0 when every table is whole and consistent, 1
  otherwise.
- ``egdb verify --sample N [--pieces P] [--seed S]``: one line per table, ``NAME  C checked  D
  disagree  S s`` (then ``  (first: FEN, the table says VALUE)`` when D > 0) or ``NAME not
  checked: why``, then ``total: T tables, C checked, D disagree, S s``; exit 1 on a
  disagreement or a table not checked.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from kbdraughts.cli.args import add_fens, fail, one_line, whole_number
from kbdraughts.wording import plural

if TYPE_CHECKING:  # the tables are imported when a command runs
    from kbdraughts.egdb.build import Report

#: The most pieces the command builds (the index's MAX_PIECES; not imported: a light start).
MAX_PIECES = 5
DEFAULT_PIECES = 4


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "egdb", help="endgame tables: build, probe, verify",
        description="Endgame tables of up to 5 pieces in $XDG_DATA_HOME/kbdraughts/egdb "
        "(~/.local/share/kbdraughts/egdb): the value of every position for the side to move "
        "and the distance to the next capture or crowning, by the board (the draw rules are "
        "not applied).",
    )
    actions = p.add_subparsers(dest="egdb_command", metavar="ACTION", parser_class=type(p))

    def no_action(args: argparse.Namespace) -> int:
        p.print_help()
        return fail("egdb", "choose an action: build, probe or verify")

    p.set_defaults(func=no_action)
    pieces = whole_number("pieces", 2, MAX_PIECES)
    b = actions.add_parser(
        "build", help="build the tables by retrograde analysis",
        description="Build every table of 2..N pieces; a table already whole on disk is read "
        "instead, so a stopped build resumes. 4 pieces: some 16 MB and seconds; 5: some "
        "350 MB and minutes.")
    b.add_argument("--pieces", type=pieces, default=DEFAULT_PIECES, metavar="N",
                   help=f"the most pieces, 2..{MAX_PIECES} (default {DEFAULT_PIECES})")
    b.add_argument("--force", action="store_true", help="build again tables already on disk "
                   "(default: read them)")
    b.set_defaults(func=run_build)
    q = actions.add_parser(
        "probe", help="the tables' value of each position",
        description="One line per position: 'win N', 'loss N' or 'draw' for the side to move "
        "(N: plies to the next capture or crowning, the winner hurrying, the loser delaying), "
        "or 'unknown' when the tables do not cover it, then '  # ' and words. The tables of up "
        "to 4 pieces are built at first need. With no FEN, reads FENs from stdin, one a line. "
        "A line 'FEN moves M1 M2 ...' applies the game's draw counters: the words say when a "
        "draw rule turns the board's win into a draw.")
    add_fens(q)
    q.set_defaults(func=run_probe)
    v = actions.add_parser(
        "verify", help="check each table against its positions' successors",
        description="Check every table of 2..N pieces: whole (its checksum), and each "
        "position's value and distance following from its successors'. Exit 1 on a fault.")
    v.add_argument("--pieces", type=pieces, default=DEFAULT_PIECES, metavar="N",
                   help=f"the most pieces, 2..{MAX_PIECES} (default {DEFAULT_PIECES})")
    v.add_argument("--sample", type=whole_number("sample", 1, 10**9), metavar="N",
                   help="instead: N positions drawn from each table (all of a smaller one), "
                   "each checked against an exhaustive search to its stated distance (default: "
                   "the consistency pass)")
    v.add_argument("--seed", type=int, default=0, metavar="S",
                   help="with --sample: which positions it draws (default 0)")
    v.set_defaults(func=run_verify)


def run_build(args: argparse.Namespace) -> int:
    from kbdraughts.egdb import build, store
    from kbdraughts.egdb.index import materials, size

    todo = materials(args.pieces)
    total = sum(size(m) for m in todo)
    if not build.native_solves() and args.pieces > 3:
        return fail("egdb build", "more than 3 pieces need the native core (see kbdraughts "
                    "--version)")
    folder = build.default_folder()
    there = 0 if args.force else sum(store.path_for(folder, m).is_file() for m in todo)
    # a table on disk is read (and rebuilt only if damaged, which its own line says)
    doing = (f"reading {plural(len(todo), 'table')} (built already)" if there == len(todo)
             else f"building {plural(len(todo) - there, 'table')}"
             + (f" and reading {there}" if there else ""))
    print(f"{doing}, {total:,} positions, about {build.disk_bytes(args.pieces) / 1e6:.0f} MB, "
          f"in {folder}", file=sys.stderr, flush=True)
    progress = _Progress(total, len(todo))
    start = time.perf_counter()
    try:
        build.build(args.pieces, folder, args.force, progress.table)
    except OSError as e:
        progress.clear()
        return fail("egdb build", f"cannot write the tables: {e}")
    progress.clear()
    print(f"total: {plural(len(todo), 'table')}, {total:,} positions, "
          f"{build.disk_bytes(args.pieces) / 1e6:.1f} MB on disk, "
          f"{time.perf_counter() - start:.1f} s", flush=True)
    if progress.left:
        return fail("egdb build", f"{plural(progress.left, 'table')} not written: what stands "
                    "in a table's place must be moved away (or made readable) first")
    return 0


class _Progress:
    """Each table's line on stdout; on a terminal, a progress line on stderr with the time
    left, judged by the positions done so far."""

    def __init__(self, total: int, tables: int) -> None:
        self.total, self.tables = total, tables
        self.done = self.count = 0
        self.left = 0  # tables not written: a file in their place that cannot be replaced
        self.start = time.perf_counter()
        self.live = sys.stderr.isatty()

    def table(self, report: Report) -> None:
        from kbdraughts.egdb.index import size

        m, t = report.material, report.table
        self.clear()
        if report.damaged:
            print(f"kbdraughts egdb: rebuilt: {one_line(report.damaged)}", file=sys.stderr)
        if report.left:  # solved all the same: the tables after it are built from it
            self.left += 1
            print(f"kbdraughts egdb build: {one_line(report.left)}: left as it is, the table "
                  "is not written", file=sys.stderr)
        wins, losses, draws = t.counts()
        when = f"{report.seconds:.2f} s" if report.built else "read"
        print(f"{m.name}  {m.words()}  {size(m):,} positions  win {wins:,} loss {losses:,} "
              f"draw {draws:,}  longest {plural(max(t.distances), 'ply')}  {when}", flush=True)
        self.done += size(m)
        self.count += 1
        if self.live and self.count < self.tables:
            spent = time.perf_counter() - self.start
            left = spent / self.done * (self.total - self.done)
            print(f"\r{self.count}/{self.tables} tables, {100 * self.done // self.total}% of "
                  f"the positions, about {left:.0f} s left", end="", file=sys.stderr,
                  flush=True)

    def clear(self) -> None:
        if self.live:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def run_probe(args: argparse.Namespace) -> int:
    from kbdraughts.cli.answer import answer_each
    from kbdraughts.ai.draw_rules import game_counters
    from kbdraughts.ai.endgame import judge
    from kbdraughts.match.line_protocol import read_game_line
    from kbdraughts.egdb.probe import DRAW, Database, describe

    def note(text: str) -> None:
        print(f"kbdraughts egdb: {one_line(text)}", file=sys.stderr, flush=True)

    db = Database(note=note)

    def answer(text: str) -> str:
        game = read_game_line(text)
        pos = game.position
        found = db.probe(pos)
        line = describe(pos, found, db.problem(pos))
        if found is None or found[0] == DRAW:
            return line
        verdict = judge(pos, *game_counters(game), prober=db.probe)
        if verdict is None:
            return f"{line}; unless a man moves, the 15-move rule of king moves may draw it first"
        return f"{line}; {verdict.words(pos)}" if verdict.by_rules else line

    return answer_each(args.fens, answer)


def run_verify(args: argparse.Namespace) -> int:
    if args.sample is not None:
        return run_sample(args)
    from kbdraughts.egdb import build
    from kbdraughts.egdb.index import unrank
    from kbdraughts.notation import fen

    def say(check: build.Check) -> None:
        name = check.material.name
        if check.problem:
            print(f"{name} not checked: {one_line(check.problem)}", flush=True)
        elif check.faults:
            first = fen(unrank(check.material, check.first))
            print(f"{name} {check.faults} faults (first: {first})", flush=True)
        else:
            print(f"{name} ok", flush=True)

    checks = build.verify(args.pieces, build.default_folder(), say)
    bad = sum(1 for c in checks if c.faults or c.problem)
    print(f"total: {plural(len(checks), 'table')}, {bad} with a fault or not checked",
          flush=True)
    return 1 if bad else 0



def run_sample(args: argparse.Namespace) -> int:
    from kbdraughts.egdb import build, check
    from kbdraughts.egdb.index import unrank
    from kbdraughts.egdb.probe import describe
    from kbdraughts.native import core
    from kbdraughts.notation import fen

    if core is None:
        print("kbdraughts egdb: the native core is not built: the check runs in Python, some "
              "seconds a position of 4 pieces", file=sys.stderr, flush=True)

    def say(result: check.Sampled) -> None:
        m = result.material
        if result.problem:
            print(f"{m.name} not checked: {one_line(result.problem)}", flush=True)
            return
        line = (f"{m.name}  {result.checked:,} checked  {len(result.wrong):,} disagree  "
                f"{result.seconds:.1f} s")
        if result.wrong:
            pos = unrank(m, result.wrong[0])
            claim = describe(pos, result.first_claim).split("  #")[0]
            line += f"  (first: {fen(pos)}, the table says {claim})"
        print(line, flush=True)

    start = time.perf_counter()
    results = check.check_folder(args.pieces, args.sample, args.seed, build.default_folder(), say)
    checked = sum(r.checked for r in results)
    wrong = sum(len(r.wrong) for r in results)
    missing = sum(1 for r in results if r.problem)
    print(f"total: {plural(len(results), 'table')}, {checked:,} checked, {wrong:,} disagree"
          f"{f', {missing} not checked' if missing else ''}, "
          f"{time.perf_counter() - start:.1f} s", flush=True)
    return 1 if wrong or missing else 0
