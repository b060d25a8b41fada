"""``kbdraughts tune games|fit``: the evaluation's weights learned from self-play.

``games`` plays self-play games of the native search at a fixed depth into a data file (on
local processes, or on a Ray cluster with ``--cluster``); ``rescore`` scores a data file's
positions again by a deeper search (the same games and results); ``fit`` fits every `value` and
`pattern` weight of a heuristic file to it (Texel, with a held-out set) and with ``--write``
puts the weights back with a comment that says what they were fitted on.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Callable

from kbdraughts.cli.args import fail, positive, whole_number
from kbdraughts.cli.paths import check_outputs


#: ``tune --help``'s description, as a person reads it in a terminal (the docstring's is RST).
DESCRIPTION = (
    "'tune games' plays self-play games of the native search at a fixed depth into a data file "
    "(on local processes, or on a Ray cluster with --cluster); 'tune rescore' scores a data "
    "file's positions again by a deeper search; 'tune fit' fits every value and "
    "pattern weight of a heuristic file to it (Texel, with a held-out set) and with --write puts "
    "the weights back with a comment that says what they were fitted on; 'tune shapes' adds a "
    "template's regions to a shapes file.")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tune", help="learn the evaluation's weights from self-play games",
                       description=DESCRIPTION)
    tsub = p.add_subparsers(dest="tune_command", metavar="games|rescore|fit|shapes", required=True)
    g = tsub.add_parser("games", help="self-play positions labelled by the game's result")
    g.add_argument("--out", type=Path, required=True,
                   help="the data file; a file cut short goes on where it stopped")
    g.add_argument("--games", type=positive("games"), default=100, help="games (default 100)")
    g.add_argument("--depth", type=whole_number("depth", 1, 20), default=8,
                   help="the search's depth in plies (default 8)")
    g.add_argument("--seed", type=whole_number("seed"), default=1, help="default 1")
    g.add_argument("--opening", type=whole_number("opening plies", 0, 40), default=6,
                   help="random plies that open each game (default 6)")
    g.add_argument("--noise", type=float, default=0.02,
                   help="the share of random moves after the opening (default 0.02)")
    g.add_argument("--heuristic", type=Path, default=None,
                   help="the heuristic file the games are played with (default: the shipped)")
    _processes(g, "play")
    g.set_defaults(func=run_games)
    _register_rescore(tsub)
    f = tsub.add_parser("fit", help="fit the value and pattern weights to a data file")
    f.add_argument("data", type=Path, nargs="+", help="data files of 'tune games'")
    f.add_argument("--heuristic", type=Path, default=None,
                   help="the heuristic file to fit (default: the one the AI uses)")
    f.add_argument("--l2", type=float, default=1e-4,
                   help="the loss one man of change in a weight costs (default 1e-4)")
    f.add_argument("--limit", type=positive("positions"), default=None,
                   help="read at most this many positions a file (default: all)")
    f.add_argument("--write", action="store_true",
                   help="write the weights back when the held-out loss fell (default: print only)")
    f.add_argument("--force", action="store_true",
                   help="with --write: write them even when it did not fall (weights a match "
                   "is to judge; default: only when it fell)")
    f.add_argument("--target", choices=("result", "score", "both"), default="score",
                   help="what the fit follows: score, the search's scores at the games' depth "
                   "(the default: weights fitted so scored best in matches, docs/benchmarks.md), "
                   "result, the games' results (Texel), or both")
    f.add_argument("--shapes", type=Path, default=None,
                   help="the shapes file to fit (default: the one beside the heuristic file)")
    f.add_argument("--order", choices=("named-first", "signed", "joint"), default="named-first",
                   help="named-first (the default): the value and pattern weights fitted alone, "
                   "then the regions on what they leave, the named weights held, so a named "
                   "idea keeps its meaning; signed: the same with each named weight kept to the "
                   "sign its line declares (# sign: + or -; 0 where the data wants the other); "
                   "joint: everything at once (the fit before)")
    f.set_defaults(func=run_fit)
    s = tsub.add_parser("shapes", help="regions of a template added to a shapes file")
    s.add_argument("--template", choices=("diamond", "window"), required=True,
                   help="diamond: 18 regions of 4 squares; window: 9 of 8 squares")
    s.add_argument("--out", type=Path, required=True,
                   help="the shapes file (its regions added at the end; written whole)")
    s.set_defaults(func=run_shapes)


def _processes(p: argparse.ArgumentParser, verb: str) -> None:
    """--jobs and --cluster: where the games are played or scored."""
    p.add_argument("--jobs", type=positive("jobs"), default=os.cpu_count() or 1,
                   help="local processes (default: one a core)")
    p.add_argument("--cluster", metavar="ADDRESS", default=None,
                   help=f"{verb} on a Ray cluster (ray://HOST:PORT, or 'local' for one here; "
                   "default: local processes)")


def _register_rescore(tsub: argparse._SubParsersAction) -> None:
    r = tsub.add_parser("rescore", help="a data file's positions scored by a deeper search")
    r.add_argument("data", type=Path, help="a data file of 'tune games'")
    r.add_argument("--out", type=Path, required=True,
                   help="the data file written (the same games and results, the deeper "
                   "scores); a file cut short goes on where it stopped")
    r.add_argument("--depth", type=whole_number("depth", 1, 20), default=10,
                   help="the search's depth in plies (default 10)")
    r.add_argument("--games", type=positive("games"), default=100,
                   help="games of DATA scored in this run, after those OUT has (default 100)")
    _processes(r, "score")
    r.set_defaults(func=run_rescore)


def run_games(args: argparse.Namespace) -> int:
    from kbdraughts.tune.games import Settings, write_games

    if not 0 <= args.noise <= 1:
        return fail("tune games", f"--noise must be from 0 to 1, got {args.noise}")
    if (status := check_outputs("tune games", {"--out": args.out},
                                {"--heuristic": args.heuristic})) is not None:
        return status
    if args.heuristic is not None:  # its faults said once, here, not by every game's worker
        from kbdraughts.eval.heuristic import Heuristic, HeuristicFileError
        try:
            Heuristic.from_file(args.heuristic)
        except HeuristicFileError as e:
            return fail("tune games", str(e))
    settings = Settings(args.depth, args.opening, args.noise, args.seed,
                        str(args.heuristic) if args.heuristic else None)
    return _written("tune games", args, lambda progress: write_games(
        args.out, settings, args.games, args.jobs, args.cluster, progress))


def run_rescore(args: argparse.Namespace) -> int:
    from kbdraughts.tune.rescore import write_rescored

    if (status := check_outputs("tune rescore", {"--out": args.out},
                                {"DATA": args.data})) is not None:
        return status
    return _written("tune rescore", args, lambda progress: write_rescored(
        args.data, args.out, args.depth, args.games, args.jobs, args.cluster, progress))


def _written(verb: str, args: argparse.Namespace,
             write: Callable[[Callable[[int, int], None]], int]) -> int:
    """A data file written by ``write(progress)``, its progress every 50 games on stderr, its
    faults said as ``verb``'s (exit status 2)."""
    from kbdraughts.tune.games import GamesFileError

    start = time.perf_counter()

    def progress(games: int, positions: int) -> None:
        if games % 50 == 0 or games == args.games:
            print(f"{games}/{args.games} games, {positions} positions, "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    try:
        n = write(progress)
    except GamesFileError as e:
        return fail(verb, str(e))
    except OSError as e:
        return fail(verb, f"{e.filename or args.out}: {e.strerror}")
    except ImportError as e:
        return fail(verb, f"--cluster needs Ray ({e}); pip install 'kbdraughts[cluster]'")
    print(f"{n} positions written to {args.out}")
    return 0


def run_fit(args: argparse.Namespace) -> int:
    try:
        from kbdraughts.tune.report import FitError, fit_file
    except ImportError as e:
        return fail("tune fit", f"fitting needs NumPy and SciPy ({e}): "
                    "pip install 'kbdraughts[tune]'")
    if not args.l2 >= 0:
        return fail("tune fit", f"--l2 must be 0 or more, got {args.l2}")
    if args.write and (status := check_outputs(  # the pair written, the data only read
            "tune fit", {"--heuristic": args.heuristic, "--shapes": args.shapes},
            {"DATA": args.data})) is not None:
        return status
    try:
        fit_file(args.data, args.heuristic, args.l2, args.limit, args.write, args.shapes,
                 args.target, args.order, args.force)
    except FitError as e:
        return fail("tune fit", str(e))
    return 0


def run_shapes(args: argparse.Namespace) -> int:
    try:
        from kbdraughts.tune.shapes import shapes_text, template_regions
    except ImportError as e:
        return fail("tune shapes", f"needs NumPy and SciPy ({e}): pip install 'kbdraughts[tune]'")
    from kbdraughts.eval.shapes import read_shapes
    from kbdraughts.files import NotUtf8Error, check_readable, decode_text, write_atomic
    from kbdraughts.eval.terms import HeuristicFileError

    try:
        check_readable(args.out, "written")
        have = {r.name for r in read_shapes(args.out)}  # bounded: a device refused
        new = [r for r in template_regions(args.template) if r.name not in have]
        old = decode_text(args.out.read_bytes(), args.out) if args.out.exists() else ""
        # the file written whole with the regions added, never a cut one
        write_atomic(args.out, (old or SHAPES_HEADER)
                     + shapes_text("", new, [[] for _ in new]))
    except (HeuristicFileError, NotUtf8Error) as e:
        return fail("tune shapes", str(e))
    except OSError as e:
        return fail("tune shapes", f"{args.out}: {e.strerror}")
    print(f"{len(new)} regions of the {args.template} template added to {args.out}; "
          f"'kbdraughts tune fit --write' weighs them")
    return 0


SHAPES_HEADER = """\
# Regions of a few squares and a weight for each way the men stand on them (combos/README.md,
# "The evaluation"): written for White, counted for Black on the board turned round, ours minus
# theirs; a region with a king on it counts nothing. Made by 'kbdraughts tune shapes', weighed
# by 'kbdraughts tune fit --write'.
"""
