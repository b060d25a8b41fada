"""``kbdraughts bestmove`` and ``kbdraughts match``: the AI for scripts.

Output formats are relied upon by other programs; keep them exactly:
``bestmove`` prints one line per position (the move in full-path notation, ``none`` without a
legal move, ``  # `` and the reason with ``--explain``); ``match`` ends with
``A vs B: +W =D -L, score X%``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

from kbdraughts.analysis import whole_number

#: Default time per move of the searching levels, in milliseconds.
MOVETIME_MS = 1000


def _positive(what: str) -> Callable[[str], int]:
    return whole_number(what, 1)


def level_argument(text: str) -> int:
    """An argparse type: an AI level, 1..MAX_LEVEL (also used by ``play``)."""
    from kbdraughts.ai.engine import MAX_LEVEL  # light: no pyDatalog until a heuristic loads

    v = whole_number("level", 1)(text)
    if v > MAX_LEVEL:
        raise argparse.ArgumentTypeError(f"level must be from 1 to {MAX_LEVEL}, got {v}")
    return v


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bestmove", help="the AI's move in each position",
        description="One line per position: the AI's move in full-path notation ('none' when "
        "there is no legal move); with --explain, two spaces, '# ' and the reason follow on the "
        "same line. With no FEN, reads FENs from stdin, one per line, answering each as it is "
        "read.",
    )
    p.add_argument("fens", nargs="*", metavar="FEN")
    p.add_argument("--level", type=level_argument, default=None,
                   help="1 = the knowledge base, capture tree and weighted move; 2 and 3 "
                   "search 4 and 8 plies, 4 as deep as --movetime allows (default: 4)")
    p.add_argument("--movetime", type=_positive("movetime"), default=MOVETIME_MS, metavar="MS",
                   help=f"time per move of the searching levels (default {MOVETIME_MS})")
    p.add_argument("--seed", type=_int, default=None,
                   help="break ties between equal moves at random with this seed")
    p.add_argument("--explain", action="store_true", help="add the reason for each move")
    p.add_argument("--no-kb", action="store_true", help="play without the knowledge base")
    p.add_argument("--rules", nargs="+", metavar="PATH",
                   help="rule files or directories to use instead of the shipped knowledge base")
    p.set_defaults(func=run_bestmove)

    p = sub.add_parser(
        "match", help="play games between two players and count the score",
        description="Players: kb[:LEVEL] (add :nokb for no knowledge base, :MSms for the time "
        "per move, e.g. kb:1:nokb, kb:4:200ms), random, greedy (takes the most, else random), "
        "search:DEPTH (alpha-beta on material with capture quiescence). Colours alternate; each "
        "pair of games opens with the same random plies, varied by --seed. The last line is "
        "'A vs B: +W =D -L, score X%' from the first player's side.",
    )
    p.add_argument("a", metavar="PLAYER")
    p.add_argument("b", metavar="PLAYER")
    p.add_argument("--games", type=_positive("games"), default=20, help="games to play (default 20)")
    p.add_argument("--seed", type=_int, default=1, help="opening seed (default 1)")
    p.add_argument("--jobs", type=_positive("jobs"), default=1, help="processes to play in")
    p.add_argument("--pdn", metavar="FILE", help="write every game to FILE as PDN")
    p.add_argument("--max-plies", type=_positive("max-plies"), default=None, metavar="N",
                   help="adjudicate a draw after N plies (default 300)")
    p.add_argument("--opening-plies", type=whole_number("plies"), default=4, metavar="N",
                   help="random plies that open each pair of games (default 4)")
    p.set_defaults(func=run_match)


def _fail(command: str, message: str) -> int:
    print(f"kbdraughts {command}: {message}", file=sys.stderr, flush=True)
    return 2


def run_bestmove(args: argparse.Namespace) -> int:
    from kbdraughts.ai.engine import DEFAULT_LEVEL, Engine
    from kbdraughts.analysis import answer_each
    from kbdraughts.game import Game
    from kbdraughts.notation import move_text, parse_fen

    if args.rules:
        # "--rules a.txt W:..." : argparse hands the positions to --rules; take them back.
        fens = [p for p in args.rules if p[:2].upper() in ("W:", "B:") and not os.path.exists(p)]
        args.rules = [p for p in args.rules if p not in fens] or None
        args.fens = list(args.fens) + fens
    if args.rules and args.no_kb:
        return _fail("bestmove", "--rules and --no-kb contradict each other: choose one")
    try:
        kb = None
        if args.rules:
            from kbdraughts.kb import load_knowledge_base

            kb = load_knowledge_base(args.rules)
        engine = Engine(level=args.level or DEFAULT_LEVEL, movetime_ms=args.movetime,
                        seed=args.seed, kb=kb, use_kb=not args.no_kb)
        engine.kb  # load it now: a fault in a rule file is reported before any answer
    except ValueError as e:  # HeuristicFileError, RuleFileError: "path:line: error: ..."
        return _fail("bestmove", str(e))

    def answer(text: str) -> str:
        choice = engine.choose(Game(parse_fen(text)))
        if choice is None:
            return "none  # no legal move" if args.explain else "none"
        line = move_text(choice.move)
        return f"{line}  # {choice.reason}" if args.explain else line

    return answer_each(args.fens, answer)


def run_match(args: argparse.Namespace) -> int:
    from kbdraughts.ai.match import MAX_PLIES, Tally, replay, run_match as games_of
    from kbdraughts.ai.engine import load_default_kb
    from kbdraughts.ai.players import PlayerSpec, make_player

    # Bad specs, and faults in the user's rule or heuristic files, are reported once, here,
    # not by every game (PlayerSpecError, HeuristicFileError and RuleFileError are ValueErrors
    # with a one-line message).
    try:
        for spec in (args.a, args.b):
            make_player(spec)  # checks the spec and the heuristic; the rules load when used
        if any(PlayerSpec.parse(spec).uses_kb for spec in (args.a, args.b)):
            load_default_kb()
    except ValueError as e:
        return _fail("match", str(e))
    out = None
    if args.pdn:
        try:
            from kbdraughts.pdn import game_to_pdn
        except ImportError:
            return _fail("match", "--pdn needs kbdraughts.pdn, which this build lacks")
        try:
            out = open(args.pdn, "w", encoding="utf-8")
        except OSError as e:
            return _fail("match", f"cannot write {args.pdn}: {e.strerror}")
    bar = sys.stderr.isatty()
    tally = Tally()
    records = []
    try:
        for rec in games_of(args.a, args.b, args.games, args.seed, args.jobs,
                            args.max_plies or MAX_PLIES, args.opening_plies):
            tally.add(rec)
            records.append(rec)
            if bar:
                _progress(tally, args.games)
    finally:
        if bar:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    if out is not None:
        with out:
            for rec in sorted(records, key=lambda r: r.index):
                tags = {"Event": "kbdraughts match", "Round": str(rec.index + 1),
                        "White": rec.white, "Black": rec.black, "Result": rec.result,
                        "Termination": rec.reason}
                out.write(game_to_pdn(replay(rec), tags) + "\n")
    for note in tally.illegal:
        print(f"kbdraughts match: illegal move: {note}", file=sys.stderr)
    print(tally.line(args.a, args.b), flush=True)
    return 0


def _progress(t, total: int, width: int = 30) -> None:
    done = t.games
    fill = width * done // total
    sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total}  "
                     f"+{t.wins} ={t.draws} -{t.losses}")
    sys.stderr.flush()
