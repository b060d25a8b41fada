"""Walking through the game at the console (ui/walking.py), driven through whole sessions on
pipe input: back, forward, first, last, goto and the arrow keys; a move played at an earlier
position that starts a variation, kept with the game's moves after it, shown by ``record``,
written by ``save`` and read back identical; undo in a variation and at the game's end; the
AI waiting while the board shows an earlier position."""

from __future__ import annotations

from pathlib import Path

from kbdraughts.board import START, play
from kbdraughts.notation import fen, move_text, parse_move
from kbdraughts.pdn import read_pdn_file
from ui_driver import loaded_session, play_session

LEFT, RIGHT, HOME, END = "\x1b[D", "\x1b[C", "\x1b[H", "\x1b[F"


def texts(moves) -> list[str]:
    return [move_text(m) for m in moves]


def test_walking_back_and_forward_keeps_every_move(tmp_path: Path):
    # The test AI answers c3-d4 with b6-a5, g3-h4 with a5-b4.
    app, shown = play_session(
        "c3-d4\rg3-h4\rback\rback\rgoto 1\rforward\rfen\rfirst\rforward\rlast\rquit\r",
        tmp_path)
    assert texts(app.session.game.moves) == ["c3-d4", "b6-a5", "g3-h4", "a5-b4"]
    assert "2... Black to move (after 2. g3-h4 in the game;" in shown
    assert "1. White to move (the start of the game;" in shown  # goto 1
    after_c3d4 = play(START, parse_move(START, "c3-d4"))
    assert fen(after_c3d4) in shown.splitlines()  # fen tells the position shown
    assert "The game's last position: play goes on here." in shown
    assert not app.session.walking()


def test_arrow_keys_on_an_empty_line_walk(tmp_path: Path):
    app, shown = play_session(f"c3-d4\r{LEFT}{LEFT}{RIGHT}{HOME}{END}quit\r", tmp_path)
    prompts = [line for line in shown.splitlines() if line.endswith(("back", "forward",
                                                                       "first", "last"))]
    assert [p.rsplit(" ", 1)[1] for p in prompts] == ["back", "back", "forward", "first",
                                                      "last"]
    assert not app.session.walking() and app.session.game.ply == 2


def test_a_move_from_an_earlier_position_starts_a_variation_that_save_keeps(tmp_path: Path):
    a, b = tmp_path / "a.pdn", tmp_path / "b.pdn"
    app, shown = play_session(
        f"c3-d4\rg3-h4\rback\rback\rd4-e5\rf6:d4\rrecord\rgoto 2\rd4-e5\rlast\rsave {a}\r"
        f"load {a}\ry\rrecord\rsave {b}\rquit\r", tmp_path)
    assert "A new variation: 2. d4-e5 instead of g3-h4; the moves after it are kept" in shown
    assert f"Leave this game for the one in {a}? (It stays saved.)" in shown  # item 29
    assert "Here the line goes on with g3-h4; variations kept: d4-e5 (play one" in shown
    assert "The variation goes on: 2... f6:d4." in shown
    assert "Into the variation 2. d4-e5, kept from before." in shown
    record = "1. c3-d4 b6-a5 2. g3-h4 (2. d4-e5 f6:d4) 2... a5-b4"
    assert shown.count(record) == 2  # made here, then read from the file
    assert "The board shows after 2... f6:d4 in a variation." in shown
    assert f"Saved to {a} (4 plies, 1 variation)." in shown
    assert a.read_text() == b.read_text()
    (game,) = read_pdn_file(a)
    assert texts(game.game.moves) == ["c3-d4", "b6-a5", "g3-h4", "a5-b4"]  # never played


def test_the_ai_waits_while_the_board_shows_an_earlier_position(tmp_path: Path):
    # Black's move at the earlier position is the person's: no AI reply in a variation.
    built: list = []
    app, shown = play_session("c3-d4\rback\rback\rc3-b4\rb6-a5\rundo\rundo\rundo\rlast\rquit\r",
                              tmp_path, built=built)
    calls_after = built[0].calls
    assert calls_after == 1  # only the reply to c3-d4 in the game
    assert "A new variation: 1. c3-b4 instead of c3-d4" in shown
    assert "Took back b6-a5 from the variation." in shown
    assert "Took back c3-b4 from the variation." in shown
    assert "You are looking at an earlier position of the game" in shown
    assert len(app.session.variations) == 0


def test_undo_at_the_end_takes_the_variations_of_the_moves_taken_back(tmp_path: Path):
    app, shown = play_session("c3-d4\rg3-h4\rback\rback\re3-f4\rlast\rundo\rrecord\rquit\r",
                              tmp_path)
    assert "Took back g3-h4 and a5-b4 and the 1 variation played instead." in shown
    assert len(app.session.variations) == 0
    assert "1. c3-d4 b6-a5\n" in shown + "\n"


def test_a_files_variations_are_shown_by_record_and_kept(tmp_path: Path):
    source = tmp_path / "v.pdn"
    source.write_text('[Event "x"]\n\n1. c3-d4 {idea} b6-a5 (1... f6-g5 2. g3-h4) '
                      '2. g3-h4 a5-b4 *\n')
    out = tmp_path / "out.pdn"
    app, shown = play_session(f"load {source}\rgoto 2\re3-f4\rrecord\rsave {out}\rquit\r",
                              tmp_path)
    assert "1. c3-d4 {idea} b6-a5 (1... f6-g5 2. g3-h4) 2. g3-h4 (2. e3-f4) 2... a5-b4" in shown
    assert ("1. c3-d4 {idea} b6-a5 (1... f6-g5 2. g3-h4) 2. g3-h4 (2. e3-f4) a5-b4 *"
            in out.read_text())


def test_goto_and_walking_say_what_is_wrong(tmp_path: Path):
    _, shown = play_session("back\rforward\rc3-d4\rgoto 9\rgoto x\rgoto 1...\rresign\r"
                            "quit\r", tmp_path)
    assert "This is the start of the game." in shown
    assert "This is the game's last position." in shown
    assert "Move 9 is not in the line shown (its last move is 1...)." in shown
    assert "Say which move: goto N" in shown
    assert "Back to the game's last position first ('last')" in shown


def test_goto_in_a_new_game_says_no_move_is_played(tmp_path: Path):
    _, shown = play_session("goto 99\rquit\r", tmp_path)
    assert "Move 99 is not in the line shown (no move is played yet)." in shown
    assert "last move is none" not in shown


def test_the_panel_and_toolbar_tell_the_position_shown(tmp_path: Path):
    from prompt_toolkit.formatted_text import fragment_list_to_text

    from kbdraughts.ui.panel import side_panel
    from kbdraughts.ui.toolbar import session_info

    app, _ = play_session("c3-d4\rg3-h4\rquit\r", tmp_path)
    session = app.session
    session.show(tuple(session.game.moves[:1]))
    lines = [fragment_list_to_text(line) for line in side_panel(session, marks=True)]
    assert "1. [c3-d4]" in lines and not any("b6-a5" in line for line in lines)
    info = session_info(session)
    assert (info.move_number, info.side) == (1, "Black")
    session.show(tuple(session.game.moves))
    assert not session.walking() and session_info(session).move_number == 3


FILE = ('[Event "v"]\n\n1. c3-d4 {centre} b6-a5 (1... f6-g5 $1 {sharp} 2. g3-h4 (2. b2-c3 '
        '{quiet} g5-h4) 2... g5-f4) 2. g3-h4 (2. c3-b4 a5:c3) a5-b4 *\n')


def test_a_files_variations_are_walked_into_nested_too_and_saved_as_they_were(tmp_path: Path):
    app, shown, source = loaded_session(
        FILE, "goto 1...\rf6-g5\rforward\rback\rb2-c3\rfen\rforward\rundo\rback\rback\r"
        "back\rforward\rlast\rsave OUT\rquit\r", tmp_path)
    assert "The file has 2 variations to walk into" in shown
    assert shown.count("cannot be played") == 1  # named once, at the load
    assert (f"{source}:3: variation (2. c3-b4 a5:c3): move 2. c3-b4: there is no piece on c3"
            in shown)
    assert "Here the line goes on with b6-a5; variations kept: f6-g5 (play one" in shown
    assert "Into the file's variation 1... f6-g5: → follows it" in shown
    assert "Here the line goes on with g3-h4; variations kept: b2-c3 (play one" in shown
    assert "2... Black to move (after 2. g3-h4 in a variation;" in shown  # forward along it
    assert "Into the file's variation 2. b2-c3" in shown  # nested
    nested = START
    for text in ("c3-d4", "f6-g5", "b2-c3"):
        nested = play(nested, parse_move(nested, text))
    assert fen(nested) in shown.splitlines()
    assert "g5-h4 is the file's own move: undo takes back only moves played here" in shown
    assert "2. White to move (after 1... b6-a5 in the game;" in shown  # back out: the game
    assert (tmp_path / "out.pdn").read_text() == FILE  # nothing added: byte for byte
    assert len(app.session.variations) == 2


def test_a_move_that_begins_a_files_variation_enters_it_and_save_writes_it_once(
        tmp_path: Path):
    app, shown, _ = loaded_session(
        FILE, "goto 1...\rf6-g5\rg3-h4\rg5-f4\re3:g5\rh6:f4\rundo\rh6:f4\rrecord\rsave OUT\r"
        "load OUT\ry\rrecord\rquit\r", tmp_path)
    assert "Into the file's variation 1... f6-g5" in shown
    assert "2. g3-h4 is the next move of this line: one step forward." in shown
    assert "The variation goes on: 3. e3:g5." in shown
    assert "Took back h6:f4 from the variation." in shown
    assert len(app.session.variations) == 2  # no second copy beside the file's
    # played on: inside the variation's parentheses, the file's text of it untouched
    assert (tmp_path / "out.pdn").read_text() == FILE.replace(
        "2... g5-f4)", "2... g5-f4 3. e3:g5 h6:f4)")
    record = ("1. c3-d4 {centre} b6-a5 (1... f6-g5 $1 {sharp} 2. g3-h4 (2. b2-c3 {quiet} g5-h4) "
              "2... g5-f4 3. e3:g5 h6:f4) 2. g3-h4 (2. c3-b4 a5:c3) 2... a5-b4")
    assert shown.count(record) == 2  # played here, then read back from the file
