"""The endgame tables in play (ai/endgame.py, the endgame_db layer, the draw judgement): wins
played out within the draw rules, draws kept, and a board win past the counter called drawn."""

from __future__ import annotations

import random

import pytest

from kbdraughts.ai.draw_rules import game_counters
from kbdraughts.ai.endgame import decide, judge
from kbdraughts.ai.engine import Engine
from kbdraughts.ai.layers import LayerName
from kbdraughts.board import BLACK, WHITE, legal_moves, play
from kbdraughts.egdb import build, store
from kbdraughts.egdb.build import native_solves
from kbdraughts.egdb.index import Material, materials
from kbdraughts.egdb.probe import DRAW, LOSS, WIN
from kbdraughts.game import Game
from kbdraughts.notation import parse_fen

#: The engine builds missing tables in the background (a timed move never waits for them):
#: these tests play with the tables there, as after a first build.
pytestmark = pytest.mark.usefixtures("endgame_tables")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(level=2, movetime_ms=50, seed=1)


def best_defence(game: Game):
    d = decide(game.position, game.legal_moves(), *game_counters(game))
    assert d is not None
    return d.best


def play_out(engine: Engine, game: Game, side: int, other, plies: int = 200) -> Game:
    """``engine`` plays ``side``, ``other(game)`` the other side, until the game ends."""
    while game.result is None and plies:
        if game.side == side:
            choice = engine.choose(game)
            assert choice is not None and choice.layer == LayerName.ENDGAME_DB, choice
            game.push(choice.move)
        else:
            game.push(other(game))
        plies -= 1
    return game


def test_a_won_three_piece_ending_is_won_against_every_defence(engine: Engine) -> None:
    """Two kings against one (7 plies by the board): every line of defence, the layer wins
    inside the rules."""
    lines = 0

    def walk(game: Game) -> None:
        nonlocal lines
        if game.result is not None:
            assert game.result.winner == WHITE, (game.moves, game.result)
            lines += 1
            return
        if game.side == WHITE:
            game.push(engine.choose(game).move)
            walk(game)
            game.pop()
            return
        for move in list(game.legal_moves()):
            game.push(move)
            walk(game)
            game.pop()

    walk(Game(parse_fen("W:WKe1,Kg1:BKa7")))
    assert lines > 1


def test_a_king_against_two_men_is_won_against_the_best_defence(engine: Engine) -> None:
    game = play_out(engine, Game(parse_fen("W:WKa1:Be7,b8")), WHITE, best_defence)
    assert game.result is not None and game.result.winner == WHITE


@pytest.mark.parametrize("fen_text", ["W:WKa1,Kc1,Ke1:BKd8", "W:WKa1,Kc1,Ke1:BKf8",
                                      "W:WKa1,Kc1,Ke1:BKh4", "W:WKa1,Kg1,Ke1:BKd8"])
def test_three_kings_with_the_main_road_win_within_the_15_move_rule(engine: Engine,
                                                                    fen_text: str) -> None:
    """The issue's games: it shuffled c1-b2-a3 and drew by repetition; now a win, the lone
    king defending as long as the tables allow, inside the 15 moves the rule gives."""
    if not native_solves():
        pytest.skip("4-piece tables need the native core")
    game = play_out(engine, Game(parse_fen(fen_text)), WHITE, best_defence)
    assert game.result is not None and game.result.winner == WHITE
    white_moves = (game.ply + 1) // 2
    assert white_moves <= 15


@pytest.mark.parametrize("seed", range(3))
def test_the_lone_king_on_the_main_road_never_loses(engine: Engine, seed: int) -> None:
    rng = random.Random(seed)
    game = play_out(engine, Game(parse_fen("W:WKc1,Ke1:BKa1")), BLACK,
                    lambda g: rng.choice(g.legal_moves()))
    assert game.result is not None and game.result.winner != WHITE


@pytest.mark.parametrize("seed", range(2))
def test_the_lone_king_on_the_main_road_holds_against_three_kings(engine: Engine,
                                                                  seed: int) -> None:
    if not native_solves():
        pytest.skip("4-piece tables need the native core")
    rng = random.Random(seed)
    game = play_out(engine, Game(parse_fen("W:WKc1,Ke1,Kg1:BKa1")), BLACK,
                    lambda g: rng.choice(g.legal_moves()))
    assert game.result is not None and game.result.winner != WHITE


def test_two_kings_against_the_main_road_stay_drawn_and_the_draw_is_offered(
        engine: Engine) -> None:
    game = Game(parse_fen("W:WKc1,Ke1:BKa1"))
    for side in (WHITE, BLACK):
        assert engine.offers_draw(game, side)[0]
        accepted, why = engine.draw_verdict(game, side)
        assert accepted and "drawn with best play" in why
    game = play_out(engine, game, WHITE, best_defence)
    assert game.result is not None and game.result.winner is None


def test_a_won_ending_is_neither_offered_nor_taken_by_the_winner(engine: Engine) -> None:
    game = Game(parse_fen("W:WKe1,Kg1:BKa7"))
    accepted, why = engine.draw_verdict(game, WHITE)
    assert not accepted and "it wins in 4 moves" in why
    assert not engine.offers_draw(game, WHITE)[0]
    assert engine.draw_verdict(game, BLACK)[0]  # lost for Black: it takes the draw


def test_a_board_win_past_the_counter_is_drawn_by_the_rules() -> None:
    if not native_solves():
        pytest.skip("4-piece tables need the native core")
    pos = parse_fen("B:WKa1,Kc1,Ke1:BKd8")
    fresh = judge(pos, 0, 0)
    assert fresh is not None and fresh.outcome == -1 and fresh.board != WIN
    late = judge(pos, 0, 26)  # White has made 13 of its 15 moves
    assert late is not None and late.outcome == 0 and late.by_rules
    assert "drawn by the 15-move rule" in late.words(pos)


def sampled(value: int, count: int, seed: int) -> list[str]:
    """FENs of 3-piece positions with ``value`` for the side to move by the board, kings on
    both sides, drawn at random from the tables (the default ones, built at first need)."""
    from kbdraughts.egdb.index import materials, size, unrank
    from kbdraughts.egdb.probe import probe
    from kbdraughts.notation import fen

    rng = random.Random(seed)
    kinds = [m for m in materials(3) if m.pieces == 3]
    out: list[str] = []
    while len(out) < count:
        m = rng.choice(kinds)
        pos = unrank(m, rng.randrange(size(m)))
        if not pos.kings & pos.white or not pos.kings & pos.black:
            continue
        found = probe(pos)
        if found is not None and found[0] == value and judge(pos, 0, 0) is not None:
            out.append(fen(pos))
    return out


def test_sampled_wins_are_won_against_the_best_defence(engine: Engine) -> None:
    # Sampled in the test, not at collection: the tables are built in the test's data folder.
    for fen_text in sampled(WIN, 25, 1):
        game = Game(parse_fen(fen_text))
        side = game.side
        play_out(engine, game, side, best_defence)
        assert game.result is not None and game.result.winner == side, (fen_text, game.moves)


def test_sampled_draws_are_never_lost(engine: Engine) -> None:
    for fen_text in sampled(DRAW, 25, 2):
        game = Game(parse_fen(fen_text))
        side = game.side
        rng = random.Random(fen_text)
        play_out(engine, game, side, lambda g: rng.choice(g.legal_moves()))
        assert game.result is not None and game.result.winner != 1 - side, (fen_text, game.moves)


def test_an_unsure_board_win_is_kept_by_a_man_move_before_the_king_count_runs_out() -> None:
    """With men on the board a board win longer than the 15-move rule is unsure (a man's move
    may reset the count): the layer keeps the board's win, and moves a man when the quickest
    king move would let the count run out first. Stand-in tables: Black loses after every
    move, sooner after the king's."""
    pos = parse_fen("W:WKa1,c3:BKh8,f8")
    king_move = next(m for m in legal_moves(pos) if pos.kings >> m.start & 1)
    after_king = play(pos, king_move)

    def tables(p):
        return (WIN, 40) if p == pos else (LOSS, 29) if p == after_king else (LOSS, 35)

    assert judge(pos, 4, 4, tables) is None  # unsure
    d = decide(pos, legal_moves(pos), 4, 4, tables)
    assert d is not None and not pos.kings >> d.best.start & 1  # a man's move: it resets
    assert d.verdict.board == WIN
    # With the count at zero the king's line ends before it: sure, and the quickest.
    d = decide(pos, legal_moves(pos), 0, 0, tables)
    assert d is not None and d.best == king_move and d.verdict.outcome == 1


def test_a_board_win_that_is_unsure_is_not_played_for_a_draw_or_loss() -> None:
    pos = parse_fen("W:WKa1,c3:BKh8,f8")
    d = decide(pos, legal_moves(pos), 4, 4, lambda p: (DRAW, 0) if p == pos else (WIN, 3))
    assert d is None or d.verdict.outcome == 0


def test_a_draw_is_kept_by_the_moves_the_tables_are_sure_of_when_unsure_of_one() -> None:
    """A move the tables cannot judge (here: no table; in play, a board loss the counters may
    or may not save) is left out of a draw's keeping moves; the position is not given up to
    the search for it (the engine once handed B:WKd2,h2:BKf6 at counters 28 to the search)."""
    pos = parse_fen("W:WKa1,c3:BKh8,f8")
    legal = legal_moves(pos)
    unsure = play(pos, legal[0])
    d = decide(pos, legal, 0, 0, lambda p: None if p == unsure else (DRAW, 0))
    assert d is not None and d.verdict.outcome == 0
    assert legal[0] not in d.keeping and set(d.keeping) == set(legal[1:])
    # a win is not decided on part of the moves: the unknown one might be the quickest
    assert decide(pos, legal, 0, 0, lambda p: (WIN, 5) if p == pos else
                  None if p == unsure else (LOSS, 4)) is None


#: Five pieces, kings only: their conversions lead only to tables of four, so two of them
#: are built in seconds beside the session's tables (all of five take minutes).
FIVE = (Material(0, 3, 0, 2), Material(0, 4, 0, 1))


@pytest.fixture(scope="module")
def _five_piece_folder(_built_tables, tmp_path_factory: pytest.TempPathFactory):
    if not native_solves():
        pytest.skip("5-piece tables need the native core")
    folder = tmp_path_factory.mktemp("egdb5")
    for f in _built_tables.iterdir():
        (folder / f.name).symlink_to(f)
    tables = {m: build.load(folder, m)[0] for m in materials(4)}
    for m in FIVE:
        store.write(folder, build.solve(m, tables))
    return folder


@pytest.fixture
def five_piece_tables(_five_piece_folder, monkeypatch: pytest.MonkeyPatch, tmp_path_factory):
    """The engine's default database reading the 4-piece tables and those of FIVE."""
    from kbdraughts.egdb import probe
    data = tmp_path_factory.mktemp("xdg_tables5")
    (data / "kbdraughts").mkdir()
    (data / "kbdraughts" / "egdb").symlink_to(_five_piece_folder)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(probe, "_default", None)


@pytest.mark.parametrize("fen_text", [
    "W:WKa1,Kc1,Kf2:BKg1,Kh8",  # three kings against two: the longest win of its table
    "W:WKc1,Ke1,Kg1,Kh2:BKa1",  # four kings against one, even on the main road
])
def test_five_piece_wins_are_played_out_by_the_tables_against_the_best_defence(
        engine: Engine, five_piece_tables, fen_text: str) -> None:
    game = Game(parse_fen(fen_text))
    first = engine.choose(game)
    assert first is not None and first.layer == LayerName.ENDGAME_DB
    assert "White wins" in first.reason
    play_out(engine, game, WHITE, best_defence)
    assert game.result is not None and game.result.winner == WHITE, game.moves


def test_the_tables_words_never_win_in_0_moves_nor_nest_parentheses(endgame_tables):
    """Issue 28, item 32: "White wins in 0 moves" where Black's own capture to come is the
    conversion; the rule's name in parentheses inside a draw offer's."""
    from kbdraughts.notation import parse_fen

    pos = parse_fen("B:WKa1,c3:Bd4")  # d4:b2 is forced, then a1:c3
    assert judge(pos, 0, 0).words(pos) == ("White wins, by the board: 1 ply to the next "
                                           "capture or crowning")
    if not native_solves():
        pytest.skip("4-piece tables need the native core")
    pos = parse_fen("W:WKa1,Kc1,Ke1:BKd8")
    for counters in ((0, 28), (28, 0)):
        words = judge(pos, *counters).words(pos)
        assert words.startswith("drawn by the 15-move rule of ") and "(" not in words, words
    assert "(" not in judge(pos, 0, 0).words(pos)


def test_a_warm_engine_has_read_its_tables_before_its_first_move(endgame_tables):
    """Warm before the clock: the tables read in the background held the interpreter in
    chunks while the first moves were searched (bench/hub_protocol.py: +8 ms a Hub move)."""
    from kbdraughts.egdb import probe

    db = probe.default()
    Engine(level=2).warm()
    assert db._reading is not None and not db._reading.is_alive()
    wanted = [m for m in materials(db.auto_pieces) if store.path_for(db.folder, m).exists()]
    assert wanted and all(db.loaded(m) is not None for m in wanted)


def test_two_engines_of_one_process_ask_their_own_tables(endgame_tables, tmp_path):
    """Issue 37: the tables are an engine's (``Engine(tables=...)``), not the process's: one
    engine with them and one with an empty folder play and judge side by side, and neither
    makes or changes the process's default."""
    from kbdraughts.egdb import probe
    from kbdraughts.egdb.probe import Database

    if not native_solves():
        pytest.skip("4-piece tables need the native core")
    assert probe._default is None  # the fixture's fresh default, not made yet
    held = Engine(level=2, movetime_ms=50, use_kb=False,
                  tables=Database(endgame_tables, auto_pieces=0))
    empty = Engine(level=2, movetime_ms=50, use_kb=False,
                   tables=Database(tmp_path, auto_pieces=0))  # nothing there, nothing built
    won = parse_fen("W:WKa1,Kc1,Ke1:BKd8")
    assert held.choose(Game(won)).layer == LayerName.ENDGAME_DB
    assert empty.choose(Game(won)).layer == LayerName.SEARCH
    drawn = Game(parse_fen("W:WKc1:BKa1"))  # a king each: drawn
    assert held.draw_verdict(drawn, WHITE) == (
        True, "the endgame database says drawn with best play")
    assert "endgame database" not in empty.draw_verdict(drawn, WHITE)[1]
    assert probe._default is None and list(tmp_path.iterdir()) == []
