"""Players for matches and the console: the engine and the baselines it is measured against.

Specs: ``kb`` / ``kb:LEVEL`` (the engine; add ``:nokb`` to play without the knowledge base and
``:MSms`` to set its time per move, e.g. ``kb:1:nokb``, ``kb:4:200ms``), ``random``, ``greedy``
(takes the most pieces, else a random move) and ``search:DEPTH`` (plain alpha-beta on material
with capture quiescence, fixed depth: the baseline to beat).
"""

from __future__ import annotations

import random
import threading
from typing import Protocol

from kbdraughts.ai.engine import DEFAULT_LEVEL, MAX_LEVEL, Choice, Engine
from kbdraughts.ai.heuristic import material
from kbdraughts.ai.search import Searcher
from kbdraughts.game import Game
from kbdraughts.notation import move_text


class Player(Protocol):
    name: str

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None: ...


class PlayerSpecError(ValueError):
    """A player spec that names no player; the message says what would."""


class RandomPlayer:
    """Any legal move, uniformly."""

    def __init__(self, seed: int | None = None):
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        legal = game.legal_moves()
        if not legal:
            return None
        m = self.rng.choice(legal)
        return Choice(m, "random", "a random legal move", "random")


class GreedyPlayer:
    """The capture that takes the most pieces, else a random move."""

    def __init__(self, seed: int | None = None):
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        legal = game.legal_moves()
        if not legal:
            return None
        most = max(m.captured.bit_count() for m in legal)
        m = self.rng.choice([m for m in legal if m.captured.bit_count() == most])
        why = f"takes {most}" if most else "a random quiet move"
        return Choice(m, "greedy", why, why)


class SearchPlayer:
    """Fixed-depth alpha-beta on material with capture quiescence; ties to the first move."""

    def __init__(self, depth: int, seed: int | None = None):
        self.name = f"search:{depth}"
        self.depth = depth
        self.searcher = Searcher(material)

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        legal = game.legal_moves()
        if not legal:
            return None
        res = self.searcher.search(game.position, max_depth=self.depth, stop=stop, moves=legal)
        m = res.move or legal[0]
        why = f"search depth {res.depth}: score {int(res.score)}, {move_text(m)}"
        return Choice(m, "search", why, f"search {res.depth} {int(res.score)}")


class EnginePlayer:
    """The knowledge-based engine as a player."""

    def __init__(self, engine: Engine, name: str):
        self.engine = engine
        self.name = name

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        return self.engine.choose(game, stop)

    def accepts_draw(self, game: Game, side: int) -> bool:
        return self.engine.accepts_draw(game, side)


_USAGE = "use kb[:LEVEL][:nokb][:MSms], random, greedy or search:DEPTH"


def uses_kb(spec: str) -> bool:
    """Whether the player ``spec`` names plays with the knowledge base."""
    parts = spec.strip().lower().split(":")
    return parts[0] == "kb" and "nokb" not in parts


def _engine_options(spec: str, args: list[str]) -> tuple[int, bool, int]:
    """(level, use_kb, movetime_ms) of a ``kb`` spec's options."""
    level, use_kb, movetime = DEFAULT_LEVEL, True, 1000
    for i, a in enumerate(args):
        if a == "nokb":
            use_kb = False
        elif a.endswith("ms") and a[:-2].isdigit() and int(a[:-2]) > 0:
            movetime = int(a[:-2])
        elif i == 0 and a.isdigit():
            level = int(a)
            if not 1 <= level <= MAX_LEVEL:
                raise PlayerSpecError(f"kb level must be 1..{MAX_LEVEL}, got {level}")
        else:
            raise PlayerSpecError(f"unknown player {spec!r}: {a!r} is not a level, 'nokb' or "
                                  f"a time like '200ms' ({_USAGE})")
    return level, use_kb, movetime


def parse_spec(spec: str) -> tuple[str, tuple]:
    """``(kind, options)`` of a player spec without building anything: ``("random", ())``,
    ``("greedy", ())``, ``("search", (depth,))`` or ``("kb", (level, use_kb, movetime_ms))``;
    PlayerSpecError with a one-line message when it names no player.

    >>> parse_spec("kb:1:nokb")
    ('kb', (1, False, 1000))
    """
    kind, *args = spec.strip().lower().split(":")
    if kind in ("random", "greedy") and not args:
        return kind, ()
    if kind == "search" and len(args) == 1:
        if not args[0].isdigit() or not 1 <= int(args[0]) <= 20:
            raise PlayerSpecError(f"search depth must be a number 1..20, got {args[0]!r}")
        return kind, (int(args[0]),)
    if kind == "kb":
        return kind, _engine_options(spec, args)
    raise PlayerSpecError(f"unknown player {spec!r}: {_USAGE}")


def make_player(spec: str, seed: int | None = None, kb=None):
    """The player named by ``spec``; PlayerSpecError with a one-line message if none is.

    ``kb``: a loaded knowledge base to share (None: the engine loads the default when it
    first needs it; False: none).
    """
    kind, options = parse_spec(spec)
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed)
    if kind == "search":
        return SearchPlayer(options[0], seed)
    level, use_kb, movetime = options
    engine = Engine(level=level, movetime_ms=movetime, seed=seed, kb=kb, use_kb=use_kb)
    name = spec.strip().lower()
    return EnginePlayer(engine, name if ":" in name else f"kb:{level}")
