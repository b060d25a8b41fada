"""Every move of a game graded, as an analysis board grades it: the evaluation before and after
the move, the best move and its line, and ``?!``, ``?`` or ``??`` where the move cost enough.

How a verdict is made (:func:`grade_game`):

1. each position before a move is searched by the engine's own search (its evaluation, the
   table one per game) deepening ply by ply until a whole depth has cost ``nodes`` positions
   in all: a budget of *nodes*, never of seconds, so the same file gets the same verdicts on
   a busy machine as on an idle one; the best move, its line and its score are that depth's;
2. the move played is searched at the same depth from the same position (the root restricted
   to it): *after* is its score, *before* the best move's; the *loss* the difference, for the
   side that moved;
3. a loss of :data:`SCREEN` men or more (two thirds of an inaccuracy: a first search some ten
   plies deep misjudges by that much) is looked at again by deeper searches, of ``nodes *
   factor`` positions for each factor of :data:`CONFIRM` (each a table of its own), the
   played move searched beside the best one at *every* depth. Each confirming search's loss
   is read at its last two depths, an odd and an even one, and averaged: a loss that only
   one depth sees (the horizon one ply away, the side to move at the leaves) counts half.
   A grade (:data:`INACCURACY`, :data:`MISTAKE`, :data:`BLUNDER` men) is what every
   confirming search finds at least, and its figures are the search's that found the least;
   none where one finds none (the deeper ones are then not searched). Where the best move
   is found to win by force and the move played is not (yet), the move played is searched
   on alone, deeper, to as many nodes again: a slower win is no blunder;
4. where the endgame tables know both the position before and the position after the move,
   they are the verdict: won to drawn is a mistake, won or drawn to lost a blunder, whatever
   the scores say; a score is then ±:data:`DECIDED` or 0.

>>> grade_for(0.2), grade_for(0.45), grade_for(0.7), grade_for(2.0)
(None, <Grade.INACCURACY: ('?!', 6)>, <Grade.MISTAKE: ('?', 2)>, <Grade.BLUNDER: ('??', 4)>)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from threading import Event
from typing import Callable

from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.search import MATE_ZONE, SearchResult
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.coach.verdict import DECIDED, Grade, MoveVerdict
from kbdraughts.egdb.probe import Database
from kbdraughts.egdb.store import DRAW, LOSS, WIN
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.eval.judgement import line_end
from kbdraughts.game import Game
from kbdraughts.native import core
from kbdraughts.squares import WHITE, Side
from kbdraughts.values import MAN_VALUE

__all__ = ["grade_game", "grade_for", "NODES", "CONFIRM", "SCREEN", "INACCURACY", "MISTAKE",
           "BLUNDER", "Why"]

#: Positions the search of one position may visit (its last whole depth passing it): on the
#: native core depth 8 to 12 in a master game's middle game, the 1924 games in a minute or two
#: of processor time (docs/benchmarks.md, bench/grades.py: the time, and how the grades agree
#: with a much deeper search); the pure search is some forty times slower a node, so its
#: budget is smaller (``kbdraughts annotate --nodes``'s help says both).
NODES = 30_000 if core is not None else 2_000
#: The confirming searches' budgets, in multiples of the first one's: four and six plies deeper
#: (depth 15 to 19 in a master game's middle game). Measured on ussr1924 against the engine's
#: own search at depth 16 and 18 (docs/benchmarks.md, bench/grades.py): a single search two
#: plies deeper left a third of a man's swings from one depth to the next standing.
CONFIRM = (16, 64)
#: A first search's loss that sends a move to the confirming searches, in men.
SCREEN = 0.2
#: The grades' thresholds: the evaluation a move gives away, in men (docs/coach.md says why).
INACCURACY = 0.3
MISTAKE = 0.6
BLUNDER = 1.0
#: Positions of the table of one game's searches (8 MB; set up in some 20 ms).
TABLE = 1 << 18
#: The ideas that make the difference, given the ends of the played line and the best line
#: and the side that moved (``kbdraughts.eval.ideas.why``'s signature).
Why = Callable[[Position, Position, Side], tuple[tuple[str, float], ...]]

_RANK = {WIN: 2, DRAW: 1, LOSS: 0}  # a table's value for the side to move, best first


def grade_for(loss: float) -> Grade | None:
    """The grade of a move that gives away ``loss`` men of evaluation (None: no grade)."""
    if loss >= BLUNDER:
        return Grade.BLUNDER
    if loss >= MISTAKE:
        return Grade.MISTAKE
    if loss >= INACCURACY:
        return Grade.INACCURACY
    return None


def _men(score: float) -> float:
    """A search score (centi-men for the side to move) in men, a decided game ±DECIDED."""
    if abs(score) >= MATE_ZONE:
        return DECIDED if score > 0 else -DECIDED
    return round(max(-DECIDED, min(DECIDED, score / MAN_VALUE)), 2)


class _Judge:
    """One game's searches: a table of their own (so the same game gets the same verdicts
    whatever was searched before it) and a node budget a position."""

    def __init__(self, nodes: int):
        self.nodes = nodes
        self.searcher = make_searcher(default_heuristic().evaluate, tt_size=TABLE)

    def deepen(self, pos: Position) -> tuple[int, float, Move | None, tuple[Move, ...]]:
        """``pos`` searched one ply deeper at a time until the nodes spent pass the budget:
        the depth, the score for the side to move (men), the best move and its line."""
        spent, depth = 0, 0
        while True:
            depth += 1
            found = self.searcher.search(pos, max_depth=depth)
            spent += found.nodes
            if spent >= self.nodes or abs(found.score) >= MATE_ZONE or depth >= 64:
                return depth, _men(found.score), found.move, tuple(found.line)

    def played(self, pos: Position, move: Move, depth: int) -> tuple[float, tuple[Move, ...]]:
        """``move``'s score (men, for the side to move in ``pos``) at ``depth``, and its line."""
        found = self.searcher.search(pos, max_depth=depth, moves=[move])
        return _men(found.score), tuple(found.line)

    def compare(self, pos: Position, move: Move) -> list[_Step]:
        """``pos`` deepened as :meth:`deepen` does, ``move`` searched beside the best move at
        every depth (in the same table); where the best move is found to win by force and
        ``move`` is not, ``move`` searched on alone, deeper, to as many nodes again."""
        spent, depth, steps = 0, 0, []
        while True:
            depth += 1
            found = self.searcher.search(pos, max_depth=depth)
            spent += found.nodes
            steps.append(self._step(pos, move, depth, found))
            if spent >= self.nodes or abs(found.score) >= MATE_ZONE or depth >= 64:
                break
        last, spent = steps[-1], 0
        while last.best >= DECIDED > last.played and spent < self.nodes and depth < 64:
            depth += 1
            alone = self.searcher.search(pos, max_depth=depth, moves=[move])
            spent += alone.nodes
            last = replace(last, depth=depth, played=_men(alone.score),
                           played_line=tuple(alone.line))
        return steps[:-1] + [last]

    def _step(self, pos: Position, move: Move, depth: int, found: SearchResult) -> _Step:
        """One depth's comparison: the best move's search ``found`` and ``move``'s."""
        line = tuple(found.line)
        if found.move == move:  # the move played is the best: its score is the search's
            return _Step(depth, _men(found.score), _men(found.score), move, line, line)
        played, played_line = self.played(pos, move, depth)
        # a move searched alone can score above the whole root's best (the root's other
        # moves shown worse only by a null window): the best is then at least that
        return _Step(depth, max(_men(found.score), played), played, found.move, line,
                     played_line)


@dataclass(frozen=True)
class _Step:
    """One depth of a confirming search: the best move's score and the move played's (men,
    for the side to move), the best move and the two lines."""

    depth: int
    best: float
    played: float
    move: Move | None
    line: tuple[Move, ...]
    played_line: tuple[Move, ...]


def _white(side: Side, men: float) -> float:
    """A score for ``side`` as White sees it."""
    return men if side == WHITE else -men


def _searched(judge: _Judge, ply: int, pos: Position, move: Move,
              why: Why | None) -> MoveVerdict:
    """The verdict on ``move`` in ``pos`` by ``judge``'s searches, graded by its loss."""
    side = pos.side
    depth, best_score, best, line = judge.deepen(pos)
    if best is None or best == move or len(legal_moves(pos)) == 1:
        return MoveVerdict(ply, side, move, _white(side, best_score),
                           _white(side, best_score), None, line, None)
    after, played_line = judge.played(pos, move, depth)
    grade = grade_for(best_score - after)
    ideas = (why(line_end(pos, played_line), line_end(pos, line), side)
             if grade is not None and why is not None else ())
    return MoveVerdict(ply, side, move, _white(side, best_score), _white(side, after), best,
                       line, grade, ideas)


def _tables_verdict(tables: Database, ply: int, pos: Position, move: Move,
                    searched: Move | None) -> MoveVerdict | None:
    """The verdict of the endgame tables where they know the position before the move and
    every position after one (None where they do not): the change of their value."""
    side = pos.side
    children: dict[Move, int] = {}
    for m in legal_moves(pos):
        child = play(pos, m)
        if not legal_moves(child):
            children[m] = WIN
            continue
        answer = tables.probe(child)
        if answer is None:
            return None
        children[m] = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}[answer[0]]  # for the mover
    best_value = max(children.values(), key=_RANK.__getitem__)
    keeping = [m for m, v in children.items() if v == best_value]
    best = searched if searched in keeping else keeping[0]
    drop = _RANK[best_value] - _RANK[children[move]]
    grade = None if drop <= 0 else (Grade.MISTAKE if best_value == WIN and drop == 1
                                    else Grade.BLUNDER)
    men = {WIN: DECIDED, DRAW: 0.0, LOSS: -DECIDED}
    return MoveVerdict(ply, side, move, _white(side, men[best_value]),
                       _white(side, men[children[move]]),
                       None if move in keeping else best,
                       () if move in keeping else (best,), grade)


def grade_game(game: Game, side: Side | None = None, nodes: int = NODES,
               tables: Database | None = None, why: Why | None = None,
               stop: Event | None = None) -> list[MoveVerdict]:
    """The verdict on every move of ``game`` (or on ``side``'s moves), in order: searched at
    ``nodes`` positions a position, a move that loses :data:`SCREEN` men or more confirmed at
    ``nodes`` times each factor of :data:`CONFIRM`; ``tables`` the endgame tables asked where
    they reach (default: the user's, built at first need, waited for); ``why`` names a graded
    move's ideas (default: none named). Every position of the game is searched whatever
    ``side`` is, so a move's verdict is the same whichever side is asked about. Once ``stop``
    is set, no more moves are judged: the verdicts of the moves before, each whole."""
    tables = Database(background=False) if tables is None else tables
    judge = _Judge(nodes)  # its table the game's: the confirming searches have their own
    out = []
    for ply, move in enumerate(game.moves):
        if stop is not None and stop.is_set():
            break
        pos = game.positions[ply]
        verdict = _searched(judge, ply, pos, move, None)
        if side is not None and verdict.side != side:
            continue
        known = _tables_verdict(tables, verdict.ply, pos, verdict.move, verdict.best)
        if known is not None:
            out.append(known)
        elif verdict.best is None or verdict.loss < SCREEN:
            out.append(verdict)  # no grade: no ideas to name
        else:
            out.append(_confirmed(verdict, pos, nodes, why))
    return out


def _confirmed(first: MoveVerdict, pos: Position, nodes: int, why: Why | None) -> MoveVerdict:
    """A move the first search found losing, searched again at each budget of
    :data:`CONFIRM` (a table each): the grade what every one finds at least, the figures
    those of the search that found the least; none where one finds none."""
    least: tuple[MoveVerdict, tuple[Move, ...]] | None = None
    for factor in CONFIRM:
        found = _averaged(first.ply, pos, first.move,
                          _Judge(nodes * factor).compare(pos, first.move))
        if least is None or found[0].loss <= least[0].loss:
            least = found
        if grade_for(found[0].loss) is None:
            break
    assert least is not None
    verdict, played_line = least
    grade = grade_for(verdict.loss)
    if grade is None:
        return verdict
    ideas = (why(line_end(pos, played_line), line_end(pos, verdict.best_line), pos.side)
             if why is not None else ())
    return replace(verdict, grade=grade, why=ideas)


def _averaged(ply: int, pos: Position, move: Move, steps: list[_Step]
              ) -> tuple[MoveVerdict, tuple[Move, ...]]:
    """A confirming search's verdict (ungraded) and the move played's line: the scores the
    mean of its last two depths' (a loss only one depth sees counts half; a win found by
    force is no swing of the horizon: that depth alone), the best move the deepest one that
    is not the move played (None where none is)."""
    kept = steps[-1:] if abs(steps[-1].best) >= DECIDED else steps[-2:]
    before = round(sum(s.best for s in kept) / len(kept), 2)
    after = round(sum(s.played for s in kept) / len(kept), 2)
    named = next((s for s in reversed(kept) if s.move != move), None)
    side = pos.side
    if named is None:
        return MoveVerdict(ply, side, move, _white(side, before), _white(side, before), None,
                           steps[-1].line, None), steps[-1].played_line
    return MoveVerdict(ply, side, move, _white(side, before), _white(side, after), named.move,
                       named.line, None), named.played_line
