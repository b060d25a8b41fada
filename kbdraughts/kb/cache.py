"""Rule files compiled once: a parsed file is kept, as plain data, until its text changes.

Parsing is most of the cost of loading a large knowledge base, and a rule file rarely
changes between two games. So the result of parsing a file (its rules with their square
masks, its motifs compiled to groundings, its warnings, and the errors of the blocks it
skipped, unless a time limit decided one) is written with :mod:`marshal` — plain ints,
strings and tuples, nothing that can run on load — under ``data_dir()/cache/``, named by a digest of
the file's text, the name it is shown under and this parser's own source. Any change to one of
those makes a new name, so a stale entry is never read; an unreadable entry is parsed again.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from dataclasses import fields
from pathlib import Path

from kbdraughts.files import decode_text
from typing import Callable

from kbdraughts.kb.motifs.ground import CompileError, Compiled, compile_motif
from kbdraughts.kb.motifs.motif import Motif
from kbdraughts.kb.motifs.index import from_data, to_data
from kbdraughts.kb.combos import Diagnostic, Pattern, Rule, parse_combos
from kbdraughts.resources import data_dir

__all__ = ["parse_file", "parse_file_all", "Progress"]

#: Told what a cold build is compiling (a line for a person; the kb itself never prints).
Progress = Callable[[str], None]

_FORMAT = 4
#: The parser's own source: a change to any of them makes every entry stale.
_KB = Path(__file__).parent
_PARSER_SOURCES = ([_KB / name for name in ("combos.py", "cache.py")]
                   + [_KB / "rules" / name for name in ("rule.py", "fields.py", "pattern.py")]
                   + [_KB / "motifs" / name for name in ("motif.py", "parse.py", "check.py",
                                                        "ground.py", "vocab.py", "index.py",
                                                        "defines.py", "interpret.py")])
_PARSER_SOURCES.append(Path(__file__).parent.parent / "files.py")  # how lines are read
_parser_digest: str | None = None


def _version() -> str:
    global _parser_digest
    if _parser_digest is None:
        h = hashlib.sha256(str(_FORMAT).encode())
        for src in _PARSER_SOURCES:
            h.update(src.read_bytes())
        _parser_digest = h.hexdigest()
    return _parser_digest


def _entry(text: bytes, shown: str) -> Path:
    h = hashlib.sha256(_version().encode())
    h.update(shown.encode())
    h.update(b"\0")
    h.update(text)
    return data_dir() / "cache" / f"rules-{h.hexdigest()[:32]}.marshal"


#: Rule's fields in declaration order: the cache stores a rule as these values, then what
#: parsing computed (its pattern's masks, exact, constrained), so a new field is never dropped.
_RULE_FIELDS = tuple(f.name for f in fields(Rule))
_DIAGNOSTIC_FIELDS = tuple(f.name for f in fields(Diagnostic))


def _dump(rules: list[Rule], warnings: list[Diagnostic], errors: list[Diagnostic]) -> bytes:
    return marshal.dumps((
        _RULE_FIELDS,
        [(tuple(getattr(r, name) for name in _RULE_FIELDS), r.pattern.allow, r.exact,
          r.constrained) for r in rules],
        [tuple(getattr(d, name) for name in _DIAGNOSTIC_FIELDS) for d in warnings],
        [tuple(getattr(d, name) for name in _DIAGNOSTIC_FIELDS) for d in errors],
    ))


def _load(data: bytes) -> tuple[list[Rule], list[Diagnostic], list[Diagnostic]]:
    names, raw_rules, raw_warnings, raw_errors = marshal.loads(data)
    if tuple(names) != _RULE_FIELDS:
        raise ValueError("a cache entry written for other fields")
    rules = []
    for values, allow, exact, constrained in raw_rules:
        rule = Rule(*values)
        # What parsing computed is put back as it was (they are cached properties of Rule).
        rule.__dict__.update(
            pattern=Pattern(rule.side, *rule.pieces, allow, rule.play_squares, rule.capture),
            exact=exact, constrained=constrained)
        rules.append(rule)
    return rules, [Diagnostic(*w) for w in raw_warnings], [Diagnostic(*e) for e in raw_errors]


def _motifs_entry(entry: Path) -> Path:
    """The compiled motifs of a file sit beside its rules' entry, under the same digest."""
    return entry.with_name(entry.name.replace("rules-", "motifs-", 1))


def parse_file(text: bytes, shown: str) -> tuple[list[Rule], list[Diagnostic], list[Diagnostic]]:
    """:func:`parse_rules` on a file's bytes, from the cache when this text was parsed before.
    Raises :class:`kbdraughts.files.NotUtf8Error` (``path:line``) for a file that is not UTF-8."""
    rules, _, warnings, errors = parse_file_all(text, shown)
    return rules, warnings, errors


def _compile(motifs: list[Motif], shown: str, errors: list[Diagnostic],
             progress: Progress | None) -> tuple[list[tuple[Motif, Compiled]], bool]:
    """The motifs compiled (a motif past a budget is an error, and left out), and whether
    the outcome is the same every time (a time limit may fall otherwise on another run)."""
    out, steady = [], True
    for i, m in enumerate(motifs, 1):
        if progress is not None:
            progress(f"compiling motif {m.id} ({i}/{len(motifs)}) of {shown}")
        try:
            out.append((m, compile_motif(m)))
        except CompileError as e:  # past a budget: the message names the motif
            errors.append(Diagnostic(shown, m.line, "error", str(e)))
            steady = steady and not e.timed
    return out, steady


def parse_file_all(text: bytes, shown: str, progress: Progress | None = None
                   ) -> tuple[list[Rule], list[tuple[Motif, Compiled]], list[Diagnostic],
                              list[Diagnostic]]:
    """The file's rules, its motifs compiled, its warnings and errors, from the cache when
    this text was compiled before. ``progress`` is told of each motif compiled (a cold build)."""
    entry = _entry(text, shown)
    try:
        rules, warnings, errors = _load(entry.read_bytes())
        motifs = [from_data(m) for m in marshal.loads(_motifs_entry(entry).read_bytes())]
        return rules, motifs, warnings, errors
    except (OSError, ValueError, EOFError, TypeError):
        pass  # not cached yet, or unreadable: parse it
    rules, parsed, warnings, errors = parse_combos(decode_text(text, shown), shown)
    motifs, steady = _compile(parsed, shown, errors, progress)  # a fault skips its block alone
    # A file with faults is kept too (its errors with it), so a motif past the work budget
    # costs its seconds once, not at every start; unless a time limit decided.
    if steady:
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            for path, data in ((_motifs_entry(entry), marshal.dumps(
                    [to_data(m, c) for m, c in motifs])), (entry, _dump(rules, warnings,
                                                                   errors))):
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(data)
                os.replace(tmp, path)  # whole or nothing, even with two games starting at once
        except OSError:
            pass  # a read-only home: work without the cache
    return rules, motifs, warnings, errors
