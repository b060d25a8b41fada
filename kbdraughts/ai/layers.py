"""The engine's layers: each a function ``(Context) -> Choice | None``, tried in a level's order.

A layer answers with a move and its reason, or passes (None) to the next. They share one
``Context``: the position, its legal moves (computed once per choice), the engine's options,
the stop event and the clock. A layer that looked at moves and did not play them may leave a
note (``ctx.notes``): the engine adds the notes to the reason of the move it plays.

- ``kb_rules``: the knowledge base's capture rules, exact rules and pattern rules, in its order;
  the first that fires decides (ties of exact rules: the seed picks), unless the capture tree
  after its move loses more than it declares.
- ``checked_kb_rules``: the same, but a pattern rule's move must survive a short material
  search (it may lose what it declares as a sacrifice, no more).
- ``exact_kb_rules``: the exact rules (the openings) alone; the pattern and motif rules' moves
  go first in the search's order, and its reason names the rule when it plays one.
- ``capture_tree``: the best capture by the tree of mutual captures (+105/-100).
- ``weighted_move``: the quiet move the heuristic's terms weigh highest.
- ``only_move``: a forced move is played without thinking.
- ``endgame_db``: the endgame tables' move where they cover the position, the draw rules
  applied on top (``ai/endgame.py``).
- ``search``: alpha-beta within the time budget, to the level's depth.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Callable, Iterator, NamedTuple, Sequence, TypeVar

from kbdraughts.ai import endgame, explain
from kbdraughts.ai.claims import claim_worth
from kbdraughts.capture_tree import TreeMemo, exchange, score_captures
from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.eval.heuristic import Heuristic, material
from kbdraughts.eval.move_features import their_shot
from kbdraughts.eval.judgement import against_next_best
from kbdraughts.ai.native_search import SHORT_TT_SIZE, AnySearcher, make_searcher
from kbdraughts.ai.rulebook import KnowledgeBase, RuleLayer, RuleMatch
from kbdraughts.ai.search import MATE_ZONE, SearchResult
from kbdraughts.board import Move, Position, play
from kbdraughts.egdb import leaves
from kbdraughts.egdb.probe import Database
from kbdraughts.game import Game
from kbdraughts.notation import move_text
from kbdraughts.values import MAN_LOST, MAN_VALUE, WIN

#: Plies of the check a pattern rule's move must survive (``checked_kb_rules``).
RULE_CHECK_DEPTH = 4


class LayerName(StrEnum):
    """Where a Choice came from (``Choice.layer``): its value is the text the reasons, PDN
    comments and Hub lines print."""

    CAPTURE_RULE = "capture rule"
    EXACT_RULE = "exact rule"
    PATTERN_RULE = "pattern rule"
    MOTIF_RULE = "motif rule"  # a rule with variables (issue 12), beside the patterns
    CAPTURE_TREE = "capture tree"
    HEURISTIC = "heuristic"
    ONLY_MOVE = "only move"
    ENDGAME_DB = "endgame database"
    SEARCH = "search"
    RANDOM = "random"  # the baselines (match/players.py)
    GREEDY = "greedy"
    ENGINE = "engine"  # an external engine's move (cmd:, hub:)


#: The layer that plays a rule's move, by the rule's layer.
PLAYED_AS = {RuleLayer.CAPTURE: LayerName.CAPTURE_RULE, RuleLayer.EXACT: LayerName.EXACT_RULE,
             RuleLayer.PATTERN: LayerName.PATTERN_RULE, RuleLayer.MOTIF: LayerName.MOTIF_RULE}

T = TypeVar("T")


class Choice(NamedTuple):
    """A chosen move and why: ``layer`` names where it came from, ``reason`` is one line."""

    move: Move
    layer: LayerName
    reason: str
    short: str
    words: str = ""  # the reason in a player's words for the console (no engine detail)
    searched: SearchResult | None = None  # the search behind the move: depth, score, line

    @property
    def score(self) -> float | None:
        """The search's score for the mover, when a search chose the move."""
        return self.searched.score if self.searched is not None and self.layer == LayerName.SEARCH \
            else None


@dataclass(frozen=True)
class Options:
    """What the engine brings to every layer."""

    kb: KnowledgeBase | None
    heuristic: Heuristic
    searcher: AnySearcher  # keeps its transposition table between the moves of a game
    rng: random.Random | None  # picks among equals; None: the first of them
    movetime_ms: int
    depth: int  # the search's depth at most
    tables: Database | None = None  # the endgame tables, asked where they reach; None: none
    egdb_leaves: bool = True  # and read at the search's nodes
    contempt: bool = True  # a draw is worth a little less to the side better at the root
    nodes: int | None = None  # a node budget for the search instead of the time (a match's)


@dataclass(frozen=True)
class Clock:
    """The time of one choice: when it started and its budget."""

    started: float
    movetime_ms: int

    def left_ms(self) -> float:
        """What is left of the budget (the rule checks may have used some)."""
        spent = (time.perf_counter() - self.started) * 1000
        margin = min(20.0, self.movetime_ms * 0.02)  # answering takes a moment too
        return max(10.0, self.movetime_ms - spent - margin)


@dataclass(frozen=True)
class Context:
    """One choice: the game, its position and legal moves, the options, stop and clock."""

    game: Game
    position: Position
    legal: tuple[Move, ...]  # never empty: the engine asks no layer without a move
    options: Options
    stop: threading.Event | None
    clock: Clock
    notes: list[str] = field(default_factory=list)  # what the reason adds at the end

    def search_ms(self) -> float | None:
        """What is left of the time; None under a node budget (the load plays no part)."""
        return None if self.options.nodes else self.clock.left_ms()

    @cached_property
    def firing(self) -> list[RuleMatch]:
        """The knowledge base's rules that fire here with a legal move, asked once per choice
        (the rule layer and the search's move ordering both use them)."""
        kb = self.options.kb
        if kb is None:
            return []
        return [m for m in kb.firing(self.position, self.legal)
                if m.move is not None and m.move in self.legal]


Layer = Callable[[Context], "Choice | None"]


def pick(ctx: Context, tied: Sequence[T]) -> T:
    """The first of equals, or a seeded random one."""
    rng = ctx.options.rng
    return rng.choice(tied) if rng is not None and len(tied) > 1 else tied[0]


# -- the knowledge base ------------------------------------------------------------------------


def kb_rules(ctx: Context) -> Choice | None:
    """The first rule that fires (capture, exact, pattern rules in the knowledge base's order)
    whose move the captures after it do not refute (:func:`_tree_check`)."""
    return _rules(ctx, _tree_check)


def checked_kb_rules(ctx: Context) -> Choice | None:
    """As ``kb_rules``, but a pattern rule's move that loses material it does not declare is
    skipped, and the reason tells so."""
    return _rules(ctx, _check_rule)


def exact_kb_rules(ctx: Context) -> Choice | None:
    """The knowledge base's exact rules (the openings) decide; its pattern and motif rules go
    to the search, which tries their moves first and plays one when it finds none better."""
    return _rules(ctx, None, exact_only=True)


def _rules(ctx: Context, check: Callable[[Context, RuleMatch], str | None] | None,
           exact_only: bool = False) -> Choice | None:
    kb = ctx.options.kb
    if kb is None:
        return None
    firing = [m for m in ctx.firing if m.rule.exact] if exact_only else ctx.firing
    for tied in _alternatives(firing):
        ok = []
        for match in tied:
            verdict = check(ctx, match) if check is not None and not match.rule.exact else None
            if verdict is None:
                ok.append(match)
            else:
                ctx.notes.append(verdict)
        if ok:
            match = pick(ctx, ok)
            layer = PLAYED_AS.get(match.layer, LayerName.PATTERN_RULE)
            assert match.move is not None
            return Choice(match.move, layer, *explain.rule_reason(layer, match, ctx.position),
                          explain.rule_words(layer, match, ctx.position))
    return None


def _alternatives(firing: list[RuleMatch]) -> Iterator[list[RuleMatch]]:
    """The firing rules in groups of equals: exact rules of one layer and priority are
    alternatives (an opening's several continuations), the seed picks among them; patterns
    keep the knowledge base's order (priority, then the more constrained first), one by one."""
    i = 0
    while i < len(firing):
        first = firing[i]
        j = i + 1
        if first.rule.exact:
            while (j < len(firing) and firing[j].rule.exact and firing[j].layer == first.layer
                   and firing[j].rule.priority == first.rule.priority):
                j += 1
        yield firing[i:j]
        i = j


def _tree_check(ctx: Context, match: RuleMatch) -> str | None:
    """Level 1's check, the capture tree's alone: None when the captures after the rule's move
    lose no more than it declares; else why it is skipped (issue 40, item 24)."""
    assert match.move is not None
    lost = -exchange(play(ctx.position, match.move), ctx.position.side).score
    if lost <= int(match.rule.sacrifice or 0) * MAN_LOST:
        return None
    return explain.skipped_rule(match, lost * MAN_VALUE / MAN_LOST, False, None)


def _check_rule(ctx: Context, match: RuleMatch) -> str | None:
    """None when the rule's move may be played; else why it is skipped (a short search for
    material it loses undeclared)."""
    assert match.move is not None
    declared = int(match.rule.sacrifice or 0) * MAN_VALUE
    before = material(ctx.position)
    # A quarter of the budget at most: the search after a rejected rule needs the rest.
    # No reductions: the check must see every defence.
    res = make_searcher(material, reductions=False, tt_size=SHORT_TT_SIZE).search(
        play(ctx.position, match.move), max_depth=RULE_CHECK_DEPTH - 1, stop=ctx.stop,
        movetime_ms=max(20, ctx.options.movetime_ms // 4))
    outcome = -res.score
    lost = before - outcome
    # No tolerance beyond the declared sacrifice: a shot whose men do not come back is skipped.
    if lost <= declared:
        return None
    return explain.skipped_rule(match, lost, outcome <= -WIN + explain.MATE_ZONE,
                                RULE_CHECK_DEPTH)


# -- the ancestor's layers: the capture tree and the weighted move ------------------------------


def capture_tree(ctx: Context) -> Choice | None:
    """The capture whose tree of mutual captures scores best; None without a capture."""
    if not ctx.legal[0].captured:
        return None
    scored = score_captures(ctx.position, list(ctx.legal))
    best = max(line.score for _, line in scored)
    tied = sorted(((m, line) for m, line in scored if line.score == best),
                  key=lambda ml: move_text(ml[0]))
    move, line = pick(ctx, tied)
    return Choice(move, LayerName.CAPTURE_TREE, explain.capture_reason(line, len(scored)),
                  explain.capture_short(line), explain.capture_words(line))


def weighted_move(ctx: Context) -> Choice | None:
    """The quiet move the heuristic weighs highest; None when captures are compulsory."""
    if ctx.legal[0].captured:
        return None
    weighed = weigh_moves(ctx.options.heuristic, ctx.options.kb, ctx.position, ctx.legal)
    best = max(w for _, w, _ in weighed)
    tied = sorted((x for x in weighed if x[1] == best), key=lambda x: move_text(x[0]))
    move, w, parts = pick(ctx, tied)
    return Choice(move, LayerName.HEURISTIC, *explain.weighted_reason(w, parts, len(ctx.legal)))


def weigh_moves(heuristic: Heuristic, kb: KnowledgeBase | None, pos: Position,
                legal: Sequence[Move]) -> list[tuple[Move, float, list]]:
    """Each move with its weight and terms; with a knowledge base, the shots its rules give
    the opponent after the move count against it."""
    memo = TreeMemo()

    def shots(after: Position, us: int) -> int:
        """The worst shot the opponent has after our move: a man given to take more back
        (:func:`their_shot`: every such reply, by the capture tree; the knowledge base's
        shot rules are among them), or what one of their motifs claims when worse (a quiet
        threat or a breakthrough takes nothing at once: its claim says)."""
        assert kb is not None
        worst = their_shot(after, us, memo)
        for match in kb.firing(after):
            if match.layer == RuleLayer.MOTIF and match.move is not None:
                worst = min(worst, -claim_worth(match.rule))
        return worst

    return [(m, *heuristic.weigh(pos, m, memo, shots if kb is not None else None))
            for m in legal]


# -- the searching levels ------------------------------------------------------------------------


def only_move(ctx: Context) -> Choice | None:
    """A forced move, played without thinking."""
    if len(ctx.legal) != 1:
        return None
    move = ctx.legal[0]
    return Choice(move, LayerName.ONLY_MOVE, *explain.only_move_reason(move))


def endgame_db(ctx: Context) -> Choice | None:
    """The endgame tables' move with the game's draw counters: the shortest win, the longest
    defence, or among the moves that keep a draw the one the search likes best; None where the
    tables do not reach or are unsure."""
    db = ctx.options.tables
    if db is None:
        return None
    ko, sb = game_counters(ctx.game)
    decision = endgame.decide(ctx.position, ctx.legal, ko, sb, db.probe)
    if decision is None:
        return None
    move, draw = decision.best, decision.verdict.outcome == 0
    res = None
    if draw and len(decision.keeping) > 1:
        res = ctx.options.searcher.search(
            ctx.position, max_depth=ctx.options.depth, movetime_ms=ctx.search_ms(),
            stop=ctx.stop, moves=decision.keeping, history=recurring_positions(ctx.game),
            counters=(ko, sb), nodes=ctx.options.nodes)
        move = res.move if res.move in decision.keeping else move
    said = decision.verdict.words(ctx.position)
    return Choice(move, LayerName.ENDGAME_DB, *explain.endgame_reason(move, said, draw),
                  searched=res)


def search(ctx: Context) -> Choice | None:
    """Alpha-beta to the level's depth within what is left of the time budget.

    The search knows the game: the positions that can recur, the draw rules' counters, and
    contempt for a draw when better; the knowledge base's firing moves are tried first."""
    prefer = list(dict.fromkeys(m.move for m in ctx.firing if m.move is not None))
    db = ctx.options.tables
    tables = leaves.for_root(db, ctx.position) if db is not None and ctx.options.egdb_leaves \
        else None
    res = ctx.options.searcher.search(
        ctx.position, max_depth=ctx.options.depth, movetime_ms=ctx.search_ms(),
        stop=ctx.stop, moves=list(ctx.legal), history=recurring_positions(ctx.game),
        prefer=prefer, counters=game_counters(ctx.game), contempt=ctx.options.contempt,
        tables=tables, nodes=ctx.options.nodes)
    move = res.move if res.move is not None else ctx.legal[0]
    reason, brief, words = explain.search_reason(res, move)
    if (decided := _deciding(ctx, res, move)) is not None:
        other, shares = decided
        reason += f"; over {move_text(other)}: {shares}"
        words += f" ({shares})"
    agreeing = next((m for m in ctx.firing if m.move == move and not m.rule.exact), None)
    if agreeing is not None:  # the knowledge base's idea, confirmed by the search
        rule_layer = LayerName.MOTIF_RULE if agreeing.layer == RuleLayer.MOTIF \
            else LayerName.PATTERN_RULE
        reason += f"; as {explain.rule_reason(rule_layer, agreeing, ctx.position)[0]}"
        words += f", {explain.idea_words(agreeing.rule, move)}"  # named as review names it
    elif gives := explain.exchange_words(ctx.position, move):
        words += f"; {gives}"
    return Choice(move, LayerName.SEARCH, reason, brief, words, res)


#: The depth at most of the look at the next best move (its line's end is what the search's
#: move is compared with): a few milliseconds on the native core; the pure one looks less far.
NEXT_BEST_DEPTH = 6
PURE_NEXT_BEST_DEPTH = 2


def _deciding(ctx: Context, res, move: Move) -> tuple[Move, str] | None:
    """The next best move and the ideas by which the search's line beats its line (``the
    tempo +0.22, men left hanging -0.18``: ``judgement.against_next_best``); None when there
    is no other move or nothing the evaluation names decided (a forced win, the tables)."""
    others = [m for m in ctx.legal if m != move]
    if not others or abs(res.score) >= WIN - MATE_ZONE or not res.line:
        return None
    most = NEXT_BEST_DEPTH if res.native else PURE_NEXT_BEST_DEPTH

    def next_best(moves: list[Move]) -> tuple[Move | None, Sequence[Move]]:
        second = ctx.options.searcher.search(
            ctx.position, max_depth=max(1, min(res.depth, most)), moves=moves, stop=ctx.stop,
            history=recurring_positions(ctx.game), counters=game_counters(ctx.game))
        return second.move, second.line

    return against_next_best(ctx.options.heuristic, ctx.position, res.line, others, next_best)


def recurring_positions(game: Game) -> list[Position]:
    """The game's positions that can still recur: those since the last capture or man move
    (both are irreversible), the current one excluded."""
    out: list[Position] = []
    for i in range(len(game.moves) - 1, -1, -1):
        move, before = game.moves[i], game.positions[i]
        if move.captured or not before.kings >> move.start & 1:
            break
        out.append(before)
    return out
