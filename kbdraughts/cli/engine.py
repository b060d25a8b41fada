"""``kbdraughts bestmove`` and ``kbdraughts match``: the AI for scripts.

Output formats are relied upon by other programs; keep them exactly:
``bestmove`` prints one line per position (the move in full-path notation, ``none`` without a
legal move, ``  # `` and the reason with ``--explain``); ``match`` ends with
``A vs B: +W =D -L, score X%`` (with an external engine, or ``--times``, the line before it is
``time: A 1.2 s (12 ms a move), B ...``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, BinaryIO

from kbdraughts.cli.args import (
    add_fens, add_nodes, add_rules, add_strict, fail, integer, level, one_line, positive,
    report_skipped, whole_number,
)
from kbdraughts.cli.paths import check_outputs
from kbdraughts.errors import KbdraughtsError
from kbdraughts.files import write_whole

if TYPE_CHECKING:  # the match machinery is imported when ``match`` runs
    from kbdraughts.match.runner import GameRecord, Tally

#: An hour per move: more is a typo, not a wish.
MAX_MOVETIME_MS = 3_600_000  # ai.spec.MAX_MOVETIME_MS (not imported: start-up stays light)
#: The longest game before adjudication, and the longest random opening (plies).
MAX_MATCH_PLIES = 10_000
MAX_OPENING_PLIES = 100
#: The longest wait for an external engine's move, in seconds (its default is 60).
MAX_TIMEOUT_S = 3600.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bestmove", help="the AI's move in each position",
        description="One line per position: the AI's move in full-path notation ('none' when "
        "there is no legal move); with --explain, two spaces, '# ' and the reason follow on the "
        "same line. With no FEN, reads FENs from stdin, one per line, answering each as it is "
        "read. A position may carry the game so far: 'FEN moves M1 M2 ...' (the FEN the game "
        "started from, then its moves as 'moves' prints them, e.g. 'W:... moves c3-d4 f6-g5'), "
        "so the searching levels see the repetitions; a move that cannot be played is "
        "answered 'error', as a bad FEN is.",
    )
    add_fens(p)
    p.add_argument("--level", type=level, default=None,
                   help="1..4: 1 = the knowledge base, capture tree and weighted move; 2 and 3 "
                   "search 4 and 8 plies, 4 as deep as --movetime allows (default: 4)")
    # The default is ai.spec's MOVETIME_MS, applied when the command runs (test_cli_engine
    # pins the figure in this help): importing ai.spec here would slow every command's start.
    p.add_argument("--movetime", type=whole_number("movetime", 1, MAX_MOVETIME_MS),
                   default=None, metavar="MS", help="time per move of the searching levels, "
                   f"1..{MAX_MOVETIME_MS} milliseconds (default 1000)")
    add_nodes(p, "the search of the searching levels stops once it has spent N nodes, "
               "instead of at --movetime")
    p.add_argument("--seed", type=integer, default=None,
                   help="break ties between equal moves at random with this seed, any whole "
                   "number (default: none, the first of equal moves)")
    p.add_argument("--explain", action="store_true",
                   help="add the reason for each move (default: the move alone)")
    p.add_argument("--no-kb", action="store_true",
                   help="play without the knowledge base (default: with it)")
    add_rules(p, "a rule file or directory to use instead of the shipped knowledge base "
              "(repeat --rules for several)")
    add_strict(p)
    p.set_defaults(func=run_bestmove)
    _register_match(sub)


def _register_match(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "match", help="play games between two players and count the score",
        description="Players: kb[:LEVEL] (add :nokb for no knowledge base, :MSms for the time "
        "per move, :Nnodes for a node budget per move instead, e.g. kb:1:nokb, kb:4:200ms, "
        "kb:4:300000nodes), random, greedy (takes the most, else random), "
        "search:DEPTH (alpha-beta on material with capture quiescence), cmd:PROGRAM ARGS (an "
        "external engine speaking bestmove's line protocol, quoted for the shell, e.g. "
        "'cmd:kbdraughts bestmove --level 1': each move it reads one line, the game so far as "
        "'FEN moves M1 M2 ...', and answers one move line, 'none' without a move; an answer "
        "that is no legal move, none within --cmd-timeout, or a program that ends loses the "
        "game as an illegal move), hub:PROGRAM ARGS (an engine speaking Scan's Hub protocol, "
        "e.g. 'hub:kbdraughts hub --level=2', given --hub-movetime a move). Colours "
        "alternate; each pair of games opens with the same random plies, varied by --seed; "
        "with --fens FILE each position of the file is played twice instead, colours swapped. "
        "The last line is 'A vs B: +W =D -L, score X%' from the first player's side; with a "
        "cmd: player (or --times) the line before it gives the time each player took.",
    )
    p.add_argument("a", type=ai_player, metavar="PLAYER", help="the first player (A), whose "
                   "side the score is from")
    p.add_argument("b", type=ai_player, metavar="PLAYER", help="the second player (B)")
    p.add_argument("--games", type=positive("games"), default=None,
                   help="games to play, 1 or more (default 20); not with --fens")
    p.add_argument("--fens", metavar="FILE", default=None,
                   help="start the games from the positions of FILE, each played twice with "
                   "colours swapped (default: random openings): one FEN a line, or 'FEN moves "
                   "M1 M2 ...'; '#' starts a comment; a bad line is named FILE:LINE and "
                   "nothing is played")
    p.add_argument("--seed", type=integer, default=1,
                   help="opening seed, any whole number (default 1)")
    p.add_argument("--jobs", type=positive("jobs"), default=1,
                   help="processes to play in, 1 to the number of CPUs (default 1; more are "
                   "capped with a note)")
    p.add_argument("--pdn", metavar="FILE", help="write each game to FILE as PDN as it ends "
                   "(default: none); FILE must be new or empty unless --append")
    p.add_argument("--append", action="store_true",
                   help="add the games to the end of an existing --pdn FILE (default: refuse "
                   "a FILE that is not empty)")
    p.add_argument("--max-plies", type=whole_number("max-plies", 1, MAX_MATCH_PLIES),
                   default=None, metavar="N",
                   help=f"adjudicate a draw after N plies, 1..{MAX_MATCH_PLIES} (default 300)")
    p.add_argument("--opening-plies", type=whole_number("plies", 0, MAX_OPENING_PLIES),
                   default=None, metavar="N", help="random plies that open each pair of "
                   f"games, 0..{MAX_OPENING_PLIES} (default 4); not with --fens")
    p.add_argument("--balanced", action="store_true", help="open each pair with random plies "
                   "that a 12-ply search scores within half a man, drawn again until they are "
                   "(default: any random plies; many lose a man by force, and such an opening "
                   "decides both games of its pair whoever plays); not with --fens")
    p.add_argument("--times", action="store_true", help="print the time each player took "
                   "before the last line (default: only when a cmd: engine plays)")
    p.add_argument("--cmd-timeout", type=timeout, default=None, metavar="SECONDS",
                   help="the time a cmd: engine has to answer a move, its start included, "
                   f"above 0 and at most {MAX_TIMEOUT_S:g} (default 60)")
    _add_hub_movetime(p)
    add_nodes(p, MATCH_NODES)
    p.add_argument("--cmd-fen", action="store_true", help="send a cmd: engine the FEN of the "
                   "position alone (default: the game so far, 'FEN moves M1 M2 ...', from its "
                   "start position)")
    add_strict(p)
    p.set_defaults(func=run_match)


#: What ``match --nodes`` does.
MATCH_NODES = ("each kb: player's node budget a move, as its spec's :Nnodes (a cmd: engine "
               "takes its own, e.g. 'cmd:kbdraughts bestmove --nodes N'): the search stops "
               "once it has spent N nodes")


def _add_hub_movetime(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hub-movetime", type=whole_number("hub-movetime", 1, MAX_MOVETIME_MS),
                   default=None, metavar="MS", help="the time a hub: engine is given a move "
                   f"('level move-time'), 1..{MAX_MOVETIME_MS} milliseconds (default 1000)")


def ai_player(text: str) -> str:
    """A player spec for ``match``: what ``play --white`` accepts, but no person, and also an
    external engine (``cmd:PROGRAM ARGS``).

    The text is kept as typed: it names the player in the tally line and the PDN tags.
    """
    from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError

    try:
        spec = PlayerSpec.parse(text, external=True)
    except PlayerSpecError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if spec.is_human:
        raise argparse.ArgumentTypeError(
            f"a match is played by two AI players, not by {text.strip()!r}: use "
            "kb[:LEVEL][:nokb][:MSms|:Nnodes], random, greedy, search:DEPTH, cmd:PROGRAM ARGS or "
            "hub:PROGRAM ARGS")
    return text


def timeout(text: str) -> float:
    """Seconds an external engine may take for a move: above 0, at most MAX_TIMEOUT_S."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_TIMEOUT_S:  # also nan
        raise argparse.ArgumentTypeError(
            f"expected seconds above 0 and at most {MAX_TIMEOUT_S:g}, got {text[:40]!r}")
    return value


def run_bestmove(args: argparse.Namespace) -> int:
    from kbdraughts.ai.engine import DEFAULT_LEVEL, Engine
    from kbdraughts.match.line_protocol import NO_MOVE, read_game_line
    from kbdraughts.ai.spec import MOVETIME_MS
    from kbdraughts.cli.answer import answer_each
    from kbdraughts.notation import move_text

    if args.rules and args.no_kb:
        return fail("bestmove", "--rules and --no-kb contradict each other: choose one")
    from kbdraughts.egdb import probe as egdb_probe

    # A table file it cannot read or trust is named on stderr; the answers go on without it.
    egdb_probe.tell(lambda text: print(f"kbdraughts bestmove: {text}", file=sys.stderr,
                                       flush=True))
    try:
        kb = None
        if args.rules:
            from kbdraughts.kb.knowledge import load_knowledge_base

            kb = load_knowledge_base(args.rules, skip_faulty=True)
        engine = Engine(level=args.level or DEFAULT_LEVEL,
                        movetime_ms=args.movetime or MOVETIME_MS, seed=args.seed, kb=kb,
                        use_kb=not args.no_kb, nodes=args.nodes)
        # Load the rules now: a fault in a rule file is reported before any answer.
        engine.kb  # noqa: B018 (a property read for its effect)
        engine.warm()  # and the search's table set up before the first move's clock starts
    except KbdraughtsError as e:  # HeuristicFileError, RuleFileError: "path:line: error: ..."
        return fail("bestmove", str(e))
    if (status := report_skipped(engine.kb, "bestmove", args.strict)) is not None:
        return status

    def answer(text: str) -> str:
        choice = engine.choose(read_game_line(text))
        if choice is None:
            return f"{NO_MOVE}  # no legal move" if args.explain else NO_MOVE
        line = move_text(choice.move)
        return f"{line}  # {choice.reason}" if args.explain else line

    return answer_each(args.fens, answer)


def run_match(args: argparse.Namespace) -> int:
    from kbdraughts.ai.engine import load_default_kb
    from kbdraughts.match.command_player import COMMAND_TIMEOUT_S, CommandOptions
    from kbdraughts.match.runner import MAX_PLIES, OPENING_PLIES, Tally, run_match as games_of
    from kbdraughts.match.players import make_player
    from kbdraughts.ai.spec import PlayerSpec

    if (status := check_outputs("match", {"--pdn": args.pdn}, {"--fens": args.fens})) is not None:
        return status
    starts: list[str] | None = None
    if args.fens is not None:
        if args.games is not None or args.opening_plies is not None or args.balanced:
            return fail("match", "--fens gives the games (two a position, colours swapped): "
                        "not with --games, --opening-plies or --balanced")
        if isinstance(read := _read_starts(args.fens), int):
            return read
        starts = read
    games = 2 * len(starts) if starts is not None else args.games or MATCH_GAMES
    specs = _by_nodes(args, [PlayerSpec.parse(text, external=True) for text in (args.a, args.b)])
    # Faults in the user's rule or heuristic files are reported once, here, not by every game
    # (HeuristicFileError, RuleFileError and a missing program's PlayerSpecError: one line).
    try:
        for spec in specs:
            _check_program(spec)
            make_player(spec)  # checks the heuristic file; the rules load when first used
        kb = load_default_kb() if any(spec.uses_kb for spec in specs) else None
    except KbdraughtsError as e:
        return fail("match", str(e))
    if (status := report_skipped(kb, "match", args.strict)) is not None:
        return status
    command = CommandOptions(args.cmd_timeout or COMMAND_TIMEOUT_S, not args.cmd_fen,
                             (args.hub_movetime or 1000) / 1000)
    out = _open_pdn(args.pdn, args.append)
    if isinstance(out, int):
        return out
    jobs = _jobs(args.jobs)
    bar = sys.stderr.isatty()
    tally = Tally()
    try:
        for rec in games_of(args.a, args.b, games, args.seed, jobs,
                            args.max_plies or MAX_PLIES,
                            OPENING_PLIES if args.opening_plies is None else args.opening_plies,
                            command, starts, args.balanced):
            tally.add(rec)
            if out is not None and (status := _record(out, rec, args.pdn, tally)) is not None:
                return status
            if bar:
                _progress(tally, games)
    finally:
        if bar:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
        if out is not None:
            out.close()
    for note in tally.illegal:
        print(f"kbdraughts match: illegal move: {note}", file=sys.stderr)
    if args.times or any(spec.kind in ("cmd", "hub") for spec in specs):
        print(tally.time_line(args.a, args.b))
    print(tally.line(args.a, args.b), flush=True)
    return 0


#: The games of a match without --games or --fens.
MATCH_GAMES = 20
#: The largest --fens file read (a suite of 100,000 positions is some 6 MB).
MAX_FENS_BYTES = 32 * 1024 * 1024


def _read_starts(path: str) -> list[str] | int:
    """The game lines of a --fens file; USAGE_ERROR after naming on stderr each bad line
    (``path:line: error: ...``), or why the file cannot be read."""
    from kbdraughts.match.runner import StartFileError, read_starts

    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FENS_BYTES + 1)
    except OSError as e:
        return fail("match", f"cannot read {path}: {e.strerror or e}")
    if len(data) > MAX_FENS_BYTES:
        return fail("match", f"{path} is larger than {MAX_FENS_BYTES // 2**20} MB: not a file "
                    "of positions")
    from kbdraughts.files import NotUtf8Error, decode_text

    try:  # a byte-order mark, as Windows editors write, is no part of the first line
        return read_starts(decode_text(data, path), path)
    except NotUtf8Error as e:
        return fail("match", str(e))
    except StartFileError as e:
        faults = str(e).splitlines()
        for fault in faults:
            print(one_line(fault), file=sys.stderr)
        n = len(faults)
        return fail("match", f"{n} error{'s' if n != 1 else ''} in {path}: no game was played")


def _by_nodes(args: argparse.Namespace, specs: list) -> list:
    """The players' specs, each kb: engine given ``--nodes`` when it is asked; ``args.a`` and
    ``args.b`` then say so (in the tally and the games' tags: kb:4:300000nodes)."""
    from dataclasses import replace

    if not args.nodes:
        return specs
    specs = [replace(s, nodes=args.nodes) if s.kind == "kb" else s for s in specs]
    args.a, args.b = (str(s) if s.kind == "kb" else t for s, t in zip(specs, (args.a, args.b)))
    return specs


def _check_program(spec) -> None:
    """PlayerSpecError when a ``cmd:`` spec's program cannot be found: said once, before any
    game, rather than as every game's illegal move."""
    import shutil

    from kbdraughts.ai.spec import PlayerSpecError, command_words

    if spec.kind not in ("cmd", "hub"):
        return
    program = command_words(spec.command)[0]
    if shutil.which(program) is None:
        raise PlayerSpecError(f"{spec}: no program {program!r} found (not on PATH, or not "
                              "executable)")


def _jobs(asked: int) -> int:
    """``asked`` processes, but no more than the machine has CPUs (a note says so)."""
    cpus = os.cpu_count() or 1
    if asked <= cpus:
        return asked
    print(f"kbdraughts match: note: --jobs {asked} is more than the {cpus} CPUs here: "
          f"playing in {cpus}", file=sys.stderr, flush=True)
    return cpus


def _open_pdn(path: str | None, append: bool) -> BinaryIO | int | None:
    """The --pdn file opened to append to, None without one, or USAGE_ERROR after saying why:
    a file that holds something is only added to with --append, never emptied."""
    if path is None:
        return None
    try:
        if not append and os.path.isfile(path) and os.path.getsize(path) > 0:
            return fail("match", f"{path} already holds games: add --append to add to it, or "
                        "choose another file")
        out = open(path, "ab", buffering=0)  # each game written whole by _write_pdn
        if out.tell() > 0:
            write_whole(out, b"\n")  # a blank line after what was there, ended or not
        return out
    except OSError as e:
        return fail("match", f"cannot write {path}: {e.strerror}")


def _record(out: BinaryIO, rec: GameRecord, path: str, tally: Tally) -> int | None:
    """:func:`_write_pdn`, or USAGE_ERROR after saying in one line why the game could not be
    written (a full disk: the games before it are whole in the file)."""
    try:
        _write_pdn(out, rec)
    except OSError as e:
        return fail("match", f"cannot write {path}: {e.strerror or e}; the match stopped at "
                    f"game {tally.games}, the games before it whole in the file")
    return None


def _write_pdn(out: BinaryIO, rec: GameRecord) -> None:
    """One finished game as PDN (its Round tag gives its place in the match), written at
    once so a stopped match keeps every game played, and whole or not at all: a full disk
    leaves no game cut in the middle (:func:`kbdraughts.files.write_whole`)."""
    from kbdraughts.match.runner import replay
    from kbdraughts.pdn import game_to_pdn

    tags = {"Event": "kbdraughts match", "Round": str(rec.index + 1),
            "White": rec.white, "Black": rec.black, "Result": rec.result,
            "Termination": rec.reason}
    write_whole(out, (game_to_pdn(replay(rec), tags) + "\n").encode("utf-8"))


def _progress(t: Tally, total: int, width: int = 30) -> None:
    done = t.games
    fill = width * done // total
    sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total}  "
                     f"+{t.wins} ={t.draws} -{t.losses}")
    sys.stderr.flush()
