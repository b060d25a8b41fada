"""A variation tree's lines as PDN movetext, with what their file wrote.

A line made here is written move by move (``1. c3-d4 f6-g5 (1... b6-a5) 2. g3-f4``); a line
read from a file is written as the file had it, byte for byte, while it keeps the file's
moves and variations (:class:`~kbdraughts.variations.Written`): what was played here since
goes in (a variation after the move it is played instead of, moves played on before its
')'), the rest untouched. A line whose shape changed (``promote``) is written anew, each move
keeping the file's comments and NAGs (:class:`~kbdraughts.variations.Unit`) and each
variation the file wrote that cannot be played kept as written.

>>> from kbdraughts.board import START, WHITE, play
>>> from kbdraughts.notation import parse_move
>>> c3d4 = parse_move(START, "c3-d4")
>>> line = Line([c3d4, parse_move(play(START, c3d4), "f6-g5")])
>>> line_text(line, 0, WHITE), line_text(Line(line.moves[1:]), 1, WHITE)
('1. c3-d4 f6-g5', '1... f6-g5')
>>> joined(["1. c3-d4 ; a comment to the line's end", "f6-g5"])
"1. c3-d4 ; a comment to the line's end\\nf6-g5"
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from kbdraughts.board import Side
from kbdraughts.notation import move_text
from kbdraughts.variations import Line, Variations, move_label

__all__ = ["line_pieces", "line_text", "variation_text", "variation_edits", "joined",
           "apply_edits", "record_text", "Edit"]

#: A change to a text: (start, end, what stands there instead).
Edit = tuple[int, int, str]


def ends_open(text: str) -> bool:
    """Whether whole tokens of movetext ``text`` end in a ``; comment`` or a ``%`` escape,
    which run to the end of the line: what follows must start a new line.

    >>> ends_open("c3-d4 ; why"), ends_open("c3-d4 {a; b}"), ends_open("; x\\nc3-d4")
    (True, False, False)
    """
    brace = to_line_end = False
    line_start = True
    for ch in text:
        if to_line_end:
            to_line_end = ch != "\n"
        elif brace:
            brace = ch != "}"
        elif ch == "{":
            brace = True
        elif ch == ";" or ch == "%" and line_start:
            to_line_end = True
        line_start = ch == "\n"
    return to_line_end


def joined(pieces: Iterable[str]) -> str:
    """Pieces of movetext (whole tokens) one after another, a space between them (a line end
    where one :func:`ends_open` or before a ``%`` escape); empty pieces left out."""
    out, last = "", ""
    for piece in pieces:
        if piece:
            if out:
                out += "\n" if ends_open(last) or piece.startswith("%") else " "
            out += piece
            last = piece
    return out


#: The text of each variation written so far, by ``id`` of its Line: a variation's text holds
#: its children's, so they are written first, from the deepest up (no recursion: a file may
#: nest its variations 500 deep).
Texts = dict[int, str]


def variation_texts(line: Line, ply: int, start_side: Side, self_too: bool = False) -> Texts:
    """The text of every variation below ``line`` (``line.moves[0]`` played at ``ply``), and
    of ``line`` itself when ``self_too``, the innermost first."""
    order: list[tuple[Line, int]] = []
    stack = [(line, ply)] if self_too else [
        (b, ply + k) for k, lines in line.branches.items() for b in lines]
    while stack:
        here, at = stack.pop()
        order.append((here, at))
        stack.extend((b, at + k) for k, lines in here.branches.items() for b in lines)
    texts: Texts = {}
    for here, at in reversed(order):  # a child stands after its parent in ``order``
        texts[id(here)] = _variation_text(here, at, start_side, texts)
    return texts


def line_pieces(line: Line, ply: int, start_side: Side, first: int = 0,
                notes: Mapping[int, str] | None = None, texts: Texts | None = None
                ) -> list[str]:
    """The moves of ``line`` from index ``first`` on (``line.moves[0]`` being played at the
    game's ply ``ply``) as pieces of movetext never split: each move with its number where
    one is due and the file's text of it, ``{note}`` after the moves ``notes`` names, then
    its variations in parentheses (``texts``: theirs, when written already) and those the
    file wrote that cannot be played. A Black move gets its number again after anything but
    the move before it."""
    notes = notes or {}
    texts = variation_texts(line, ply, start_side) if texts is None else texts
    pieces: list[str] = []
    for k in range(first, len(line.moves)):
        move, unit = line.moves[k], line.units.get(k)
        if unit is not None and unit.move != move:
            unit = None  # the text of another move once played here: not this one's
        label = move_label(ply + k, start_side)
        aside = k == first or k - 1 in line.branches or k - 1 in line.asides or k - 1 in notes
        number = label if aside or not label.endswith("...") or (unit and unit.lead) else ""
        if unit is None:
            pieces.append(f"{number} {move_text(move)}" if number else move_text(move))
        else:
            pieces.append(joined([unit.lead, number, unit.body]))
        if k in notes:  # a '}' would end the comment early
            pieces.append("{" + notes[k].replace("}", ")") + "}")
        pieces.extend(texts[id(b)] for b in line.branches.get(k, ())
                      if b.moves[0] != move)  # one that is the move itself is none
        pieces.extend(line.asides.get(k, ()))
    return pieces


def line_text(line: Line, ply: int, start_side: Side) -> str:
    """``line`` from the game's ply ``ply`` as PDN movetext, its variations nested in
    parentheses."""
    return joined(line_pieces(line, ply, start_side))


def variation_text(line: Line, ply: int, start_side: Side) -> str:
    """A variation in parentheses: as its file wrote it, with what was played here since
    put in, while it keeps the file's moves and variations; else written anew."""
    return variation_texts(line, ply, start_side, self_too=True)[id(line)]


def _variation_text(line: Line, ply: int, start_side: Side, texts: Texts) -> str:
    """:func:`variation_text`, the texts of the variations inside it written already."""
    w = line.written
    if w is None or len(line.moves) < len(w.afters) or line.file_branches() != w.shape:
        return "(" + _closable(line_pieces(line, ply, start_side, texts=texts)) + ")"
    kept = len(w.afters)
    edits = variation_edits(line, ply, start_side, w.afters, kept, texts)
    if len(line.moves) > kept:  # played on: before its ')'
        edits.append((w.end - 1, w.end - 1,
                      " " + _closable(line_pieces(line, ply, start_side, kept, texts=texts))))
    return apply_edits(w.text, [(a - w.start, b - w.start, t) for a, b, t in edits])


def _closable(pieces: list[str]) -> str:
    """The pieces joined, with a line end after a last one that :func:`ends_open` (a ')'
    after it would be part of the comment)."""
    return joined(pieces) + ("\n" if pieces and ends_open(pieces[-1]) else "")


def variation_edits(line: Line, ply: int, start_side: Side, afters: Sequence[int],
                    kept: int, texts: Texts | None = None) -> list[Edit]:
    """The edits to the file's text of ``line`` (offsets in the game's movetext) for the
    variations of its first ``kept`` moves: each of the file's that changed written in its
    place, each made here put in after the move's own (``afters``)."""
    texts = variation_texts(line, ply, start_side) if texts is None else texts
    edits: list[Edit] = []
    for k, lines in sorted(line.branches.items()):
        for b in lines if k < kept else ():
            text = texts[id(b)]
            if b.written is None:
                edits.append((afters[k], afters[k], " " + text))
            elif text != b.written.text:
                edits.append((b.written.start, b.written.end, text))
    return edits


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with the edits made, in the order of their places (those at one place in the
    order given)."""
    out, pos = [], 0
    for start, end, new in sorted(edits, key=lambda e: (e[0], e[1])):
        start = max(start, pos)
        out.append(text[pos:start])
        out.append(new)
        pos = max(pos, end)
    out.append(text[pos:])
    return "".join(out)


def record_text(tree: Variations, main: Sequence, start_side: Side) -> str:
    """The main line's moves with the variations in parentheses and the comments (a file's
    as it wrote them, the coach's notes among them), numbered as PDN writes them: what
    ``record`` shows."""
    return line_text(Line(list(main), tree.branches, tree.units, tree.asides), 0, start_side)

