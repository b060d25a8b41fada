"""Variations: lines of moves played instead of a game's moves, nested, kept beside its main line.

The main line is the game's own moves (a :class:`~kbdraughts.game.Game` keeps them and their
rules); :class:`Variations` keeps the lines tried instead of them. A :class:`Line`'s first move
is played instead of the move of the line it hangs from at the same ply, and a line may hold
variations of its own. A place in the tree is named by the moves from the start to it (a
``path``), so walking needs no cursor object: the tree answers where a path is and what comes
next. The tree checks no rule: its caller plays the moves on a Game first (legality, the end of
the game) and records here only moves that were legal.

>>> from kbdraughts.notation import parse_move
>>> from kbdraughts.board import START, play
>>> c3d4 = parse_move(START, "c3-d4")
>>> main = [c3d4, parse_move(play(START, c3d4), "f6-g5")]
>>> tree = Variations()
>>> tree.play(main, (), parse_move(START, "a3-b4"))
<Played.BRANCHED: 'a new variation'>
>>> tree.text(main, WHITE)
'1. c3-d4 (1. a3-b4) 1... f6-g5'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Sequence

from kbdraughts.board import BLACK, WHITE, Move, Side
from kbdraughts.notation import move_text

__all__ = ["Line", "Played", "Variations", "move_label"]

Path = Sequence[Move]


@dataclass(eq=False)
class Line:
    """Moves played one after another, and the lines played instead of them: ``branches[i]``
    are the lines whose first move replaces ``moves[i]``."""

    moves: list[Move] = field(default_factory=list)
    branches: dict[int, list[Line]] = field(default_factory=dict)


class Played(str, Enum):
    """What a move played at a place of the tree did there."""

    FOLLOWED = "the line's next move"  # the move already there: one step forward
    ENTERED = "a variation already there"  # the first move of a variation kept before
    EXTENDED = "the variation goes on"  # at the end of a variation: added to it
    BRANCHED = "a new variation"  # a move not there yet: a new line beside the others
    MAIN_END = "the game's next move"  # at the end of the main line: the game's own move


class Variations:
    """The variations of one game, nested; the main line's moves are given to every method
    (``main``: the game's moves as they are now), never kept here."""

    def __init__(self) -> None:
        self.branches: dict[int, list[Line]] = {}

    def root(self, main: Path) -> Line:
        """The main line as a Line holding the variations (its moves a copy)."""
        return Line(list(main), self.branches)

    def __len__(self) -> int:
        """The number of variations, nested ones included."""
        def count(branches: Mapping[int, list[Line]]) -> int:
            return sum(1 + count(b.branches) for lines in branches.values() for b in lines)
        return count(self.branches)

    def locate(self, main: Path, path: Path) -> list[tuple[Line, int]] | None:
        """The lines ``path`` runs through, each with the moves of it played (the main line
        first, the innermost variation last); None when the tree holds no such path."""
        chain = [(self.root(main), 0)]
        for move in path:
            line, i = chain[-1]
            if i < len(line.moves) and line.moves[i] == move:
                chain[-1] = (line, i + 1)
                continue
            branch = next((b for b in line.branches.get(i, ()) if b.moves[0] == move), None)
            if branch is None:
                return None
            chain.append((branch, 1))
        return chain

    def continuation(self, main: Path, path: Path) -> list[Move]:
        """The moves after ``path`` in the line it is in, to that line's end."""
        chain = self.locate(main, path)
        if chain is None:
            return []
        line, i = chain[-1]
        return line.moves[i:]

    def alternatives(self, main: Path, path: Path) -> list[Move]:
        """The first moves of the variations kept at ``path``'s position, besides the next
        move of the line it is in."""
        chain = self.locate(main, path)
        if chain is None:
            return []
        line, i = chain[-1]
        return [b.moves[0] for b in line.branches.get(i, ())]

    def in_main_line(self, main: Path, path: Path) -> bool:
        chain = self.locate(main, path)
        return chain is not None and len(chain) == 1

    def play(self, main: Path, path: Path, move: Move) -> Played:
        """Record ``move`` (legal there: the caller checked) played after ``path``, and say
        what it was; at the end of the main line nothing is recorded (the game plays it)."""
        chain = self.locate(main, path)
        if chain is None:
            raise ValueError("the path is not in the tree")
        line, i = chain[-1]
        if i < len(line.moves) and line.moves[i] == move:
            return Played.FOLLOWED
        if any(b.moves[0] == move for b in line.branches.get(i, ())):
            return Played.ENTERED
        if i == len(line.moves):
            if len(chain) == 1:
                return Played.MAIN_END
            line.moves.append(move)
            return Played.EXTENDED
        line.branches.setdefault(i, []).append(Line([move]))
        return Played.BRANCHED

    def take_back(self, main: Path, path: Path) -> bool:
        """Take back the last move of the variation ``path`` ends, when it ends one (a
        variation left empty goes); whether it did."""
        chain = self.locate(main, path)
        if chain is None or len(chain) < 2:
            return False
        line, i = chain[-1]
        if i != len(line.moves):
            return False
        line.moves.pop()
        line.branches.pop(len(line.moves), None)  # those played instead of the move taken
        if not line.moves:
            parent, at = chain[-2]
            parent.branches[at].remove(line)
            if not parent.branches[at]:
                del parent.branches[at]
        return True

    def prune(self, plies: int) -> int:
        """Drop the variations of main-line moves from ply ``plies`` on (those moves were
        taken back); how many went, nested ones included."""
        gone = [p for p in self.branches if p >= plies]
        before = len(self)
        for p in gone:
            del self.branches[p]
        return before - len(self)

    def text(self, main: Path, start_side: Side,
             extra: Mapping[int, Sequence[str]] | None = None) -> str:
        """The main line with its variations in parentheses, numbered as PDN writes them;
        ``extra``: more variation texts (as a file wrote them) after the main line's moves."""
        return line_text(self.root(main), 0, start_side, extra)


def move_label(ply: int, start_side: Side) -> str:
    """The number a move at ``ply`` takes on a score sheet: ``12.`` or ``12...``.

    >>> move_label(0, WHITE), move_label(1, WHITE), move_label(0, BLACK)
    ('1.', '1...', '1...')
    """
    side = start_side if ply % 2 == 0 else 1 - start_side
    number = 1 + (ply + (start_side == BLACK)) // 2
    return f"{number}{'.' if side == WHITE else '...'}"


def line_text(line: Line, ply: int, start_side: Side,
              extra: Mapping[int, Sequence[str]] | None = None) -> str:
    """``line`` from the game's ply ``ply`` as PDN movetext, its variations nested in
    parentheses; a Black move after a variation gets its number again."""
    units: list[str] = []
    extra = extra or {}
    for k, move in enumerate(line.moves):
        label = move_label(ply + k, start_side)
        after_aside = k > 0 and (k - 1 in line.branches or k - 1 in extra)
        if label.endswith("...") and k and not after_aside:
            units.append(move_text(move))
        else:
            units.append(f"{label} {move_text(move)}")
        units.extend(f"({line_text(b, ply + k, start_side)})" for b in line.branches.get(k, ()))
        units.extend(extra.get(k, ()))
    return " ".join(units)
