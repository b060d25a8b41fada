"""The knowledge base as the ``rules`` actions load it, and the words they share."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from kbdraughts.cli.args import one_line

if TYPE_CHECKING:  # keep registration free of the heavy imports (pyDatalog)
    from kbdraughts.kb.knowledge import KnowledgeBase


def load_rules(paths: list[str] | None, action: str, strict: bool = False
               ) -> KnowledgeBase | None:
    """The knowledge base of ``paths`` (None: the shipped one and the user's), or None after
    reporting why not (a path that does not exist; with ``strict``, any fault). A faulty rule
    is skipped, named on stderr, and the rest is used."""
    from kbdraughts.cli.args import report_skipped
    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.kb.combos import RuleFileError

    try:
        kb = load_knowledge_base(paths, skip_faulty=True)
    except RuleFileError as e:  # only a path that does not exist
        for d in e.errors:
            print(f"kbdraughts rules {action}: {one_line(d.path)}: {d.message}", file=sys.stderr)
        return None
    return None if report_skipped(kb, f"rules {action}", strict) is not None else kb


def did_you_mean(kb: KnowledgeBase, wanted: str) -> str:
    """``; did you mean A, B?`` for ids that contain ``wanted`` (any case), or nothing."""
    ids = [r.id for r in kb.rules] + [m.id for m in kb.motifs]
    close = [i for i in ids if wanted.lower() in i.lower()][:5]
    return f"; did you mean {', '.join(close)}?" if close else ""
