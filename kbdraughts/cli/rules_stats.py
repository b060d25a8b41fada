"""``kbdraughts rules stats``: how often each rule or motif fires on a sample of positions, how
often its claim holds by the referee (precision), and its worst false firings as FENs
(:mod:`kbdraughts.coach.rule_stats` counts; this module reads the options and prints).

Output (scripts may rely on it): a header line; a line per rule or motif ``fired right false
unjudged precision  KIND ID (file:line)``, each followed by its worst false firings (``    false:
MOVE nets N: FEN``, ``loses the game``, a warning's ``no danger: FEN``); a line on the rules not
shown; a last line ``N positions: F firings judged, R right (P%), U unjudged; T s``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from kbdraughts.cli.args import (
    USAGE_ERROR, add_rules, add_strict, fail, integer, one_line, whole_number,
)
from kbdraughts.cli.rules_kb import did_you_mean, load_rules
from kbdraughts.wording import plural

if TYPE_CHECKING:
    from kbdraughts.coach.rule_stats import FalseFiring, RuleStats

#: The default sample (10,000 positions: some 7 s for the shipped files on this machine).
STATS_POSITIONS = 10_000
MAX_POSITIONS = 1_000_000


def register_stats(actions: argparse._SubParsersAction) -> None:
    """The ``rules stats`` action."""
    t = actions.add_parser(
        "stats", help="how often each rule fires and how often its claim holds",
        description="For each rule and motif (or each ID given): how often it fires on a "
        "sample of positions and how often its claim holds by the referee (precision), with "
        "its worst false firings as FENs to refine its conditions. The sample: quiet "
        "positions of seeded random games, or of the games of a PDN file (--games).",
    )
    t.add_argument("ids", nargs="*", metavar="ID", help="the rules and motifs to measure "
                   "(default: every one that claims something, and the motifs)")
    t.add_argument("--positions", type=whole_number("positions", 1, MAX_POSITIONS),
                   default=None, metavar="N", help=f"positions to measure (default "
                   f"{STATS_POSITIONS:,}; with --games, at most N of the games' positions)")
    t.add_argument("--games", metavar="FILE.pdn", default=None,
                   help="measure on the quiet positions of these games (default: of random games)")
    t.add_argument("--seed", type=integer, default=None, metavar="S",
                   help="the random games' seed (default 2026)")
    t.add_argument("--worst", type=whole_number("worst", 0, 100), default=3, metavar="K",
                   help="false firings shown per rule, the worst first (default 3)")
    add_rules(t, "measure this rule file or directory instead of the shipped ones (repeat "
              "--rules for several)")
    add_strict(t)
    t.set_defaults(func=run_stats)


def run_stats(args: argparse.Namespace) -> int:
    """Measure and print (see the module's docstring); 0, or USAGE_ERROR."""
    import time

    from kbdraughts.coach.rule_stats import SEED, game_positions, measure, random_positions

    started = time.perf_counter()
    kb = load_rules(args.rules, "stats", args.strict)
    if kb is None:
        return USAGE_ERROR
    unknown = [i for i in args.ids if i not in kb]
    if unknown:
        return fail("rules stats", f"no rule or motif {unknown[0]!r} among {kb.size_words()}"
                    f"{did_you_mean(kb, unknown[0])}")
    if args.games is not None:
        games = _games(args.games)
        if games is None:
            return USAGE_ERROR
        positions = game_positions(games, args.positions)
        source = f"of {plural(len(games), 'game')} in {one_line(args.games)}"
    else:
        seed = SEED if args.seed is None else args.seed
        positions = random_positions(seed, args.positions or STATS_POSITIONS)
        source = f"of random games (seed {seed})"
    print(f"rules stats: {len(positions):,} quiet positions {source}; a claim is judged by the "
          "referee (kbdraughts/ai/claims.py)")
    table = measure(kb, positions, args.ids or None, args.worst)
    shown = table if args.ids else [
        st for st in table if st.claim is not None and (st.fired or st.rule in kb.motifs)]
    print(f"{'fired':>6} {'right':>6} {'false':>6} {'unjudged':>8} {'precision':>9}  rule")
    for st in shown:
        print(_stats_line(st))
        for f in st.worst:
            print(f"    false: {_false_text(f)}")
    silent = sum(1 for st in table if st.claim is not None and st not in shown)
    plain = [st for st in table if st.claim is None and st not in shown]
    if silent or plain:
        print(f"not shown: {plural(silent, 'rule')} with a claim that did not fire; "
              f"{plural(len(plain), 'rule')} that claim nothing (opening lines, taught "
              f"positions), fired {sum(st.fired for st in plain):,} times")
    judged = sum(st.judged for st in shown)
    right = sum(st.right for st in shown)
    share = f" ({100 * right / judged:.1f}%)" if judged else ""
    unjudged = sum(st.unjudged for st in shown)
    print(f"{plural(len(positions), 'position', True)}: {judged:,} firings judged, "
          f"{right:,} right{share}, {unjudged:,} unjudged; {time.perf_counter() - started:.1f} s")
    return 0


def _stats_line(st: RuleStats) -> str:
    """``KIND ID (file:line)`` and the figures of one rule."""
    kind = "motif" if hasattr(st.rule, "examples") else "rule"
    draft = ", draft" if getattr(st.rule, "draft", False) else ""
    label = one_line(f"{kind} {st.rule.id} ({st.rule.where}{draft})", 200)
    if st.claim is None:
        return f"{st.fired:>6} {'-':>6} {'-':>6} {'-':>8} {'-':>9}  {label}"
    precision = f"{100 * st.precision:.1f}%" if st.precision is not None else "-"
    return (f"{st.fired:>6} {st.right:>6} {st.wrong:>6} {st.unjudged:>8} {precision:>9}  "
            f"{label}")


def _false_text(f: FalseFiring) -> str:
    """``MOVE nets N: FEN`` (``loses the game``; a warning: ``no danger: FEN``)."""
    from kbdraughts.ai.claims import GAME_WON
    from kbdraughts.notation import fen, move_text

    if f.move is None:
        return f"no danger: {fen(f.position)}"
    if f.nets is None:
        nets = "nets ? (past the referee's budget)"
    elif abs(f.nets) >= GAME_WON:
        nets = "wins the game" if f.nets > 0 else "loses the game"
    else:
        nets = f"nets {f.nets:+d}"
    return f"{move_text(f.move)} {nets}: {fen(f.position)}"


def _games(path: str) -> list[Any] | None:
    """The games of the PDN file at ``path`` (a broken game named on stderr and skipped), or
    None after saying why there are none."""
    from kbdraughts.pdn import PdnError, load_pdn_file

    try:
        read = load_pdn_file(path)
    except PdnError as e:
        fail("rules stats", str(e))
        return None
    games = [g.game for g in read.entries if not isinstance(g, PdnError)]
    for entry in read.entries:
        if isinstance(entry, PdnError):
            print(f"kbdraughts rules stats: {one_line(str(entry))}; game skipped",
                  file=sys.stderr)
    if not games:
        fail("rules stats", f"{path}: no game could be read")
        return None
    return games


