"""The knowledge base: rule files loaded, ordered for the AI, and asked about positions.

>>> kb = KnowledgeBase(parse_rules(EXAMPLE, "example.txt")[0])
>>> from kbdraughts.notation import parse_fen, move_text
>>> [(m.rule.id, m.mirrored, m.layer, move_text(m.move))
...  for m in kb.firing(parse_fen("W:Wc3:Bd4,f6"))]
[('shot-1', False, <RuleLayer.CAPTURE: 'capture'>, 'c3:e5:g7')]
>>> [(m.rule.id, m.mirrored) for m in kb.matches(parse_fen("B:Wc3,e5:Bf6"))]
[('shot-1', True)]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

from kbdraughts.board import Move, Position, legal_moves
from kbdraughts.files import NOT_UTF8, NotUtf8Error, special_kind
from kbdraughts.kb.cache import Progress, parse_file_all
from kbdraughts.kb.motifs.ground import Compiled
from kbdraughts.kb.rules.index import DatalogIndex
from kbdraughts.kb.motifs.motif import Motif
from kbdraughts.kb.motifs.index import MotifHit, MotifIndex
from kbdraughts.kb.combos import (  # noqa: F401 (EXAMPLE and parse_rules: for the doctest above)
    EXAMPLE, Diagnostic, Pattern, Rule, RuleFileError, parse_rules,
)
from kbdraughts.kb.rules.rule import RuleLayer
from kbdraughts.resources import combos_dir, data_dir
from kbdraughts.squares import between
from kbdraughts.wording import plural

__all__ = [
    "KnowledgeBase", "RuleMatch", "load_knowledge_base", "read_rule_files", "read_combos",
    "rule_files", "LAYERS", "NOT_RULES", "MISSING", "skipped_summary", "missing_paths",
]

#: The rules' layers in the order the AI tries them (a motif's match comes after them in
#: :meth:`KnowledgeBase.matches`).
LAYERS = (RuleLayer.CAPTURE, RuleLayer.EXACT, RuleLayer.PATTERN)
#: The error for a path given that does not exist (fatal: there is nothing to load).
MISSING = "no such file or directory"
#: What a path that is a device, a FIFO or a socket earns, after its kind ("a device").
NOT_RULE_PATH = ", not a rule file or a directory of them: not read"


def missing_paths(errors: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The errors of :func:`rule_files`: a path that names no file or directory to read."""
    return [d for d in errors if d.line == 0 and (d.message == MISSING
                                                  or d.message.endswith(NOT_RULE_PATH))]
#: Files in a rules directory that are not rules: the evaluation's terms and its regions
#: (formats of their own, eval/terms.py and eval/shapes.py).
NOT_RULES = frozenset({"heuristic.txt", "shapes.txt"})


class RuleMatch(NamedTuple):
    """A rule whose pattern applies to a position: mirrored or not, its layer, and its move
    there (None when the move is not legal in this position, so the rule does not fire).

    ``bindings``: for a motif (a rule with variables), each variable's name and the square it
    is bound to in this position (board squares, after mirroring), in the order the motif
    names them; empty for a rule with fixed squares."""

    rule: Rule | Motif
    mirrored: bool
    layer: RuleLayer
    move: Move | None
    bindings: tuple[tuple[str, int], ...] = ()


def layer_of(rule: Rule) -> RuleLayer:
    return RuleLayer.CAPTURE if rule.capture else RuleLayer.EXACT if rule.exact \
        else RuleLayer.PATTERN


def ai_order(rules: Sequence[Rule]) -> list[Rule]:
    """Captures first, then exact quiet rules, then patterns; within a layer higher priority,
    then more constrained squares, then file order (``rules`` is in file order)."""
    order = {id(r): i for i, r in enumerate(rules)}
    return sorted(rules, key=lambda r: (
        LAYERS.index(layer_of(r)), -r.priority, -r.constrained, order[id(r)]))


def find_move(pattern: Pattern, pos: Position, legal: Sequence[Move]) -> Move | None:
    """The legal move the rule's ``play`` names in ``pos``, or None.

    A capture is identified by its start, end and the pieces it takes (read off the path), so
    a rule's path matches the generator's move even when equal paths were merged.
    """
    squares = pattern.play
    start, end = squares[0], squares[-1]
    if not pattern.capture:
        for m in legal:
            if m.start == start and m.end == end and not m.captured:
                return m
        return None
    opponents = pos.black if pos.side == 0 else pos.white
    taken = 0
    for a, b in zip(squares, squares[1:]):
        for s in between(a, b):
            taken |= 1 << s
    taken &= opponents
    fallback = None
    for m in legal:
        if m.start == start and m.end == end and m.captured == taken:
            if m.path == squares[1:]:
                return m
            fallback = fallback or m
    return fallback


class KnowledgeBase:
    """Rules answered by a pyDatalog program (see :mod:`kbdraughts.kb.rules.index`)."""

    def __init__(self, rules: Sequence[Rule], warnings: Sequence[Diagnostic] = (),
                 files: Sequence[str] = (), motifs: Sequence[tuple[Motif, Compiled]] = (),
                 errors: Sequence[Diagnostic] = ()):
        """``motifs``: each motif with its compiled form
        (:func:`kbdraughts.kb.motifs.ground.compile_motif`); ``errors``: the faults of the rules
        left out when the files were read."""
        self.rules: list[Rule] = list(rules)  # file order
        self.warnings: list[Diagnostic] = list(warnings)
        self.errors: list[Diagnostic] = list(errors)
        self.files: list[str] = list(files)
        self.ordered: list[Rule] = ai_order(self.rules)
        self.motifs: list[Motif] = [m for m, _ in motifs]  # file order
        self._by_id: dict[str, Rule | Motif] = {r.id: r for r in self.rules}
        self._by_id.update((m.id, m) for m in self.motifs)
        self._layers = [layer_of(r) for r in self.ordered]
        self._index = DatalogIndex(self.ordered)
        self._motifs = MotifIndex(motifs)

    def __len__(self) -> int:
        return len(self.rules) + len(self.motifs)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._by_id

    def rule(self, rule_id: str) -> Rule | Motif:
        """The rule or motif with this id (KeyError when there is none)."""
        return self._by_id[rule_id]

    def matches(self, pos: Position, legal: Sequence[Move] | None = None,
                warnings: bool = True, drafts: bool = False) -> list[RuleMatch]:
        """Rules whose pattern applies to ``pos`` (mirrored ones included), in the AI's order;
        each with its move when that move is legal here. Then the motifs found, best first, one
        per motif and move (a warning's move is None; ``warnings=False`` skips them; draft
        motifs only with ``drafts``: ``rules match`` shows them, the AI never plays them)."""
        variants = self._index.applicable(pos)
        out = []
        if legal is None and (variants or len(self._motifs)):
            legal = legal_moves(pos)  # once, for the rules and the motifs
        if variants:
            assert legal is not None
            for v in variants:
                rule = self.ordered[v >> 1]
                mirrored = bool(v & 1)
                move = find_move(rule.patterns[1] if mirrored else rule.pattern, pos, legal)
                out.append(RuleMatch(rule, mirrored, self._layers[v >> 1], move))
        out.extend(_match(h) for h in self._motifs.hits(pos, legal, warnings=warnings,
                                                        drafts=drafts))
        return out

    def firing(self, pos: Position, legal: Sequence[Move] | None = None) -> list[RuleMatch]:
        """The matches whose move is legal now: what the AI can play, best first (a warning
        motif plays no move, so it is not asked here: see :meth:`motif_hits`)."""
        return [m for m in self.matches(pos, legal, warnings=False) if m.move is not None]

    def motif_hits(self, pos: Position, legal: Sequence[Move] | None = None) -> list[RuleMatch]:
        """Every motif found in ``pos``, warnings included: one match per distinct binding of
        its squares, best first."""
        return [_match(h) for h in self._motifs.hits(pos, legal, every=True)]

    def size_words(self) -> str:
        """Its size as every command says it (:func:`size_words`)."""
        return size_words(self.rules, self.motifs)

    def counts(self) -> dict[str, int]:
        """How many rules are exact and how many patterns."""
        exact = sum(1 for r in self.rules if r.exact)
        return {"rules": len(self.rules), "exact": exact, "patterns": len(self.rules) - exact}


def size_words(rules: Sequence[Rule], motifs: Sequence[Motif]) -> str:
    """A knowledge base's size, said the same by ``rules check``, ``teach`` and the rest:
    ``748 rules (683 exact, 65 patterns), 18 motifs``; the motifs only when there are some."""
    exact = sum(1 for r in rules if r.exact)
    said = f"{plural(len(rules), 'rule')} ({exact} exact, {plural(len(rules) - exact, 'pattern')})"
    return said + (f", {plural(len(motifs), 'motif')}" if motifs else "")


def _match(hit: MotifHit) -> RuleMatch:
    return RuleMatch(hit.motif, hit.mirrored, RuleLayer.MOTIF, hit.move, hit.bindings)


# --- loading -------------------------------------------------------------------------------


def default_paths() -> list[Path]:
    """The shipped ``combos/`` and, when it exists, the user's ``data_dir()/combos``."""
    paths = [combos_dir()]
    user = data_dir() / "combos"
    if user.is_dir():
        paths.append(user)
    return paths


def rule_files(paths: Iterable[str | os.PathLike]) -> tuple[list[Path], list[Diagnostic]]:
    """The rule files named by ``paths`` (a directory gives its ``*.txt`` but heuristic.txt),
    and an error for each path that does not exist."""
    files: list[Path] = []
    errors: list[Diagnostic] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files.extend(f for f in sorted(path.glob("*.txt")) if f.name not in NOT_RULES)
        elif path.is_file():
            files.append(path)
        else:
            kind = special_kind(path)  # /dev/zero: said so, never "no such file"
            errors.append(Diagnostic(str(p), 0, "error", MISSING if kind is None
                                     else f"{kind}{NOT_RULE_PATH}"))
    return files, errors


def _shown(path: Path) -> str:
    """A path as people read it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def read_rule_files(
    paths: Iterable[str | os.PathLike] | None = None,
) -> tuple[list[Rule], list[Diagnostic], list[Diagnostic], list[str]]:
    """Parse the rule files: (rules, warnings, errors, files read). Rule ids must be unique
    across all files (a duplicate is an error at the second one)."""
    rules, _, warnings, errors, files = read_combos(paths)
    return rules, warnings, errors, files


def read_combos(
    paths: Iterable[str | os.PathLike] | None = None, progress: Progress | None = None,
) -> tuple[list[Rule], list[tuple[Motif, Compiled]], list[Diagnostic], list[Diagnostic],
           list[str]]:
    """Parse the rule files: (rules, motifs compiled, warnings, errors, files read). A rule or
    motif with an error is left out, named by it; the rest of its file and the other files are
    read. Ids must be unique across all files (a duplicate is an error at the second, which is
    left out). Errors come sorted by file (in the order read), then line."""
    files, errors = rule_files(default_paths() if paths is None else paths)
    rules: list[Rule] = []
    motifs: list[tuple[Motif, Compiled]] = []
    warnings: list[Diagnostic] = []
    seen: dict[str, Rule | Motif] = {}
    shown = []
    for f in files:
        name = _shown(f)
        shown.append(name)
        try:
            data = f.read_bytes()
        except OSError as e:
            errors.append(Diagnostic(name, 0, "error", f"cannot read: {e.strerror or e}"))
            continue
        try:
            file_rules, file_motifs, file_warnings, file_errors = parse_file_all(
                data, name, progress)
        except NotUtf8Error as e:
            errors.append(Diagnostic(name, e.line, "error", NOT_UTF8))
            continue
        file_errors = list(file_errors)
        fresh = lambda r: _unique(r, seen, name, file_errors)  # noqa: E731,B023 (used at once)
        rules.extend(r for r in file_rules if fresh(r))
        motifs.extend(m for m in file_motifs if fresh(m[0]))
        warnings.extend(file_warnings)
        errors.extend(sorted(file_errors, key=lambda d: d.line))
    return rules, motifs, warnings, errors, shown


def _unique(rule: Rule | Motif, seen: dict[str, Rule | Motif], name: str,
            errors: list[Diagnostic]) -> bool:
    """Whether ``rule``'s id is new (then it is remembered), else an error at it."""
    if rule.id in seen:
        errors.append(Diagnostic(name, rule.line, "error", f"duplicate rule id {rule.id!r} "
                                 f"(first at {seen[rule.id].where})"))
        return False
    seen[rule.id] = rule
    return True


def load_knowledge_base(paths: Iterable[str | os.PathLike] | None = None,
                        progress: Progress | None = None, skip_faulty: bool = False
                        ) -> KnowledgeBase:
    """Load rule files (default: the shipped ``combos/*.txt`` but heuristic.txt, then the
    user's ``data_dir()/combos/*.txt``). Raises RuleFileError (``path:line: error: ...``) for
    a fault; with ``skip_faulty`` only for a path that does not exist, and a faulty rule or
    motif is skipped instead, kept in the knowledge base's ``errors`` for the caller to report
    (every other one loads). ``progress`` is told what a cold build compiles (the motifs of a
    changed file)."""
    rules, motifs, warnings, errors, files = read_combos(paths, progress)
    missing = missing_paths(errors)
    if missing or (errors and not skip_faulty):
        raise RuleFileError(missing or errors)
    return KnowledgeBase(rules, warnings, files, motifs, errors)


def skipped_summary(errors: Sequence[Diagnostic]) -> str:
    """One line for a person: the first error whose rule was skipped (``file:line``), and how
    many more there are."""
    if not errors:
        return ""
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return (f"the knowledge base skipped the rules with errors: {errors[0]}{more}; the rest "
            "loaded ('kbdraughts rules check' lists every error)")
