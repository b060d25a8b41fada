"""``teach``: the person saves the current position and a move as a new exact rule.

The rule goes into the user's own combos file, ``data_dir()/combos/taught.txt``, in the combos
format (``rule ID`` / ``side:`` / ``position: <FEN>`` / ``play: <move>``) with an id unique in
that file. When the knowledge base package is present the whole knowledge base (shipped files
and the user's) is loaded again to check the file as ``rules check`` would; if the new rule
breaks it, the file is put back as it was.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from kbdraughts.board import Move, Position
from kbdraughts.notation import fen, move_text, side_name
from kbdraughts.resources import data_dir

_RULE_RE = re.compile(r"^\s*rule\s+taught-(\d+)\b", re.MULTILINE)
_HEADER = (
    "# Rules taught in games with `teach` (kbdraughts play). One exact position each; edit or\n"
    "# delete them freely, then run `kbdraughts rules check` on this file.\n"
)


def taught_file() -> Path:
    return data_dir() / "combos" / "taught.txt"


@dataclass(frozen=True)
class Taught:
    """A rule written by ``teach``: its id, where it is, and what the check said."""

    rule_id: str
    path: Path
    line: int
    checked: str  # "ok: N rules", "not checked: ...", or the error that undid the write
    ok: bool
    written: bool = True  # False when the same rule was already in the file


def rule_text(rule_id: str, pos: Position, move: Move, when: str) -> str:
    return (
        f"rule {rule_id}\n"
        f"  name: taught in a game on {when}\n"
        f"  side: {side_name(pos.side).lower()}\n"
        f"  position: {fen(pos)}\n"
        f"  play: {move_text(move)}\n"
    )


def teach(pos: Position, move: Move, path: Path | None = None) -> Taught:
    """Append the rule "in ``pos`` play ``move``" to ``path`` (default: :func:`taught_file`)."""
    path = path or taught_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    same = re.search(r"^rule\s+(\S+)\n(?:  (?!position:).*\n)*  position: "
                     + re.escape(fen(pos)) + r"\n  play: " + re.escape(move_text(move)) + r"\n",
                     old, re.MULTILINE)
    if same:
        line = old[:same.start()].count("\n") + 1
        return Taught(same.group(1), path, line, "already taught: nothing written", True, False)
    numbers = [int(n) for n in _RULE_RE.findall(old)]
    rule_id = f"taught-{max(numbers, default=0) + 1}"
    head = old if old else _HEADER
    if head and not head.endswith("\n"):
        head += "\n"
    head += "\n"
    line = head.count("\n") + 1
    path.write_text(head + rule_text(rule_id, pos, move, time.strftime("%Y-%m-%d")),
                    encoding="utf-8")
    checked, ok = check_knowledge_base(path)
    if not ok:
        if old:
            path.write_text(old, encoding="utf-8")
        else:
            path.unlink()
    return Taught(rule_id, path, line, checked, ok)


def check_knowledge_base(path: Path) -> tuple[str, bool]:
    """Load the knowledge base (shipped rules and the user's files, ``path`` included)."""
    try:
        from kbdraughts.kb import RuleFileError, load_knowledge_base
    except ImportError:
        return "not checked (the knowledge base is not installed)", True
    try:
        kb = load_knowledge_base()
    except RuleFileError as e:
        return str(e), str(path) not in str(e) and path.name not in str(e)
    return f"the knowledge base loads it: {len(kb)} rules", True
