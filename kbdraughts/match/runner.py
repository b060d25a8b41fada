"""Matches between players: alternating colours, seeded openings, games over processes.

Game ``i`` (0-based) belongs to pair ``i // 2``: both games of a pair start with the same few
random plies (drawn from the match seed and the pair number) and the players swap colours, so
a lucky opening helps neither. Random plies often lose a man by force, and such an opening
decides both games of its pair whoever plays (1-1 between any two engines that convert a man):
``balanced`` openings are drawn again until a fixed-depth search scores them within half a man
(:func:`balanced`), as engine testers use balanced opening books. A match may start its pairs from a
file of positions instead (``starts``, read by :func:`read_starts`: one ``FEN`` or ``FEN moves ...``
a line), each played twice with colours swapped, as engine testers check endings and opening suites.
A game ends by the rules (``Game.result``: a side without a move loses; the FMJD draw rules) or, at
``MAX_PLIES``, is adjudicated a draw. A player that returns an illegal move (or none while it has
one) loses that game; such games are counted, and so is an external engine (``cmd:PROGRAM ARGS``)
that answers no legal move, too late, or ends. Each player's time to choose is kept, game by game.
"""

from __future__ import annotations

import multiprocessing
import queue
import random
import signal
import time
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from typing import Iterable, Iterator

from kbdraughts.errors import KbdraughtsError
from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.ai.native_search import SHORT_TT_SIZE, make_searcher
from kbdraughts.match.players import CommandOptions, Player, PlayerFault, make_player
from kbdraughts.match.line_protocol import read_game_line
from kbdraughts.ai.rulebook import KnowledgeBase, load_default_kb
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import START, Move, Position, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.notation import FenError, MoveError, fen
from kbdraughts.values import MAN_VALUE

#: Random plies that open each pair of games.
OPENING_PLIES = 4
#: A balanced opening: the score a search of this many plies (captures resolved after them)
#: gives it lies within this margin, for either side. Fixed depth, not time: the same openings
#: on any machine, with either core (their trees are equal node for node).
BALANCE_DEPTH = 12
BALANCE_MARGIN = MAN_VALUE // 2
#: Openings drawn at most for one balanced pair; then the most even of them is played.
BALANCE_TRIES = 100
#: A game still going after this many plies is a draw.
MAX_PLIES = 300


@dataclass
class GameRecord:
    """One finished game of a match."""

    index: int
    white: str  # the player spec, as the match was given it
    black: str
    moves: list[Move]
    result: str  # "1-0", "0-1", "1/2-1/2"
    reason: str
    a_is_white: bool
    illegal: str = ""  # what went wrong when a player broke the rules
    seconds: tuple[float, float] = (0.0, 0.0)  # the time White and Black took to choose
    turns: tuple[int, int] = (0, 0)  # the moves each was asked for
    start: str = ""  # the FEN the game started from, when not the initial position

    @property
    def a_side(self) -> int:
        """The side A played (0 White, 1 Black)."""
        return 0 if self.a_is_white else 1

    @property
    def a_points(self) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.a_is_white else 0.0


@dataclass
class Tally:
    """Wins, draws and losses of player A."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    illegal: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # A's and B's
    turns: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, g: GameRecord) -> None:
        for player, side in enumerate((g.a_side, 1 - g.a_side)):
            self.seconds[player] += g.seconds[side]
            self.turns[player] += g.turns[side]
        p = g.a_points
        if p == 1:
            self.wins += 1
        elif p == 0:
            self.losses += 1
        else:
            self.draws += 1
        if g.illegal:
            self.illegal.append(f"game {g.index + 1}: {g.illegal}")

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's score in percent."""
        return 100.0 * (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def line(self, a: str, b: str) -> str:
        return f"{a} vs {b}: +{self.wins} ={self.draws} -{self.losses}, score {self.score:.1f}%"

    def time_line(self, a: str, b: str) -> str:
        """The time each player took: ``time: A 1.2 s (12 ms a move), B ...``.

        >>> Tally(seconds=[1.25, 0.5], turns=[100, 0]).time_line("kb:1", "random")
        'time: kb:1 1.2 s (12 ms a move), random 0.5 s (no move)'
        """
        parts = []
        for name, secs, turns in zip((a, b), self.seconds, self.turns):
            each = f"{1000 * secs / turns:.0f} ms a move" if turns else "no move"
            parts.append(f"{name} {secs:.1f} s ({each})")
        return "time: " + ", ".join(parts)


def opening(seed: int | None, pair: int, plies: int = OPENING_PLIES,
            balanced: bool = False) -> list[Move]:
    """The random plies that open pair ``pair`` of a match with ``seed``; with ``balanced``,
    the first of the openings drawn in turn that :func:`balanced` accepts (the first draw is
    the unbalanced opening of the same pair)."""
    rng = random.Random(f"{seed}:{pair}")
    if not balanced:
        return _random_plies(rng, plies)[0]
    judge = _judge()
    best: tuple[float, list[Move]] | None = None
    for _ in range(BALANCE_TRIES):
        moves, pos = _random_plies(rng, plies)
        off = _imbalance(judge, pos)
        if off <= BALANCE_MARGIN:
            return moves
        if best is None or off < best[0]:
            best = (off, moves)
    assert best is not None
    return best[1]


def balanced(pos: Position) -> bool:
    """Whether ``pos`` is even enough to open a pair: a search of ``BALANCE_DEPTH`` plies
    scores it within ``BALANCE_MARGIN`` for either side.

    >>> from kbdraughts.board import START
    >>> balanced(START)
    True
    """
    return _imbalance(_judge(), pos) <= BALANCE_MARGIN


def _judge():
    return make_searcher(default_heuristic().evaluate, tt_size=SHORT_TT_SIZE)


def _imbalance(judge, pos: Position) -> float:
    """How far from even ``pos`` is, for either side, by the fixed-depth search."""
    return abs(judge.search(pos, max_depth=BALANCE_DEPTH).score)


def _random_plies(rng: random.Random, plies: int) -> tuple[list[Move], Position]:
    """Up to ``plies`` random moves from the start, and the position they reach."""
    pos = START
    moves: list[Move] = []
    for _ in range(plies):
        legal = legal_moves(pos)
        if not legal:
            break
        m = rng.choice(sorted(legal))
        moves.append(m)
        pos = play(pos, m)
    return moves, pos


class StartFileError(KbdraughtsError, ValueError):
    """A file of start positions with faults: every one, ``path:line: error: ...`` a line."""


#: The most start positions a file may hold (each is two games).
MAX_STARTS = 100_000


def read_starts(text: str, name: str) -> list[str]:
    r"""The start positions of a file (its ``text``; ``name`` for errors), each as the game line
    that gives it: one ``FEN`` or ``FEN moves M1 M2 ...`` a line, ``#`` to the end of a line a
    comment, blank lines skipped. StartFileError naming every bad line (``name:N: error:``):
    a FEN or move that cannot be read, a game already over, or no position at all.

    >>> read_starts("# endings\nW:WKa1:BKh8,g7  # 1 v 2\n\nB:Wc3:Bf6 moves f6-g5\n", "e.txt")
    ['W:WKa1:BKh8,g7', 'B:Wc3:Bf6 moves f6-g5']
    >>> try: read_starts("W:Wc3:Bf6\nW:Wc3:Bf6,z9\nW:Wc3:B\nW:Wc3:Bf6 moves c3-d5\n", "e.txt")
    ... except StartFileError as e: print(e)
    e.txt:2: error: bad FEN: 'z9' is not a square (a1..h8 or 1..32, K for a king)
    e.txt:3: error: the game is over in 'W:Wc3:B': White wins (no pieces left)
    e.txt:4: error: move 1 'c3-d5': d5 is a light square: pieces stand on the dark squares only
    """
    starts: list[str] = []
    errors: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        shown = body if len(body) <= 60 else body[:59] + "…"
        try:
            game = read_game_line(body)
        except FenError as e:
            errors.append(f"{name}:{number}: error: bad FEN: {e}")
            continue
        except MoveError as e:
            errors.append(f"{name}:{number}: error: {e}")
            continue
        if game.result is not None:
            errors.append(f"{name}:{number}: error: the game is over in {shown!r}: "
                          f"{game.result}")
        elif len(starts) >= MAX_STARTS:
            errors.append(f"{name}:{number}: error: more than {MAX_STARTS} positions")
            break
        else:
            starts.append(body)
    if not starts and not errors:
        errors.append(f"{name}: error: no position in the file (one FEN a line; # comments)")
    if errors:
        raise StartFileError("\n".join(errors))
    return starts


def play_game(white: Player, black: Player, start_moves: Iterable[Move] = (),
              max_plies: int = MAX_PLIES, start: Game | None = None) -> tuple[Game, str, str]:
    """Play one game between two players, from ``start`` (a game line's game; default the
    initial position) and ``start_moves``; (game, reason, illegal note). ``max_plies`` counts
    the plies played here."""
    game = start if start is not None else Game()
    max_plies += game.ply
    for m in start_moves:
        game.push(m)
    players = (white, black)
    while game.result is None and game.ply < max_plies:
        side = game.side
        player = players[side]
        try:
            choice = player.choose(game)
        except PlayerFault as e:
            game.resign(side)
            return game, "illegal move", f"{player.name}: {e}, in {fen(game.position)}"
        legal = game.legal_moves()
        if choice is None or choice.move not in legal:
            what = "no move" if choice is None else repr(choice.move)
            game.resign(side)
            return game, "illegal move", f"{player.name} played {what} in {fen(game.position)}"
        game.push(choice.move)
    if game.result is None:
        return game, f"move cap ({max_plies} plies)", ""
    return game, str(game.result.reason.value), ""


# -- running games, in this process or a pool ------------------------------------------------

_kb_cache: dict[str, KnowledgeBase | None] = {}


def _shared_kb() -> KnowledgeBase | None:
    """The knowledge base, loaded once per process (each game gets fresh players)."""
    if "kb" not in _kb_cache:
        _kb_cache["kb"] = load_default_kb()
    return _kb_cache["kb"]


def _spec(player: PlayerSpec | str) -> PlayerSpec:
    return player if isinstance(player, PlayerSpec) else PlayerSpec.parse(player, external=True)


class _Timed:
    """A player whose choices are timed and counted."""

    def __init__(self, player: Player):
        self.player = player
        self.name = player.name
        self.seconds = 0.0
        self.turns = 0

    def choose(self, game: Game, stop: object = None):
        started = time.perf_counter()
        try:
            return self.player.choose(game)
        finally:
            self.seconds += time.perf_counter() - started
            self.turns += 1

    def close(self) -> None:
        close = getattr(self.player, "close", None)
        if close is not None:
            close()  # an external engine's program ends with its game


def run_game(job: tuple) -> GameRecord:
    """Game ``index`` of a match ``a`` vs ``b`` (player specs, as PlayerSpec or text): the job
    is ``(a, b, index, seed, max_plies[, opening_plies[, command[, start[, balanced]]]])``, a
    tuple so a process pool can send it (``command``: CommandOptions for external engines;
    ``start``: a game line to play from; ``balanced``: balanced random openings)."""
    a, b, index, seed, max_plies = job[:5]
    opening_plies = job[5] if len(job) > 5 else OPENING_PLIES
    command = job[6] if len(job) > 6 else None
    start = read_game_line(job[7]) if len(job) > 7 and job[7] else None  # --fens
    even = bool(job[8]) if len(job) > 8 else False
    a_white = index % 2 == 0
    white_spec, black_spec = (a, b) if a_white else (b, a)
    game_seed = None if seed is None else seed * 100_003 + index
    kb = _shared_kb() if _spec(a).uses_kb or _spec(b).uses_kb else None
    white = _Timed(make_player(_spec(white_spec), game_seed, kb=kb, command=command))
    black = _Timed(make_player(_spec(black_spec), None if game_seed is None else game_seed + 1,
                               kb=kb, command=command))
    try:
        for warm in (getattr(timed.player, "warm", None) for timed in (white, black)):
            if warm is not None:  # set up before the clocks run, as bestmove is
                warm()
        moves = opening(seed, index // 2, opening_plies, even) if start is None else ()
        game, reason, illegal = play_game(white, black, moves, max_plies, start)
    finally:
        white.close()
        black.close()
    result = game.result.pdn if game.result is not None else "1/2-1/2"
    return GameRecord(index, str(white_spec), str(black_spec), list(game.moves), result, reason,
                      a_white, illegal, (white.seconds, black.seconds), (white.turns, black.turns),
                      fen(game.start) if start is not None else "")


def run_match(a: PlayerSpec | str, b: PlayerSpec | str, games: int, seed: int | None = None,
              jobs: int = 1, max_plies: int = MAX_PLIES, opening_plies: int = OPENING_PLIES,
              command: CommandOptions | None = None, starts: list[str] | None = None,
              balanced: bool = False) -> Iterator[GameRecord]:
    """The games of a match as they finish (in any order with several jobs).

    Jobs are made as games start, so memory does not grow with ``games``. ``command``: how
    external engines (``cmd:`` players) are driven. ``starts``: game lines (``read_starts``)
    to play from instead of random openings, two games each, colours swapped (``games`` is
    then twice their number). ``balanced``: random openings that a fixed-depth search scores
    within half a man (:func:`opening`).
    """
    if starts is not None:
        games = 2 * len(starts)
    work = ((a, b, i, seed, max_plies, opening_plies, command,
             starts[i // 2] if starts is not None else "", balanced) for i in range(games))
    if jobs <= 1 or games <= 1:
        for job in work:
            yield run_game(job)
        return
    jobs = min(jobs, games)
    ctx = multiprocessing.get_context("spawn")  # no threads or pyDatalog state carried over
    with ctx.Pool(processes=jobs, initializer=_ignore_interrupts) as pool:
        yield from _pooled(pool, work, 2 * jobs)


def _pooled(pool: Pool, work: Iterator[tuple], window: int) -> Iterator[GameRecord]:
    """``run_game`` of each job in ``pool``, as they finish, at most ``window`` at a time.

    ``Pool.imap_unordered`` would read the whole of ``work`` into its task queue at once.
    """
    finished: queue.SimpleQueue = queue.SimpleQueue()
    running = 0

    def start() -> bool:
        job = next(work, None)
        if job is not None:
            pool.apply_async(run_game, (job,), callback=finished.put, error_callback=finished.put)
        return job is not None

    while running < window and start():
        running += 1
    while running:
        record = finished.get()
        running -= 1
        if isinstance(record, BaseException):
            raise record
        yield record
        running += start()


def _ignore_interrupts() -> None:
    """Ctrl-C is the parent's to handle (it stops the pool); workers stay quiet."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def replay(record: GameRecord) -> Game:
    """The Game of a record (its moves replayed from its start), for writing PDN."""
    game = read_game_line(record.start) if record.start else Game()
    for m in record.moves:
        game.push(m)
    return game
