"""The engine: the levels as a table of layers, a loop over them, and the draw judgement.

Each level is a row of ``LEVELS``: the layers it tries in order (``kbdraughts.ai.layers``) and
the depth its search goes to at most. The first layer that answers decides. Level 1 is the
ancestor's order exactly: the knowledge base's rules (capture, exact, pattern), then the
capture tree when a capture is available, else the weighted simple move. Higher levels ask the
endgame tables first where they reach (``ai/endgame.py``, the draw rules on top), then keep the
rules and replace the last two layers by an alpha-beta search within the time budget. At levels
2 and 3 (4 and 8 plies) a pattern or motif rule's move is played when it survives a short
material search; at level 4, whose search sees 15-20 plies in a second on the native core, only
the exact rules (the openings) decide, and the pattern and motif rules' moves go first in the
search's order: it plays one when it finds nothing better (measured: see ``_DEEP``).

>>> [layer.__name__ for layer in LEVELS[1].layers]
['kb_rules', 'capture_tree', 'weighted_move']
>>> [layer.__name__ for layer in LEVELS[4].layers], LEVELS[4].depth
(['endgame_db', 'exact_kb_rules', 'only_move', 'search'], 64)

A new layer is one function and one table entry: write
``def my_layer(ctx: Context) -> Choice | None`` in ``layers.py`` (None when it has no
answer; ``ctx.legal`` holds the legal moves, ``ctx.options`` the knowledge base, heuristic and
searcher), then put it in the rows that should try it, before the layer it should pre-empt::

    _SEARCHING = (endgame_db, checked_kb_rules, my_layer, only_move, search)
"""

from __future__ import annotations

import random
import threading
import time
from typing import NamedTuple, Sequence

from kbdraughts.ai import endgame, explain
from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.eval.heuristic import Heuristic, default_heuristic
from kbdraughts.ai.layers import (
    Choice, Clock, Context, Layer, Options, capture_tree, checked_kb_rules, endgame_db,
    exact_kb_rules, kb_rules, only_move, recurring_positions, search, weigh_moves, weighted_move,
)
from kbdraughts.ai.native_search import SHORT_TT_SIZE, AnySearcher, make_searcher
from kbdraughts.ai.rulebook import KnowledgeBase, load_default_kb
from kbdraughts.ai.spec import DEFAULT_LEVEL, MAX_LEVEL, MOVETIME_MS
from kbdraughts.board import START, Move, Position, legal_moves, play
from kbdraughts.egdb import probe as egdb_probe
from kbdraughts.egdb.probe import Database
from kbdraughts.game import Game
from kbdraughts.values import MAN_VALUE, WIN

__all__ = ["Engine", "Choice", "Level", "LEVELS", "DEFAULT_LEVEL", "MAX_LEVEL", "DRAW_MARGIN",
           "FEW_PIECES", "load_default_kb", "recurring_positions"]


class Level(NamedTuple):
    """A level: the layers it tries, in order (the last always answers), and its search depth."""

    layers: tuple[Layer, ...]
    depth: int = 0  # plies the search goes to at most; 0 for a level that does not search


#: The endgame tables come first where they reach: they are exact, and a pattern or motif rule
#: (the main road) played before them can waste the moves the 15-move rule allows.
_SEARCHING = (endgame_db, checked_kb_rules, only_move, search)
#: The default level: a motif's move checked by 4 plies of material lost games its own search
#: saw losing at depth 20 (a "give one, take two" shot after which a man of theirs ran to
#: crown). With the rules only ordering its moves it scored better than with the checked
#: rules, against the same older engine on the same openings (``bench/versus.py``; the
#: figures, dated: docs/benchmarks.md, bench/versus.py).
_DEEP = (endgame_db, exact_kb_rules, only_move, search)
#: Level 1 is the layers alone; 2 and 3 search at most 4 and 8 plies; 4 searches as deep as
#: the time budget allows.
LEVELS: dict[int, Level] = {
    1: Level((kb_rules, capture_tree, weighted_move)),
    2: Level(_SEARCHING, 4),
    3: Level(_SEARCHING, 8),
    4: Level(_DEEP, 64),
}
assert sorted(LEVELS) == list(range(1, MAX_LEVEL + 1)), "spec.MAX_LEVEL and LEVELS disagree"

#: The AI takes a draw when it judges its side no more than this far ahead.
DRAW_MARGIN = MAN_VALUE // 2
#: Time the draw judgement may take at most, in milliseconds.
DRAW_JUDGE_MS = 300
#: Plies the draw judgement searches (captures resolved after them): deep enough to see a
#: king driven onto a diagonal and taken.
DRAW_DEPTH = 4
#: Pieces on the board at most for an even position to count as drawn; with more, agreeing a
#: draw is too early.
FEW_PIECES = 4


class Engine:
    """The AI: ``choose(game)`` returns a Choice (None when there is no legal move).

    ``kb``: the knowledge base to play with; None loads the default one when first needed.
    ``use_kb=False`` plays without any. ``egdb=False`` plays and judges draws without the
    endgame tables (to measure what they add, or to test the other layers in small endings);
    ``egdb_leaves=False`` keeps them at the root but out of the search's nodes (to measure
    what reading them there adds); ``tables``: the endgame tables it asks (None: the user's
    default, :func:`kbdraughts.egdb.probe.default`, looked up when asked, so two engines of one
    process may ask two). ``contempt=False`` scores every draw zero (an analysis);
    ``max_depth`` caps the level's search depth (a client's fixed depth); ``tt_size`` is the
    search table's positions (None: the search's own default). ``nodes``: the search stops once
    it has spent this many nodes instead of at ``movetime_ms`` (None: by time), so a move does
    not depend on the machine's load (a match that tunes the search).
    """

    def __init__(self, level: int = DEFAULT_LEVEL, movetime_ms: int = MOVETIME_MS,
                 seed: int | None = None, kb: KnowledgeBase | None = None, use_kb: bool = True,
                 heuristic: Heuristic | None = None, egdb: bool = True,
                 egdb_leaves: bool = True, contempt: bool = True,
                 max_depth: int | None = None, tt_size: int | None = None,
                 tables: Database | None = None, nodes: int | None = None):
        if level not in LEVELS:
            raise ValueError(f"level must be 1..{MAX_LEVEL}, got {level}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"nodes must be 1 or more, got {nodes}")
        self.level = level
        self.movetime_ms = movetime_ms
        self.seed = seed
        self.rng = random.Random(seed) if seed is not None else None
        self.use_kb = use_kb
        self.egdb = egdb
        self.egdb_leaves = egdb_leaves
        self._tables = tables
        self.contempt = contempt
        self.max_depth = max_depth
        self.tt_size = tt_size
        self.nodes = nodes
        self._kb = kb
        self._kb_loaded = kb is not None
        self.heuristic = heuristic or default_heuristic()
        self._searcher: AnySearcher | None = None
        # The position after the engine's last searched move and its score there for the
        # side that moved: a draw judged there says what the move's words said.
        self._judged: tuple[Position, int, float] | None = None

    @property
    def kb(self) -> KnowledgeBase | None:
        """The knowledge base (loaded on first use), or None without one."""
        if not self.use_kb:
            return None
        if not self._kb_loaded:
            self._kb = load_default_kb()
            self._kb_loaded = True
        return self._kb

    @property
    def tables(self) -> Database:
        """The endgame tables this engine asks: its own, or the user's default."""
        return self._tables if self._tables is not None else egdb_probe.default()

    @property
    def searcher(self) -> AnySearcher:
        """The search, with its transposition table kept between the moves of a game."""
        if self._searcher is None:
            sized = {} if self.tt_size is None else {"tt_size": self.tt_size}
            self._searcher = make_searcher(self.heuristic.evaluate, **sized)
        return self._searcher

    def warm(self, tables: bool = True) -> None:
        """Set up now what the first move would: the search's table (tens of milliseconds),
        the knowledge base's first question, and with ``tables`` the endgame tables (read, or
        built when missing, in the background: a timed move never waits for them)."""
        if search in LEVELS[self.level].layers:
            self.searcher  # noqa: B018 (made on first access)
        if self.kb is not None:
            self.kb.firing(START, legal_moves(START))
        if self.egdb and tables:
            endgame.warm(self.tables)

    def new_game(self) -> None:
        """Forget what the search learnt (its table): the next position is of another game."""
        self._searcher = None
        self.warm()

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        """The move to play in ``game`` now and its reason; never changes ``game``.

        The first layer of the level's row that answers decides; what earlier layers noted
        (the rules a check skipped) is added to its reason."""
        pos = game.position
        legal = tuple(legal_moves(pos))  # the only time: every layer reads ctx.legal
        if not legal:
            return None
        clock = Clock(time.perf_counter(), self.movetime_ms)
        row = LEVELS[self.level]
        ctx = Context(game, pos, legal, self._options(row), stop, clock)
        for layer in row.layers:
            choice = layer(ctx)
            if choice is not None:
                if choice.score is not None:
                    self._judged = (play(pos, choice.move), pos.side, _one_ply_on(choice.score))
                return choice._replace(reason=explain.with_notes(choice.reason, ctx.notes))
        raise RuntimeError(f"no layer of level {self.level} chose a move")

    def analyse(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        """The search's move and score in ``game``, as an analysis wants them: no book, no
        rule and no forced move answers before the search, and a draw is worth zero (no
        contempt); the tables are still read at its nodes. Up to ``max_depth`` plies."""
        pos = game.position
        legal = tuple(legal_moves(pos))
        if not legal:
            return None
        depth = self.max_depth or LEVELS[MAX_LEVEL].depth
        options = Options(None, self.heuristic, self.searcher, self.rng, self.movetime_ms,
                          depth, self._asked_tables(), self.egdb and self.egdb_leaves,
                          contempt=False, nodes=self.nodes)
        ctx = Context(game, pos, legal, options, stop, Clock(time.perf_counter(),
                                                             self.movetime_ms))
        return search(ctx)

    def _options(self, row: Level) -> Options:
        depth = row.depth if self.max_depth is None else min(row.depth, self.max_depth)
        return Options(self.kb, self.heuristic, self.searcher, self.rng, self.movetime_ms,
                       depth, self._asked_tables(), self.egdb and self.egdb_leaves,
                       self.contempt, self.nodes)

    def _asked_tables(self) -> Database | None:
        """The tables the layers ask, or None when the engine plays without them."""
        return self.tables if self.egdb else None

    def weigh_all(self, pos: Position, legal: Sequence[Move]) -> list[tuple[Move, float, list]]:
        """Each move with the heuristic's weight and terms (the ``weighted_move`` layer's view)."""
        return weigh_moves(self.heuristic, self.kb, pos, legal)

    # -- draws --------------------------------------------------------------------------
    #
    # The rule, as a careful player keeps it: the AI takes a draw when its judgement (a short
    # search, captures resolved) says it is worse by DRAW_MARGIN or more, or when few pieces
    # are left (FEW_PIECES at most) and it sees no more than DRAW_MARGIN for itself and no
    # forced win. With more pieces and an even position it declines: too early to agree a
    # draw. It offers a draw itself only in a position it judges drawn: no forced win or loss
    # for either side, few pieces, and no more than DRAW_MARGIN either way.
    # Where the endgame tables reach, they decide both instead (``table_judgement``).

    def accepts_draw(self, game: Game, side: int) -> bool:
        """True when the AI, playing ``side``, takes a draw now (see ``draw_verdict``)."""
        return self.draw_verdict(game, side)[0]

    def draw_verdict(self, game: Game, side: int) -> tuple[bool, str]:
        """Whether the AI playing ``side`` takes a draw offered now, and why, in a player's
        words ("it judges the position +0.3 men for itself")."""
        if game.result is not None:
            return True, "the game is over"
        known = table_judgement(game, side, prober=self.tables.probe) if self.egdb else None
        if known is not None:
            return known
        score = self.evaluate_for(game.position, side)
        pieces = sum(game.position.counts())
        judged = explain.judgement_text(score)
        if score >= WIN - explain.MATE_ZONE:
            return False, judged
        if score <= -WIN + explain.MATE_ZONE or score <= -DRAW_MARGIN:
            return True, judged
        if score > DRAW_MARGIN:  # ahead: a careful player plays on, however few pieces
            return False, judged
        if pieces <= FEW_PIECES:
            return True, f"few pieces are left and {judged}"
        return False, f"too early to agree a draw with {pieces} pieces on the board; {judged}"

    def offers_draw(self, game: Game, side: int) -> tuple[bool, str]:
        """Whether the AI playing ``side`` offers a draw now: only in a position it judges
        drawn (few pieces, no forced win either way, within DRAW_MARGIN); and why."""
        if game.result is not None:
            return False, "the game is over"
        known = table_judgement(game, side, offer=True, prober=self.tables.probe) \
            if self.egdb else None
        if known is not None:
            return known
        score = self.evaluate_for(game.position, side)
        judged = explain.judgement_text(score)
        drawn = (abs(score) <= DRAW_MARGIN and sum(game.position.counts()) <= FEW_PIECES)
        return drawn, judged

    def evaluate_for(self, pos: Position, side: int) -> float:
        """A short material-and-position judgement of ``pos`` for ``side``; after the
        engine's own searched move, that search's deeper score (the scores agree)."""
        if self._judged is not None and self._judged[0] == pos:
            _, mover, score = self._judged
            return score if mover == side else -score
        # DRAW_DEPTH plies and the captures after them; capped in time, as king-heavy captures
        # can branch for long. A fresh search: no score kept from another position.
        res = make_searcher(self.heuristic.evaluate, tt_size=SHORT_TT_SIZE).search(
            pos, max_depth=DRAW_DEPTH, movetime_ms=DRAW_JUDGE_MS)
        score = -WIN if res.move is None else res.score  # no move: the side to move has lost
        return score if pos.side == side else -score


def _one_ply_on(score: float) -> float:
    """A root score as the position after the move has it: a win or loss a ply nearer."""
    if abs(score) >= WIN - explain.MATE_ZONE:
        return score + 1 if score > 0 else score - 1
    return score


def table_judgement(game: Game, side: int, offer: bool = False,
                    prober: endgame.Prober = egdb_probe.probe) -> tuple[bool, str] | None:
    """Where the endgame tables cover the position (and the draw rules' effect is sure):
    whether ``side`` takes a draw, exactly when the position is drawn (by the board or by the
    rules) or lost for it (``offer``: whether it offers one, exactly when drawn; a lost
    position is no draw to propose), and why; None where the tables do not reach."""
    pos = game.position
    verdict = endgame.judge(pos, *game_counters(game), prober)
    if verdict is None:
        return None
    for_side = verdict.outcome if pos.side == side else -verdict.outcome
    said = f"the endgame database says {verdict.words(pos, side)}"
    return (for_side == 0 if offer else for_side <= 0), said
