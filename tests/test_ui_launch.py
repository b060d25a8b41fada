"""Starting a game from the ``play`` command's options: the seats, the game played on, and
the person's mistakes as StartError (the command line adds "kbdraughts play: " and status 2)."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.game import Game
from kbdraughts.ui import launch
from kbdraughts.ui.autosave import Autosave
from kbdraughts.ui.launch import StartError, start_game


class FirstMove:
    def choose(self, game: Game, stop: threading.Event | None = None):
        return None


def options(**given) -> SimpleNamespace:
    base = dict(color="white", level=None, fen=None, load=None, resume=False, white=None,
                black=None, ascii=False, delay=None)
    return SimpleNamespace(**{**base, **given})


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch):
    """Standard input and output as a pipe; the AI never built (a player that does nothing)."""
    monkeypatch.setattr(launch, "ai_factory", lambda spec: FirstMove())

    def type_keys(keys: str) -> io.StringIO:
        out = io.StringIO()  # set in the test itself: pytest sets sys.stdout before each phase
        monkeypatch.setattr("sys.stdin", io.StringIO(keys))
        monkeypatch.setattr("sys.stdout", out)
        return out

    return type_keys


def test_resume_with_a_level_keeps_the_ais_other_options(typed):
    # The bug of issue 10: `play --resume --level 3` made a resumed kb:1:nokb a kb:3.
    game = Game()
    game.push(game.legal_moves()[0])
    Autosave().save(game, {"White": "You", "Black": "kb:1:nokb:200ms"})
    out = typed("quit\n")
    assert start_game(options(resume=True, level=3)) == 0
    assert "You play White against kb:3:nokb:200ms." in out.getvalue()
    assert "Resumed " in out.getvalue() and "(1 ply)." in out.getvalue()


def test_resume_without_a_level_keeps_the_saved_seats(typed):
    game = Game()
    game.push(game.legal_moves()[0])
    Autosave().save(game, {"White": "kb:2:nokb", "Black": "You"})
    out = typed("quit\n")
    start_game(options(resume=True))
    assert "You play Black against kb:2:nokb." in out.getvalue()


def test_seats_from_colour_and_white_black(typed):
    out = typed("quit\n")
    start_game(options(color="black", level=2))
    assert "You play Black against kb:2." in out.getvalue()
    out = typed("quit\n")
    start_game(options(white=PlayerSpec.parse("random"), black=PlayerSpec.parse("human"),
                       fen="W:WKa1:BKh8"))
    assert "You play Black against random." in out.getvalue()


def test_fen_and_load_choose_the_game(typed, tmp_path: Path):
    out = typed("moves\nquit\n")
    # Six pieces: out of the endgame tables' reach, where the AI would offer a draw first.
    start_game(options(fen="W:Wc3:Bb8,d8,f8,h8,g7"))
    assert "Legal moves for White (2): c3-b4 c3-d4" in out.getvalue()
    pdn = tmp_path / "one.pdn"
    pdn.write_text('[Event "x"]\n\n1. c3-d4 f6-g5 *\n')
    out = typed("quit\n")
    start_game(options(load=str(pdn)))
    assert "2. White to move: quit" in out.getvalue()


def test_the_persons_mistakes_are_start_errors(tmp_path: Path):
    empty = tmp_path / "empty.pdn"
    empty.write_text("")
    for given, message in [
        (dict(fen="W:WKa1:BKh8", resume=True), "choose one of --fen, --load and --resume"),
        (dict(fen="W:Wz9:B"), "bad FEN: "),
        (dict(load=str(tmp_path / "none.pdn")), f"{tmp_path / 'none.pdn'}: cannot read"),
        (dict(load=str(empty)), f"{empty}: no game in this file"),
    ]:
        with pytest.raises(StartError) as caught:
            start_game(options(**given))
        assert str(caught.value).startswith(message), caught.value


def test_one_ai_given_alone_plays_the_person(typed):
    out = typed("quit\n")
    start_game(options(white=PlayerSpec.parse("random")))
    assert "You play Black against random." in out.getvalue()
    out = typed("quit\n")
    start_game(options(black=PlayerSpec.parse("greedy"), color="black"))
    assert "You play White against greedy." in out.getvalue()
    out = typed("quit\n")
    start_game(options(white=PlayerSpec.parse("human"), level=2))
    assert "You play White against kb:2." in out.getvalue()


def test_resume_leaves_a_game_open_elsewhere_and_says_so(typed):
    older = Game()
    older.push(older.legal_moves()[0])
    first = Autosave()
    first.save(older, {"White": "You", "Black": "random"})
    stamp = os.path.getmtime(first.path) - 60
    os.utime(first.path, (stamp, stamp))
    first.close()
    running = Autosave()  # another kbdraughts still plays this one
    newer = Game()
    for _ in range(3):
        newer.push(newer.legal_moves()[0])
    running.save(newer, {"White": "You", "Black": "random"})
    out = typed("quit\n")
    start_game(options(resume=True))
    shown = out.getvalue()
    assert (f"Note: {running.path}: that game is open in another kbdraughts "
            f"(pid {os.getpid()}); left to it.") in shown
    assert f"Resumed {first.path} (1 ply)." in shown
    out = typed("quit\n")
    start_game(options(resume=True))  # the first game was let go when that session ended
    assert f"Resumed {first.path} (1 ply)." in out.getvalue()
    first_again = Autosave(path=first.path)
    first_again.lock = launch_lock(first.path)
    out = typed("quit\n")
    start_game(options(resume=True))  # both open elsewhere: a new game, with a note
    assert "No other unfinished game to resume; a new game starts." in out.getvalue()
    running.close()
    first_again.close()


def launch_lock(path: Path):
    from kbdraughts.ui.autosave import GameLock

    return GameLock.take(path)


def test_resume_names_the_unreadable_files_it_skips(typed):
    game = Game()
    game.push(game.legal_moves()[0])
    good = Autosave()
    good.save(game, {"White": "You", "Black": "random"})
    good.close()
    stamp = os.path.getmtime(good.path) - 60
    os.utime(good.path, (stamp, stamp))
    bad = good.path.with_name("broken.pdn")
    bad.write_text('[Event "x"]\n\n1. c3-d4 } b6-a5 *\n')
    out = typed("quit\n")
    assert start_game(options(resume=True)) == 0
    shown = out.getvalue()
    assert f"Note: Skipped an unreadable saved game: {bad}:3" in shown
    assert f"Resumed {good.path} (1 ply)." in shown
