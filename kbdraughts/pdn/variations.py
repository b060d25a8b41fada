"""A PDN game's variations read into its variation tree (:mod:`kbdraughts.variations`).

Each variation the file wrote, nested ones too, is played through from the position where it
stands (the moves read as the main line's are: ``c3xe5``, ``22-18``, a capture by its ends).
One that can be played goes into the tree with the file's text of each move and the whole
line as written, so the console walks into it and the writer gives it back as it was. One
that cannot (a move that is not legal or not a move, a variation before any move, one that
repeats the move it stands beside or another variation's first move) stays text: kept where
the file wrote it and named, once, with its ``file:line`` and why. A variation inside one
kept as text is text with it, and not named again.

>>> from kbdraughts.pdn import parse_pdn
>>> (pg,) = parse_pdn("1. c3-d4 f6-g5 (1... b6-a5 {idea} 2. d4-c5 (2. c5-d6)) 2. g3-f4 *")
>>> [len(lines) for lines in pg.variations.branches.values()], pg.text_only
([1], ['<pdn>:1: variation (2. c5-d6): move 2. c5-d6: there is no piece on c5'])
"""

from __future__ import annotations

import re
from typing import Sequence

from kbdraughts.board import Move, Position
from kbdraughts.game import Game
from kbdraughts.notation import MoveError, parse_move
from kbdraughts.pdn.lexer import RawGame, RawLine, RawMove, results_as_comments
from kbdraughts.pdn.lines import joined
from kbdraughts.variations import Line, Unit, Variations, Written, move_label

__all__ = ["read_variations"]

#: A variation named in a message is cut to about this many characters.
PREVIEW = 40


def read_variations(raw: RawGame, text: str, game: Game, source: str
                    ) -> tuple[Variations, list[str]]:
    """The tree of the variations of ``raw`` (read from ``text``; ``game``: its main line
    played), and a line for each variation kept as text only: ``file:line: variation (...):
    why``. Places in the tree are offsets in the game's movetext, as :class:`Movetext`'s."""
    tree = Variations()
    body = raw.body if raw.body >= 0 else raw.end
    children: dict[int, list[RawLine]] = {}
    for rl in raw.lines:
        children.setdefault(rl.parent, []).append(rl)
    until = raw.result[1] if raw.result else raw.end
    tree.units, _ = _units(text, raw.moves, game.moves, raw.first, children.get(-1, []), until)
    root = tree.root(game.moves)
    lines: list[Line | None] = []  # each raw line's Line; None: kept as text
    starts: list[tuple[Move, ...]] = []  # the moves to each raw line's first move
    unread: list[str] = []
    for index, rl in enumerate(raw.lines):
        parent = root if rl.parent < 0 else lines[rl.parent]
        start = () if rl.parent < 0 else starts[rl.parent]
        if parent is None:  # inside a variation kept as text: text with it
            lines.append(None)
            starts.append(start)
            continue
        start = start + tuple(parent.moves[:max(rl.at, 0)])
        moves, why, at_line = _play(game.start, start, rl, parent)
        starts.append(start)
        if why is None and moves:
            units, afters = _units(text, rl.moves, moves, rl.start + 1,
                                   children.get(index, []), rl.end - 1)
            units = {k: u._replace(lead=results_as_comments(u.lead),
                                   body=results_as_comments(u.body))
                     for k, u in units.items()}
            line = Line(moves, units=units, written=Written(
                text[rl.start:rl.end], rl.start - body, rl.end - body,
                [a - body for a in afters]))
            parent.branches.setdefault(rl.at, []).append(line)
            lines.append(line)
            continue
        lines.append(None)
        if rl.at >= 0:  # kept where it stands when the line is written anew
            parent.asides.setdefault(rl.at, []).append(text[rl.start:rl.end])
        if why is not None:
            unread.append(f"{source}:{at_line}: variation {_preview(text[rl.start:rl.end])}: "
                          f"{why}")
    for variation in lines:
        if variation is not None and variation.written is not None:
            variation.written.shape = variation.file_branches()
    return tree, unread


def _play(start: Position, path: Sequence[Move], rl: RawLine, parent: Line
          ) -> tuple[list[Move], str | None, int]:
    """The moves of ``rl`` played from ``path``, or why not, with the line to name."""
    if rl.error is not None:
        return [], rl.error, rl.line
    if rl.at < 0 and rl.moves:
        return [], "it stands before the first move, so it is played instead of none", rl.line
    game = Game(start)
    for move in path:
        game.push(move)
    played: list[Move] = []
    for rm in rl.moves:
        label = f"move {move_label(game.ply, start.side)} {rm.text}"
        if game.result is not None:
            return [], f"{label}: the game was already over: {game.result}", rm.line
        try:
            move = parse_move(game.position, rm.squares, game.legal_moves())
        except MoveError as e:
            return [], f"{label}: {e}", rm.line
        game.push(move)
        played.append(move)
    if played and played[0] == parent.moves[rl.at]:
        return [], f"it begins with {rl.moves[0].text}, the move it stands beside", rl.line
    if played and any(b.moves[0] == played[0] for b in parent.branches.get(rl.at, ())):
        return [], (f"another variation of that move begins with {rl.moves[0].text} too"), \
            rl.line
    return played, None, 0


def _units(text: str, raw: Sequence[RawMove], moves: Sequence[Move], first: int,
           children: Sequence[RawLine], until: int) -> tuple[dict[int, Unit], list[int]]:
    """The file's text of each move of a line, from ``first`` (where the line's text starts)
    to ``until`` (its ')' or the main line's result), and after each move where a variation
    of it goes in: after its annotations and the variations the file wrote of it. What
    stands between those variations, and after the last move, joins the move's text."""
    of_move: dict[int, list[RawLine]] = {}
    for c in sorted(children, key=lambda c: c.start):
        of_move.setdefault(c.at, []).append(c)
    units: dict[int, Unit] = {}
    afters: list[int] = []
    before = first
    for i, (rm, move) in enumerate(zip(raw, moves)):
        lead_end, body_start = (rm.number_at if rm.number_at and rm.number_at[0] >= before
                                else (rm.start, rm.start))
        pieces, end = [text[body_start:rm.end].strip()], rm.end
        for c in of_move.get(i, ()):
            pieces.append(text[end:c.start].strip())  # a comment between its variations
            end = c.end
        if i == len(raw) - 1:
            pieces.append(text[end:until].strip())
        body = joined(pieces) if len(pieces) > 1 else pieces[0]
        units[i] = Unit(move, text[before:lead_end].strip(), body)
        afters.append(end)
        before = end
    return units, afters


def _preview(text: str) -> str:
    """A variation's text on one line, cut to about PREVIEW characters."""
    flat = re.sub(r"\s+", " ", text)
    return flat if len(flat) <= PREVIEW else flat[:PREVIEW - 2].rstrip() + "…)"
