"""``kbdraughts annotate GAME.pdn``: the coach's notes written into games as PDN comments.

Reads the games of a PDN file, asks the coach (:mod:`kbdraughts.ai.coach`) about every move
(or one side's), and writes the games back with nothing of the file's lost (its comments,
NAGs, variations and result convention: :func:`kbdraughts.pdn.pdn_game_text`) and the coach's
notes as ``{coach: missed: ...}`` / ``{coach: allowed: ...}`` after the moves concerned; the
coach's notes of an earlier run are replaced. The output loads back with ``kbdraughts play
--load``. Written to stdout (or ``-o -``), to a FIFO or device as it goes, or whole to a file
``-o OUT`` (a temporary file renamed over it).

A game that cannot be read is named (``file:line: ...``) on stderr and skipped; exit status 1
when some were skipped, 2 when none could be read (or for a file or option error, one line).
A faulty block of a rule file (``--rules``, or the user's combos) is named on stderr
(``file:line: error: ...``, then a line saying the rest loaded) and skipped; ``--strict``
refuses to run instead (exit status 2).
Many games get a progress line on stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import IO, TYPE_CHECKING, Callable, Iterable

from kbdraughts.cli.args import (
    USAGE_ERROR, add_rules, add_strict, fail, one_line, positive, report_skipped,
)

if TYPE_CHECKING:  # imported when annotating, not while the command line is built
    from kbdraughts.kb.knowledge import KnowledgeBase
    from kbdraughts.pdn import PdnGame

SIDES = {"white": 0, "black": 1}


def side(text: str) -> int:
    """``white`` or ``black`` (any case)."""
    value = SIDES.get(text.strip().lower())
    if value is None:
        raise argparse.ArgumentTypeError(f"side must be white or black, got {text[:40]!r}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "annotate", help="a game written back with the coach's notes as PDN comments",
        description="Read the games of a PDN file and write them back as PDN with the coach's "
        "notes as {comments} after the moves concerned, keeping everything the file had: "
        "'coach: missed: RULE MOVE wins a man (file:line)' where a rule of the knowledge base fired for the side to move, it "
        "played something else, and the rule's move really was better; 'allowed: ...' where "
        "the move let the opponent play a rule that really wins. Every claim is checked by "
        "an exhaustive search of every defence before it is written. A game that cannot be "
        "read is named and skipped: exit status 1 when some were, 2 when none could be read.",
    )
    p.add_argument("pdn", metavar="GAME.pdn", help="the PDN file to annotate")
    p.add_argument("--side", type=side, default=None, metavar="white|black",
                   help="note only this side's moves (default: both sides')")
    p.add_argument("--game", type=positive("game"), default=None, metavar="N",
                   help="annotate only the N-th game of the file, 1 or more (default: every "
                   "game)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help="write the annotated PDN to OUT: a file is replaced whole, a FIFO or "
                   "device written as it goes, '-' stdout (default: stdout)")
    p.add_argument("--numbered", action="store_true",
                   help="write the FEN tags' squares as numbers, 1 = b8 ... 32 = g1 (default: "
                   "as the file wrote them)")
    add_rules(p, "a rule file or directory to coach with instead of the shipped knowledge "
              "base (repeat --rules for several)")
    add_strict(p)
    p.set_defaults(func=run_annotate)


def run_annotate(args: argparse.Namespace) -> int:
    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.pdn import PdnError, load_pdn_file

    try:
        read = load_pdn_file(args.pdn)
    except PdnError as e:
        return fail("annotate", str(e))
    for warning in read.warnings:
        print(f"kbdraughts annotate: warning: {one_line(str(warning))}", file=sys.stderr)
    entries = read.entries
    if not entries:
        return fail("annotate", f"{args.pdn}: no game in this file")
    if args.game is not None:
        if args.game > len(entries):
            held = f"{len(entries)} game{'s' if len(entries) != 1 else ''}"
            return fail("annotate", f"{args.pdn}: no game {args.game} (the file holds {held})")
        entries = [entries[args.game - 1]]
    games = [g for g in entries if not isinstance(g, PdnError)]
    errors = [e for e in entries if isinstance(e, PdnError)]
    if not games and len(errors) == 1:
        return fail("annotate", str(errors[0]))
    for e in errors:
        print(f"kbdraughts annotate: {one_line(str(e))}; game skipped", file=sys.stderr)
    if not games:
        return fail("annotate", f"{args.pdn}: none of its {len(errors)} games could be read")
    try:  # None: the shipped rules and the user's; a faulty block is skipped and named
        kb = load_knowledge_base(args.rules, skip_faulty=True)
    except ValueError as e:  # RuleFileError: only a path that does not exist
        return fail("annotate", str(e))
    if report_skipped(kb, "annotate", args.strict) is not None:
        return USAGE_ERROR
    texts = _annotated(games, args, kb, _progress(len(games)))
    if read.crlf:  # the file's line ends kept
        texts = (t.replace("\n", "\r\n") for t in texts)
    try:
        _write(args.output, texts, "\r\n" if read.crlf else "\n")
    except (OSError, ValueError) as e:
        return fail("annotate", f"cannot write {args.output}: {getattr(e, 'strerror', None) or e}")
    return 1 if len(games) < len(entries) else 0


def _annotated(games: list[PdnGame], args: argparse.Namespace, kb: KnowledgeBase | None,
               progress: Callable[[int], None]) -> Iterable[str]:
    """Each game's PDN with the coach's notes, one at a time (a stream can be written as it
    goes)."""
    from kbdraughts.ai.coach import annotate
    from kbdraughts.pdn import pdn_game_text

    for i, g in enumerate(games):
        progress(i)
        notes: dict[int, list[str]] = {}
        for note in annotate(g.game, args.side, kb):
            notes.setdefault(note.ply, []).append(note.text)
        yield pdn_game_text(g, notes=notes, numbered=args.numbered)
    progress(len(games))


def _progress(total: int) -> Callable[[int], None]:
    """A progress line on stderr (``annotate: game 12 of 300``) when it is a terminal and
    there is more than one game; else nothing."""
    if total < 2 or not sys.stderr.isatty():
        return lambda done: None

    def show(done: int) -> None:
        end = "\n" if done == total else ""
        sys.stderr.write(f"\rannotate: game {min(done + 1, total)} of {total}"
                         f"{' done' if done == total else ''}{end}")
        sys.stderr.flush()
    return show


def _write(output: str | None, texts: Iterable[str], newline: str) -> None:
    """The games to stdout (``None`` or ``-``) or to a FIFO or device as they come, a blank
    line between them; a regular file (or a new one) written whole, atomically."""
    from kbdraughts.files import write_atomic

    if output is None or output == "-":
        _stream(sys.stdout, texts, newline)
        return
    try:
        mode = os.stat(output).st_mode
    except FileNotFoundError:
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(output, "w", encoding="utf-8", newline="") as f:
            _stream(f, texts, newline)
        return
    write_atomic(output, newline.join(texts))


def _stream(out: IO[str], texts: Iterable[str], newline: str) -> None:
    """Write each text as it comes; to a terminal, with the control characters a file's tags
    or comments may hold written as escapes (an escape sequence would act on the screen)."""
    from kbdraughts.files import printable_lines

    screen = out.isatty()
    for i, text in enumerate(texts):
        out.write((newline if i else "") + (printable_lines(text) if screen else text))
        out.flush()
