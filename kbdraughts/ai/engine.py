"""The engine: the layers of the knowledge-based AI, its levels, and the reason for each move.

Level 1 is the ancestor's order exactly: the knowledge base's capture rules, exact quiet rules
and pattern quiet rules (the first that fires decides), then the capture tree when a capture
is available, then the weighted simple move. Higher levels keep the knowledge-base layers first
(a pattern rule's move must survive a short search) and replace the last two layers by an
alpha-beta search within the time budget.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from kbdraughts.ai.capture_tree import Line, TreeMemo, exchange, score_captures
from kbdraughts.ai.heuristic import Heuristic, default_heuristic, material
from kbdraughts.ai.search import SearchResult, Searcher
from kbdraughts.ai.values import MAN_VALUE, WIN
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.notation import move_text
from kbdraughts.resources import combos_dir

#: Level 1 is the layers alone; 2 and 3 search at most 4 and 8 plies; 4 searches as deep as
#: the time budget allows.
MAX_LEVEL = 4
#: Every level answers within its budget (the search deepens until the clock says stop), so
#: the default is the strongest.
DEFAULT_LEVEL = MAX_LEVEL
LEVEL_DEPTH = {2: 4, 3: 8, 4: 64}
#: Plies of the check a pattern rule's move must survive at levels 2 and up.
RULE_CHECK_DEPTH = 4
#: Material a rule's move may lose beyond what it declares before it is skipped: half a man,
#: so a sound rule is not rejected for noise (the check counts material only).
RULE_CHECK_SLACK = MAN_VALUE // 2
#: The AI takes a draw when it judges its side no more than this far ahead.
DRAW_MARGIN = MAN_VALUE // 2
#: Time the draw judgement may take at most, in milliseconds.
DRAW_JUDGE_MS = 300

SHORT = 40


class Choice(NamedTuple):
    """A chosen move and why: ``layer`` names where it came from, ``reason`` is one line."""

    move: Move
    #: "capture rule", "exact rule", "pattern rule", "capture tree", "heuristic", "search",
    #: "only move" (and the baselines' "random", "greedy")
    layer: str
    reason: str
    short: str


def _short(text: str) -> str:
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


def _signed(x: float) -> str:
    v = int(round(x))
    return f"+{v}" if v > 0 else str(v)


def _line_text(moves) -> str:
    return " ".join(move_text(m) for m in moves)


def rule_place(rule: Any) -> str:
    """``file:line`` of a rule: ``combos/motifs.txt:12`` for the shipped knowledge base, the
    path as loaded for the user's own files."""
    path = Path(str(rule.path))
    try:
        rel = path.resolve().relative_to(combos_dir().resolve())
    except (ValueError, OSError):
        return f"{path}:{rule.line}"
    return f"combos/{rel.as_posix()}:{rule.line}"


def load_default_kb() -> Any | None:
    """The shipped knowledge base plus the user's rules (None in a build without
    ``kbdraughts.kb``). Raises RuleFileError for a fault in a rule file."""
    try:
        from kbdraughts.kb import load_knowledge_base
    except ModuleNotFoundError as e:
        if e.name != "kbdraughts.kb":
            raise
        return None
    return load_knowledge_base()


class Engine:
    """The AI: ``choose(game)`` returns a Choice (None when there is no legal move)."""

    def __init__(self, level: int = DEFAULT_LEVEL, movetime_ms: int = 1000, seed: int | None = None,
                 kb: Any | None = None, use_kb: bool = True, heuristic: Heuristic | None = None):
        if not 1 <= level <= MAX_LEVEL:
            raise ValueError(f"level must be 1..{MAX_LEVEL}, got {level}")
        self.level = level
        self.movetime_ms = movetime_ms
        self.seed = seed
        self.rng = random.Random(seed) if seed is not None else None
        self.use_kb = use_kb
        self._kb = kb
        self._kb_loaded = kb is not None
        self.heuristic = heuristic or default_heuristic()
        self._searcher: Searcher | None = None
        self._started = time.perf_counter()

    @property
    def kb(self) -> Any | None:
        """The knowledge base (loaded on first use), or None without one."""
        if not self.use_kb or self._kb is False:
            return None
        if not self._kb_loaded:
            self._kb = load_default_kb()
            self._kb_loaded = True
        return self._kb

    @property
    def searcher(self) -> Searcher:
        if self._searcher is None:
            self._searcher = Searcher(self.heuristic.evaluate)
        return self._searcher

    # -- the layers ---------------------------------------------------------------------

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        """The move to play in ``game`` now and its reason; never changes ``game``."""
        pos = game.position
        legal = legal_moves(pos)
        if not legal:
            return None
        self._started = time.perf_counter()
        skipped: list[str] = []
        choice = self._from_rules(pos, legal, stop, skipped)
        if choice is not None:
            return choice
        if self.level == 1:
            if legal[0].captured:
                choice = self._capture_tree(pos, legal)
            else:
                choice = self._weighted(pos, legal)
        elif len(legal) == 1:
            m = legal[0]
            choice = Choice(m, "only move", f"only move {move_text(m)}", "only move")
        else:
            choice = self._search(game, legal, stop)
        if skipped:  # say why the rules that matched were not played
            choice = choice._replace(reason=choice.reason + "; " + "; ".join(skipped))
        return choice

    def _pick(self, tied: list) -> Any:
        """The first of equals, or a seeded random one."""
        return self.rng.choice(tied) if self.rng is not None and len(tied) > 1 else tied[0]

    def _from_rules(self, pos: Position, legal: list[Move], stop, skipped: list[str]
                    ) -> Choice | None:
        """The first layer of rules that fires (capture, exact, pattern), or None; the rules
        a level 2+ check rejects are told in ``skipped``."""
        kb = self.kb
        if kb is None:
            return None
        firing = [m for m in kb.firing(pos) if m.move is not None and m.move in legal]
        i = 0
        while i < len(firing):
            # Exact rules of one position and priority are alternatives (an opening's several
            # continuations): the seed picks among them. Patterns keep the knowledge base's
            # order (priority, then the more constrained first).
            first = firing[i]
            j = i + 1
            if first.rule.exact:
                while (j < len(firing) and firing[j].rule.exact and firing[j].layer == first.layer
                       and firing[j].rule.priority == first.rule.priority):
                    j += 1
            tied = firing[i:j]
            i = j
            ok = []
            for match in tied:
                verdict = self._check_rule(pos, match, stop)
                if verdict is None:
                    ok.append(match)
                else:
                    skipped.append(verdict)
            if ok:
                match = self._pick(ok)
                return self._rule_choice(match, skipped)
        return None

    def _check_rule(self, pos: Position, match: Any, stop) -> str | None:
        """None when the rule's move may be played; else why it is skipped (levels 2+ check
        a pattern rule's move by a short search for material it loses undeclared)."""
        rule = match.rule
        if self.level == 1 or rule.exact:
            return None
        declared = int(getattr(rule, "sacrifice", 0) or 0) * MAN_VALUE
        before = material(pos)
        check = Searcher(material)
        after = play(pos, match.move)
        # A quarter of the budget at most: the search after a rejected rule needs the rest.
        res = check.search(after, max_depth=RULE_CHECK_DEPTH - 1, stop=stop,
                           movetime_ms=max(20, self.movetime_ms // 4))
        outcome = -res.score
        lost = before - outcome
        if lost > declared + RULE_CHECK_SLACK:
            if outcome <= -WIN + 1000:
                what = "loses the game"
            else:
                men = lost / MAN_VALUE
                what = f"loses {men:g} {'man' if men == 1 else 'men'} in {RULE_CHECK_DEPTH} plies"
            return (f"skipped rule {rule.id} ({rule_place(rule)}): {move_text(match.move)} {what}"
                    + (f", declares {declared // MAN_VALUE}" if declared else ""))
        return None

    def _rule_choice(self, match: Any, skipped: list[str]) -> Choice:
        rule = match.rule
        layer = {"capture": "capture rule", "exact": "exact rule"}.get(match.layer, "pattern rule")
        mirrored = ", mirrored" if getattr(match, "mirrored", False) else ""
        sac = f", sacrifices {rule.sacrifice}" if getattr(rule, "sacrifice", 0) else ""
        name = f" \"{rule.name}\"" if getattr(rule, "name", "") else ""
        reason = f"{layer} {rule.id}{name} at {rule_place(rule)}{mirrored}{sac}"
        if skipped:
            reason += "; " + "; ".join(skipped)
        return Choice(match.move, layer, reason, _short(f"rule {rule.id}"))

    def _capture_tree(self, pos: Position, legal: list[Move]) -> Choice:
        scored = score_captures(pos, legal)
        best = max(line.score for _, line in scored)
        tied = [(m, line) for m, line in scored if line.score == best]
        tied.sort(key=lambda ml: move_text(ml[0]))
        move, line = self._pick(tied)
        return Choice(move, "capture tree", capture_reason(line, len(scored)),
                      _short(f"capture tree {_signed(line.score)}"))

    def weigh_all(self, pos: Position, legal: list[Move]) -> list[tuple[Move, float, list]]:
        memo = TreeMemo()
        kb = self.kb

        def shots(after: Position, us: int) -> int:
            """The knowledge base turned round: the worst shot its rules give the opponent
            after our move, valued by the capture tree that follows it."""
            worst = 0
            for match in kb.firing(after):
                if match.layer == "exact" or match.move is None:
                    continue  # opening lines are no threat
                worst = min(worst, exchange(play(after, match.move), us, memo).score)
            return worst

        return [(m, *self.heuristic.weigh(pos, m, memo, shots if kb is not None else None))
                for m in legal]

    def _weighted(self, pos: Position, legal: list[Move]) -> Choice:
        weighed = self.weigh_all(pos, legal)
        best = max(w for _, w, _ in weighed)
        tied = sorted((x for x in weighed if x[1] == best), key=lambda x: move_text(x[0]))
        move, w, parts = self._pick(tied)
        terms = ", ".join(f"{n} {_signed(v)}" for n, v in parts) or "no term applies"
        reason = f"weighted move {_signed(w)}: {terms} (best of {len(legal)} moves)"
        return Choice(move, "heuristic", reason, _short(f"weighted move {_signed(w)}"))

    def _time_left(self) -> float:
        """What is left of this move's budget (the rule checks may have used some)."""
        spent = (time.perf_counter() - self._started) * 1000
        margin = min(20.0, self.movetime_ms * 0.02)  # answering takes a moment too
        return max(10.0, self.movetime_ms - spent - margin)

    def _search(self, game: Game, legal: list[Move], stop) -> Choice:
        pos = game.position
        res: SearchResult = self.searcher.search(
            pos, max_depth=LEVEL_DEPTH[self.level], movetime_ms=self._time_left(), stop=stop,
            moves=legal, history=recurring_positions(game))
        move = res.move if res.move is not None else legal[0]
        score = _score_text(res.score)
        depth = f"depth {res.depth}" + ("" if res.complete else "+")
        reason = (f"search {depth}: {score}, line {_line_text(res.line) or move_text(move)} "
                  f"({res.nodes} nodes, {res.seconds:.2f} s)")
        return Choice(move, "search", reason, _short(f"search {depth} {score}"))

    # -- draws --------------------------------------------------------------------------

    def accepts_draw(self, game: Game, side: int) -> bool:
        """True when the AI, playing ``side``, judges the position drawn or worse for itself:
        material and position after the pending captures no more than DRAW_MARGIN ahead."""
        pos = game.position
        if game.result is not None:
            return True
        score = self.evaluate_for(pos, side)
        return score <= DRAW_MARGIN

    def evaluate_for(self, pos: Position, side: int) -> float:
        """A short material-and-position judgement of ``pos`` for ``side``."""
        # Two plies and the captures after them; capped in time, as king-heavy captures can
        # branch for long.
        res = Searcher(self.heuristic.evaluate).search(pos, max_depth=2, movetime_ms=DRAW_JUDGE_MS)
        if res.move is None:  # the side to move has lost
            score = -WIN
        else:
            score = res.score
        return score if pos.side == side else -score


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


def capture_reason(line: Line, n: int) -> str:
    return (f"capture tree {_signed(line.score)}: {_line_text(line.moves)} "
            f"(best of {n} capture{'s' if n != 1 else ''}; +105 a man taken, -100 a man lost)")


def _score_text(score: float) -> str:
    if score >= WIN - 1000:
        n = int(WIN - score)
        return f"wins in {n} pl{'y' if n == 1 else 'ies'}"
    if score <= -WIN + 1000:
        n = int(WIN + score)
        return f"loses in {n} pl{'y' if n == 1 else 'ies'}"
    return f"score {_signed(score)}"
