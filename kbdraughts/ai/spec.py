"""Who sits at a side of the board, as a value: ``PlayerSpec``, parsed once, never sliced.

Specs: ``human`` (also ``you``, ``me``, ``person``), ``kb`` / ``kb:LEVEL`` (the engine; add
``:nokb`` to play without the knowledge base, ``:MSms`` to set its time per move and ``:Nnodes``
a node budget per move instead, e.g. ``kb:1:nokb``, ``kb:4:200ms``, ``kb:4:300000nodes``: a move
by nodes does not depend on the machine's load), ``random``, ``greedy`` (takes the most pieces,
else a random move) and ``search:DEPTH`` (plain alpha-beta on material with capture quiescence,
fixed depth).
``cmd:PROGRAM ARGS`` is an external engine speaking ``bestmove``'s line protocol, ``hub:PROGRAM
ARGS`` one speaking Scan's Hub protocol (``hub:kbdraughts hub``); they are read
only where asked for (``parse(text, external=True)``: ``kbdraughts match``), so a spec read
from a saved game never starts a program.

This module is light on purpose (no engine, no pyDatalog): the command line parses specs while
it builds its parser.

>>> spec = PlayerSpec.parse("KB:1:nokb")
>>> spec
PlayerSpec(kind='kb', level=1, use_kb=False, movetime_ms=1000, depth=0, command='', nodes=0)
>>> str(spec), str(spec.with_level(3)), str(PlayerSpec.parse("kb:4:300000nodes"))
('kb:1:nokb', 'kb:3:nokb', 'kb:4:300000nodes')
>>> str(PlayerSpec.parse("kb:4:200ms")), str(PlayerSpec.parse("kb")), str(PlayerSpec.parse("Me"))
('kb:4:200ms', 'kb:4', 'human')
>>> str(PlayerSpec.parse("cmd:python -m kbdraughts.cli bestmove", external=True))
'cmd:python -m kbdraughts.cli bestmove'
>>> PlayerSpec.parse("HUB: kbdraughts hub --level=2", external=True).kind
'hub'
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from kbdraughts.errors import KbdraughtsError

#: Level 1 is the knowledge-based layers alone; 2 and 3 search at most 4 and 8 plies; 4
#: searches as deep as the time budget allows.
MAX_LEVEL = 4
#: Every level answers within its budget, so the default is the strongest.
DEFAULT_LEVEL = MAX_LEVEL
#: Default time per move of the searching levels, in milliseconds, and the most a spec may ask
#: (an hour: past it a typo, not a plan; ``bestmove --movetime`` has the same bound).
MOVETIME_MS = 1000
MAX_MOVETIME_MS = 3_600_000
#: The largest node budget a move (hours of search: past it a typo).
MAX_NODES = 10**12
#: The deepest ``search:DEPTH`` baseline.
MAX_SEARCH_DEPTH = 20

KINDS = ("human", "kb", "random", "greedy", "search", "cmd", "hub")
_HUMAN_WORDS = frozenset({"human", "you", "person", "me"})
USAGE = "use human, kb[:LEVEL][:nokb][:MSms|:Nnodes], random, greedy or search:DEPTH"
#: The prefix of an external engine's spec: ``cmd:PROGRAM ARGS``, and of a Hub engine's.
COMMAND_PREFIX = "cmd:"
HUB_PREFIX = "hub:"


class PlayerSpecError(KbdraughtsError, ValueError):
    """A player spec that names no player; the message says what would."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player: ``kind`` is one of KINDS; ``level``, ``use_kb``, ``movetime_ms`` and ``nodes``
    (a node budget a move instead of the time; 0: by time) matter for ``kb``, ``depth`` for
    ``search``, ``command`` (the program and its arguments, as one text split the shell's way)
    for ``cmd``."""

    kind: str
    level: int = DEFAULT_LEVEL
    use_kb: bool = True
    movetime_ms: int = MOVETIME_MS
    depth: int = 0
    command: str = ""
    nodes: int = 0

    @classmethod
    def parse(cls, text: str, external: bool = False) -> PlayerSpec:
        """The spec ``text`` names; PlayerSpecError with a one-line message when none.

        ``external``: also read ``cmd:PROGRAM ARGS`` (an external engine); without it such a
        spec is refused, with a message saying where it plays."""
        if text.strip()[:len(COMMAND_PREFIX)].lower() in (COMMAND_PREFIX, HUB_PREFIX):
            return _parse_command(text, external)
        kind, *args = text.strip().lower().split(":")
        if kind in _HUMAN_WORDS and not args:
            return cls("human")
        if kind in ("random", "greedy") and not args:
            return cls(kind)
        if kind == "search" and len(args) == 1:
            if not (args[0].isascii() and args[0].isdigit()) \
                    or not 1 <= int(args[0]) <= MAX_SEARCH_DEPTH:
                raise PlayerSpecError(
                    f"search depth must be a number 1..{MAX_SEARCH_DEPTH}, got {args[0]!r}")
            return cls("search", depth=int(args[0]))
        if kind == "kb":
            return _parse_engine(text, args)
        usage = USAGE + " (in a match also cmd:PROGRAM ARGS or hub:PROGRAM ARGS)" if external \
            else USAGE
        raise PlayerSpecError(f"unknown player {text.strip()!r}: {usage}")

    def __str__(self) -> str:
        if self.kind in ("cmd", "hub"):
            return f"{self.kind}:{self.command}"
        if self.kind == "search":
            return f"search:{self.depth}"
        if self.kind != "kb":
            return self.kind
        text = f"kb:{self.level}"
        if not self.use_kb:
            text += ":nokb"
        if self.movetime_ms != MOVETIME_MS:
            text += f":{self.movetime_ms}ms"
        return text + (f":{self.nodes}nodes" if self.nodes else "")

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def uses_kb(self) -> bool:
        """Whether this player plays with the knowledge base."""
        return self.kind == "kb" and self.use_kb

    def with_level(self, level: int) -> PlayerSpec:
        """The same player at ``level`` (an engine's other options kept); others unchanged."""
        if self.kind != "kb":
            return self
        check_level(level)
        return replace(self, level=level)

    def without_kb(self) -> PlayerSpec:
        """The same player without the knowledge base (an engine's level and time kept)."""
        return replace(self, use_kb=False) if self.kind == "kb" else self


def check_level(level: int) -> int:
    """``level`` if it is an AI level, else PlayerSpecError."""
    if not 1 <= level <= MAX_LEVEL:
        raise PlayerSpecError(f"level must be from 1 to {MAX_LEVEL}, got {level}")
    return level


def command_words(command: str) -> list[str]:
    """The program and arguments of a ``cmd:`` spec's command, split the shell's way;
    PlayerSpecError when it names none (empty, or a quote left open).

    >>> command_words("engine --level 1 'my book.txt'")
    ['engine', '--level', '1', 'my book.txt']
    """
    try:
        words = shlex.split(command)
    except ValueError as e:  # "No closing quotation"
        raise PlayerSpecError(f"cannot read the command {command.strip()!r}: {e}") from None
    if not words:
        raise PlayerSpecError(f"{COMMAND_PREFIX} names no program: write {COMMAND_PREFIX}PROGRAM "
                              "ARGS, e.g. 'cmd:kbdraughts bestmove --level 1'")
    return words


def _parse_command(text: str, external: bool) -> PlayerSpec:
    kind = text.strip()[:len(COMMAND_PREFIX) - 1].lower()  # "cmd" or "hub"
    command = text.strip()[len(COMMAND_PREFIX):].strip()
    if not external:
        raise PlayerSpecError(f"{text.strip()!r} is an external engine: those play in "
                              "'kbdraughts match' only")
    command_words(command)
    return PlayerSpec(kind, command=command)


def _counted(word: str, unit: str, most: int, shorter_than: int) -> int:
    """The number of ``unit`` a word like ``200ms`` gives, 1 to ``most`` (the word shorter
    than ``shorter_than`` characters: no huge number is read); 0 when it is none.

    >>> _counted("200ms", "ms", 1000, 12), _counted("0ms", "ms", 1000, 12)
    (200, 0)
    >>> _counted("2e3ms", "ms", 1000, 12), _counted("200", "ms", 1000, 12)
    (0, 0)
    """
    digits = word.removesuffix(unit)
    if digits == word or not (digits.isascii() and digits.isdigit()) or len(word) >= shorter_than:
        return 0
    return int(digits) if 0 < int(digits) <= most else 0


def _parse_engine(text: str, args: list[str]) -> PlayerSpec:
    level, use_kb, movetime, nodes = DEFAULT_LEVEL, True, MOVETIME_MS, 0
    for i, a in enumerate(args):
        if a == "nokb":
            use_kb = False
        elif n := _counted(a, "nodes", MAX_NODES, 20):
            nodes = n
        elif n := _counted(a, "ms", MAX_MOVETIME_MS, 12):
            movetime = n
        elif i == 0 and a.isascii() and a.isdigit():
            level = check_level(int(a))
        else:
            raise PlayerSpecError(f"unknown player {text.strip()!r}: {a!r} is not a level, "
                                  f"'nokb' or a time like '200ms' (at most {MAX_MOVETIME_MS}ms), "
                                  f"or nodes like '300000nodes' (at most {MAX_NODES}) ({USAGE})")
    return PlayerSpec("kb", level, use_kb, movetime, nodes=nodes)
