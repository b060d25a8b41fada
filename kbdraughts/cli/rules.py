"""``kbdraughts rules check|match|stats|show``: the tools for people who write rules.

Output formats are relied upon by scripts; keep them exactly:

- ``rules check [PATH ...] [--prove]``: one ``path:line: error: ...`` / ``path:line: warning:
  ...`` line per finding, then a summary line; exit 0 without errors, 1 with errors, 2 for a
  bad path. A faulty rule or motif is named and skipped, every error of every file in one
  run. For each motif an error for an example where it does not fire (with ``--prove``, or
  where its claim is not proved; then ``proved N claims on M examples, K failed`` comes
  before the summary); with ``--costs`` a ``path:line: note: motif ID: N groundings; checks
  per candidate: ...`` line. A motif whose claim holds in under 95% of its firings on the
  default sample (CHECK_POSITIONS positions of random games; ``--positions N``) gets a
  ``path:line: warning: motif ID: precision ...`` line. The summary then counts motifs.
- ``rules match [FEN ...] [--rules PATH]...``: one line per position, the ids of the rules
  whose pattern applies (mirrored included) in the AI's order, separated by spaces; empty
  when none. Without FENs, reads them from stdin, answering each line as it is read. Each
  motif found adds `` | motif ID (file:line) MOVE S=d4 T=c5 ...`` to the line (a warning's
  MOVE is ``warning``), still one line per position.
- ``rules stats [ID ...] [--positions N] [--games FILE.pdn] [--seed S] [--rules PATH]...``: a
  header line; a line per rule or motif ``fired right false unjudged precision  KIND ID
  (file:line)``, each followed by its worst false firings (``    false: MOVE nets N: FEN``); a
  last line ``N positions: F firings judged, R right (P%), U unjudged; T s``.
- ``rules show ID [--rules PATH]...``: the rule drawn as a board with its ``file:line``, and
  its mirror.
"""

from __future__ import annotations

import argparse
import sys

from kbdraughts.cli.args import (
    USAGE_ERROR, add_fens, add_rules, add_strict, one_line, whole_number,
)
from kbdraughts.cli.rules_kb import did_you_mean, load_rules
from kbdraughts.wording import plural
from kbdraughts.cli.rules_stats import register_stats


#: Positions of random games ``rules check`` measures each motif's precision on (the shipped
#: files: some 0.7 s for the check against 0.2-0.4 s without, measured), and the precision
#: under which it warns.
CHECK_POSITIONS = 1_000
PRECISION_WARNING = 0.95
MAX_POSITIONS = 1_000_000


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules", help="check, match, measure and show knowledge-base rules",
        description="Tools for the combination rules of the knowledge base (combos/*.txt).",
    )
    actions = p.add_subparsers(dest="rules_command", metavar="ACTION", parser_class=type(p))

    def no_action(args: argparse.Namespace) -> int:
        p.print_help()
        print("kbdraughts rules: choose an action: check, match, stats or show", file=sys.stderr)
        return USAGE_ERROR

    p.set_defaults(func=no_action)
    c = actions.add_parser(
        "check", help="parse rule files and report errors and warnings",
        description="Parse rule files (a PATH is a file or a directory of *.txt; default: the "
        "shipped knowledge base) and print path:line: error/warning lines, then a summary. "
        "Exit status 0 without errors, 1 with errors.",
    )
    c.add_argument("paths", nargs="*", metavar="PATH", help="a rule file or a directory of "
                   "*.txt (default: the shipped knowledge base)")
    c.add_argument("--prove", action="store_true", help="play each motif's examples and prove "
                   "its claim by an exhaustive search of every defence (default: only check "
                   "that each example fires); a last line but one counts the claims proved")
    c.add_argument("--costs", action="store_true", help="add a note for each motif: its "
                   "groundings and the conditions it checks per candidate (default: none)")
    c.add_argument("--positions", type=whole_number("positions", 0, MAX_POSITIONS),
                   default=CHECK_POSITIONS, metavar="N",
                   help="measure each motif's precision on N positions of random games and "
                   # argparse %-formats help: the percent sign is doubled.
                   f"warn under {PRECISION_WARNING * 100:.0f}%% (default {CHECK_POSITIONS:,}; 0: "
                   "do not measure)")
    c.set_defaults(func=run_check)
    m = actions.add_parser(
        "match", help="which rules apply to each position",
        description="One line per position: the ids of the rules whose pattern applies "
        "(mirrored ones included), in the order the AI tries them; an empty line for none. "
        "With no FEN, reads FENs from stdin, one per line.",
    )
    add_fens(m)
    add_rules(m, "use this rule file or directory instead of the shipped ones (repeat "
              "--rules for several)")
    add_strict(m)
    m.set_defaults(func=run_match)
    register_stats(actions)
    s = actions.add_parser(
        "show", help="draw a rule and its mirror",
        description="Draw the rule ID as a board, with its file:line, and its mirror.",
    )
    s.add_argument("id", metavar="ID", help="the rule's name, as 'rules match' prints it")
    add_rules(s, "look in this rule file or directory instead of the shipped ones (repeat "
              "--rules for several)")
    add_strict(s)
    s.set_defaults(func=run_show)


def run_check(args: argparse.Namespace) -> int:
    from kbdraughts.kb.knowledge import missing_paths, read_combos, size_words

    rules, motifs, warnings, errors, files = read_combos(args.paths or None)
    missing = missing_paths(errors)
    errors = [d for d in errors if d not in missing]
    check = _check_motifs(motifs, args.prove, args.costs)
    errors += check.errors
    warnings = warnings + _crowded_boards(rules) + _precision_warnings(motifs, args.positions,
                                                                   args.paths)
    order = {f: i for i, f in enumerate(files)}
    findings = sorted(warnings + check.notes + errors,
                      key=lambda d: (order.get(d.path, -1), d.line, d.level != "error"))
    for d in missing:
        print(f"kbdraughts rules check: {one_line(d.path)}: {d.message}", file=sys.stderr)
    for d in findings:
        print(one_line(str(d)))
    if args.prove:
        print(f"proved {check.proved} claim{'s' * (check.proved != 1)} on "
              f"{plural(check.examples, 'example')}, {check.failed} failed")
    print(f"{plural(len(files), 'file')}, {size_words(rules, [m for m, _ in motifs])}, "
          f"{plural(len(warnings), 'warning')}, {plural(len(errors), 'error')}")
    if missing:
        return USAGE_ERROR
    return 1 if errors else 0


class _MotifCheck:
    """What ``rules check`` found in the motifs: errors, ``--costs`` notes, and (``--prove``)
    how many examples' claims were proved and how many failed."""

    def __init__(self) -> None:
        self.notes: list = []
        self.errors: list = []
        self.examples = self.proved = self.failed = 0


def _check_motifs(motifs: list, prove: bool, costs: bool) -> _MotifCheck:
    """Each example must fire (``prove``: and its claim hold); ``costs``: each motif's
    groundings and per-candidate conditions as notes."""
    from kbdraughts.kb.motifs.check import check_motif
    from kbdraughts.kb.motifs.prove import example_hit, prove as prove_claim
    from kbdraughts.kb.rules.rule import Diagnostic
    from kbdraughts.notation import parse_fen

    out = _MotifCheck()
    for motif, compiled in motifs:
        if costs:
            per = [msg for _, level, msg in check_motif(motif) if level == "note"]
            out.notes.append(Diagnostic(motif.path, motif.line, "note", f"motif {motif.id}: "
                                        f"{len(compiled.groundings):,} groundings"
                                        + "".join(f"; {m}" for m in per)))
        for fen_text, line in motif.examples:
            out.examples += 1
            hit = example_hit(motif, compiled, fen_text)
            why = hit if isinstance(hit, str) else (
                prove_claim(motif, parse_fen(fen_text), hit) if prove else None)
            if why is None:
                out.proved += prove
                continue
            out.failed += 1
            out.errors.append(Diagnostic(motif.path, line, "error", why if isinstance(hit, str)
                                         else f"motif {motif.id} {motif.claim()}: {why}"))
    return out


def _crowded_boards(rules: list) -> list:
    """A warning for each rule whose board pins more pieces of a side than a side has (13
    black men: no game reaches it, so the rule never fires)."""
    from kbdraughts.kb.rules.pattern import BLACK_PIECES, MAX_PIECES, WHITE_PIECES
    from kbdraughts.kb.rules.rule import Diagnostic

    out = []
    for rule in rules:
        for name, pieces in (("white", WHITE_PIECES), ("black", BLACK_PIECES)):
            pinned = sum(1 for m in rule.allowed if m and not m & ~pieces)
            if pinned > MAX_PIECES:
                out.append(Diagnostic(rule.path, rule.line, "warning", (
                    f"rule {rule.id}: its board holds {pinned} {name} pieces, and a side has "
                    f"at most {MAX_PIECES}: no game reaches it, so it never fires")))
    return out


def _precision_warnings(motifs: list, positions: int, paths: list[str]) -> list:
    """A warning for each motif whose claim held in under PRECISION_WARNING of its firings on
    ``positions`` positions of random games (the default seed), with the ``rules stats``
    command that shows its false firings: of the checked ``paths`` (none: the shipped files)."""
    import shlex

    from kbdraughts.coach.rule_stats import SEED, measure, random_positions
    from kbdraughts.kb.knowledge import KnowledgeBase
    from kbdraughts.kb.rules.rule import Diagnostic

    if not motifs or not positions:
        return []
    out = []
    rules = "".join(f" --rules {shlex.quote(p)}" for p in paths)
    for st in measure(KnowledgeBase([], motifs=motifs), random_positions(SEED, positions)):
        if st.precision is not None and st.precision < PRECISION_WARNING:
            out.append(Diagnostic(st.rule.path, st.rule.line, "warning", (
                f"motif {st.rule.id}: precision {100 * st.precision:.1f}% ({st.right:,} of "
                f"{st.judged:,} firings right) on {plural(positions, 'position', True)} of random "
                "games, under "
                f"{PRECISION_WARNING:.0%}: 'kbdraughts rules stats {st.rule.id}{rules}' shows "
                "the false firings")))
    return out


def run_match(args: argparse.Namespace) -> int:
    from kbdraughts.match.line_protocol import read_game_line
    from kbdraughts.cli.answer import answer_each

    kb = load_rules(args.rules, "match", args.strict)
    if kb is None:
        return USAGE_ERROR
    def answer(text: str) -> str:  # a FEN, or a game as bestmove reads it: FEN moves ...
        return _matched(kb.matches(read_game_line(text).position, drafts=True))

    return answer_each(args.fens, answer)


def _matched(matches: list) -> str:
    """One line: the rules' ids, then `` | motif ID (file:line) MOVE S=d4 ...`` per motif."""
    from kbdraughts.kb.rules.rule import RuleLayer
    from kbdraughts.notation import SQUARE_NAMES, move_text

    parts = [" ".join(m.rule.id for m in matches if m.layer != RuleLayer.MOTIF)]
    for m in matches:
        if m.layer == RuleLayer.MOTIF:
            move = move_text(m.move) if m.move is not None else "warning"
            bound = "".join(f" {v}={SQUARE_NAMES[s]}" for v, s in m.bindings)
            where = f"{m.rule.where}, draft" if getattr(m.rule, "draft", False) else m.rule.where
            parts.append(f"motif {m.rule.id} ({where}) {move}{bound}")
    return " | ".join(parts).strip()


def run_show(args: argparse.Namespace) -> int:
    from kbdraughts.kb.rules.rule import Rule
    from kbdraughts.kb.writer import show_motif, show_rule

    kb = load_rules(args.rules, "show", args.strict)
    if kb is None:
        return USAGE_ERROR
    if args.id not in kb:
        print(f"kbdraughts rules show: no rule {args.id!r} among {kb.size_words()}"
              f"{did_you_mean(kb, args.id)}", file=sys.stderr)
        return USAGE_ERROR
    rule = kb.rule(args.id)
    print(show_rule(rule) if isinstance(rule, Rule) else show_motif(rule))
    return 0
