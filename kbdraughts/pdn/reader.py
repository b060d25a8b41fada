"""PDN games of Russian draughts (GameType "25") in and out, nothing of them lost.

Reading cuts the text into games (:mod:`kbdraughts.pdn.lexer`), replays each game's main line
with :func:`kbdraughts.notation.parse_move` (so ``x`` and ``:`` captures, numbered moves
``22-18``, and a capture given by every landing square or by its two ends when that names one
move are all read) and keeps the file's own text beside it: comments before and after moves,
NAGs ``$n`` and marks ``!?``, nested variations (those that can be played read into the
game's variation tree, :mod:`kbdraughts.pdn.variations`; all kept as written), the result in
the file's convention (``2-0``), words it does not know. A game that cannot be read is a
:class:`PdnError` ``source:line: what is wrong`` in its place; the others are read all the
same (:func:`parse_games`). Writing (:mod:`kbdraughts.pdn.writer`) gives a game read from a
file back as it was, the coach's notes beside its moves.

>>> g = Game()
>>> g.push(parse_move(g.position, "c3-d4"))
>>> text = game_to_pdn(g, {"Event": "Demo", "Date": "2024.01.02"})
>>> print(text.splitlines()[-1])
1. c3-d4 *
>>> [move_text(m) for m in parse_pdn(text)[0].game.moves]
['c3-d4']
>>> (pg,) = parse_pdn("1. c3-d4 $1 {idea} (1. c3-b4) f6-g5?! 2-0")
>>> print(pdn_game_text(pg), end="")
1. c3-d4 $1 {idea} (1. c3-b4) f6-g5?! 2-0
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping

from kbdraughts.board import BLACK, START, WHITE
from kbdraughts.files import TextForm, read_form, write_atomic
from kbdraughts.game import Game
from kbdraughts.notation import (  # noqa: F401 (move_text: for the doctest above)
    FenError, MoveError, move_text, parse_fen, parse_move,
)
from kbdraughts.pdn.lexer import PdnError, RawGame, scan_game
from kbdraughts.pdn.split import Span, split_games
from kbdraughts.pdn.model import GAME_TYPE, RESULTS, Movetext, PdnGame, normal_result
from kbdraughts.pdn.variations import read_variations
from kbdraughts.pdn.writer import game_to_pdn, pdn_game_text

__all__ = [
    "PdnGame", "PdnError", "game_to_pdn", "pdn_game_text", "parse_pdn", "parse_games",
    "read_pdn_file", "load_pdn_file", "PdnFile", "write_pdn_file", "MAX_PDN_BYTES", "RESULTS",
    "read_game",
]


# --- reading --------------------------------------------------------------------------------


def parse_games(text: str, source: str = "<pdn>") -> list[PdnGame | PdnError]:
    """Every game in ``text`` in order, moves replayed, or in its place the PdnError
    ``source:line: ...`` that kept it from being read. A text that holds only comments has
    no game.

    A decisive or drawn result token that the rules did not produce by themselves (a
    resignation, an agreed draw: the file does not say which) is recorded on the game as
    ``as recorded``, so ``game.result`` matches it.
    """
    return [read_game(text, span, source) for span in split_games(text)]


def read_game(text: str, span: Span, source: str = "<pdn>") -> PdnGame | PdnError:
    """The game of ``text[span.start:span.end]`` (:func:`split_games`), or its PdnError."""
    raw = scan_game(text, span, source)
    try:
        if raw.error is not None:
            raise raw.error
        if not raw.tags and not raw.moves and raw.result is None:
            raise PdnError(f"{source}:{raw.line}: no game here: no tag, move or result")
        return _replay(raw, text, source)
    except PdnError as e:
        return e


def parse_pdn(text: str, source: str = "<pdn>") -> list[PdnGame]:
    """Every game in ``text``, moves replayed; the first game's PdnError that cannot be read."""
    games = parse_games(text, source)
    for g in games:
        if isinstance(g, PdnError):
            raise g
    return [g for g in games if isinstance(g, PdnGame)]


def _check_tags(raw: RawGame, source: str) -> dict[str, str]:
    tags: dict[str, str] = {}
    for name, value, at in raw.tags:
        if name == "GameType" and value.split(",")[0].strip() != GAME_TYPE:
            raise PdnError(
                f"{source}:{at}: GameType {value!r} is not Russian draughts "
                f"(GameType \"{GAME_TYPE}\")"
            )
        if name == "Result" and normal_result(value) not in RESULTS:
            raise PdnError(f"{source}:{at}: Result {value!r} is not one of "
                           f"{', '.join(RESULTS)} (or 2-0, 0-2, 1-1)")
        tags[name] = value
    return tags


def _start(raw: RawGame, tags: dict[str, str], source: str) -> Game:
    if "FEN" not in tags:
        return Game(START)
    try:
        return Game(parse_fen(tags["FEN"]))
    except FenError as e:
        at = next(line for name, _, line in raw.tags[::-1] if name == "FEN")
        raise PdnError(f"{source}:{at}: bad FEN tag: {e}") from None


def _replay(raw: RawGame, text: str, source: str) -> PdnGame:
    """Build the game of one raw record: set up the start, play every move, check result."""
    tags = _check_tags(raw, source)
    game = _start(raw, tags, source)
    for move in raw.moves:
        number = 1 + (len(game.moves) + (game.start.side == BLACK)) // 2
        label = f"move {number}{'.' if game.side == WHITE else '...'} {move.text}"
        ended = game.result
        if ended is not None:
            raise PdnError(f"{source}:{move.line}: {label}: the game was already over: {ended}")
        try:
            game.push(parse_move(game.position, move.squares, game.legal_moves()))
        except MoveError as e:
            expected = f"{number}{'.' if game.side == WHITE else '...'}"
            hint = "" if move.number in (None, expected) else (
                f" (the file numbers it {move.number}: a move may be missing before it)")
            raise PdnError(f"{source}:{move.line}: {label}: {e}{hint}") from None
    tree, text_only = read_variations(raw, text, game, source)
    result = normal_result(raw.result[0] if raw.result else tags.get("Result", "*"))
    if game.result is None and result in _WINNERS:
        game.record_result(_WINNERS[result])
    return PdnGame(tags, game, result, _movetext(raw, text, game), raw.line, tree, text_only)


#: The side a result token gives the game to (None: a draw).
_WINNERS = {"1-0": WHITE, "0-1": BLACK, "1/2-1/2": None}


def _movetext(raw: RawGame, text: str, game: Game) -> Movetext:
    """The file's own text of a game, its offsets made relative to the movetext."""
    body = raw.body if raw.body >= 0 else raw.end
    lead = text[raw.start:raw.tags_start].strip() if raw.tags_start > raw.start else ""
    lead = "\n".join([lead] * bool(lead) + [text[a:b].strip() for a, b in raw.between])
    at = lambda offset: offset - body  # noqa: E731
    return Movetext(
        text=text[body:raw.end] if raw.end > body else "",
        lead=lead,
        ends=[at(m.end) for m in raw.moves],
        first=at(raw.first) if raw.first >= 0 else -1,
        result=(at(raw.result[1]), at(raw.result[2])) if raw.result else None,
        notes=[(max(at(a), 0), at(b)) for a, b in raw.notes if b > body],
        moves=tuple(game.moves),
        read_result=game.result.pdn if game.result is not None else "*",
        variations=[(p, at(a), at(b)) for p, a, b in raw.variations],
        head=text[raw.start:body] if raw.tags else "",
        tags={name: value for name, value, _ in raw.tags},
    )


# --- files ----------------------------------------------------------------------------------


#: The largest PDN file read (about 100,000 games): ``/dev/zero`` or a wrong file is refused
#: rather than read without bound.
MAX_PDN_BYTES = 64 * 2**20


class PdnFile:
    """A PDN file read: its text cut into games (:func:`split_games`), each game read when
    first asked (:meth:`entry`: a 50 MB file is not replayed to reach one game), the form
    its bytes came in (encoding, byte-order mark, line end: written back so) and warnings
    about it (bytes that are not UTF-8)."""

    def __init__(self, text: str, source: str, form: TextForm | None = None,
                 warnings: list[str] | None = None):
        self.text, self.source = text, source
        self.form = form or TextForm()
        self.warnings = warnings or []
        self.spans = split_games(text)
        self._read: dict[int, PdnGame | PdnError] = {}

    def __len__(self) -> int:
        return len(self.spans)

    def entry(self, index: int) -> PdnGame | PdnError:
        """Game ``index`` (from 0), read now if it was not, or the PdnError in its place."""
        if index not in self._read:
            read = read_game(self.text, self.spans[index], self.source)
            if isinstance(read, PdnGame):
                read.file, read.index = self, index
            self._read[index] = read
        return self._read[index]

    @property
    def entries(self) -> list[PdnGame | PdnError]:
        """Every game, each read (the whole file replayed)."""
        return [self.entry(i) for i in range(len(self))]

    @property
    def games(self) -> list[PdnGame]:
        return [g for g in self.entries if isinstance(g, PdnGame)]

    @property
    def errors(self) -> list[PdnError]:
        return [g for g in self.entries if isinstance(g, PdnError)]

    def game_text(self, index: int) -> str:
        """Game ``index`` as the file has it, with what follows it up to the next game."""
        span = self.spans[index]
        return self.text[span.start:span.end]

    def with_games(self, texts: Mapping[int, str]) -> str:
        """The whole file, the games ``texts`` names (by index) written instead of the
        file's own, each in the place and the spacing of the one it replaces; every other
        byte as it was (games that cannot be read too)."""
        pieces = []
        for i in range(len(self)):
            old = self.game_text(i)
            if i not in texts:
                pieces.append(old)
                continue
            body = old.strip()
            start = old.index(body[:1]) if body else len(old)
            pieces.append(old[:start] + texts[i].strip() + old[start + len(body):])
        head = self.spans[0].start if self.spans else len(self.text)
        return self.text[:head] + "".join(pieces)


def load_pdn_file(path: str | Path) -> PdnFile:
    """A PDN file, its games cut apart to be read as asked (:class:`PdnFile`); PdnError when
    the file itself cannot be read."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            size = os.fstat(f.fileno()).st_size  # a regular file's: read at its size
            data = f.read(size + 1 if 0 < size <= MAX_PDN_BYTES else MAX_PDN_BYTES + 1)
    except OSError as e:
        raise PdnError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_PDN_BYTES:
        raise PdnError(f"{path}: not read: larger than {MAX_PDN_BYTES // 2**20} MB")
    text, form, warnings = read_form(data, path)
    del data  # a large file's bytes go before its games are read
    return PdnFile(text, str(path), form, warnings)


def read_pdn_file(path: str | Path) -> list[PdnGame]:
    """The games in a PDN file (UTF-8, or Windows-1251 or Latin-1 as older programs write);
    the first PdnError when a game cannot be read."""
    read = load_pdn_file(path)
    if read.errors:
        raise read.errors[0]
    return read.games


def write_pdn_file(
    path: str | Path, games: Game | PdnGame | Iterable[Game | PdnGame],
    tags: dict[str, str] | None = None, append: bool = False,
) -> None:
    """Write one game or several (a blank line between them). ``tags`` apply to every game,
    over a PdnGame's own tags; ``append`` adds to the end of an existing file. A game read
    from a file is written back with everything the file had (:func:`pdn_game_text`), in the
    form its file came in (encoding, byte-order mark, line end).

    A file written over is replaced whole (a temporary file beside it, then a rename), so a
    full disk or a kill leaves the old file as it was, never a cut one; a FIFO or a device
    is refused (:class:`kbdraughts.files.SpecialFileError`).
    """
    if isinstance(games, (Game, PdnGame)):
        games = [games]
    games = list(games)
    form = next((g.file.form for g in games if isinstance(g, PdnGame) and g.file), TextForm())
    texts = []
    for g in games:
        if isinstance(g, PdnGame):
            texts.append(pdn_game_text(g, tags=tags, newline=form.newline))
        else:
            texts.append(game_to_pdn(g, tags).replace("\n", form.newline))
    path = Path(path)
    if append:
        lead = form.newline if path.exists() and path.stat().st_size else ""
        write_atomic(path, lead + form.newline.join(texts), append=True, form=form)
        return
    write_atomic(path, form.newline.join(texts), form=form)
