"""PDN games of Russian draughts (GameType "25"): tags, numbered movetext and the result.

Writing gives tags (Event, Date, White, Black, Result, GameType, and SetUp/FEN when the game
does not start from the initial position), movetext in full-path notation and a result token::

    [Event "Club evening"]
    ...
    [GameType "25"]

    1. c3-d4 f6-g5 2. g3-f4 ... *

Reading skips comments (``{...}``, ``; ...``), variations ``( ... )``, move numbers, NAGs
(``$1``) and annotation marks (``!?``), reads several games from one text, and replays each
move with :func:`kbdraughts.notation.parse_move` (so a capture shortened to its two ends is
accepted when it names one move). Any error is a :class:`PdnError` whose message is one line,
``source:line: what is wrong``.

>>> g = Game()
>>> g.push(parse_move(g.position, "c3-d4"))
>>> text = game_to_pdn(g, {"Event": "Demo", "Date": "2024.01.02"})
>>> print(text.splitlines()[-1])
1. c3-d4 *
>>> [move_text(m) for m in parse_pdn(text)[0].game.moves]
['c3-d4']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from kbdraughts.board import BLACK, START, WHITE
from kbdraughts.files import write_atomic
from kbdraughts.game import Game
from kbdraughts.notation import FenError, MoveError, fen, move_text, parse_fen, parse_move

__all__ = [
    "PdnGame", "PdnError", "game_to_pdn", "parse_pdn", "read_pdn_file", "write_pdn_file",
    "MAX_PDN_BYTES",
]

#: Russian draughts in PDN's GameType tag.
GAME_TYPE = "25"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Result tokens some programs write with 2 points a win (Russian score sheets), read as PDN's.
_RESULT_ALIASES = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}
#: Tags always written, in this order (the PDN "seven tag roster" as used for draughts).
_ROSTER = ("Event", "Date", "White", "Black", "Result", "GameType")
_LINE_WIDTH = 79


class PdnError(ValueError):
    """A PDN text that cannot be read; the message is ``source:line: what is wrong``."""


@dataclass
class PdnGame:
    """One game read from PDN: its tags, the game with the moves replayed, the result token."""

    tags: dict[str, str] = field(default_factory=dict)
    game: Game = field(default_factory=Game)
    result: str = "*"


# --- writing --------------------------------------------------------------------------------


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _movetext(game: Game, comments: Mapping[int, str] | None = None) -> list[str]:
    """The moves as units that are never split across lines: ``1. c3-d4``, ``f6-g5``, and
    ``{comment}`` after the move of each ply ``comments`` names (Black's move after one gets
    its number again: ``1... f6-g5``)."""
    units = []
    side = game.start.side
    number = 1
    comments = comments or {}
    for i, move in enumerate(game.moves):
        text = move_text(move)
        if side == WHITE:
            units.append(f"{number}. {text}")
        elif i == 0 or i - 1 in comments:
            units.append(f"{number}... {text}")
        else:
            units.append(text)
        if i in comments:  # a '}' would end the comment early
            units.append("{" + comments[i].replace("}", ")") + "}")
        if side == BLACK:
            number += 1
        side = 1 - side
    return units


def game_to_pdn(game: Game, tags: dict[str, str] | None = None,
                comments: Mapping[int, str] | None = None) -> str:
    """One game as PDN: the tags (defaults ``?`` for the roster), numbered movetext, result.

    ``tags`` adds to or overrides the defaults; the Result tag, unless given, is the game's
    result (``*`` while it goes on), and the movetext ends with the same token. ``comments``
    puts ``{text}`` after the move of each ply it names (an index into ``game.moves``).
    """
    result = game.result
    values: dict[str, str] = {
        "Event": "?", "Date": "????.??.??", "White": "?", "Black": "?",
        "Result": result.pdn if result is not None else "*", "GameType": GAME_TYPE,
    }
    if game.start != START:
        values["SetUp"] = "1"
        values["FEN"] = fen(game.start)
    for name, value in (tags or {}).items():
        values[name] = str(value)
    token = _RESULT_ALIASES.get(values["Result"], values["Result"])
    if token not in RESULTS:
        raise ValueError(f"result {values['Result']!r} is not one of {', '.join(RESULTS)}")
    order = list(_ROSTER) + [n for n in values if n not in _ROSTER]
    lines = [f"[{name} {_quote(values[name])}]" for name in order]
    lines.append("")
    line = ""
    for unit in _movetext(game, comments) + [token]:
        if line and len(line) + 1 + len(unit) > _LINE_WIDTH:
            lines.append(line)
            line = unit
        else:
            line = f"{line} {unit}" if line else unit
    lines.append(line)
    return "\n".join(lines) + "\n"


# --- reading --------------------------------------------------------------------------------

_TOKEN_RE = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<comment>\{[^}]*\})
    | (?P<open_comment>\{)
    | (?P<line_comment>;[^\n]*)
    | (?P<tag>\[\s*(?P<tag_name>[A-Za-z0-9_]+)\s*"(?P<tag_value>(?:[^"\\\n]|\\.)*)"\s*\])
    | (?P<bad_tag>\[[^\n]*)
    | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|\*)(?![\w/.-]))
    | (?P<number>\d+\s*\.(?:\.\.|…)?)
    | (?P<dots>\.\.\.|…)
    | (?P<move>[a-hA-H][1-8](?:\s*[-:xX×]\s*[a-hA-H][1-8])+)
    | (?P<numeric_move>\d+(?:[-x:]\d+)+)
    | (?P<nag>\$\d+)
    | (?P<mark>[!?]+)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<stray>[}\]])
    | (?P<word>[^\s{}\[\]();]+)
    """,
    re.VERBOSE,
)


@dataclass
class _Pending:
    """A game being read: its tags, the line each tag was on, moves as (text, line), result."""

    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    moves: list[tuple[str, int]] = field(default_factory=list)
    result: str | None = None

    def empty(self) -> bool:
        return not self.tags and not self.moves and self.result is None


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def parse_pdn(text: str, source: str = "<pdn>") -> list[PdnGame]:
    """Every game in ``text``, moves replayed; PdnError ``source:line: ...`` on any problem.

    A decisive or drawn result token that the rules did not produce by themselves (a
    resignation, an agreed draw) is recorded on the game, so ``game.result`` matches it.
    """
    games: list[PdnGame] = []
    pending = _Pending()
    for kind, m, at in _game_tokens(text, source):
        if kind == "tag" and (pending.moves or pending.result is not None):
            games.append(_replay(pending, source))  # a tag after movetext starts the next game
            pending = _Pending()
        if _take(pending, kind, m, at, source):  # a result token ends the game
            games.append(_replay(pending, source))
            pending = _Pending()
    if not pending.empty():
        games.append(_replay(pending, source))
    return games


#: Tokens that never matter to the game: whitespace, comments, NAGs, annotation marks.
_SKIPPED = frozenset(("space", "comment", "line_comment", "nag", "mark"))


def _game_tokens(text: str, source: str) -> Iterator[tuple[str, re.Match[str], int]]:
    """The tokens of ``text`` that belong to the games, as (kind, match, line): comments,
    annotations and ( variations ) left out; PdnError for a comment or variation never
    closed and for a stray closing bracket."""
    line = 1
    depth = 0  # nesting of ( variations ), which are skipped
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        assert m is not None  # the last alternative matches any other character run
        kind = m.lastgroup if m.lastgroup not in ("tag_name", "tag_value") else "tag"
        token = m.group(0)
        at = line
        line += token.count("\n")
        pos = m.end()
        if kind in _SKIPPED:
            continue
        if kind == "open_comment":
            raise PdnError(f"{source}:{at}: comment '{{' is never closed with '}}'")
        if kind == "stray":
            closes = "comment '{'" if token == "}" else "tag '['"
            raise PdnError(f"{source}:{at}: stray {token!r} closes no {closes}")
        if kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:
                raise PdnError(f"{source}:{at}: ')' closes no variation")
            depth -= 1
        elif not depth:  # inside a variation: its moves are not part of the game
            yield kind, m, at
    if depth:
        raise PdnError(f"{source}:{line}: a variation '(' is never closed with ')'")


def _take(pending: _Pending, kind: str, m: re.Match[str], at: int, source: str) -> bool:
    """Add one token to the game being read; says whether it was the result that ends it."""
    token = m.group(0)
    if kind == "tag":
        name, value = m.group("tag_name"), _unquote(m.group("tag_value"))
        if name == "GameType" and value.split(",")[0].strip() != GAME_TYPE:
            raise PdnError(
                f"{source}:{at}: GameType {value!r} is not Russian draughts "
                f"(GameType \"{GAME_TYPE}\")"
            )
        pending.tags[name] = value
        pending.tag_lines[name] = at
    elif kind == "bad_tag":
        raise PdnError(
            f"{source}:{at}: malformed tag {token.strip()!r}: write it as [Name \"value\"]"
        )
    elif kind == "result":
        pending.result = _RESULT_ALIASES.get(token, token)
        return True
    elif kind == "move":
        pending.moves.append((re.sub(r"\s+", "", token), at))
    elif kind == "numeric_move":
        raise PdnError(
            f"{source}:{at}: {token!r}: numeric squares are not supported; "
            "write moves as c3-d4 or c3:e5"
        )
    elif kind not in ("number", "dots"):  # move numbers are recomputed from the position
        raise PdnError(
            f"{source}:{at}: unexpected {token!r} in the movetext (expected a move like c3-d4)"
        )
    return False


def _replay(p: _Pending, source: str) -> PdnGame:
    """Build the game of one pending record: set up the start, play every move, check result."""
    start = START
    if "FEN" in p.tags:
        try:
            start = parse_fen(p.tags["FEN"])
        except FenError as e:
            raise PdnError(f"{source}:{p.tag_lines['FEN']}: bad FEN tag: {e}") from None
    game = Game(start)
    for text, at in p.moves:
        number = 1 + (len(game.moves) + (game.start.side == BLACK)) // 2
        label = f"move {number}{'.' if game.side == WHITE else '...'} {text}"
        ended = game.result
        if ended is not None:
            raise PdnError(f"{source}:{at}: {label}: the game was already over: {ended}")
        try:
            move = parse_move(game.position, text, game.legal_moves())
        except MoveError as e:
            raise PdnError(f"{source}:{at}: {label}: {e}") from None
        game.push(move)
    result = p.result
    if result is None:
        result = _RESULT_ALIASES.get(p.tags.get("Result", "*"), p.tags.get("Result", "*"))
        if result not in RESULTS:
            raise PdnError(
                f"{source}:{p.tag_lines['Result']}: Result {result!r} is not one of "
                f"{', '.join(RESULTS)}"
            )
    if game.result is None:
        if result == "1-0":
            game.resign(BLACK)
        elif result == "0-1":
            game.resign(WHITE)
        elif result == "1/2-1/2":
            game.agree_draw()
    return PdnGame(dict(p.tags), game, result)


# --- files ----------------------------------------------------------------------------------


#: The largest PDN file read (about 100,000 games): ``/dev/zero`` or a wrong file is refused
#: rather than read without bound.
MAX_PDN_BYTES = 64 * 2**20


def read_pdn_file(path: str | Path) -> list[PdnGame]:
    """The games in a PDN file (UTF-8, or Windows-1251 as Russian programs often write)."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            data = f.read(MAX_PDN_BYTES + 1)
    except OSError as e:
        raise PdnError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_PDN_BYTES:
        raise PdnError(f"{path}: not read: larger than {MAX_PDN_BYTES // 2**20} MB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1251", errors="replace")
    return parse_pdn(text, str(path))


def write_pdn_file(
    path: str | Path, games: Game | PdnGame | Iterable[Game | PdnGame],
    tags: dict[str, str] | None = None, append: bool = False,
) -> None:
    """Write one game or several (a blank line between them). ``tags`` apply to every game,
    over a PdnGame's own tags; ``append`` adds to the end of an existing file.

    A file written over is replaced whole (a temporary file beside it, then a rename), so a
    full disk or a kill leaves the old file as it was, never a cut one.
    """
    if isinstance(games, (Game, PdnGame)):
        games = [games]
    texts = []
    for g in games:
        if isinstance(g, PdnGame):
            texts.append(game_to_pdn(g.game, {**g.tags, **(tags or {})}))
        else:
            texts.append(game_to_pdn(g, tags))
    path = Path(path)
    if append:
        lead = "\n" if path.exists() and path.stat().st_size else ""
        write_atomic(path, lead + "\n".join(texts), append=True)
        return
    write_atomic(path, "\n".join(texts))

