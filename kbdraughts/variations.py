"""Variations: lines of moves played instead of a game's moves, nested, kept beside its main line.

The main line is the game's own moves (a :class:`~kbdraughts.game.Game` keeps them and their
rules); :class:`Variations` keeps the lines tried instead of them. A :class:`Line`'s first move
is played instead of the move of the line it hangs from at the same ply, and a line may hold
variations of its own. A place in the tree is named by the moves from the start to it (a
``path``), so walking needs no cursor object: the tree answers where a path is and what comes
next. The tree checks no rule: its caller plays the moves on a Game first (legality, the end of
the game) and records here only moves that were legal.

A game read from a PDN file brings its variations into the same tree
(:mod:`kbdraughts.pdn.variations`): each line remembers how the file wrote it (its moves'
comments and NAGs as :class:`Unit` texts, the variations it could not play as ``asides``, the
whole line as :class:`Written`), so it is written back as the file had it
(:mod:`kbdraughts.pdn.lines`).

>>> from kbdraughts.notation import move_text, parse_move
>>> from kbdraughts.board import START, play
>>> c3d4 = parse_move(START, "c3-d4")
>>> main = [c3d4, parse_move(play(START, c3d4), "f6-g5")]
>>> tree = Variations()
>>> tree.play(main, (), parse_move(START, "a3-b4"))
<Played.BRANCHED: 'a new variation'>
>>> new, ply = tree.promote(main, [parse_move(START, "a3-b4")])
>>> [move_text(m) for m in new], ply, [move_text(m) for m in tree.alternatives(new, ())]
(['a3-b4'], 0, ['c3-d4'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, Sequence, TypeVar

from kbdraughts.board import BLACK, WHITE, Move, Side

__all__ = ["Line", "Played", "Unit", "Variations", "Written", "move_label"]

Path = Sequence[Move]
_T = TypeVar("_T")


class Unit(NamedTuple):
    """A move as its file wrote it: the comments before its number, and the move itself with
    its annotations (NAGs, marks, comments) after the number. The number is left out: it is
    written again where the move stands (a Black move after a variation needs it)."""

    move: Move  # the move the text is of: the text goes with that move only
    lead: str
    body: str


@dataclass
class Written:
    """A variation as its file wrote it: the text, parentheses included; where it stands in
    the game's movetext (``start``, ``end``); after each of its moves where a variation of
    that move goes in (``afters``: after the move's annotations and the file's own
    variations of it); and how many of the file's variations each move had (``shape``).
    While the line keeps these it is written as the file wrote it, what was added put in."""

    text: str
    start: int
    end: int
    afters: list[int]
    shape: dict[int, int] = field(default_factory=dict)


@dataclass(eq=False)
class Line:
    """Moves played one after another, and the lines played instead of them: ``branches[i]``
    are the lines whose first move replaces ``moves[i]``. A line read from a file keeps its
    moves' text (``units[i]``), the variations of ``moves[i]`` it wrote that cannot be
    played (``asides[i]``, as written) and the whole line as written."""

    moves: list[Move] = field(default_factory=list)
    branches: dict[int, list[Line]] = field(default_factory=dict)
    units: dict[int, Unit] = field(default_factory=dict)
    asides: dict[int, list[str]] = field(default_factory=dict)
    written: Written | None = None

    def file_branches(self) -> dict[int, int]:
        """How many variations the file wrote at each move are still here (the shape)."""
        counts = {i: sum(b.written is not None for b in lines)
                  for i, lines in self.branches.items()}
        return {i: n for i, n in counts.items() if n}


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
        self.units: dict[int, Unit] = {}  # the file's text of the main line's moves
        self.asides: dict[int, list[str]] = {}  # the file's variations that cannot be played

    def root(self, main: Path) -> Line:
        """The main line as a Line holding the variations (its moves a copy)."""
        return Line(list(main), self.branches, self.units, self.asides)

    def copy(self) -> Variations:
        """A tree of its own, its lines copied (without recursion: they may nest 500 deep);
        what a line's file wrote (texts, never changed) is shared."""
        new = Variations()
        new.units, new.asides = dict(self.units), _asides(self.asides)
        stack = [(self.branches, new.branches)]
        while stack:
            source, target = stack.pop()
            for at, lines in source.items():
                target[at] = []
                for b in lines:
                    line = Line(list(b.moves), {}, dict(b.units), _asides(b.asides), b.written)
                    target[at].append(line)
                    stack.append((b.branches, line.branches))
        return new

    def __len__(self) -> int:
        """The number of variations, nested ones included."""
        return self.size()[0]

    def size(self) -> tuple[int, int]:
        """The variations, nested ones included, and their moves (counted without recursion:
        a file may nest them 500 deep): what changes when one is played or taken back."""
        count = moves = 0
        stack = [self.branches]
        while stack:
            for lines in stack.pop().values():
                count += len(lines)
                moves += sum(len(b.moves) for b in lines)
                stack.extend(b.branches for b in lines)
        return count, moves

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

    def unit(self, main: Path, path: Path) -> Unit | None:
        """The file's text of the last move of ``path`` (its comments), when it has one."""
        chain = self.locate(main, path)
        if not path or chain is None:
            return None
        line, i = chain[-1]
        unit = line.units.get(i - 1)
        return unit if unit is not None and unit.move == path[-1] else None

    def from_file(self, main: Path, path: Path) -> bool:
        """Whether the last move of ``path`` is one its file wrote (not played here)."""
        chain = self.locate(main, path)
        return bool(path) and chain is not None and chain[-1][1] - 1 in chain[-1][0].units

    def take_back(self, main: Path, path: Path) -> bool:
        """Take back the last move of the variation ``path`` ends, when it ends one and was
        played here, not read from a file (a variation left empty goes); whether it did."""
        chain = self.locate(main, path)
        if chain is None or len(chain) < 2 or self.from_file(main, path):
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
        taken back), and the file's text of those moves; how many went, nested ones
        included."""
        before = len(self)
        self.branches = _below(self.branches, plies)
        self.units = _below(self.units, plies)
        self.asides = _below(self.asides, plies)
        return before - len(self)

    def promote(self, main: Path, path: Path) -> tuple[list[Move], int]:
        """Make the line ``path`` runs in the main line from where it leaves the main line on
        (as "promote variation" does): each line on the way takes its parent's place from
        where it branches, the parent's moves from there on becoming its first variation.
        The new main line's moves, and the ply where it leaves the old one; ValueError when
        ``path`` is in no variation. The caller plays the new main line (its end is the
        rules')."""
        chain = self.locate(main, path)
        if chain is None or len(chain) < 2:
            raise ValueError("the path is in no variation")
        for depth in range(len(chain) - 1, 0, -1):
            (parent, at), (line, _) = chain[depth - 1], chain[depth]
            _lift(parent, at, line)
        root = chain[0][0]
        self.branches, self.units, self.asides = root.branches, root.units, root.asides
        return root.moves, chain[0][1]


def _asides(asides: dict[int, list[str]]) -> dict[int, list[str]]:
    return {at: list(texts) for at, texts in asides.items()}


def _below(items: dict[int, _T], plies: int) -> dict[int, _T]:
    return {i: v for i, v in items.items() if i < plies}


def _from(items: dict[int, _T], start: int, at: int) -> dict[int, _T]:
    """The entries from ``start`` on, counted from ``at``."""
    return {i - at: v for i, v in items.items() if i >= start}


def _lift(parent: Line, at: int, line: Line) -> None:
    """``line``, a variation of ``parent``'s move ``at``, becomes ``parent``'s moves from
    there on; ``parent``'s old moves from there its first variation (with the variations of
    them), the other variations of that move staying where they were."""
    old = Line(parent.moves[at:], _from(parent.branches, at + 1, at),
               _from(parent.units, at, at), _from(parent.asides, at + 1, at))
    others = [b for b in parent.branches.get(at, ()) if b is not line]
    branches = _below(parent.branches, at)
    branches[at] = [old, *others, *line.branches.get(0, ())]
    branches.update(_from(line.branches, 1, -at))
    asides = _below(parent.asides, at)
    here = [*parent.asides.get(at, ()), *line.asides.get(0, ())]
    asides.update({at: here} if here else {})
    asides.update(_from(line.asides, 1, -at))
    parent.moves[at:] = line.moves
    parent.branches, parent.asides = branches, asides
    parent.units = {**_below(parent.units, at), **_from(line.units, 0, -at)}
    parent.written = None  # another shape now: written anew


def move_label(ply: int, start_side: Side, ellipsis: str = "...") -> str:
    """The number a move at ``ply`` takes on a score sheet: ``12.`` or ``12...`` (Black's
    dots ``ellipsis``: a graph may write ``12…``).

    >>> move_label(0, WHITE), move_label(1, WHITE), move_label(0, BLACK), move_label(3, WHITE, "…")
    ('1.', '1...', '1...', '2…')
    """
    side = start_side if ply % 2 == 0 else 1 - start_side
    number = 1 + (ply + (start_side == BLACK)) // 2
    return f"{number}{'.' if side == WHITE else ellipsis}"
