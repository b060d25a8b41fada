"""Players for matches and the console: the engine and the baselines it is measured against.

Each is built from a ``PlayerSpec`` (``kbdraughts.ai.spec``):
``kb[:LEVEL][:nokb][:MSms|:Nnodes]`` (the engine), ``random``, ``greedy`` (takes the most
pieces, else a random move),
``search:DEPTH`` (plain alpha-beta on material with capture quiescence, fixed depth: the
baseline to beat), ``cmd:PROGRAM ARGS`` (an external engine, ``kbdraughts.match.command_player``)
and ``hub:PROGRAM ARGS`` (one speaking Scan's Hub protocol, ``kbdraughts.match.hub_player``).
A player's ``name`` is its spec's canonical text. A player that cannot give a move (an external
engine that answers nonsense or ends) raises ``PlayerFault``.
"""

from __future__ import annotations

import random
import threading
from typing import Protocol

from kbdraughts.match.command_player import CommandOptions, CommandPlayer, PlayerFault
from kbdraughts.match.hub_player import HubPlayer
from kbdraughts.ai.engine import Choice, Engine
from kbdraughts.ai.layers import LayerName
from kbdraughts.eval.heuristic import material
from kbdraughts.ai.rulebook import KnowledgeBase
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.spec import PlayerSpec, PlayerSpecError
from kbdraughts.game import Game
from kbdraughts.notation import move_text


__all__ = ["Player", "RandomPlayer", "GreedyPlayer", "SearchPlayer", "EnginePlayer",
           "CommandPlayer", "CommandOptions", "PlayerFault", "make_player", "PlayerSpec",
           "PlayerSpecError"]


class Player(Protocol):
    name: str

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None: ...


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
        return Choice(m, LayerName.RANDOM, "a random legal move", "random")


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
        return Choice(m, LayerName.GREEDY, why, why)


class SearchPlayer:
    """Fixed-depth alpha-beta on material with capture quiescence; ties to the first move."""

    def __init__(self, depth: int, seed: int | None = None):
        self.name = f"search:{depth}"
        self.depth = depth
        self.searcher = make_searcher(material, reductions=False)  # a plain alpha-beta baseline

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        legal = game.legal_moves()
        if not legal:
            return None
        res = self.searcher.search(game.position, max_depth=self.depth, stop=stop, moves=legal)
        m = res.move or legal[0]
        why = f"search depth {res.depth}: score {int(res.score)}, {move_text(m)}"
        return Choice(m, LayerName.SEARCH, why, f"search {res.depth} {int(res.score)}")


class EnginePlayer:
    """The knowledge-based engine as a player."""

    def __init__(self, engine: Engine, name: str):
        self.engine = engine
        self.name = name

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        return self.engine.choose(game, stop)

    def warm(self) -> None:
        """What the first move would set up, done before the game's first clock starts (as
        ``bestmove`` does before its first answer): a ``cmd:`` engine in the same match must
        not have a head start. The endgame tables are left to their first need, as before: a
        build started here would run beside the first games of every job of the match."""
        self.engine.warm(tables=False)

    def accepts_draw(self, game: Game, side: int) -> bool:
        return self.engine.accepts_draw(game, side)


def make_player(spec: PlayerSpec | str, seed: int | None = None,
                kb: KnowledgeBase | None = None, command: CommandOptions | None = None
                ) -> Player:
    """The AI player ``spec`` names (a PlayerSpec, or its text: PlayerSpecError with a one-line
    message when the text names none, or names a person).

    ``kb``: a loaded knowledge base to share between players (None: an engine loads the
    default when it first needs it); a spec with ``nokb`` plays without any. ``command``: how
    a ``cmd:`` spec's external engine is driven (its program starts at its first move; the
    caller ends it with ``close()``).

    >>> make_player("kb:1:nokb").name, make_player(PlayerSpec.parse("kb")).name
    ('kb:1:nokb', 'kb:4')
    """
    if not isinstance(spec, PlayerSpec):
        spec = PlayerSpec.parse(spec)
    if spec.kind == "random":
        return RandomPlayer(seed)
    if spec.kind == "greedy":
        return GreedyPlayer(seed)
    if spec.kind == "search":
        return SearchPlayer(spec.depth, seed)
    if spec.kind in ("cmd", "hub"):
        external = CommandPlayer if spec.kind == "cmd" else HubPlayer
        return external(spec.command, str(spec), command or CommandOptions())
    if spec.kind != "kb":
        raise PlayerSpecError(f"{spec} is not an AI player")
    engine = Engine(level=spec.level, movetime_ms=spec.movetime_ms, seed=seed, kb=kb,
                    use_kb=spec.use_kb, nodes=spec.nodes or None)
    return EnginePlayer(engine, str(spec))
