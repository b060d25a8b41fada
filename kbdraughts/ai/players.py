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


def make_player(spec: str, seed: int | None = None, kb=None):
    """The player named by ``spec``; PlayerSpecError with a one-line message if none is."""
    parts = spec.strip().lower().split(":")
    kind, args = parts[0], parts[1:]
    try:
        if kind == "random" and not args:
            return RandomPlayer(seed)
        if kind == "greedy" and not args:
            return GreedyPlayer(seed)
        if kind == "search" and len(args) == 1:
            depth = int(args[0])
            if not 1 <= depth <= 20:
                raise PlayerSpecError(f"search depth must be 1..20, got {depth}")
            return SearchPlayer(depth, seed)
        if kind == "kb":
            level, use_kb, movetime = DEFAULT_LEVEL, True, 1000
            for i, a in enumerate(args):
                if a == "nokb":
                    use_kb = False
                elif a.endswith("ms") and a[:-2].isdigit():
                    movetime = int(a[:-2])
                elif i == 0:
                    level = int(a)
                else:
                    raise ValueError(a)
            if not 1 <= level <= MAX_LEVEL:
                raise PlayerSpecError(f"kb level must be 1..{MAX_LEVEL}, got {level}")
            engine = Engine(level=level, movetime_ms=movetime, seed=seed, kb=kb, use_kb=use_kb)
            return EnginePlayer(engine, spec.strip().lower() if args else f"kb:{level}")
    except PlayerSpecError:
        raise
    except ValueError:
        pass
    raise PlayerSpecError(
        f"unknown player {spec!r}: use kb[:LEVEL][:nokb][:MSms], random, greedy or search:DEPTH")
