"""The opening book's lines and the deep checks of their moves, as data.

A book line is a line players chose: a named opening as a published source gives it
(:mod:`kbdraughts.kb.openings`), or the first moves of a master game (``bench/data/
ussr1924.pdn``). Each (position, move) of a line is a *book move*; ``tools/gen_openings.py``
writes one exact rule per book move into ``combos/openings.txt`` (keyed by the position, so the
book also answers a position reached by another order of moves, a ballot's among them).

A book move is played only where a deep search agrees with it: ``tools/check_book.py`` searches
each at depth 20 or more and records a :class:`Check` a line in ``bench/data/book_checks.txt``;
a move that search judges worse than its best by more than :data:`MAX_LOSS` is written as a
comment, the player's line documented but never chosen.

>>> line = opening_line(("cd4", "ba5"), "kol", "Кол (Kol)", "a book")
>>> [str(b) for b in book_moves([line])]
['kol.1 c3-d4', 'kol.2 b6-a5']
>>> c = Check.parse("W:Wc3:Bf6 c3-d4 20 -35 c3-b4 +2")
>>> c.loss, str(c) == "W:Wc3:Bf6 c3-d4 20 -35 c3-b4 +2"
(37, True)
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Sequence

from kbdraughts.board import START, Move, Position, legal_moves, play
from kbdraughts.kb.openings import OPENINGS, opening_of
from kbdraughts.notation import SQUARE_NAMES, fen, move_text
from kbdraughts.pdn import PdnGame

__all__ = ["BookLine", "BookMove", "Check", "MAX_LOSS", "MIN_DEPTH", "book_lines", "book_moves",
           "game_line", "opening_line", "read_checks", "rule_name", "short", "short_moves"]

#: A book move the deep search judges worse than its best by more than this (a third of a
#: man, in the search's hundredths) is not played (issue 29).
MAX_LOSS = 30
#: The shallowest check that counts.
MIN_DEPTH = 20
#: Plies of each master game in the book: its opening (its first five moves a side).
GAME_PLIES = 10
EVENT = "1st USSR championship, Moscow 1924"
#: Where the master games were read: the file (what ``why`` cites), and the pages it was typed
#: from (the book's header gives the address once; each game's page is its ``{Source: ...}``).
GAMES_FILE = "bench/data/ussr1924.pdn"
GAMES_TYPED_FROM = "https://github.com/protcenkoroman/draughts content/page/"

_SHORT = re.compile(r"([a-h])([a-h][1-8])")


class BookLine(NamedTuple):
    """A line of the book: ``label`` starts its rules' ids, ``title`` names it to a player
    (the opening, or the game's players and event), ``source`` says where it was read, in a
    few words (no address: ``why`` says it); ``game``: a master game's moves, not an opening's."""

    label: str
    title: str
    source: str
    moves: tuple[Move, ...]
    game: bool = False


class BookMove(NamedTuple):
    """A position of a line and the line's move there; ``path`` the moves that led to it."""

    position: Position
    move: Move
    rule_id: str
    path: tuple[Move, ...]
    line: BookLine

    def __str__(self) -> str:
        return f"{self.rule_id} {move_text(self.move)}"


def short_moves(tokens: Sequence[str], start: Position = START) -> tuple[Move, ...]:
    """The moves of a line in the ballots' short notation (``cd4``: the c-file's man to d4);
    ValueError where a token does not name exactly one legal move.

    >>> [move_text(m) for m in short_moves(["cd4", "ba5"])]
    ['c3-d4', 'b6-a5']
    """
    pos, out = start, []
    for token in tokens:
        token = token.replace(":", "")
        m = _SHORT.fullmatch(token)
        fits = [mv for mv in legal_moves(pos) if m is not None
                and SQUARE_NAMES[mv.start][0] == m.group(1) and SQUARE_NAMES[mv.end] == m.group(2)]
        if len(fits) != 1:
            raise ValueError(f"{' '.join(tokens)}: {token!r} is not one legal move in {fen(pos)}")
        out.append(fits[0])
        pos = play(pos, fits[0])
    return tuple(out)


def short(move: Move) -> str:
    """A move in the ballots' short notation: its start's file, its end square."""
    return SQUARE_NAMES[move.start][0] + SQUARE_NAMES[move.end]


def opening_line(tokens: Sequence[str], label: str, title: str, source: str) -> BookLine:
    """A named opening's line from its moves in short notation."""
    return BookLine(label, title, source, short_moves(tokens))


def game_line(game: PdnGame, label: str, plies: int = GAME_PLIES) -> BookLine:
    """The first ``plies`` moves of a game of the 1924 championship: its title names the
    players, its source the file (the page it was typed from is the game's own tag)."""
    title = f"{game.tags.get('White', '?')} - {game.tags.get('Black', '?')}, {EVENT}"
    return BookLine(label, title, GAMES_FILE, tuple(game.game.moves[:plies]), True)


def book_lines(games: Sequence[PdnGame]) -> list[BookLine]:
    """The book's lines: the named openings, then the master games (``bench/data/
    ussr1924.pdn``'s games, in file order)."""
    named = [opening_line(o.moves + o.more, o.label, o.words(), o.cite) for o in OPENINGS]
    return named + [game_line(g, f"ussr1924-{i:02d}") for i, g in enumerate(games, 1)]


def book_moves(lines: Iterable[BookLine]) -> list[BookMove]:
    """Every (position, move) of the lines, once: the first line that plays it names it."""
    seen: set[tuple[Position, Move]] = set()
    out: list[BookMove] = []
    for line in lines:
        pos = START
        path: tuple[Move, ...] = ()
        for ply, move in enumerate(line.moves, 1):
            if (pos, move) not in seen:
                seen.add((pos, move))
                out.append(BookMove(pos, move, f"{line.label}.{ply}", path, line))
            path += (move,)
            pos = play(pos, move)
    return out


def rule_name(book: BookMove) -> str:
    """What ``why`` says of a book move: the opening the line has reached with it and where
    that was read (in a few words: the addresses are in the book's header, once), the master
    game it comes from, and the moves.

    >>> line = opening_line(("ab4", "ba5"), "a", "a line", "a book")
    >>> rule_name(book_moves([line])[1])
    'on the way to a line [a book], after a3-b4 -> b6-a5'
    >>> rule_name(book_moves([opening_line(("cd4", "ba5"), "k", "K", "s")])[1])[:11]
    'Кол (Kol) ['
    """
    opening = opening_of([short(m) for m in book.path + (book.move,)])
    where = f"after {' '.join(map(move_text, book.path)) or 'the start'} -> {move_text(book.move)}"
    named = f"{opening.words()} [{opening.cite}]" if opening is not None else ""
    if book.line.game:
        return ", ".join(filter(None, [named, f"{book.line.title} [{book.line.source}]", where]))
    return f"{named or f'on the way to {book.line.title} [{book.line.source}]'}, {where}"


class Check(NamedTuple):
    """A deep search's verdict on a book move: the move's score and the best move's, in
    hundredths of a man for the side to move, at ``depth`` plies."""

    fen: str
    move: str
    depth: int
    score: int
    best: str
    best_score: int

    @property
    def loss(self) -> int:
        """How much worse than the best the move is judged (0 when it is the best)."""
        return max(0, self.best_score - self.score)

    @classmethod
    def parse(cls, text: str) -> Check:
        f, move, depth, score, best, best_score = text.split()
        return cls(f, move, int(depth), int(score), best, int(best_score))

    def __str__(self) -> str:
        return (f"{self.fen} {self.move} {self.depth} {self.score:+d} {self.best} "
                f"{self.best_score:+d}")


def read_checks(text: str) -> dict[tuple[str, str], Check]:
    """The checks of a file (``#`` comments), by (FEN, move); of two, the deeper counts."""
    out: dict[tuple[str, str], Check] = {}
    for raw in text.splitlines():
        body = raw.split("#", 1)[0].strip()
        if body:
            c = Check.parse(body)
            old = out.get((c.fen, c.move))
            if old is None or c.depth >= old.depth:
                out[(c.fen, c.move)] = c
    return out
