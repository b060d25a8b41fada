"""Loading PDN files at the console and with ``play --load``: a list to choose from when a file
holds several games, ``--game N``, broken games named, the file's annotations kept by
``save``, and a loaded game's result shown as a record, not as the person's defeat."""

from __future__ import annotations

import io
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from kbdraughts.notation import move_text
from kbdraughts.ui import launch
from kbdraughts.ui.autosave import games_dir
from kbdraughts.ui.launch import StartError, start_game
from ui_driver import play_session

GAMES = '''[Event "first"]
[White "Иванов"]
[Black "Петров"]
[Result "*"]
[GameType "25"]

1. c3-d4 {центр} f6-g5 *

[Event "broken"]
[Result "*"]
[GameType "25"]

1. c3-d4 c3-d4 *

[Event "black won"]
[White "A"]
[Black "B"]
[Result "0-2"]
[GameType "25"]

{before} 1. e3-d4 $1 d6-c5 (1... b6-a5) 2. a3-b4 c5:e3 {ouch} 0-2
'''


@pytest.fixture
def games_file(tmp_path: Path) -> Path:
    path = tmp_path / "three.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def test_load_lists_the_games_and_loads_the_one_chosen(tmp_path: Path, games_file: Path):
    app, shown = play_session(f"load {games_file}\r1\rquit\r", tmp_path)
    assert f"{games_file.name} holds 3 games" in shown or "holds 3 games" in shown
    assert "1. Иванов – Петров, first, *, 2 plies" in shown
    assert f"2. cannot be read: {games_file}:13: move 1... c3-d4" in shown
    assert "3. A – B, black won, 0-1, 4 plies" in shown
    assert "Loaded" in shown and "(game 1 of 3)" in shown
    assert [move_text(m) for m in app.game.moves] == ["c3-d4", "f6-g5"]


def test_load_with_game_n_a_broken_game_and_no_answer(tmp_path: Path, games_file: Path):
    _, shown = play_session(f"load {games_file} --game 2\rload {games_file}\r\rquit\r",
                            tmp_path)
    assert f"game 2 cannot be read: {games_file}:13:" in shown
    assert "Not loaded." in shown


def test_save_after_load_keeps_the_files_tags_comments_and_variations(
        tmp_path: Path, games_file: Path):
    out = tmp_path / "out.pdn"
    app, shown = play_session(f"load {games_file} --game 3\rsave {out}\rquit\r", tmp_path)
    assert "Saved to" in shown
    assert out.read_text(encoding="utf-8") == GAMES[GAMES.index('[Event "black won"]'):]


def test_a_loaded_finished_game_is_a_record_not_the_persons_defeat(
        tmp_path: Path, games_file: Path):
    _, shown = play_session(f"load {games_file} --game 3\rn\rquit\r", tmp_path)
    assert "The game as recorded: Black won." in shown
    assert "You lose" not in shown


def test_play_on_from_a_loaded_game_and_save_appends_the_moves(tmp_path: Path, games_file):
    out = tmp_path / "on.pdn"
    _, shown = play_session(f"load {games_file} --game 1\rg3-h4\rsave {out}\rquit\r", tmp_path)
    text = out.read_text(encoding="utf-8")
    assert '[White "Иванов"]' in text and "{центр}" in text
    assert "1. c3-d4 {центр} f6-g5 2. g3-h4 " in text
    (autosaved,) = (tmp_path / "games").glob("*.pdn")  # the autosave keeps them too
    assert "{центр}" in autosaved.read_text(encoding="utf-8")


def test_a_file_not_in_utf8_is_named_with_a_note(tmp_path: Path):
    latin = Path(__file__).parent / "data" / "pdn" / "latin1.pdn"
    _, shown = play_session(f"load {latin}\rquit\r", tmp_path)
    assert f"Note: {latin}: not UTF-8 text; read as Latin-1" in shown and "Loaded" in shown


def options(**given) -> SimpleNamespace:
    base = dict(color="white", level=None, fen=None, load=None, game=None, resume=False,
                white=None, black=None, ascii=False, delay=None)
    return SimpleNamespace(**{**base, **given})


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch):
    class Idle:
        def choose(self, game, stop=None):
            return None

    monkeypatch.setattr(launch, "ai_factory", lambda spec: Idle())

    def type_keys(keys: str) -> io.StringIO:
        out = io.StringIO()
        monkeypatch.setattr("sys.stdin", io.StringIO(keys))
        monkeypatch.setattr("sys.stdout", out)
        return out

    return type_keys


def test_play_load_game_n_and_the_list_when_none_is_chosen(typed, games_file: Path):
    out = typed("record\nquit\n")
    start_game(options(load=str(games_file), game=3))
    assert "The game as recorded: Black won." in out.getvalue()
    out = typed("record\nquit\n")
    start_game(options(load=str(games_file)))
    text = out.getvalue()
    assert "holds 3 games; the first is loaded" in text and "B, black won, 0-1, 4 plies" in text
    assert "1. c3-d4 {" in text and "} f6-g5" in text  # record shows the comment


def test_play_load_names_the_files_variations_and_those_that_cannot_be_played(
        typed, tmp_path: Path):
    path = tmp_path / "v.pdn"
    path.write_text("1. c3-d4 (1. c3-b4 f6-g5 (1... f6-e5)) (1. c3-e5) f6-g5 *\n")
    out = typed("quit\n")
    start_game(options(load=str(path)))
    text = out.getvalue()
    assert "The file has 2 variations to walk into" in text
    assert "Note: 1 variation of the file cannot be played and is kept as text" in text
    assert f"{path}:1: variation (1. c3-e5): move 1. c3-e5: c3-e5 is not legal" in text


def test_play_game_mistakes_are_start_errors(games_file: Path):
    for given, message in [
        (dict(game=2), "--game chooses a game of the --load file"),
        (dict(load=str(games_file), game=2), "game 2 cannot be read: "),
        (dict(load=str(games_file), game=4), f"{games_file}: no game 4 (the file holds 3"),
    ]:
        with pytest.raises(StartError) as caught:
            start_game(options(**given))
        assert str(caught.value).startswith(message), caught.value


def test_the_autosave_of_a_loaded_game_keeps_its_tags_and_resume_its_seats(
        typed, tmp_path: Path, games_file: Path):
    # the record's players are Иванов and Петров; the person plays White against the AI
    typed("g3-h4\nquit\n")
    start_game(options(load=str(games_file), game=1, level=2))
    (autosaved,) = games_dir().glob("*.pdn")
    text = autosaved.read_text(encoding="utf-8")
    assert '[White "Иванов"]' in text and '[Event "first"]' in text and "{центр}" in text
    assert '[KbdraughtsWhite "You"]' in text and '[KbdraughtsBlack "kb:2"]' in text
    out = typed(f"save {tmp_path / 'back.pdn'}\nquit\n")
    start_game(options(resume=True))
    assert "You play White against kb:2." in out.getvalue()
    back = (tmp_path / "back.pdn").read_text(encoding="utf-8")
    assert '[White "Иванов"]' in back and "Kbdraughts" not in back
    assert "1. c3-d4 {центр} f6-g5 2. g3-h4 " in back


def test_load_game_0_is_refused_not_game_1(tmp_path: Path, games_file: Path):
    # issue 28, item 19: 'load F --game 0' loaded game 1 and called it "game 0 of 3"
    app, shown = play_session(f"load {games_file} --game 0\rquit\r", tmp_path)
    assert "no game 0 (the file holds 3 games)" in shown
    assert "game 0 of 3" not in shown and not app.game.moves


def test_a_files_result_is_shown_as_recorded_not_as_a_resignation(typed, tmp_path: Path):
    # issue 28, item 22: a 2-0 read from a file was shown as "White wins (resignation)"
    path = tmp_path / "won.pdn"
    path.write_text("1. c3-d4 f6-g5 2-0\n", encoding="utf-8")
    out = typed("undo\nquit\n")
    start_game(options(load=str(path)))
    text = out.getvalue()
    assert "White wins (as recorded)" in text and "resignation" not in text
    assert "Took back the recorded result; play on." in text


def test_save_back_into_a_collection_replaces_only_its_own_game(
        tmp_path: Path, games_file: Path):
    # issue 28, item 6: load game 1 of 3, play on, 'save coll.pdn' (y) left 1 game of 3
    _, shown = play_session(f"load {games_file} --game 1\rg3-h4\rsave {games_file}\ry\rquit\r",
                            tmp_path)
    assert f"Write the game back into {games_file} in its own place (its other 2 games " \
           "kept)?" in shown
    assert "(as its game 1, its other 2 kept;" in shown
    text = games_file.read_text(encoding="utf-8")
    rest = GAMES[GAMES.index('[Event "broken"]'):]
    assert text.endswith(rest) and "1. c3-d4 {центр} f6-g5 2. g3-h4 " in text[:-len(rest)]


def test_save_over_another_collection_says_what_would_be_lost(
        tmp_path: Path, games_file: Path):
    other = tmp_path / "other.pdn"
    other.write_text(GAMES, encoding="utf-8")
    _, shown = play_session(f"c3-d4\rsave {other}\rn\rquit\r", tmp_path)
    assert (f"Overwrite {other}? It holds 3 games; all 3 would be replaced by this one."
            in shown) and "Not saved." in shown
    assert other.read_text(encoding="utf-8") == GAMES


def test_save_onto_a_fifo_is_refused_not_replaced(tmp_path: Path):
    # issue 28, item 6: 'save' onto a FIFO or a device replaced it with a regular file
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    _, shown = play_session(f"c3-d4\rsave {fifo} --force\rquit\r", tmp_path)
    assert f"Cannot write {fifo}: it is a FIFO, not a file; say a file name." in shown
    assert fifo.is_fifo()


def test_save_keeps_the_loaded_files_bom_and_crlf(tmp_path: Path):
    # issue 28, item 3: 'save' dropped CRLF and the BOM
    source = Path(__file__).parent / "data" / "pdn" / "bom_crlf.pdn"
    out = tmp_path / "out.pdn"
    _, shown = play_session(f"load {source}\rsave {out}\rquit\r", tmp_path)
    data = out.read_bytes()
    assert "Saved to" in shown and data.startswith(b"\xef\xbb\xbf")
    assert data.count(b"\r\n") == data.count(b"\n") > 3


ANNOTATED = ('[Event "Moscow 1924"]\n[White "Medkov"]\n[Black "Sidorov"]\n[Result "1-0"]\n\n'
             '1. c3-d4 {a good start} f6-g5 2. g3-h4 {coach: loses a man} g5-f4 1-0\n')


def test_a_loaded_annotated_game_shows_its_comments_players_and_is_not_autosaved(
        typed, tmp_path: Path):
    # issue 28, item 29: comments and notes not shown while walking nor in record; the seats
    # said "White (you)"; the master game was autosaved as the person's; no "Loaded" line
    path = tmp_path / "medkov.pdn"
    path.write_text(ANNOTATED, encoding="utf-8")
    out = typed("first\rforward\rforward\rforward\rrecord\rquit\n".replace("\r", "\n"))
    start_game(options(load=str(path)))
    text = out.getvalue()
    assert f"Loaded {path}: 4 plies, White wins (as recorded)." in text
    assert "Comment on 1. c3-d4: a good start" in text
    assert "Coach on 2. g3-h4: loses a man" in text
    assert "1. c3-d4 {a good start} f6-g5 2. g3-h4 {coach: loses a man} g5-f4" in text
    assert "White (Medkov)" in text and "Black (Sidorov)" in text and "(you)" not in text
    assert "New game?" not in text and "the file's game, not autosaved" in text
    assert not list(games_dir().glob("*.pdn"))


def test_load_at_the_game_over_prompt_shows_the_game_and_mid_game_asks_first(
        tmp_path: Path):
    path = tmp_path / "medkov.pdn"
    path.write_text(ANNOTATED, encoding="utf-8")
    _, shown = play_session(f"c3-d4\rresign\ry\rload {path}\rquit\r", tmp_path)
    after = shown[shown.index(f"load {path}"):]
    assert "Loaded" in after and "a  b  c  d  e  f  g  h" in after  # the board drawn
    assert "New game?" not in after and "Game over (1-0). Command" in after
    _, shown = play_session(f"c3-d4\rload {path}\rn\rquit\r", tmp_path)
    assert f"Leave this game for the one in {path}? (It stays saved.) [y/n]" in shown
    assert "Not loaded; play on." in shown and "Loaded" not in shown
