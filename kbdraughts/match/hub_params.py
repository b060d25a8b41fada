"""The parameters ``kbdraughts hub`` declares, their checks, and the engine they make.

Each is a row of ``PARAMS``: its name, Hub type, default, and the values it takes. The client
sets them with ``set-param name=... value=...`` before ``init`` (``kbdraughts hub
--name=value`` sets the defaults: lidraughts-bot passes its ``engine_options`` so).

>>> p = Params()
>>> p.set("level", "3"), p.set("kb", "false"), p.set("initial-time", "60"), p.values["kb"]
(True, True, False, 'false')
>>> p.set("level", "9")
Traceback (most recent call last):
...
kbdraughts.match.hub.HubError: level must be a whole number from 1 to 4, got '9'
>>> declare(PARAMS[0])
'param name=variant value=russian type=enum values=russian'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kbdraughts.ai.engine import Engine
from kbdraughts.ai.spec import DEFAULT_LEVEL, MAX_LEVEL, MOVETIME_MS
from kbdraughts.egdb import probe as egdb_probe
from kbdraughts.egdb.index import MAX_PIECES
from kbdraughts.match.hub import NUMBERINGS, STANDARD, HubError, write_line

#: The search table's size as a power of two of positions: 2**19 is the engine's own (64 MB).
TT_SIZE, MIN_TT_SIZE, MAX_TT_SIZE = 19, 14, 24
#: Endgame tables of up to this many pieces are built at first need (0: play without them).
EGDB_PIECES = 4


@dataclass(frozen=True)
class Param:
    """One parameter: ``kind`` is bool, int, string or enum; ``low``..``high`` bound an int,
    ``choices`` list an enum's values."""

    name: str
    kind: str
    default: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    help: str = ""


PARAMS: tuple[Param, ...] = (
    Param("variant", "enum", "russian", choices=("russian",), help="Russian draughts only"),
    Param("level", "int", str(DEFAULT_LEVEL), 1, MAX_LEVEL,
          help="1 = the knowledge base alone, 2 and 3 search 4 and 8 plies, 4 searches deepest"),
    Param("kb", "bool", "true", help="play with the knowledge base's rules"),
    Param("egdb-folder", "string", "", help="the endgame tables' folder (empty: the default, "
          "$XDG_DATA_HOME/kbdraughts/egdb)"),
    Param("egdb-pieces", "int", str(EGDB_PIECES), 0, MAX_PIECES,
          help="endgame tables of up to this many pieces are built at first need; 0: none used"),
    Param("tt-size", "int", str(TT_SIZE), MIN_TT_SIZE, MAX_TT_SIZE,
          help="the search table holds 2**N positions (19: 64 MB)"),
    Param("contempt", "bool", "true", help="a draw is worth a little less to the side ahead"),
    Param("numbering", "enum", STANDARD, choices=NUMBERINGS,
          help="squares of the moves: standard (lidraughts, pydraughts 0.5) or mirrored "
          "(pydraughts >= 0.6: 1 = a1)"),
)
BY_NAME = {p.name: p for p in PARAMS}


def declare(p: Param) -> str:
    """The ``param`` line that declares ``p``."""
    bounds = {"min": p.low, "max": p.high} if p.kind == "int" else {}
    values = {"values": " ".join(p.choices)} if p.kind == "enum" else {}
    return write_line("param", name=p.name, value=p.default, type=p.kind, **bounds, **values)


def check(p: Param, value: str) -> str:
    """``value`` as ``p`` keeps it; HubError saying what it takes otherwise."""
    if p.kind == "bool":
        if value.lower() not in ("true", "false"):
            raise HubError(f"{p.name} is true or false, got {value[:40]!r}")
        return value.lower()
    if p.kind == "enum":
        if value not in p.choices:
            raise HubError(f"{p.name} is one of {', '.join(p.choices)}, got {value[:40]!r}")
        return value
    if p.kind == "int":
        if not (value.isascii() and value.isdigit() and p.low <= int(value) <= p.high):
            raise HubError(f"{p.name} must be a whole number from {p.low} to {p.high}, "
                           f"got {value[:40]!r}")
        return str(int(value))
    return value


@dataclass
class Params:
    """The values set so far (the defaults at first)."""

    values: dict[str, str] = field(default_factory=lambda: {p.name: p.default for p in PARAMS})

    def set(self, name: str, value: str) -> bool:
        """Set ``name``; False for a name this engine does not have (the protocol ignores it:
        lidraughts-bot sends ``initial-time``); HubError for a value it does not take."""
        if name not in BY_NAME:
            return False
        self.values[name] = check(BY_NAME[name], value)
        return True

    def flag(self, name: str) -> bool:
        return self.values[name] == "true"

    def engine(self) -> Engine:
        """The engine these values make, warm: the knowledge base loaded, the search's table
        set up, the endgame tables read (or built in the background). ValueError, one line,
        for a fault in the rules or the tables' folder. A search table there is no memory for
        is halved until it fits (``engine.tt_size`` says what it holds); MemoryError when not
        even the smallest does."""
        pieces = int(self.values["egdb-pieces"])
        folder = self.values["egdb-folder"]
        if folder and not Path(folder).is_dir():
            raise ValueError(f"egdb-folder {folder!r} is not a folder")
        # The engine's own tables: another engine of the process keeps its own settings.
        tables = egdb_probe.user_tables(Path(folder) if folder else None, pieces) \
            if pieces else None
        engine = Engine(level=int(self.values["level"]), movetime_ms=MOVETIME_MS,
                        use_kb=self.flag("kb"), egdb=pieces > 0, tables=tables,
                        contempt=self.flag("contempt"), tt_size=1 << int(self.values["tt-size"]))
        while True:
            try:
                engine.warm()
                return engine
            except MemoryError:
                if engine.tt_size is None or engine.tt_size <= 1 << MIN_TT_SIZE:
                    raise
                engine.tt_size //= 2
