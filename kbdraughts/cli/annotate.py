"""``kbdraughts annotate GAME.pdn``: the coach's notes written into a game as PDN comments.

Reads the games of a PDN file, asks the coach (:mod:`kbdraughts.ai.coach`) about every move
(or one side's), and writes the games back as PDN with ``{missed: ...}`` / ``{allowed: ...}``
comments after the moves concerned (several notes on one move: joined by ``; ``). The output
loads back with ``kbdraughts play --load``. Written to stdout, or whole to ``-o OUT``
(a temporary file renamed over it). A file or PDN error is one line, ``file:line: ...``, and
exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from kbdraughts.cli.args import add_rules, fail, positive

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
        "notes as {comments} after the moves concerned: 'missed: RULE MOVE wins a man "
        "(file:line)' where a rule of the knowledge base fired for the side to move, it "
        "played something else, and the rule's move really was better; 'allowed: ...' where "
        "the move let the opponent play a rule that really wins. Every claim is checked by "
        "an exhaustive search of every defence before it is written.",
    )
    p.add_argument("pdn", metavar="GAME.pdn", help="the PDN file to annotate")
    p.add_argument("--side", type=side, default=None, metavar="white|black",
                   help="note only this side's moves (default: both sides')")
    p.add_argument("--game", type=positive("game"), default=None, metavar="N",
                   help="annotate only the N-th game of the file, 1 or more (default: every "
                   "game)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help="write the annotated PDN to OUT, whole (default: stdout)")
    add_rules(p, "a rule file or directory to coach with instead of the shipped knowledge "
              "base (repeat --rules for several)")
    p.set_defaults(func=run_annotate)


def run_annotate(args: argparse.Namespace) -> int:
    from kbdraughts.ai.coach import annotate
    from kbdraughts.files import write_atomic
    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.pdn import PdnError, game_to_pdn, read_pdn_file

    try:
        games = read_pdn_file(args.pdn)
    except PdnError as e:
        return fail("annotate", str(e))
    if not games:
        return fail("annotate", f"{args.pdn}: no game in this file")
    if args.game is not None:
        if args.game > len(games):
            held = f"{len(games)} game{'s' if len(games) != 1 else ''}"
            return fail("annotate", f"{args.pdn}: no game {args.game} (the file holds {held})")
        games = [games[args.game - 1]]
    try:
        kb = load_knowledge_base(args.rules)  # None: the shipped rules and the user's
    except ValueError as e:  # RuleFileError: "path:line: error: ..."
        return fail("annotate", str(e))
    texts = []
    for g in games:
        comments: dict[int, list[str]] = {}
        for note in annotate(g.game, args.side, kb):
            comments.setdefault(note.ply, []).append(note.text)
        tags = {**g.tags, "Result": g.result}
        texts.append(game_to_pdn(g.game, tags, {p: "; ".join(n) for p, n in comments.items()}))
    out = "\n".join(texts)
    if args.output is None:
        sys.stdout.write(out)
        sys.stdout.flush()
        return 0
    try:
        write_atomic(args.output, out)
    except (OSError, ValueError) as e:
        return fail("annotate", f"cannot write {args.output}: {getattr(e, 'strerror', None) or e}")
    return 0
