"""The endgame tables in the game: a position's value with the draw rules applied on top, the
move that keeps it, and the words a player reads.

The tables (:mod:`kbdraughts.egdb`) give the board's value for the side to move and the plies
to the next capture or crowning (the conversion). The game adds its counters
(:func:`kbdraughts.ai.draw_rules.game_counters`): a board win whose conversion does not come
before a draw rule ends the game is a draw by the rules. The counters only grow until the
conversion (a capture or a crowning resets them), so the test is the rule at the last ply before
it. The 15-move rule counts king moves only: with men on the board a man's move may reset it,
and then the verdict is unsure (None), as it is where no table reaches.

>>> from kbdraughts.notation import parse_fen
>>> pos = parse_fen("B:WKa1,Kc1,Ke1:BKd8")
>>> tables = lambda p: (LOSS, 19)  # what the tables say of it (a stand-in: no file read here)
>>> judge(pos, 0, 0, tables).outcome
-1
>>> v = judge(pos, 0, 26, tables)  # White has made 13 of its 15 moves
>>> v.outcome, v.by_rules
(0, True)
>>> v.words(pos)[:74]
'drawn by the 15-move rule of three kings against a lone king, White having'
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

from kbdraughts.ai.draw_rules import rule_draw
from kbdraughts.board import Move, Position, legal_moves, play
from kbdraughts.egdb import probe as egdb_probe
from kbdraughts.egdb.index import MAX_PIECES, materials
from kbdraughts.egdb.probe import DRAW, LOSS, WIN, Database
from kbdraughts.game import ENDING_PLIES, KING_MOVES_ONLY_PLIES, LONE_KING_MOVES
from kbdraughts.squares import side_name as colour

Prober = Callable[[Position], "tuple[int, int] | None"]


def warm(db: Database | None = None) -> None:
    """The tables ``db`` (None: the user's default) read into memory now (built in the
    background when they are missing), so neither the first probe nor the first search waits
    for the disk. The read (0.3 s for the 4-piece tables) is waited for: in the background it
    held the interpreter in chunks and slowed the first moves' threads by milliseconds each
    (bench/hub_protocol)."""
    db = egdb_probe.default() if db is None else db
    db.read_later(materials(db.auto_pieces))
    db.wait_read()


class Verdict(NamedTuple):
    """A position's value for the side to move, the draw rules applied."""

    outcome: int  # +1 the side to move wins, 0 a draw, -1 it loses
    board: int  # the tables' value: WIN, LOSS or DRAW
    distance: int  # plies to the next capture or crowning on the winning line (the board's)
    by_rules: bool  # a board win (or loss) that a draw rule turns into a draw
    rule: str = ""  # which rule, in words, when by_rules

    def words(self, pos: Position, me: int | None = None) -> str:
        """The verdict as a player says it; ``me``: the side named "it" (the one judging)."""
        def name(side: int) -> str:
            return "it" if side == me else colour(side)
        if self.by_rules:
            winner = name(pos.side if self.board == WIN else 1 - pos.side)
            return (f"drawn by {self.rule}; {winner} wins on the board, but needs "
                    f"{_plies(self.distance)} to the next capture or crowning")
        if self.board == DRAW:
            return "drawn with best play"
        winner_to_move = self.board == WIN
        winner = name(pos.side if winner_to_move else 1 - pos.side)
        if self.distance == 0:
            return f"{winner} wins: {colour(pos.side)} has no move"
        # the winner's own moves; none when the loser's move to come is the conversion
        moves = (self.distance + 1) // 2 if winner_to_move else self.distance // 2
        within = f" in {moves} {'move' if moves == 1 else 'moves'}" if moves else ""
        return (f"{winner} wins{within}, by the board: {_plies(self.distance)} to the next "
                "capture or crowning")


def _plies(n: int) -> str:
    return f"{n} {'ply' if n == 1 else 'plies'}"


def judge(pos: Position, kings_only: int, since_balance: int,
          prober: Prober = egdb_probe.probe, legal: Sequence[Move] | None = None
          ) -> Verdict | None:
    """``pos``'s value for the side to move with the game's counters (as ``game_counters``
    gives them after the last move), or None when no table covers it or the rules' effect is
    unsure. ``legal``: its legal moves, when the caller has them."""
    if (pos.white | pos.black).bit_count() > MAX_PIECES:
        return None  # the middle game: asked at every move, so answered at once
    if not pos.pieces(pos.side) or not (legal_moves(pos) if legal is None else legal):
        return Verdict(-1, LOSS, 0, False)
    if not pos.pieces(1 - pos.side):
        return Verdict(1, WIN, 0, False)
    answer = prober(pos)
    if answer is None:
        return None
    value, d = answer
    outcome = table_outcome(pos, kings_only, since_balance, value, d)
    if outcome is None:
        return None
    if value == DRAW or outcome:
        return Verdict(outcome, value, d, False)
    if rule_draw(pos, kings_only, since_balance):
        return Verdict(0, value, d, True, _rule_name(pos, kings_only, since_balance, pos,
                                                     kings_only, since_balance))
    last, ko, sb = _before_conversion(pos, kings_only, since_balance, d)
    return Verdict(0, value, d, True,
                   _rule_name(last, ko, sb, pos, kings_only, since_balance))


def table_outcome(pos: Position, kings_only: int, since_balance: int, value: int, d: int
                  ) -> int | None:
    """The tables' ``value`` and distance ``d`` for ``pos`` with the draw rules on top: +1 the
    side to move wins, 0 a draw, -1 it loses, None when the rules' effect is unsure (the
    search reads this at its nodes; ``csrc/search.c`` has its twin)."""
    if value == DRAW:
        return 0
    if rule_draw(pos, kings_only, since_balance):
        return 0
    if d == 0:
        return 1 if value == WIN else -1
    last, ko, sb = _before_conversion(pos, kings_only, since_balance, d)
    if not rule_draw(last, ko, sb):
        return 1 if value == WIN else -1
    men = (pos.white | pos.black) & ~pos.kings
    if men and not rule_draw(last, 0, sb):
        return None  # only the 15-move rule bites, and a man's move may reset it
    return 0


def _before_conversion(pos: Position, kings_only: int, since_balance: int, d: int
                       ) -> tuple[Position, int, int]:
    """The last position before the conversion, ``d`` plies on, and its counters: the
    counters only grow until then (a capture or a crowning resets them)."""
    last = Position(pos.white, pos.black, pos.kings, pos.side ^ ((d - 1) & 1))
    return last, kings_only + d - 1, since_balance + d - 1


def _rule_name(last: Position, ko: int, sb: int, now: Position, ko_now: int, sb_now: int
               ) -> str:
    """The rule that draws ``last`` with the counters ``ko`` and ``sb``, in words, with the
    count it stands at in ``now`` (counters ``ko_now``, ``sb_now``)."""
    wm, wk, bm, bk = last.counts()
    strong = 0 if (bm == 0 and bk == 1 and wk >= 3) else 1 if (wm == 0 and wk == 1 and bk >= 3) \
        else None
    if strong is not None and _strong_moves(strong, last.side, sb) >= LONE_KING_MOVES:
        made = _strong_moves(strong, now.side, sb_now)
        return (f"the {LONE_KING_MOVES}-move rule of three kings against a lone king, "
                f"{colour(strong)} having made {made} of its {LONE_KING_MOVES} moves")
    if ko >= KING_MOVES_ONLY_PLIES:
        return (f"the {KING_MOVES_ONLY_PLIES // 2}-move rule of king moves only, "
                f"{ko_now // 2} of {KING_MOVES_ONLY_PLIES // 2} moves made")
    limit = ENDING_PLIES.get(wm + wk + bm + bk, 0)
    return (f"the {limit // 2}-move rule of king endings, {sb_now // 2} of {limit // 2} moves "
            f"without a capture or crowning made")


def _strong_moves(strong: int, side: int, since_balance: int) -> int:
    """The strong side's moves among the last ``since_balance`` plies, ``side`` to move now
    (as draw_rules.rule_draw counts them)."""
    return since_balance // 2 if strong == side else (since_balance + 1) // 2


def after_move(pos: Position, move: Move, kings_only: int, since_balance: int
               ) -> tuple[Position, int, int]:
    """The position after ``move`` and the counters as ``Game.push`` counts them."""
    man_moved = not pos.kings >> move.start & 1
    ko = 0 if man_moved or move.captured else kings_only + 1
    sb = 0 if move.captured or move.crowned else since_balance + 1
    return play(pos, move), ko, sb


class Ranked(NamedTuple):
    """A move and what it leads to, for the side that plays it."""

    move: Move
    outcome: int  # for the mover: +1 win, 0 draw, -1 loss
    key: tuple[int, int]  # smaller is better among moves of the same outcome
    after: Verdict  # the successor's verdict, for its side to move


def rank_moves(pos: Position, legal: list[Move] | tuple[Move, ...], kings_only: int,
               since_balance: int, prober: Prober = egdb_probe.probe, partial: bool = False
               ) -> list[Ranked] | None:
    """Every legal move ranked for the side to move, best first: wins by the fewest plies to
    conversion (a converting move first, then by the next table's distance), draws, losses by
    the longest defence. None when any successor's verdict is unknown (``partial``: those
    moves are left out instead)."""
    ranked = []
    for move in legal:
        after, ko, sb = after_move(pos, move, kings_only, since_balance)
        v = judge(after, ko, sb, prober)
        if v is None:
            if partial:
                continue
            return None
        outcome = -v.outcome
        converts = bool(move.captured) or move.crowned
        if outcome > 0:
            key = (0, 0) if v.distance == 0 else (1, v.distance) if converts \
                else (1 + v.distance, 0)
        elif outcome < 0:
            key = (-v.distance, 0)
        else:
            key = (1 if v.by_rules and v.board == WIN else 0, 0)  # lost on the board: last
        ranked.append(Ranked(move, outcome, key, v))
    ranked.sort(key=lambda r: (-r.outcome, r.key))
    return ranked


class Decision(NamedTuple):
    """What the tables say to play: the position's verdict and the moves that keep it."""

    verdict: Verdict
    best: Move
    keeping: list[Move]  # every move that keeps a draw (the best alone for a win or a loss)


def decide(pos: Position, legal: list[Move] | tuple[Move, ...], kings_only: int,
           since_balance: int, prober: Prober = egdb_probe.probe) -> Decision | None:
    """The move the tables choose in ``pos`` with the game's counters, or None when they do
    not cover it, are unsure, or the position's verdict and its best move's disagree."""
    root = judge(pos, kings_only, since_balance, prober, legal)
    if root is None:
        return _sure_win(pos, legal, kings_only, since_balance, prober)
    if not legal:
        return None
    # A draw is kept by any move the tables are sure keeps it: a move they are unsure of (a
    # board loss the counters may or may not save) is left out, not the whole position.
    ranked = rank_moves(pos, legal, kings_only, since_balance, prober,
                        partial=root.outcome == 0)
    if not ranked or ranked[0].outcome != root.outcome:
        return None
    if root.outcome == 0:
        keeping = [r.move for r in ranked if r.outcome == 0 and r.key == ranked[0].key]
    else:
        keeping = [ranked[0].move]
    return Decision(root, ranked[0].move, keeping)


def _sure_win(pos: Position, legal: list[Move] | tuple[Move, ...], kings_only: int,
              since_balance: int, prober: Prober) -> Decision | None:
    """Where the board's win is unsure only because a man's move may reset the 15-move count:
    a move after which the win is sure; else one that keeps the board's win: a man's move when
    the quickest king move would let the count run out before the conversion (a man's move
    resets it, and men are finite), else the quickest. None where the board gives no win.
    Without this the search decided there, shuffled kings and gave the win away."""
    if (pos.white | pos.black).bit_count() > MAX_PIECES or not legal:
        return None
    board = prober(pos)
    if board is None or board[0] != WIN:
        return None
    ranked = rank_moves(pos, legal, kings_only, since_balance, prober, partial=True)
    if ranked and ranked[0].outcome > 0:
        return Decision(Verdict(1, WIN, board[1], False), ranked[0].move, [ranked[0].move])
    keeping = []  # (plies to conversion after the move, 0 for a converting one; the move)
    for move in legal:
        after = play(pos, move)
        if not after.pieces(after.side) or not legal_moves(after):
            return Decision(Verdict(1, WIN, 1, False), move, [move])
        found = prober(after)
        if found is not None and found[0] == LOSS:
            converts = bool(move.captured) or move.crowned
            keeping.append((0 if converts else 1 + found[1], move))
    if not keeping:
        return None
    quickest, best = min(keeping, key=lambda k: k[0])
    if not pos.kings >> best.start & 1 or kings_only + quickest < KING_MOVES_ONLY_PLIES:
        return Decision(Verdict(1, WIN, board[1], False), best, [best])
    men = [k for k in keeping if not pos.kings >> k[1].start & 1]
    _, move = min(men or keeping, key=lambda k: k[0])
    return Decision(Verdict(1, WIN, board[1], False), move, [move])
