"""Matches: games to their end, illegal moves, seeded openings, colours, records."""

from __future__ import annotations

import pytest

from kbdraughts.match.runner import (
    StartFileError, Tally, balanced, opening, play_game, read_starts, replay, run_game, run_match)
from kbdraughts.match.players import make_player
from kbdraughts.match.line_protocol import read_game_line
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.game import Game
from kbdraughts.notation import fen, parse_fen


def test_a_game_is_played_to_its_end():
    game, reason, illegal = play_game(make_player("greedy", 1), make_player("random", 2))
    assert illegal == "" and (game.result is not None or reason.startswith("move cap"))


def test_an_illegal_move_loses_the_game():
    class Cheat:
        name = "cheat"

        def choose(self, game, stop=None):
            other = make_player("random", 0).choose(Game())  # a move from another position
            return other

    game, reason, illegal = play_game(Cheat(), make_player("random", 1))
    assert reason == "illegal move" and "cheat played" in illegal
    assert game.result.winner == 1


def test_openings_vary_with_the_seed_and_pair():
    assert opening(1, 0) == opening(1, 0)
    assert opening(1, 0) != opening(2, 0) or opening(1, 1) != opening(2, 1)
    assert len(opening(1, 0)) == 4


def _after(moves) -> Game:
    game = Game()
    for m in moves:
        game.push(m)
    return game


def test_balanced_openings_are_even_by_the_fixed_depth_search_and_drawn_from_the_same_seed():
    lost = [p for p in range(12) if not balanced(_after(opening(53, p)).position)]
    # Random plies often lose a man by force: with seed 53, a3-b4 f6-e5 e3-f4 d6-c5 (pair 0),
    # where b4:d6 and f4:d6:b4 take two for one.
    assert 0 in lost and len(lost) < 12
    for p in range(12):
        even = opening(53, p, balanced=True)
        assert len(even) == 4 and even == opening(53, p, balanced=True)
        assert balanced(_after(even).position)
        # The first opening drawn is the random one: kept when it is even already.
        assert (even == opening(53, p)) == (p not in lost)


def test_balanced_judges_by_the_search_score():
    # Black to move and a man down with nothing to take back: not even; the start is.
    assert not balanced(parse_fen("B:Wc3,e3,g3:Bf6,h6"))
    assert balanced(Game().position)


def test_a_balanced_match_opens_every_pair_with_an_even_position():
    records = list(run_match("random", "random", games=6, seed=53, max_plies=0, balanced=True))
    for rec in records:
        game = _after(rec.moves)
        assert len(rec.moves) == 4 and balanced(game.position)
    assert {tuple(r.moves) for r in records} == {
        tuple(opening(53, p, balanced=True)) for p in range(3)}


def test_colours_alternate_and_points_add_up():
    t = Tally()
    for i in range(4):
        rec = run_game(("greedy", "random", i, 5, 300))
        assert (rec.white == "greedy") == (i % 2 == 0)
        t.add(rec)
    assert t.games == 4 and t.wins + t.draws + t.losses == 4
    assert t.line("greedy", "random").startswith("greedy vs random: +")


def test_records_name_the_players_as_the_match_was_given_them():
    rec = run_game(("kb:1:nokb", "random", 0, 7, 12))
    assert (rec.white, rec.black) == ("kb:1:nokb", "random")
    same = run_game((PlayerSpec.parse("kb:1:nokb"), PlayerSpec("random"), 0, 7, 12))
    assert (same.white, same.black, same.moves) == ("kb:1:nokb", "random", rec.moves)


def test_an_engine_is_set_up_before_its_games_first_move_is_timed(monkeypatch):
    """As bestmove warms its engine before the first answer, a match warms its own engines
    before the game: the search's table is not made inside the first move's budget."""
    from kbdraughts.ai.engine import Engine

    events: list[tuple[str, bool]] = []
    warm, choose = Engine.warm, Engine.choose

    def warming(self, tables=True):
        events.append(("warm", self._searcher is None))
        warm(self, tables)

    def choosing(self, game, stop=None):
        events.append(("choose", self._searcher is None))
        return choose(self, game, stop)

    monkeypatch.setattr(Engine, "warm", warming)
    monkeypatch.setattr(Engine, "choose", choosing)
    run_game(("kb:4:20ms:nokb", "random", 0, 3, 8))
    assert events[0] == ("warm", True)  # made then
    assert events[1][0] == "choose" and events[1][1] is False  # the first move finds it made


# -- a match from a file of positions (match --fens) ---------------------------------------------


def test_each_position_of_the_file_is_played_twice_with_colours_swapped():
    starts = read_starts("# two endings\nW:WKa1,c3:Bh8,f6\n\nB:Wc3,e3:Bf6 moves f6-g5 e3-f4\n",
                         "suite.txt")
    records = sorted(run_match("greedy", "random", games=99, seed=5, starts=starts),
                     key=lambda r: r.index)
    assert len(records) == 4  # two a position, whatever ``games`` said
    for pair, line in enumerate(starts):
        first, second = records[2 * pair], records[2 * pair + 1]
        assert (first.white, first.black, second.white, second.black) == (
            "greedy", "random", "random", "greedy")
        start = read_game_line(line)
        for rec in (first, second):
            game = replay(rec)
            assert fen(game.start) == fen(start.start) == rec.start
            assert game.moves[:start.ply] == start.moves  # the line's moves, then the game's
    assert records[0].moves != [] and fen(parse_fen("W:WKa1,c3:Bh8,f6")) == records[0].start


def test_a_file_of_positions_names_every_bad_line():
    text = "W:Wc3:Bf6\nnot a fen\n# fine\nW:Wc3:Bf6 moves c3-d4 f6-e5 d4-c5\nW:Wc3:B  # over\n"
    with pytest.raises(StartFileError) as e:
        read_starts(text, "suite.txt")
    lines = str(e.value).splitlines()
    assert [line.split(": error: ")[0] for line in lines] == [
        "suite.txt:2", "suite.txt:4", "suite.txt:5"]
    assert "move 3 'd4-c5'" in lines[1] and "the game is over" in lines[2]
    with pytest.raises(StartFileError, match="suite.txt: error: no position"):
        read_starts("# only a comment\n\n", "suite.txt")
