"""Analysis (coach/analysis.py and the console's ``analyse``, ui/analysis.py): each finished depth
gives three candidates best first, each score the search's own for its move, lines that are
legal; a stop ends it; the console shows the evaluation, the best line and the candidates,
through a pipe and at a prompt where a key stops it and the keys after it reach the next
prompt."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path

from kbdraughts.coach.analysis import analyse, legal_line
from kbdraughts.eval.heuristic import material
from kbdraughts.board import START, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen, parse_move
from kbdraughts.ui.app import GameApp
from kbdraughts.ui.console import PlainConsole
from kbdraughts.ui.render import UNICODE
from kbdraughts.ui.session import HUMAN, Session
from ui_driver import PacedInput, factory, play_session

MIDDLE = "W:W21,22,23,24,25,26,27,28,30,31:B1,2,3,5,6,7,9,10,11,12"


def is_legal(pos, line) -> bool:
    for move in line:
        if move not in legal_moves(pos):
            return False
        pos = play(pos, move)
    return True


def test_candidates_are_best_first_and_their_lines_legal():
    game = Game(parse_fen(MIDDLE))
    reports = list(analyse(game, threading.Event(), max_depth=5))
    assert [r.depth for r in reports] == [1, 2, 3, 4, 5]
    for report in reports:
        scores = [c.score for c in report.candidates]
        assert len(scores) == 3 and scores == sorted(scores, reverse=True)
        assert len({c.move for c in report.candidates}) == 3
        for c in report.candidates:
            assert c.line[0] == c.move and is_legal(game.position, c.line)
    # the best candidate is the move and score a search of all the moves finds at that depth:
    # the analysis agrees with the AI's search stopping at that depth
    from kbdraughts.eval.heuristic import default_heuristic
    from kbdraughts.ai.native_search import make_searcher

    for report in reports:
        full = make_searcher(default_heuristic().evaluate).search(game.position,
                                                                  max_depth=report.depth)
        assert (full.move, full.score) == (report.best.move, report.best.score)


def test_a_move_scored_above_the_best_without_it_is_reported_as_good_as_the_best(monkeypatch):
    """A pruning search judges a move by its window: searched without the best move, another
    can score above it. It is reported at the best's score, and the best stays first."""
    import kbdraughts.coach.analysis as analysis
    from kbdraughts.ai.search import SearchResult

    first, second, third = legal_moves(START)[:3]
    alone = {second: 25.0, third: -5.0}  # the others' scores when searched without first

    class Pruning:  # of all the moves it plays first at 10; without it, second at 25
        def __init__(self, evaluate):
            pass

        def search(self, pos, max_depth, moves, **options):
            if first in moves:
                best, score = first, 10.0
            else:
                best = max(moves, key=lambda m: alone.get(m, -50.0))
                score = alone.get(best, -50.0)
            return SearchResult(best, score, max_depth, [best], 1)

    monkeypatch.setattr(analysis, "make_searcher", Pruning)
    report = next(analysis.analyse(Game(), threading.Event(), evaluate=material, max_depth=1))
    assert [(c.move, c.score) for c in report.candidates] == [
        (first, 10.0), (second, 10.0), (third, -5.0)]


def test_a_stop_ends_the_analysis_after_the_depth_it_was_in():
    stop = threading.Event()
    seen = []
    for report in analyse(Game(), stop, evaluate=material):
        seen.append(report.depth)
        if report.depth == 3:
            stop.set()
    assert seen == [1, 2, 3]


def test_a_line_is_cut_where_a_move_is_not_legal():
    c3d4, c3b4 = parse_move(START, "c3-d4"), parse_move(START, "c3-b4")
    assert legal_line(START, [c3d4, c3b4], c3d4) == (c3d4,)  # Black's turn after c3-d4
    assert legal_line(START, [c3b4], c3d4) == (c3d4,)  # a line of another move
    b6a5 = parse_move(play(START, c3d4), "b6-a5")
    assert legal_line(START, [c3d4, b6a5], c3d4) == (c3d4, b6a5)


def test_analyse_through_a_pipe_shows_evaluation_line_and_candidates():
    session = Session(factory(), [HUMAN, HUMAN])
    out = io.StringIO()  # each line after the analysis has ended: a waiting line stops it
    console = PlainConsole(PacedInput(["c3-d4", "analyse 4", "analyse 0", "quit"], out), out,
                           UNICODE)
    GameApp(console, session).run()
    shown = "\n".join(console.transcript)
    assert "Analysing to depth 4…" in shown
    assert "Analysis finished at depth 4." in shown
    last = shown.rsplit("Depth 4: ", 1)[1]
    white = re.match(r"([-+]\d\.\d\d|0\.00) men from White's point of view \(Black to move: "
                     r"([-+]\d\.\d\d|0\.00) for Black\)", last)
    assert white and float(white.group(1)) == -float(white.group(2))
    line = re.search(r"Best line: 1\.\.\. (\S+)", last)
    moves = re.search(r"Black's best moves \(scores for Black, in men\): (.*)", last)
    assert line and moves
    pairs = re.findall(r"(\S+) ([-+]\d\.\d\d|0\.00)", moves.group(1))
    assert len(pairs) == 3 and pairs[0][0] == line.group(1)
    assert [float(s) for _, s in pairs] == sorted((float(s) for _, s in pairs), reverse=True)
    legal = [move_text(m) for m in session.game.legal_moves()]
    assert all(m in legal for m, _ in pairs)
    assert "analyse takes a depth in plies from 1 to 60, got '0'." in shown


def test_a_key_stops_the_analysis_and_the_next_keys_reach_the_prompt(tmp_path: Path):
    app, shown = play_session("analyse\rxmoves\rquit\r", tmp_path)
    assert re.search(r"Analysis stopped at depth \d+\.", shown)
    assert "White's best moves (scores for White, in men): " in shown
    assert "Legal moves for White (7): a3-b4" in shown  # 'moves' typed after the key
    assert app.session.game.ply == 0


def test_analyse_the_position_shown(tmp_path: Path):
    # Walked back to the start, the analysis is of the start, not of the game's end.
    _, shown = play_session("c3-d4\rfirst\ranalyse 2\rxquit\r", tmp_path)
    assert "(White to move: " in shown.rsplit("Depth ", 1)[1]
    assert "Best line: 1. " in shown.rsplit("Depth ", 1)[1]
    _, shown = play_session("analyse\rquit\r", tmp_path, fen="W:Wc3:B")
    assert "Nothing to analyse: the game is over here" in shown


def test_the_endgame_tables_verdict_in_words(tmp_path: Path, endgame_tables):
    from kbdraughts.egdb import build
    # Three kings against one where the session's tables reach 4 pieces (the native core's),
    # else a king against a man: the pure path builds 3.
    won = "W:WKa1,Kc1,Ke1:BKd8" if build.native_solves() else "W:WKa1:Bh6"
    _, shown = play_session("analyse 2\rxquit\r", tmp_path, fen=won)
    assert re.search(r"Endgame tables: White wins in \d+ moves", shown)
    _, shown = play_session("analyse 2\rxquit\r", tmp_path, fen="W:WKc1,Ke1:BKa1")
    assert "Endgame tables: drawn with best play" in shown


def test_where_the_tables_reach_the_analysis_says_their_verdict_not_the_searchs_men(
        tmp_path: Path, endgame_tables):
    """Issue 28, item 26: "+499.95 men" (a table's win in the search's numbers) beside "White
    wins in 3 moves"."""
    # Each line typed once the analysis has ended: a key waiting would stop it before depth 4.
    session = Session(factory(), [HUMAN, HUMAN], game=Game(parse_fen("W:Wc3,Ke1:Bh8")))
    out = io.StringIO()
    console = PlainConsole(PacedInput(["analyse 4", "quit"], out), out, UNICODE)
    GameApp(console, session).run()
    shown = "\n".join(console.transcript)
    last = shown.rsplit("Depth 4: ", 1)[1]
    assert re.match(r"Endgame tables: White wins in \d+ moves?, by the board", last)
    assert "men from White's point of view" not in last
    moves = re.search(r"White's best moves \(scores for White, in men\): (.*)", last).group(1)
    assert re.fullmatch(r"(\S+ wins\s*){3}", moves.strip()), moves
