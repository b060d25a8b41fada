"""``teach``: the person saves the current position and a move as a new exact rule, or
drafts a motif from them (``teach motif MOVE``).

The rule goes into the user's own combos file, ``data_dir()/combos/taught.txt``, in the combos
format (``rule ID`` / ``side:`` / ``position: <FEN>`` / ``play: <move>``) with an id unique in
that file, written by the combos writer (:func:`kbdraughts.kb.writer.format_rule`); the ids
already there are read by the combos parser. The whole knowledge base (shipped files and the
user's) is then loaded again to check the file as ``rules check`` would; if the new rule breaks
it, the file is put back as it was.

The file is always written whole (:func:`kbdraughts.files.write_atomic`: a temporary file, then
a rename), so a full disk or a kill leaves the old rules, never a cut file. A file that cannot
be read as text (not UTF-8) is left alone: :func:`teach` says where it is faulty and writes
nothing.

``teach motif MOVE`` (:func:`draft`) appends a skeleton ``motif`` block
(:func:`kbdraughts.coach.motif_draft.draft_motif`: the move's squares as variables, conditions on
the squares its line uses, the claim the referee finds, this position as its example) to
``data_dir()/combos/drafts/motifs.txt``, as ``draft-N`` with an id no block of that file and
no rule or motif of the knowledge base has (a draft moved into a combos file keeps its id). That
folder is not loaded: a draft plays only once its
author has generalised it and moved it into a combos file (``kbdraughts rules check FILE``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from kbdraughts.coach.motif_draft import block_ids, draft_id, draft_motif
from kbdraughts.board import Move, Position
from kbdraughts.files import NotUtf8Error, decode_text, folder_lock, write_atomic
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.kb.combos import RuleFileError
from kbdraughts.kb.combos import Rule, make_rule, parse_rules
from kbdraughts.kb.writer import format_rule
from kbdraughts.notation import move_text, side_name
from kbdraughts.resources import data_dir
from kbdraughts.ui.registry import Front

_TAUGHT_ID = re.compile(r"taught-(\d{1,4000})")  # int() refuses more than 4,300 digits
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
    checked: str  # "the knowledge base loads it: N rules", or the error that undid the write
    ok: bool
    written: bool = True  # False when the same rule was already in the file


def taught_rule(rule_id: str, pos: Position, move: Move, when: str) -> Rule:
    """The exact rule "in ``pos`` play ``move``", as ``teach`` writes it."""
    return make_rule(rule_id, move_text(move), position=pos, name=f"taught in a game on {when}")


def teach(pos: Position, move: Move, path: Path | None = None) -> Taught:
    """Append the rule "in ``pos`` play ``move``" to ``path`` (default: :func:`taught_file`),
    the file's folder locked from reading it to checking it: two consoles teaching at once
    each keep their rule, under ids of their own."""
    path = path or taught_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    with folder_lock(path.parent):
        return _teach(pos, move, path)


def _teach(pos: Position, move: Move, path: Path) -> Taught:
    try:
        old = decode_text(path.read_bytes(), path) if path.exists() else ""
    except NotUtf8Error as e:  # the person's file: never rewritten unread
        return Taught("", path, e.line, f"{e}; nothing written", False, False)
    rules = parse_rules(old, str(path))[0]  # those that read cleanly: a faulty file fails the check
    for rule in rules:
        if rule.exact_position() == pos and rule.play_text() == move_text(move):
            return Taught(rule.id, path, rule.line, "already taught: nothing written", True, False)
    numbers = [int(m.group(1)) for r in rules if (m := _TAUGHT_ID.fullmatch(r.id))]
    rule_id = f"taught-{max(numbers, default=0) + 1}"
    head = old if old else _HEADER
    if head and not head.endswith("\n"):
        head += "\n"
    head += "\n"
    line = head.count("\n") + 1
    write_atomic(path, head + format_rule(
        taught_rule(rule_id, pos, move, time.strftime("%Y-%m-%d"))))
    checked, ok = check_knowledge_base(path)
    if not ok:
        if old:
            write_atomic(path, old)
        else:
            path.unlink()
    return Taught(rule_id, path, line, checked, ok)


def check_knowledge_base(path: Path) -> tuple[str, bool]:
    """Load the knowledge base (shipped rules and the user's files, ``path`` included)."""
    try:
        kb = load_knowledge_base()
    except RuleFileError as e:
        return str(e), str(path) not in str(e) and path.name not in str(e)
    return f"the knowledge base loads it: {kb.size_words()}", True


# -- teach motif: a draft for the author to generalise --------------------------------------

_DRAFT_HEADER = (
    "# Motifs drafted in games with `teach motif` (kbdraughts play), each on the squares of\n"
    "# its position. Keep the conditions that make the idea work, widen `pieces:`, then move\n"
    "# the motif into a combos file (~/.local/share/kbdraughts/combos/*.txt) and run\n"
    "# `kbdraughts rules check` on it. This folder is not loaded: a draft does not play.\n"
)


def drafts_file() -> Path:
    return data_dir() / "combos" / "drafts" / "motifs.txt"


@dataclass(frozen=True)
class Drafted:
    """A motif drafted by ``teach motif``: its id, where it was written, its text."""

    motif_id: str
    path: Path
    line: int
    text: str


def draft(pos: Position, move: Move, path: Path | None = None) -> Drafted:
    """Append the draft motif of ``move`` in ``pos`` to ``path`` (default: drafts_file()).
    NotUtf8Error when the file is not text (it is left alone)."""
    path = path or drafts_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    with folder_lock(path.parent):  # a second console's draft waits: neither is lost
        return _draft(pos, move, path)


def _draft(pos: Position, move: Move, path: Path) -> Drafted:
    old = decode_text(path.read_bytes(), path) if path.exists() else ""
    motif_id = draft_id(block_ids(old) | _known_ids())  # drafts moved out of the file count
    head = old or _DRAFT_HEADER
    head += ("" if head.endswith("\n") else "\n") + "\n"
    text = draft_motif(pos, move, motif_id)
    write_atomic(path, head + text)
    return Drafted(motif_id, path, head.count("\n") + 1, text)


def _known_ids() -> set[str]:
    """The ids of the knowledge base's rules and motifs (the shipped files and the user's; a
    faulty block is left out, its id read from the user's files' text)."""
    ids: set[str] = set()
    try:
        kb = load_knowledge_base(skip_faulty=True)
        ids.update(r.id for r in kb.rules)
        ids.update(m.id for m in kb.motifs)
    except RuleFileError:
        pass
    for f in sorted((data_dir() / "combos").glob("*.txt")):
        try:
            ids |= block_ids(f.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            continue
    return ids


def draft_at(ui: Front, move: Move) -> None:
    """``teach motif MOVE`` at the console: draft, write, and show the draft."""
    try:
        drafted = draft(ui.session.shown.position, move)
    except (OSError, NotUtf8Error) as e:
        ui.error(f"The motif was not drafted: {getattr(e, 'strerror', None) or e}.")
        return
    ui.info(f"Drafted motif {drafted.motif_id} from {move_text(move)} here, written to "
            f"{drafted.path}:{drafted.line}. Make its conditions general, then move it into a "
            "combos file and run 'kbdraughts rules check' on it:")
    ui.info(drafted.text.rstrip("\n"))


def teach_at(ui: Front, move: Move) -> None:
    """Write the position and ``move`` as a rule of the person's own; the AI knows it next."""
    game = ui.session.shown
    try:
        taught = teach(game.position, move)
    except OSError as e:
        ui.error(f"Cannot write the rule: {e.strerror or e}.")
        return
    if not taught.ok:
        ui.error(f"The rule was not kept: {taught.checked}")
        return
    if not taught.written:
        ui.info(f"Already taught: rule {taught.rule_id} at {taught.path}:{taught.line}.")
        return
    ui.session.rebuild_kb_players()  # the new rule counts from the next move
    ui.info(f"Taught rule {taught.rule_id}: {side_name(game.side)} plays "
            f"{move_text(move)} here. Written to {taught.path}:{taught.line}; "
            f"{taught.checked}. The AI knows it from now on.")
