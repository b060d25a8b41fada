"""PDN out: a game as PDN text, and a game read from a file written back with nothing lost.

:func:`game_to_pdn` writes a game played here: the roster tags, numbered movetext in full-path
notation, the result. :func:`pdn_game_text` writes a game read from a file: its tags in the
file's order, its movetext byte for byte as the file had it (comments, NAGs, variations, the
result in the file's convention), the coach's notes put in as ``{coach: ...}`` after the moves
concerned (earlier ones replaced), an analysis's marks (:mod:`kbdraughts.pdn.marks`: the
grade's glyph, ``{[%eval ...]}``, the better line) as lidraughts writes them (earlier ones
replaced), moves played on since appended and moves taken back cut.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from kbdraughts.board import START
from kbdraughts.fen import fen, parse_fen
from kbdraughts.game import Game
from kbdraughts.pdn.lexer import COACH
from kbdraughts.pdn.lines import apply_edits, ends_open, joined, line_pieces, variation_edits
from kbdraughts.pdn.marks import (
    BEST, GLYPHS, MAX_LINE, WORDS, Mark, Marked, eval_text, mark_edits)
from kbdraughts.pdn.model import (
    GAME_TYPE, RESULTS, Movetext, PdnGame, in_convention, normal_result)
from kbdraughts.notation import move_text
from kbdraughts.variations import Line, Unit, Variations

__all__ = ["game_to_pdn", "pdn_game_text", "coach_comment"]

#: Tags always written, in this order (the PDN "seven tag roster" as used for draughts).
_ROSTER = ("Event", "Date", "White", "Black", "Result", "GameType")
_LINE_WIDTH = 79


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def coach_comment(note: str) -> str:
    """A note of the coach's as a PDN comment, marked so a later run can replace it."""
    return "{" + f"{COACH} {note.replace('}', ')')}" + "}"


def _pieces(game: Game, comments: Mapping[int, str] | None = None, first: int = 0,
            variations: Variations | None = None) -> list[str]:
    """The moves from ply ``first`` on as pieces never split across lines: ``1. c3-d4``,
    ``f6-g5``, ``{comment}`` after the move of each ply ``comments`` names and
    ``(variation)`` after each move ``variations`` has some for."""
    root = (variations or Variations()).root(game.moves)
    return line_pieces(root, 0, game.start.side, first, comments)


def _wrap(units: Sequence[str]) -> list[str]:
    lines: list[str] = []
    line = last = ""
    for unit in units:
        if line and (len(line) + 1 + len(unit) > _LINE_WIDTH or ends_open(last)
                     or unit.startswith("%")):
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
        last = unit
    return lines + ([line] if line else [])


def game_to_pdn(game: Game, tags: dict[str, str] | None = None,
                comments: Mapping[int, str] | None = None, numbered: bool = False,
                variations: Variations | None = None) -> str:
    """One game as PDN: the tags (defaults ``?`` for the roster), numbered movetext, result.

    ``tags`` adds to or overrides the defaults; the Result tag, unless given, is the game's
    result (``*`` while it goes on), and the movetext ends with the same token. ``comments``
    puts ``{text}`` after the move of each ply it names (an index into ``game.moves``).
    ``numbered`` writes the FEN tag's squares as numbers; ``variations`` are written in
    parentheses after the moves they are played instead of.
    """
    result = game.result
    values: dict[str, str] = {
        "Event": "?", "Date": "????.??.??", "White": "?", "Black": "?",
        "Result": result.pdn if result is not None else "*", "GameType": GAME_TYPE,
    }
    if game.start != START:
        values["SetUp"] = "1"
        values["FEN"] = fen(game.start, numbered)
    for name, value in (tags or {}).items():
        values[name] = str(value)
    token = values["Result"]
    if normal_result(token) not in RESULTS:
        raise ValueError(f"result {values['Result']!r} is not one of {', '.join(RESULTS)}")
    order = list(_ROSTER) + [n for n in values if n not in _ROSTER]
    lines = [f"[{name} {_quote(values[name])}]" for name in order]
    lines.append("")
    lines.extend(_wrap(_pieces(game, comments, 0, variations) + [token]))
    return "\n".join(lines) + "\n"


def _kept(pg: PdnGame) -> int:
    """How many plies of the file's main line the game still starts with."""
    assert pg.source is not None
    k = 0
    for a, b in zip(pg.source.moves, pg.game.moves):
        if a != b:
            break
        k += 1
    return k


def _changed(pg: PdnGame) -> bool:
    """Whether the game left the file's main line: moves taken back or played on."""
    assert pg.source is not None
    k = _kept(pg)
    return k < len(pg.source.moves) or len(pg.game.moves) > k


def _current(pg: PdnGame) -> str:
    return pg.game.result.pdn if pg.game.result is not None else "*"


def _in_file_style(pg: PdnGame, like: str | None, changed: bool) -> str:
    """The game's result as the file wrote it (``like``) while it is the one read, else in
    the file's convention (``2-0`` for ``1-0`` when the file counted 2 points a win)."""
    assert pg.source is not None
    current = _current(pg)
    if like is not None and (normal_result(like) == current
                             or not changed and current == pg.source.read_result):
        return like
    return in_convention(current, like)


def _movetext_edits(pg: PdnGame, notes: Mapping[int, Sequence[str]] | None,
                    marks: Mapping[int, Mark] | None = None) -> list[tuple[int, int, str]]:
    """The edits to the file's movetext, as (start, end, new text)."""
    src = pg.source
    assert src is not None
    k, changed = _kept(pg), _changed(pg)
    token = _in_file_style(pg, src.token or pg.tags.get("Result"), changed)
    # an earlier analysis's marks go, these come: glyphs first, where a comment is put too
    marked = Marked([], {}, []) if marks is None else mark_edits(pg, marks, k, _afters(src))
    edits, evals = marked.edits, marked.comments
    if notes is not None:  # annotating: the coach's earlier notes go
        edits.extend((a, b, "") for a, b in src.notes)
    for ply in sorted(set(notes or ()) | set(evals)):  # the notes, then the evaluation
        texts = [coach_comment(t) for t in (notes or {}).get(ply, ())] + (
            [evals[ply]] if ply in evals else [])
        if ply < k and texts:
            edits.append((src.ends[ply], src.ends[ply], "".join(" " + t for t in texts)))
    edits += marked.lines  # after the comments where they meet
    # the variations of the file's moves (those of later moves: _played_on)
    edits += variation_edits(pg.variations.root(pg.game.moves), 0, pg.game.start.side,
                             _afters(src), k)
    if changed:
        edits = _played_on(pg, k, notes, edits)
    if src.result is not None:
        edits.append((src.result[0], src.result[1], token))
    elif changed or _current(pg) != src.read_result:
        text = apply_edits(src.text, edits)  # what the token follows
        edits.append((len(src.text), len(src.text), (_after(text) if text else "") + token))
    return edits


def _played_on(pg: PdnGame, k: int, notes: Mapping[int, Sequence[str]] | None,
               edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The edits once the game left the file's main line at ply ``k``: the file's later moves
    (and what stood between them) cut, the game's own moves from ply ``k`` written instead."""
    src = pg.source
    assert src is not None
    later = {p: f"{COACH} " + "; ".join(t) for p, t in (notes or {}).items() if p >= k and t}
    units = joined(_pieces(pg.game, later, k, pg.variations))
    has_result = src.result is not None
    end = src.result[0] if src.result is not None else len(src.text)
    if k < len(src.moves):
        cut = _afters(src)[k - 1] if k else max(src.first, 0)
        edits = [e for e in edits if e[1] <= cut or e[0] >= end]  # those cut go with it
        new = (" " if k and units else "") + units + (
            _after(units or " ") if has_result and (units or k) else "")
        edits.append((cut, end, new))
    elif units:
        before = _after(src.text) if src.text and not has_result else ""
        edits.append((end, end, before + units + (_after(units) if has_result else "")))
    return edits


def _marked(pg: PdnGame, comments: dict[int, str], marks: Mapping[int, Mark]) -> Variations:
    """A game's variations with ``marks`` written into the text of the moves they mark (the
    coach's ``comments`` before the evaluation: taken out of ``comments``) and the better
    lines added, for a game not read from a file."""
    tree, moves = Variations(), pg.game.moves
    tree.branches = {p: list(lines) for p, lines in pg.variations.branches.items()}
    tree.units, tree.asides = dict(pg.variations.units), pg.variations.asides
    for ply, mark in sorted(marks.items()):
        if not 0 <= ply < len(moves):
            continue
        value = eval_text(mark.eval, mark.win)
        lines = tree.branches.setdefault(ply, [])
        graded = bool(mark.line) and all(b.moves[0] != mark.line[0] for b in lines)
        word = WORDS.get(mark.nag or 0) if graded else None  # a grade goes with its line
        body = [move_text(moves[ply]) + GLYPHS.get(mark.nag or 0, "") * (word is not None)]
        body += ["{" + comments.pop(ply).replace("}", ")") + "}"] if ply in comments else []
        body += ["{[%eval " + value + "]}"] if value is not None else []
        tree.units[ply] = Unit(moves[ply], "", " ".join(body))
        if graded:
            best = mark.line[0]
            lines.append(Line(list(mark.line[:MAX_LINE]), units={0: Unit(
                best, "", f"{move_text(best)} {{{BEST}{f'; {word}' if word else ''}}}")}))
    return tree


def _afters(src: Movetext) -> list[int]:
    """After each move of the file's main line, where a variation of it goes in: after its
    annotations and the variations the file wrote of it."""
    ends = list(src.ends)
    for ply, _, end in src.variations:
        if ply >= 0:
            ends[ply] = max(ends[ply], end)
    return ends


def _after(text: str) -> str:
    """What separates ``text`` from what is added after it (a line end after a ``;
    comment``)."""
    return "\n" if ends_open(text) else " "


def pdn_game_text(pg: PdnGame, notes: Mapping[int, Sequence[str]] | None = None,
                  tags: Mapping[str, str] | None = None, numbered: bool = False,
                  newline: str = "\n", marks: Mapping[int, Mark] | None = None) -> str:
    """A game read from a file written back: nothing of the file's lost, the coach's
    ``notes`` (ply -> texts; given, they replace the coach's earlier ones) beside the moves,
    an analysis's ``marks`` (ply -> :class:`~kbdraughts.pdn.marks.Mark`; given, even empty,
    they replace an earlier analysis's), ``tags`` over the file's, the FEN tag numbered when
    ``numbered``; the lines written anew (the tags) end in ``newline``, the file's own keep
    theirs. A game not read from a file is written by :func:`game_to_pdn`."""
    if pg.source is None:
        comments = {p: f"{COACH} " + "; ".join(t) for p, t in (notes or {}).items() if t}
        tree = pg.variations if marks is None else _marked(pg, comments, marks)
        return game_to_pdn(pg.game, {**pg.tags, **(tags or {})}, comments, numbered,
                           tree).replace("\n", newline)
    edits = _movetext_edits(pg, notes, marks)
    values = dict(pg.tags)
    if "Result" in values:
        values["Result"] = _in_file_style(pg, values["Result"], _changed(pg))
    values.update(tags or {})
    if numbered and "FEN" in values:
        values["FEN"] = fen(parse_fen(values["FEN"]), numbered=True)
    body = apply_edits(pg.source.text, edits).strip()
    if pg.source.head and values == pg.source.tags and list(values) == list(pg.source.tags):
        return pg.source.head + body + newline  # the file's tags, lines and spacing as were
    lines = [pg.source.lead] if pg.source.lead else []
    lines += [f"[{name} {_quote(value)}]" for name, value in values.items()]
    if lines and body:
        lines.append("")
    return newline.join(lines + ([body] if body else [])) + newline
