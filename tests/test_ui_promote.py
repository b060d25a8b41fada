"""``promote`` at the console (ui/promote.py), driven through whole sessions on pipe input:
a file's nested variation made the game's line, the game's old moves a variation, the result
the rules' (the file's resignation stays with the old line), saved with every comment; a
variation made here promoted in a game against the AI, which then plays at the new last
position; refused outside a variation and in a game with a clock."""

from __future__ import annotations

from pathlib import Path

from kbdraughts.ai.clock import GameClock, TimeControl
from kbdraughts.notation import move_text
from kbdraughts.pdn import read_pdn_file
from ui_driver import loaded_session, play_session

FILE = ('[Event "v"]\n[Result "2-0"]\n\n1. c3-d4 {centre} b6-a5 (1... f6-g5 $1 {sharp} 2. g3-h4 '
        '(2. b2-c3 {quiet} g5-h4) 2... g5-f4) 2. g3-h4 (2. c3-b4 a5:c3) a5-b4 2-0\n')


def texts(moves) -> list[str]:
    return [move_text(m) for m in moves]


def test_a_files_nested_variation_promoted_keeps_its_comments_and_the_old_line(
        tmp_path: Path):
    app, shown, _ = loaded_session(
        FILE, "n\rpromote\rgoto 1...\rf6-g5\rb2-c3\rpromote\rrecord\rsave OUT\rlast\rquit\r",
        tmp_path)
    assert "The game as recorded: White won." in shown  # loaded: the file's resignation
    assert "The board shows the game's own line: walk into a variation first" in shown
    assert ("The game's line now goes 1... f6-g5; its old moves from 1... b6-a5 are kept as a "
            "variation.") in shown
    assert "The old line's ending stays with it: White wins (as recorded)." in shown
    assert "Play goes on at its last position (3. White to move): 'last' goes there." in shown
    assert ("1. c3-d4 {centre} f6-g5 $1 {sharp} (1... b6-a5 2. g3-h4 (2. c3-b4 a5:c3) 2... "
            "a5-b4) 2. b2-c3 {quiet} (2. g3-h4 g5-f4) 2... g5-h4") in shown
    assert "2... Black to move (after 2. b2-c3 in the game;" in shown  # the board stays there
    game = app.session.game
    assert texts(game.moves) == ["c3-d4", "f6-g5", "b2-c3", "g5-h4"] and game.result is None
    assert (tmp_path / "out.pdn").read_text() == (  # the rules' result, in the file's way
        '[Event "v"]\n[Result "*"]\n\n1. c3-d4 {centre} 1... f6-g5 $1 {sharp} (1... b6-a5 '
        '2. g3-h4 (2. c3-b4 a5:c3) 2... a5-b4) 2. b2-c3 {quiet} (2. g3-h4 g5-f4) 2... g5-h4 '
        '*\n')
    assert "3. White to move:" in shown  # at the last position the person plays on


def test_a_variation_made_here_promoted_the_ai_plays_at_the_new_end(tmp_path: Path):
    built: list = []
    # The test AI answers c3-d4 with b6-a5; after c3-b4 its first move is b6-a5 too.
    app, shown = play_session("help promote\rc3-d4\rfirst\rc3-b4\rpromote\rrecord\rquit\r",
                              tmp_path, built=built)
    assert "promote — make the variation shown the game's line" in shown
    assert "The game's line now goes 1. c3-b4; its old moves from 1. c3-d4 are kept" in shown
    assert texts(app.session.game.moves) == ["c3-b4", "b6-a5"]  # the AI played at the end
    assert built[0].calls == 2
    assert "1. c3-b4 (1. c3-d4 b6-a5) 1... b6-a5" in shown
    (saved,) = (tmp_path / "games").glob("*.pdn")
    (read,) = read_pdn_file(saved)
    assert texts(read.game.moves) == ["c3-b4", "b6-a5"] and len(read.variations) == 1


def test_promote_is_refused_in_a_game_with_a_clock(tmp_path: Path):
    clock = GameClock(TimeControl(5, 3), now=lambda: 0.0)
    app, shown = play_session("c3-d4\rresign\ry\rn\rfirst\rc3-b4\rpromote\rquit\r", tmp_path,
                              clock=clock)
    assert "A new variation: 1. c3-b4 instead of c3-d4" in shown  # walking: the game is over
    assert "Not in a game with a clock: its moves stand as played, as for 'undo'." in shown
    assert texts(app.session.game.moves) == ["c3-d4", "b6-a5"]


def test_undo_right_after_promote_takes_back_the_promotion_not_the_game(tmp_path: Path):
    # issue 28, item 4: promote then one undo erased the loaded game and its autosave
    text = "1. c3-d4 {main} (1. c3-b4 {alt}) f6-g5 2. b2-c3 g5-h4 *\n"  # White to move
    app, shown, _ = loaded_session(text, "first\rc3-b4\rpromote\rundo\rsave OUT\rquit\r",
                                   tmp_path)
    assert "Took back the promotion: the game's line goes 1. c3-d4 again" in shown
    assert (tmp_path / "out.pdn").read_text() == text
    assert texts(app.session.game.moves) == ["c3-d4", "f6-g5", "b2-c3", "g5-h4"]
    (autosaved,) = (tmp_path / "games").glob("*.pdn")  # the AI's reply went with the promotion
    assert "1. c3-d4 {main} (1. c3-b4 {alt}) f6-g5 2. b2-c3 g5-h4 *" in autosaved.read_text()
