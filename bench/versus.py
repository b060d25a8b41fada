"""This tree's engine against the engine of an earlier commit, each with its own package.

    python bench/versus.py REV [--games N] [--seed S] [--jobs J] [--movetime MS | --nodes N]
                               [--level L] [--no-kb] [--self] [--balanced | --fens FILE]
                               [--pdn FILE]

``git archive REV`` puts that commit's ``kbdraughts`` and ``combos`` in a temporary directory;
it plays as ``cmd:`` (``bestmove`` on a pipe, its rule cache in that directory, warmed before
the first game), and this tree plays in ``kbdraughts match`` itself. The old engine runs with
``python -P``: without it, ``python -m`` puts the working directory first on the path, and a
match started from a checkout plays that checkout's package on both sides (a self-play that
looks like a comparison). The old engine is sent the game so far (``FEN moves ...``) when it
understands that line, else ``--cmd-fen`` (the position alone).

``--balanced`` opens each pair with random plies that a fixed-depth search scores within half
a man (``match --balanced``): a random opening lost by force scores 1-1 between any two engines
that convert a man, whatever their strength, and pulls every score towards 50%.

``--fens FILE`` opens the games from the positions of FILE instead, each played twice with the
colours swapped (``match --fens``): ``bench/data/ballots.txt`` holds the Russian opening
ballots, the openings tournaments impose by lot.

``--nodes N`` gives both sides a node budget a move instead of the time (``match --nodes``,
``bestmove --nodes``): a search change that does not change a node's cost is judged the same
on a quiet machine and a loaded one (two jobs, or another program beside them, no longer
decide the depth reached). REV must have ``--nodes`` (it came with issue 39's search levers);
an older REV is refused by its ``bestmove``.

``--self`` plays this tree's own commit (HEAD, archived the same way) instead of REV: the
anchor, equal engines over the same openings, in the same conditions. The output is match's
(the time each side took, then ``A vs B: +W =D -L, score X%``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(rev: str, into: Path, build: bool = True) -> None:
    """``kbdraughts`` and ``combos`` of commit ``rev`` into the directory ``into``, with its own
    native core built there. Without it the old package would import this tree's core: an
    editable install finds ``kbdraughts._core`` for any ``kbdraughts`` on the path, so the old
    engine ran the new C (or failed on a changed signature)."""
    tar = subprocess.run(["git", "archive", rev, "kbdraughts", "combos", "setup.py",
                          "pyproject.toml", "README.md"], cwd=ROOT, check=True,
                         capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar, check=True)
    if build:
        built = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                               cwd=into, capture_output=True, text=True)
        if built.returncode != 0:
            print(f"versus: {rev}'s native core did not build; it plays on its pure path:\n"
                  f"{built.stderr[-2000:]}", file=sys.stderr)


def engine_words(tree: Path, movetime: int, level: int, use_kb: bool,
                 nodes: int | None = None) -> list[str]:
    words = ["env", f"PYTHONPATH={tree}", f"XDG_DATA_HOME={tree / 'data'}", sys.executable,
             "-P", "-m", "kbdraughts.cli", "bestmove", "--movetime", str(movetime),
             "--level", str(level)]
    return words + ([] if use_kb else ["--no-kb"]) + (["--nodes", str(nodes)] if nodes else [])


def warm(words: list[str], cwd: Path) -> bool:
    """Ask once (the rule cache is built now, not in a game's first move); whether the engine
    understands a line with the game so far."""
    from kbdraughts.board import START
    from kbdraughts.notation import fen

    lines = f"{fen(START)}\n{fen(START)} moves c3-d4\n"
    run = subprocess.run(words, input=lines, capture_output=True, text=True, cwd=cwd)
    answers = run.stdout.splitlines()
    # An older engine answers 'error' to a line it cannot read, or stops at it.
    return run.returncode == 0 and len(answers) == 2 and answers[1] not in ("", "error")


def match_command(args: argparse.Namespace, words: list[str], history: bool) -> list[str]:
    """The ``kbdraughts match`` command line: this tree against the engine ``words`` start."""
    ours = f"kb:{args.level}:{args.movetime}ms" + (":nokb" if args.no_kb else "") \
        + (f":{args.nodes}nodes" if args.nodes else "")
    cmd = [sys.executable, "-m", "kbdraughts.cli", "match", ours, "cmd:" + shlex.join(words)]
    if args.fens:  # the file's positions decide the games: no count, no seed
        cmd += ["--fens", str(Path(args.fens).resolve())]
    else:
        cmd += ["--games", str(args.games), "--seed", str(args.seed)]
    cmd += ["--jobs", str(args.jobs)] + ([] if history else ["--cmd-fen"])
    if args.balanced:
        cmd.append("--balanced")
    if args.pdn:
        cmd += ["--pdn", str(Path(args.pdn).resolve())]
    return cmd


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the earlier commit (a hash, a tag, HEAD~3, ...)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=1000, help="ms a move, both sides")
    ap.add_argument("--nodes", type=int, default=None,
                    help="a node budget a move for both sides instead of the time (REV must "
                    "have bestmove --nodes: a commit with issue 39's node budget or later)")
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--no-kb", action="store_true", help="both sides without the knowledge base")
    ap.add_argument("--self", action="store_true", help="play HEAD instead of REV: the anchor")
    starts = ap.add_mutually_exclusive_group()
    starts.add_argument("--balanced", action="store_true",
                        help="balanced random openings (match --balanced)")
    starts.add_argument("--fens", metavar="FILE",
                        help="start from FILE's positions (match --fens), e.g. the ballots: "
                             "bench/data/ballots.txt")
    ap.add_argument("--pdn", metavar="FILE", help="write the games to FILE as they end")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kbd-versus-") as tmp:
        tree = Path(tmp)
        rev = "HEAD" if args.self else args.rev
        export(rev, tree)
        words = engine_words(tree, args.movetime, args.level, not args.no_kb, args.nodes)
        history = warm(words, tree)
        if not history and args.nodes:
            print(f"versus: {rev}'s bestmove did not answer with --nodes: it predates the node "
                  "budget", file=sys.stderr)
            return 2
        cmd = match_command(args, words, history)
        limit = f"{args.nodes} nodes" if args.nodes else f"{args.movetime} ms"
        print(f"this tree ({cmd[4]}) against {rev} at {limit} a move"
              f"{', balanced openings' if args.balanced else ''}"
              f"{f', the openings of {args.fens}' if args.fens else ''}"
              f"{'' if history else ' (the position alone: it reads no game line)'}",
              flush=True)
        return subprocess.run(cmd, cwd=ROOT, env=dict(os.environ)).returncode


if __name__ == "__main__":
    sys.exit(main())
