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
3. a loss of :data:`INACCURACY`, :data:`MISTAKE` or :data:`BLUNDER` men or more is graded, and
   then confirmed by a search of ``nodes * CONFIRM_FACTOR`` positions (a table of its own):
   the deeper search's figures are the verdict, the grade what both searches find at least
   (none where the deeper one finds none);
4. where the endgame tables know both the position before and the position after the move,
   they are the verdict: won to drawn is a mistake, won or drawn to lost a blunder, whatever
   the scores say; a score is then ±:data:`DECIDED` or 0.

>>> grade_for(0.2), grade_for(0.45), grade_for(0.7), grade_for(2.0)
(None, <Grade.INACCURACY: ('?!', 6)>, <Grade.MISTAKE: ('?', 2)>, <Grade.BLUNDER: ('??', 4)>)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from kbdraughts.ai.native_search import make_searcher
from kbdraughts.ai.search import MATE_ZONE
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

__all__ = ["grade_game", "grade_for", "NODES", "CONFIRM_FACTOR", "INACCURACY", "MISTAKE",
           "BLUNDER", "Why"]

#: Positions the search of one position may visit (its last whole depth passing it): on the
#: native core depth 8 to 12 in a master game's middle game, the 1924 games in a minute or two
#: of processor time (docs/benchmarks.md, bench/grades.py: the time, and how the grades agree
#: with a much deeper search); the pure search is some forty times slower a node, so its
#: budget is smaller (``kbdraughts annotate --nodes``'s help says both).
NODES = 30_000 if core is not None else 2_000
#: The confirming search's budget, in multiples of the first one's (two or three plies deeper).
CONFIRM_FACTOR = 4
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
               tables: Database | None = None, why: Why | None = None) -> list[MoveVerdict]:
    """The verdict on every move of ``game`` (or on ``side``'s moves), in order: searched at
    ``nodes`` positions a position, a graded move confirmed at ``nodes * CONFIRM_FACTOR``;
    ``tables`` the endgame tables asked where they reach (default: the user's, built at first
    need, waited for); ``why`` names a graded move's ideas (default: none named). Every
    position of the game is searched whatever ``side`` is, so a move's verdict is the same
    whichever side is asked about."""
    tables = Database(background=False) if tables is None else tables
    judge = _Judge(nodes)
    first = [_searched(judge, ply, game.positions[ply], move, None)
             for ply, move in enumerate(game.moves)]
    out = []
    for verdict in first:
        if side is not None and verdict.side != side:
            continue
        pos = game.positions[verdict.ply]
        known = _tables_verdict(tables, verdict.ply, pos, verdict.move, verdict.best)
        if known is not None:
            out.append(known)
        elif verdict.grade is None:
            out.append(verdict)  # no grade: no ideas to name
        else:
            out.append(_confirmed(verdict, _searched(_Judge(nodes * CONFIRM_FACTOR),
                                                     verdict.ply, pos, verdict.move, why)))
    return out


def _confirmed(first: MoveVerdict, deeper: MoveVerdict) -> MoveVerdict:
    """A graded move searched again deeper (a table of its own): the deeper figures stand,
    and the grade is what both searches find at least (a loss the deeper search does not
    confirm is none; one it finds larger keeps the first's grade: no search is taken at its
    word alone)."""
    if deeper.grade is None or first.grade is None:
        return replace(deeper, grade=None, why=())
    grade = grade_for(min(first.loss, deeper.loss))
    return replace(deeper, grade=grade, why=deeper.why if grade is not None else ())
