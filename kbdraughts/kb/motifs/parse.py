"""The ``motif`` and ``define`` blocks of a combos file, read into :class:`Motif` / :class:`Define`.

The rules parser (:mod:`kbdraughts.kb.combos`) hands each block here as its numbered lines; a
block is its head line (``motif ID`` or ``define name(ARGS) :- body``) and the indented lines
under it. A ``when:`` (or a define's body) goes on over the following indented lines that are
not a field. Nothing is evaluated: the body is read by
:func:`kbdraughts.kb.motifs.motif.parse_body`.

>>> lines = [(1, "motif m-1"), (2, "play: S-T"), (3, "when: our_man(S), next(S, T, D),"),
...          (4, "forward(D), step(S, T)"), (5, "gain: 1"), (6, "example: W:Wc3:Bh8")]
>>> m, problems = read_block(lines, "x.txt")
>>> m.id, m.play, len(m.body), m.gain, m.examples, problems
('m-1', ('S', 'T'), 4, 1, (('W:Wc3:Bh8', 6),), [])
"""

from __future__ import annotations

import re

from dataclasses import replace

from kbdraughts.kb.rules import fields as read
from kbdraughts.kb.motifs.defines import analyse, culprits, reached
from kbdraughts.kb.motifs.motif import (
    PROMISES, SQUARE_BY_NAME, BodyError, Define, Motif, body_lines, is_var, parse_body,
    parse_literal, term_of,
)
from kbdraughts.kb.rules.rule import RULE_ID, Diagnostic

__all__ = ["read_block", "read_motifs", "MOTIF_FIELDS", "is_block_head"]

MOTIF_FIELDS = ("name", "pieces", "priority", "sacrifice", "play", "when", "gain", "promise",
                "warning", "example", "status")
#: ``status:`` values: a draft is read by ``rules check`` and ``rules match``, not played.
STATUSES = ("draft", "ready")
_FIELD = re.compile(r"([a-z]+)\s*:\s*(.*)")
_DEFINE = re.compile(r"define\s+(.*?)\s*:-\s*(.*)")
_VARIABLE = re.compile(r"[A-Z][A-Za-z0-9_]*")
_DEFINE_NAME = re.compile(r"define\s+([a-z_][A-Za-z0-9_]*)")


def is_block_head(stripped: str) -> bool:
    """A top-level line that starts a motif or a define."""
    word = stripped.split(None, 1)[0]
    return word in ("motif", "define")


def read_block(lines: list[tuple[int, str]], path: str
               ) -> tuple[Motif | Define | None, list[Diagnostic]]:
    """A block's value and its diagnostics (None when it has errors)."""
    problems: list[Diagnostic] = []

    def error(line: int, message: str) -> None:
        problems.append(Diagnostic(path, line, "error", message))

    number, head = lines[0]
    if head.startswith("define"):
        return _define(lines, error), problems
    words = head.split()
    if len(words) != 2 or not RULE_ID.fullmatch(words[1]):
        error(number, "expected 'motif ID' (ID: letters, digits, '-', '_', '.')")
        return None, problems
    fields: dict[str, tuple[str, int]] = {}
    examples: list[tuple[str, int]] = []
    when: list[tuple[int, str]] = []  # the when: over its lines, to name a fault's own line
    last = None
    for line, text in lines[1:]:
        m = _FIELD.fullmatch(text)
        if m is None or m.group(1) not in MOTIF_FIELDS:
            if last == "when" and m is None:
                value, at = fields["when"]
                fields["when"] = (f"{value} {text}", at)
                when.append((line, text))
                continue
            error(line, f"expected 'field: value' in motif {words[1]}; fields are: "
                  f"{', '.join(MOTIF_FIELDS)}")
            continue
        key, value = m.group(1), m.group(2).strip()
        last = key
        if key == "example":
            examples.append((value, line))
        elif key in fields:
            error(line, f"field {key!r} given twice in motif {words[1]}")
        else:
            fields[key] = (value, line)
            if key == "when":
                when.append((line, value))
    motif = _motif(words[1], number, path, fields, tuple(examples), error)
    if motif is not None and when and len(motif.body):
        motif = replace(motif, body_lines=body_lines(when))
    return (None if any(p.level == "error" for p in problems) else motif), problems


def _integer(fields: dict, key: str, error, negative: bool) -> int:
    if key not in fields:
        return 0
    value, line = fields[key]
    got = read.parse_integer(key, value, negative)
    if isinstance(got, str):
        error(line, got)
        return 0
    return got


def _motif(motif_id: str, number: int, path: str, fields: dict,
           examples: tuple[tuple[str, int], ...], error) -> Motif | None:
    pieces = kings = ((0, 12), (0, 12))
    if "pieces" in fields:
        value, line = fields["pieces"]
        pieces, kings = _pieces(value, lambda message: error(line, message))
    play, capture = _play(fields, motif_id, number, error)
    body: tuple = ()
    if "when" not in fields:
        error(number, f"motif {motif_id} has no 'when:' (its conditions)")
    else:
        value, line = fields["when"]
        try:
            body = parse_body(value)
        except BodyError as e:
            error(line, f"in 'when:': {e}")
    gain, promise, warning = _claim(fields, motif_id, number, error)
    if warning and play:
        error(fields["play"][1], "a warning names a danger and plays no move: drop 'play:'")
    elif not warning and not play and "play" not in fields:
        error(number, f"motif {motif_id} has no 'play:' (the move; a warning has 'warning:')")
    status = fields.get("status", ("ready", 0))
    if status[0] not in STATUSES:
        error(status[1], f"'status:' is draft or ready; got {status[0][:20]!r}")
    draft = status[0] == "draft"
    if not examples and status[0] == "ready":  # (a bad status is reported alone)
        error(number, f"motif {motif_id} has no 'example:' (a FEN where it must fire; a motif "
              "with 'status: draft' may have none)")
    return Motif(
        id=motif_id, path=path, line=number, name=fields.get("name", ("", 0))[0],
        priority=_integer(fields, "priority", error, True),
        sacrifice=_integer(fields, "sacrifice", error, False), pieces=pieces, kings=kings,
        play=play, play_line=fields.get("play", ("", 0))[1],
        capture=capture, body=body, body_line=fields.get("when", ("", number))[1], gain=gain,
        promise=promise, warning=warning, examples=examples, draft=draft)


def _pieces(value: str, report) -> tuple[tuple, tuple]:
    """``pieces:`` as for rules, plus parts ``white kings N..M`` / ``black kings N``."""
    parts = [p.strip() for p in value.split(",")]
    king_parts = [p for p in parts if len(p.split()) == 3 and p.split()[1].lower() == "kings"]
    rest = ", ".join(p for p in parts if p not in king_parts)
    pieces = read.parse_pieces(rest, report) if rest else ((0, 12), (0, 12))
    kings = {"white": (0, 12), "black": (0, 12)}
    for part in king_parts:
        colour, _, count = part.split()
        got = read.parse_count(count, colour)
        if colour.lower() not in kings:
            report(f"expected 'white kings N' or 'black kings N..M', got {part!r}")
        elif isinstance(got, str):
            report(got)
        else:
            kings[colour.lower()] = got
    return pieces, (kings["white"], kings["black"])


def _play(fields: dict, motif_id: str, number: int, error) -> tuple[tuple, bool]:
    if "play" not in fields:
        return (), False
    value, line = fields["play"]
    capture = ":" in value
    parts = [p.strip() for p in value.split(":" if capture else "-")]
    shape = "expected 'play: S-T' or a capture path 'S:X:T' (variables or squares by name)"
    if len(parts) < 2 or not all(_VARIABLE.fullmatch(p) or p in SQUARE_BY_NAME for p in parts):
        bad = next((p for p in parts if not (_VARIABLE.fullmatch(p) or p in SQUARE_BY_NAME)),
                   "")
        said = "an empty term" if not bad else f"{bad[:20]!r}, which is no variable or dark square"
        error(line, f"{shape}; got {said}" if len(parts) >= 2 else shape)
        return (), False
    terms = tuple(term_of(p) for p in parts)
    if not capture and len(terms) != 2:
        error(line, "a quiet move is two squares, S-T")
        return (), False
    return terms, capture


#: Why ``gain: 0`` is refused, and what to write instead.
GAIN_ZERO = ("'gain: 0' claims nothing the referee can check: write the men the move nets "
             "('gain: 1' or more), or what it achieves ('promise: crowns', 'promise: catches "
             "the lone king', 'promise: holds the main road'); a positional idea that wins no "
             "material has no claim yet (combos/README.md, 'The claim')")


def _claim(fields: dict, motif_id: str, number: int, error
           ) -> tuple[int | None, str | None, bool]:
    given = [k for k in ("gain", "promise", "warning") if k in fields]
    if len(given) != 1:
        error(number, f"motif {motif_id} needs exactly one claim: 'gain: N', 'promise: ...' "
              f"or 'warning: ...' (got {', '.join(given) or 'none'})")
        return None, None, False
    key = given[0]
    value, line = fields[key]
    if key == "gain":
        got = read.parse_integer("gain", value, False)
        if got == 0:
            error(line, GAIN_ZERO)
            return None, None, False
        if isinstance(got, str) or got < 1:
            error(line, f"'gain:' is the men the motif nets, 1 or more; got {value!r}")
            return None, None, False
        return got, None, False
    if key == "promise":
        if value not in PROMISES:
            error(line, f"'promise:' is one of: {', '.join(PROMISES)}; got {value!r}")
        return None, value, False
    return None, None, True


def _define(lines: list[tuple[int, str]], error) -> Define | None:
    number = lines[0][0]
    text = " ".join(t for _, t in lines)
    m = _DEFINE.fullmatch(text.strip())
    if m is None:
        error(number, "expected 'define name(ARGS) :- conditions'")
        return None
    try:
        head = parse_literal(m.group(1))
        body = parse_body(m.group(2))
    except (BodyError, ValueError) as e:
        error(number, f"in 'define': {e}")
        return None
    if head.negated or head.pred.startswith("after_") or not all(map(is_var, head.args)):
        error(number, "a define's head is name(VARIABLES), like near(A, B)")
        return None
    if len(set(head.args)) != len(head.args):
        error(number, "a define's head names each variable once")
        return None
    # the body's lines: from the ':-' on (a define's head holds no ':-')
    at = next(i for i, (_, t) in enumerate(lines) if ":-" in t)
    parts = [(lines[at][0], lines[at][1].split(":-", 1)[1]), *lines[at + 1:]]
    return Define(head.pred, head.args, body, number, body_lines(parts))


def read_motifs(blocks: list[list[tuple[int, str]]], path: str,
                errors: list[Diagnostic]) -> list[Motif]:
    """A file's motifs, each given the defines it calls, checked; faults appended to
    ``errors``. A motif with a fault, or calling a define with one (directly or through
    others), is left out alone. The defines are worked out once for the file
    (:mod:`kbdraughts.kb.motifs.defines`), so this is linear in the file's text."""
    from kbdraughts.kb.motifs.check import check_defines, check_motif

    motifs: list[Motif] = []
    defines: list[Define] = []
    broken: dict[str, int] = {}  # a faulty define's name -> the line of its first fault
    for block in blocks:
        value, problems = read_block(block, path)
        errors.extend(problems)
        if isinstance(value, Define):
            defines.append(value)
        elif value is not None:
            motifs.append(value)
        elif (head := _DEFINE_NAME.match(block[0][1])) is not None:
            broken.setdefault(head.group(1), block[0][0])
    graph = analyse(defines)
    for line, level, msg, name in sorted(check_defines(defines, graph)):
        errors.append(Diagnostic(path, line, level, msg))
        if level == "error":  # by name: a fault on a line under the head counts too
            broken.setdefault(name, line)
    faulty = culprits(graph, broken)
    out = []
    for m in motifs:
        uses = sorted({faulty.get(lit.pred, lit.pred) for lit in m.body} & broken.keys())
        if uses:
            errors.append(Diagnostic(path, m.line, "error", f"motif {m.id} calls define "
                                     f"{uses[0]} (line {broken[uses[0]]}), which has an error"))
            continue
        m = replace(m, defines=tuple(reached(m.body, graph)))  # its own: a cache entry stays small
        bad = [Diagnostic(path, line, level, msg) for line, level, msg
               in check_motif(m, graph.types) if level == "error"]
        errors.extend(bad)
        if not bad:
            out.append(m)
    return out
