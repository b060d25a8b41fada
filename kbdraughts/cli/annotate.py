"""``kbdraughts annotate GAME.pdn``: the coach's notes written into games as PDN comments.

Reads the games of a PDN file, asks the coach (:mod:`kbdraughts.coach.annotator`) about every move
(or one side's), and writes the games back with nothing of the file's lost (its comments,
NAGs, variations and result convention: :func:`kbdraughts.pdn.pdn_game_text`) and the coach's
notes as ``{coach: ...}`` comments after the moves concerned, a game's summary after its last
move; the coach's notes of an earlier run are replaced. The output loads back with
``kbdraughts play --load``. Written to stdout (or ``-o -``), to a FIFO or device as it goes,
or whole to a file ``-o OUT`` (a temporary file renamed over it). ``--unnamed FILE`` writes
the positions where material was won by force and no rule names the idea, as motif drafts.

Every move is graded first (:func:`kbdraughts.coach.grade.grade_game`): each position
searched at ``--nodes`` positions, a graded move (?!, ?, ??) confirmed at 16 and 64 times that;
an error note is written only on a graded move, led by its glyph and naming the better move. The
deep search that confirms the material notes is bounded by nodes too: the same file gets the
same notes, byte for byte, on any machine load. ``--budget SECONDS`` (processor seconds, once)
is still accepted and ignored, with a warning.

Written onto its own input (``-o`` the same path or inode), the file keeps every game: those not
annotated (``--game N``) and those that cannot be read byte for byte; any output keeps the
input's encoding, byte-order mark and line ends (:func:`kbdraughts.files.read_form`).
A game that cannot be read is named (``file:line: ...``) on stderr and skipped; exit status 1
when some were skipped, 2 when none could be read (or for a file or option error, one line).
A faulty block of a rule file (``--rules``, or the user's combos) is named on stderr
(``file:line: error: ...``, then a line saying the rest loaded) and skipped; ``--strict``
refuses to run instead (exit status 2).
Many games get a progress bar on stderr when it is a terminal; the file's summary, the time
and the peak memory end the run on stderr.
"""

from __future__ import annotations

import argparse
import os
import resource
import stat
import sys
import time
from typing import IO, TYPE_CHECKING, Callable, Iterable

from kbdraughts.cli.args import (
    USAGE_ERROR, add_rules, add_strict, fail, one_line, positive, report_skipped,
)
from kbdraughts.cli.output import StdoutError
from kbdraughts.cli.paths import check_outputs
from kbdraughts.errors import KbdraughtsError
from kbdraughts.wording import plural

if TYPE_CHECKING:  # imported when annotating, not while the command line is built
    from kbdraughts.files import TextForm
    from kbdraughts.coach.summary import Tally
    from kbdraughts.coach.deep_check import DeepCheck
    from kbdraughts.coach.report import Pictures
    from kbdraughts.kb.knowledge import KnowledgeBase
    from kbdraughts.coach.verdict import MoveVerdict
    from kbdraughts.pdn import PdnFile, PdnGame
    from kbdraughts.pdn.marks import Mark

SIDES = {"white": 0, "black": 1}
MAX_BUDGET = 24 * 3600.0
#: The most nodes a position's grading may be given (a day's search or so).
MAX_NODES = 10**11
#: The progress bar's width in characters.
BAR = 30


def budget(text: str) -> float:
    """Seconds for the deep search over the file: 0 (no note is confirmed) to a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text[:40]!r}") from None
    if not 0 <= value <= MAX_BUDGET:  # also nan
        raise argparse.ArgumentTypeError(
            f"expected seconds from 0 to {MAX_BUDGET:g}, got {text[:40]!r}")
    return value


def nodes(text: str) -> int:
    """Positions the grading's search of one position may visit: 1,000 to MAX_NODES."""
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of nodes, got {text[:40]!r}") \
            from None
    if not 1000 <= value <= MAX_NODES:
        raise argparse.ArgumentTypeError(
            f"expected nodes from 1000 to {MAX_NODES:g}, got {text[:40]!r}")
    return value


def side(text: str) -> int:
    """``white`` or ``black`` (any case)."""
    value = SIDES.get(text.strip().lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"side must be white or black, got {text[:40]!r}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "annotate", help="a game written back with the coach's notes as PDN comments",
        description="Read the games of a PDN file and write them back as PDN, keeping "
        "everything the file had, with the coach's verdict on every move as an analysis board "
        "gives it: the evaluation ({[%eval -0.35]}, men from White's side), and where a move "
        "gives away 0.3 man or more of it a grade (?! inaccuracy, ? mistake, ?? blunder; from "
        "the endgame tables where they know), a note that says why in named ideas ('?: 21. "
        "e7-d8 gives up a man (-1.00) ...; better 21. g1-h2') and the better line as a "
        "variation. The grades come from the engine's own search bounded by nodes (--nodes), "
        "so the same file gets the same notes on any machine. Material won or lost by force "
        "is proved by an exhaustive search of every defence (a king counted as 2.5 men) and "
        "named by the rule or motif that knows it ('allowed the shot g3-f4', 'played: the "
        "shot a3-b4'); a summary follows the last move. A game that cannot be read is named "
        "and skipped: "
        "exit status 1 when some were, 2 when none could be read.",
    )
    p.add_argument("pdn", metavar="GAME.pdn", help="the PDN file to annotate")
    p.add_argument("--side", type=side, default=None, metavar="white|black",
                   help="note only this side's moves (default: both sides')")
    p.add_argument("--game", type=positive("game"), default=None, metavar="N",
                   help="annotate only the N-th game of the file, 1 or more (default: every "
                   "game)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help="write the annotated PDN to OUT: a file is replaced whole (the input "
                   "itself keeps every game it held), a FIFO or device written as it goes, "
                   "'-' stdout (default: stdout)")
    p.add_argument("--numbered", action="store_true",
                   help="write the FEN tags' squares as numbers, 1 = b8 ... 32 = g1 (default: "
                   "as the file wrote them)")
    p.add_argument("--no-eval", dest="evals", action="store_false",
                   help="leave out the evaluation lidraughts writes on every move, {[%%eval "
                   "0.35]} (men, White's side); the grades' glyphs and better lines stay "
                   "(default: every move graded gets one)")
    p.add_argument("--verbose", action="store_true",
                   help="add to each note the rule's file and line, the proof's horizon and "
                   "the depth of the search that confirmed it (default: the words alone)")
    p.add_argument("--unnamed", metavar="FILE", default=None,
                   help="write to FILE, as motif drafts (the 'teach motif' format), the "
                   "positions where material was won by force and no rule names the idea "
                   "(default: none written)")
    p.add_argument("--nodes", type=nodes, default=None, metavar="N",
                   help="positions the search that grades each move may visit (default "
                   "30,000 on the native core, 2,000 on the pure search; a graded move is "
                   "confirmed at 16 and 64 times that): more is deeper and slower; the notes "
                   "depend on it, never on the machine's load")
    p.add_argument("--budget", type=budget, default=None, metavar="SECONDS",
                   help="no longer used (the notes depend on --nodes, not on time): "
                   "accepted, with a warning, and ignored (default: not given)")
    p.add_argument("--html", metavar="REPORT.html", default=None,
                   help="write also one self-contained HTML page of the games: their moves "
                   "with the graded ones marked, the evaluation graph, and a board diagram "
                   "with the note at every graded move (default: none written)")
    add_rules(p, "a rule file or directory to coach with instead of the shipped knowledge "
              "base (repeat --rules for several)")
    add_strict(p)
    p.set_defaults(func=run_annotate)


def run_annotate(args: argparse.Namespace) -> int:
    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.pdn import PdnError, load_pdn_file

    if (status := check_outputs(  # -o onto the input keeps its games; nothing else may
            "annotate", {"-o": args.output, "--unnamed": args.unnamed, "--html": args.html},
            {"GAME.pdn": args.pdn, "--rules": args.rules}, {("-o", "GAME.pdn")})) is not None:
        return status
    try:
        read = load_pdn_file(args.pdn)
    except PdnError as e:
        return fail("annotate", str(e))
    for warning in read.warnings:
        print(f"kbdraughts annotate: warning: {one_line(str(warning))}", file=sys.stderr)
    if not len(read):
        return fail("annotate", f"{args.pdn}: no game in this file")
    if args.game is not None and args.game > len(read):
        held = f"{len(read)} game{'s' if len(read) != 1 else ''}"
        return fail("annotate", f"{args.pdn}: no game {args.game} (the file holds {held})")
    # --game N reads that game alone: a large file is not replayed whole
    entries = read.entries if args.game is None else [read.entry(args.game - 1)]
    games = [g for g in entries if not isinstance(g, PdnError)]
    errors = [e for e in entries if isinstance(e, PdnError)]
    if not games and len(errors) == 1:
        return fail("annotate", str(errors[0]))
    onto_input = _same_file(args.pdn, args.output)
    kept = "; kept as it was" if onto_input else "; game skipped"
    for error in errors:
        print(f"kbdraughts annotate: {one_line(str(error))}{kept}", file=sys.stderr)
    if not games:
        return fail("annotate", f"{args.pdn}: none of its {len(errors)} games could be read")
    try:  # None: the shipped rules and the user's; a faulty block is skipped and named
        kb = load_knowledge_base(args.rules, skip_faulty=True)
    except KbdraughtsError as e:  # RuleFileError: only a path that does not exist
        return fail("annotate", str(e))
    if report_skipped(kb, "annotate", args.strict) is not None:
        return USAGE_ERROR
    from kbdraughts.coach.summary import Tally
    from kbdraughts.coach.deep_check import DeepCheck
    from kbdraughts.coach.report import Pictures

    started = time.perf_counter()
    tally = Tally(sides=(0, 1) if args.side is None else (args.side,))
    drafts: list[str] | None = [] if args.unnamed is not None else None
    if args.budget is not None:
        print("kbdraughts annotate: warning: --budget is no longer used: the notes depend "
              "on --nodes only, never on time; ignored", file=sys.stderr)
    check = DeepCheck()
    pictures = Pictures(args.pdn, len(games), html=args.html is not None,
                        terminal=sys.stderr.isatty())
    texts = _annotated(games, args, kb, _progress(len(games)), tally, drafts, check, pictures)
    if (status := _write_out(args, read, games, texts, onto_input, drafts)) is not None:
        return status
    if (status := _pictures(args, pictures)) is not None:
        return status
    print(_file_summary(args.pdn, tally, time.perf_counter() - started, drafts, check),
          file=sys.stderr)
    return 1 if len(games) < len(entries) else 0


def _write_out(args: argparse.Namespace, read: PdnFile, games: list[PdnGame],
               texts: Iterable[str], onto_input: bool, drafts: list[str] | None) -> int | None:
    """The annotated games to -o (onto the input: every game it held kept), the drafts to
    --unnamed; USAGE_ERROR after saying what could not be written."""
    from kbdraughts.files import write_atomic

    try:
        if onto_input:  # every game the file held stays; those not annotated as they were
            whole = read.with_games(dict(zip([g.index for g in games], texts)))
            write_atomic(args.output, whole, form=read.form)
        else:
            _write(args.output, texts, read.form)
    except StdoutError:
        raise  # standard output's fault: the dispatcher says it, once for every command
    except (OSError, ValueError) as e:
        return fail("annotate", f"cannot write {args.output}: {getattr(e, 'strerror', None) or e}")
    if drafts is not None:
        try:
            write_atomic(args.unnamed, "\n".join(drafts))
        except OSError as e:
            return fail("annotate", f"cannot write {args.unnamed}: {e.strerror or e}")
    return None


def _pictures(args: argparse.Namespace, pictures: Pictures) -> int | None:
    """Each game's evaluation graph on stderr where it is a terminal, before the summary (the
    PDN goes to stdout or -o: the graph is for the player reading the terminal, not for a
    log), and the report to --html, written whole; USAGE_ERROR after saying it could not be
    written."""
    from kbdraughts.files import write_atomic

    pictures.graphs(sys.stderr)
    if args.html is None:
        return None
    try:
        write_atomic(args.html, pictures.page())
    except (OSError, ValueError) as e:
        return fail("annotate", f"cannot write {args.html}: {getattr(e, 'strerror', None) or e}")
    return None


def _file_summary(path: str, tally: Tally, seconds: float, drafts: list[str] | None,
                  check: DeepCheck) -> str:
    """The run's last line: the games, the notes by side, the ideas, what the deep search
    made of the claims proved, the time and memory."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    games = f"{tally.games} game{'s' if tally.games != 1 else ''}"
    unnamed = f"; {len(drafts)} unnamed idea(s) drafted" if drafts is not None else ""
    proved = check.confirmed + check.refuted + check.refused
    return (f"kbdraughts annotate: {path}: {games}, {plural(tally.moves, 'move')}: "
            f"{tally.words()}{unnamed}; {plural(proved, 'claim')} proved ({check.hunted} by the "
            f"hunt: graded moves searched deep), {check.confirmed} confirmed by the deep "
            f"search, {check.refuted} refuted by it, {check.refused} left unchecked (too many "
            "nodes); "
            f"{seconds:.1f} s, peak memory {peak:.0f} MB")


def _annotated(games: list[PdnGame], args: argparse.Namespace, kb: KnowledgeBase | None,
               progress: Callable[[int], None], tally: Tally, drafts: list[str] | None,
               check: DeepCheck, pictures: Pictures | None = None) -> Iterable[str]:
    """Each game's PDN with the coach's notes, one at a time (a stream can be written as it
    goes): every move graded (``verdicts``), the material notes proved on the graded moves
    and the combinations played; ``tally`` counts them, ``drafts`` gets the unnamed ideas'
    drafts, ``check`` confirms the notes."""
    from kbdraughts.coach.annotator import annotate
    from kbdraughts.coach.grade import NODES, grade_game
    from kbdraughts.coach.summary import game_summary, notes_by_ply
    from kbdraughts.coach.unnamed import Drafts
    from kbdraughts.eval.ideas import why
    from kbdraughts.pdn import pdn_game_text

    unnamed = Drafts(args.pdn) if drafts is not None else None
    for i, g in enumerate(games):
        progress(i)
        check.renew()
        verdicts = grade_game(g.game, args.side, nodes=args.nodes or NODES, why=why)
        found = annotate(g.game, args.side, kb, check=check, verdicts=verdicts)
        tally.add(g.game, found, verdicts)
        notes = notes_by_ply(g.game, found, verdicts, args.verbose)
        summary = game_summary(g.game, found, args.side, verdicts)
        if summary is not None and g.game.moves:
            notes.setdefault(len(g.game.moves) - 1, []).append(summary)
        if pictures is not None:
            pictures.add(g, verdicts, notes)
        if unnamed is not None:
            unnamed.add(g.index + 1, g, found)
        newline = g.file.form.newline if g.file is not None else "\n"
        marks = _marks(verdicts, args.evals)
        yield pdn_game_text(g, notes=notes, numbered=args.numbered, newline=newline,
                            marks=marks)
    if unnamed is not None and drafts is not None:
        drafts.extend(unnamed.texts)
    progress(len(games))


def _marks(verdicts: Iterable[MoveVerdict], evals: bool) -> dict[int, Mark]:
    """The coach's verdicts as PDN marks, as lidraughts writes an analysed game: the grade's
    NAG and the better line of a graded move, the evaluation after every move (``evals``)."""
    from kbdraughts.pdn.marks import Mark, win_in

    out: dict[int, Mark] = {}
    for v in verdicts:
        line = (v.best_line if v.best_line[:1] == (v.best,) else (v.best,)) if (
            v.grade is not None and v.best is not None) else ()
        out[v.ply] = Mark(v.grade.nag if v.grade is not None else None,
                          v.after if evals else None, win_in(v.after) if evals else None,
                          tuple(m for m in line if m is not None))
    return out


def _progress(total: int) -> Callable[[int], None]:
    """A progress bar on stderr (``annotate [#####.....] 120/1000 games, 14 s``) when it is
    a terminal and there is more than one game; else nothing."""
    if total < 2 or not sys.stderr.isatty():
        return lambda done: None
    started = time.perf_counter()

    def show(done: int) -> None:
        filled = BAR * done // total
        end = "\n" if done == total else ""
        sys.stderr.write(f"\rannotate [{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} "
                         f"games, {time.perf_counter() - started:.0f} s{end}")
        sys.stderr.flush()
    return show


def _same_file(source: str, output: str | None) -> bool:
    """Whether ``output`` is the file ``source`` (the same path, or the same inode: a hard
    link, a symbolic link to it)."""
    if output is None or output == "-":
        return False
    try:
        return os.path.samefile(source, output)
    except OSError:
        return os.path.abspath(source) == os.path.abspath(output)


def _write(output: str | None, texts: Iterable[str], form: TextForm) -> None:
    """The games to stdout (``None`` or ``-``) or to a FIFO or device as they come, a blank
    line between them; a regular file (or a new one) written whole, atomically; each in the
    input's form (encoding, byte-order mark, line end)."""
    from kbdraughts.files import write_atomic

    if output is None or output == "-":
        _stream(sys.stdout, texts, form)
        return
    try:
        mode = os.stat(output).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(output, "w", encoding="utf-8", newline="") as f:
            _stream(f, texts, form)
        return
    write_atomic(output, form.newline.join(texts), form=form)


def _stream(out: IO[str], texts: Iterable[str], form: TextForm) -> None:
    """Write each text as it comes, as the input's bytes; to a terminal, as text with the
    control characters a file's tags or comments may hold written as escapes (an escape
    sequence would act on the screen; a byte that is not text shows as one too)."""
    from kbdraughts.files import printable_lines

    screen = out.isatty()
    raw = getattr(out, "buffer", None)
    for i, text in enumerate(texts):
        text = (form.newline if i else "") + text
        if screen or raw is None:
            out.write(printable_lines(text) if screen else text)
        else:
            raw.write((form if not i else form._replace(bom=b"")).encode(text))
        out.flush()
