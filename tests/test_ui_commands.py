"""The commands typed at the move prompt, each driven through a whole session on pipe input:
help from the registry, moves, fen, flip, level, undo, record, why, hint, save, load, draw,
new and teach; what a mistyped name or number does (never a traceback), the questions before
resign, new and writing over a file, and the commands at the ``New game?`` question."""

from __future__ import annotations

import io
from pathlib import Path

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import START
from kbdraughts.notation import fen, move_text
from kbdraughts.pdn import read_pdn_file
from kbdraughts.ui.app import GameApp
from kbdraughts.ui.commands import REGISTRY
from kbdraughts.ui.console import ECHO_LIMIT, PlainConsole
from kbdraughts.ui.render import UNICODE, cut_text
from kbdraughts.ui.session import HUMAN, Session
from kbdraughts.ui.autosave import Autosave
from ui_driver import FIRST, FirstMove, factory, play_session


def test_help_lists_every_registered_command(tmp_path: Path):
    _, shown = play_session("help\rhelp undo\rquit\r", tmp_path)
    for cmd in REGISTRY.values():
        assert f"  {cmd.usage}" in shown
    assert "undo — take back your last move and the AI's reply" in shown
    assert "capturing is compulsory" in shown


def test_moves_fen_flip_and_level(tmp_path: Path):
    app, shown = play_session("moves\rfen\rflip\rlevel 2\rlevel 99\rquit\r", tmp_path)
    assert "Legal moves for White (7): a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4" in shown
    assert fen(START) in shown.splitlines()
    assert app.session.bottom == 1  # flipped: Black at the bottom
    flipped = shown.split("flip", 1)[1]
    assert flipped.splitlines()[1].strip().startswith("h  g  f")
    assert "Level 2." in shown and app.session.specs[1] == FIRST
    assert "Level must be a whole number from 1 to" in shown


def test_level_keeps_the_ais_other_options(tmp_path: Path):
    # The bug of issue 10: "level 3" against kb:1:nokb made it kb:3, the knowledge base back
    # on and the time per move dropped.
    built: list[str] = []
    session = Session(lambda spec: built.append(str(spec)) or FirstMove(spec),
                      [HUMAN, PlayerSpec.parse("kb:1:nokb:200ms")])
    console = PlainConsole(io.StringIO("level 3\nlevel\nquit\n"), io.StringIO(), UNICODE)
    app = GameApp(console, session)
    session.ai_thread.start()
    app.run()
    assert str(session.specs[1]) == "kb:3:nokb:200ms"
    assert "Level 3." in console.transcript
    assert "The AI plays at level 3 (1–4); 'level N' changes it." in console.transcript
    session.players[1].get()  # the rebuilt player, built in the AI thread
    assert built[-1] == "kb:3:nokb:200ms"


def test_undo_takes_back_the_move_and_the_reply(tmp_path: Path):
    app, shown = play_session("c3-d4\rundo\rundo\rquit\r", tmp_path)
    assert app.game.position == START
    assert "Took back c3-d4 and b6-a5." in shown
    assert "Nothing to undo" in shown


def test_record_lists_the_moves_numbered(tmp_path: Path):
    _, shown = play_session("record\rc3-d4\re3-f4\rrecord\rquit\r", tmp_path)
    assert "No move has been played yet." in shown
    assert "1. c3-d4 b6-a5 2. e3-f4 a5-b4" in shown


def test_why_and_hint(tmp_path: Path):
    _, shown = play_session("why\rc3-d4\rwhy\rhint\rquit\r", tmp_path)
    assert "The AI has not moved yet in this game." in shown
    assert "Black played b6-a5: the first legal move of 7" in shown
    assert "Hint: b2-c3 — the first legal move of 8" in shown


def test_save_and_load_round_trip(tmp_path: Path):
    pdn = tmp_path / "mine.pdn"
    app, shown = play_session(f"c3-d4\rsave {pdn}\rnew\ry\rload {pdn}\rquit\r", tmp_path)
    assert f"Saved to {pdn}" in shown
    assert [move_text(m) for m in app.game.moves] == ["c3-d4", "b6-a5"]
    assert read_pdn_file(pdn)[0].game.position == app.game.position
    assert "Loaded" in shown and "White to move" in shown


def test_load_errors_are_one_line(tmp_path: Path):
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n\n1. c3-d4 c3-d4 *\n')
    _, shown = play_session(f"load {tmp_path / 'none.pdn'}\rload {bad}\rload\rquit\r", tmp_path)
    assert "none.pdn: cannot read" in shown
    assert f"{bad}:3: move 1... c3-d4" in shown
    assert "Say which file: load FILE" in shown


def test_draw_command_asks_the_ai(tmp_path: Path):
    _, shown = play_session("draw\rquit\r", tmp_path)
    assert "Black declines the draw; play on." in shown
    app, shown = play_session("draw\rn\rquit\r", tmp_path, accepts=True)
    assert "Black accepts the draw." in shown
    assert app.game.result is not None and app.game.result.pdn == "1/2-1/2"


def test_new_game_as_black_turns_the_board_and_the_ai_opens(tmp_path: Path):
    app, shown = play_session("c3-d4\rnew black\ry\rquit\r", tmp_path)
    assert app.session.specs == [FIRST, HUMAN] and app.session.bottom == 1
    assert [move_text(m) for m in app.game.moves] == ["a3-b4"]
    assert "New game: White (first) against Black (you)." in shown
    assert "1... Black to move: quit" in shown


def test_teach_writes_an_exact_rule(tmp_path: Path):
    from kbdraughts.ui.teach import taught_file

    _, shown = play_session(
        "teach c3-d4\rteach e3-f4\rteach c3-e5\rteach\rteach c3-d4\rquit\r", tmp_path)
    text = taught_file().read_text()
    assert "rule taught-1\n" in text and "rule taught-2\n" in text
    assert "rule taught-3" not in text
    assert f"Already taught: rule taught-1 at {taught_file()}:4." in shown
    assert f"  position: {fen(START)}\n  play: c3-d4\n" in text
    assert "  side: white\n" in text
    assert "Taught rule taught-1" in shown
    assert "c3-e5 is not legal" in shown
    assert "Say which move: teach MOVE" in shown
    try:
        from kbdraughts.kb.knowledge import load_knowledge_base
    except ImportError:
        return
    kb = load_knowledge_base([taught_file()])
    assert len(kb) == 2
    assert "the knowledge base loads it" in shown


def plain_session(keys: str, tmp_path: Path, specs=(HUMAN, FIRST), accepts: bool = False):
    """A whole session in pipe mode (lines in, text out): where a script sends any character,
    a NUL too. Returns the app and the transcript."""
    session = Session(factory(accepts), list(specs), autosave=Autosave(tmp_path / "games"))
    console = PlainConsole(io.StringIO(keys), io.StringIO(), UNICODE)
    app = GameApp(console, session)
    assert app.run() == 0
    return app, "\n".join(console.transcript)


def test_save_asks_before_writing_over_a_file_and_force_does_not(tmp_path: Path):
    pdn = tmp_path / "kept.pdn"
    pdn.write_text("precious\n")
    app, shown = play_session(f"c3-d4\rsave {pdn}\rn\rhelp save\rquit\r", tmp_path)
    assert f"Overwrite {pdn}? [y/n] n" in shown and "Not saved." in shown
    assert pdn.read_text() == "precious\n"
    assert "save FILE [--force] — save the game as PDN; asks before writing over" in shown
    _, shown = play_session(f"c3-d4\rsave {pdn}\ry\rquit\r", tmp_path)
    assert f"Saved to {pdn} (2 plies)." in shown and len(read_pdn_file(pdn)[0].game.moves) == 2
    _, shown = play_session(f"c3-d4\re3-f4\rsave {pdn} --force\rquit\r", tmp_path)
    assert "Overwrite" not in shown and f"Saved to {pdn} (4 plies)." in shown
    _, shown = play_session(f"save --force {tmp_path / 'new.pdn'}\rquit\r", tmp_path)
    assert "Overwrite" not in shown and (tmp_path / "new.pdn").exists()


def test_typed_names_and_numbers_never_end_the_game(tmp_path: Path):
    # Each of these ended the game with a traceback (issue 11).
    folder = tmp_path / "folder"
    folder.mkdir()
    typed = ["level ²", "level ٣", f"level {'9' * 5000}", "save ~nosuchuser/x.pdn",
             "load ~nosuchuser/x.pdn", "save a\0b.pdn", "load a\0b.pdn", f"save {folder}",
             f"load {folder}", "save /proc/version --force", f"save {tmp_path}/no/such/x.pdn"]
    app, shown = plain_session("\n".join(typed) + "\nc3-d4\nquit\n", tmp_path)
    lines = shown.splitlines()
    for text in typed:  # a long line is echoed cut short (console.ECHO_LIMIT)
        echoed = cut_text(text, ECHO_LIMIT)
        at = lines.index(next(l for l in lines if l.endswith(f"to move: {echoed}")))
        assert not lines[at + 1].endswith("to move: "), text  # one line said what is wrong
        assert lines[at + 2].startswith("1. White to move: "), (text, lines[at + 1:at + 3])
    assert "Level must be a whole number from 1 to" in shown
    assert "there is no user 'nosuchuser'" in shown
    assert "a file name cannot hold control characters" in shown
    assert f"Cannot write {folder}: it is a folder" in shown
    assert f"{folder}: cannot read" in shown
    assert "Cannot write /proc/version: " in shown
    assert [move_text(m) for m in app.game.moves] == ["c3-d4", "b6-a5"]  # the game went on


def test_undo_takes_back_a_resignation_first(tmp_path: Path):
    app, shown = play_session("c3-d4\rresign\ry\rn\rundo\rquit\r", tmp_path)
    assert "Game over: Black wins (resignation)" in shown
    assert "Type 'new' for another game, 'undo' to take back the resignation" in shown
    assert "Took back the resignation; play on." in shown
    assert app.game.result is None and [move_text(m) for m in app.game.moves] == [
        "c3-d4", "b6-a5"]


def test_undo_as_black_before_your_first_move_does_not_replay_the_ais(tmp_path: Path):
    app, shown = play_session("undo\rquit\r", tmp_path, specs=(FIRST, HUMAN))
    assert "Nothing of yours to undo yet." in shown
    assert "Took back" not in shown
    assert [move_text(m) for m in app.game.moves] == ["a3-b4"]
    assert app.session.players[0].get().calls == 1  # the AI did not play its move again


def test_a_draw_agreed_on_move_one_is_taken_back_by_undo(tmp_path: Path):
    app, shown = play_session("draw\rn\rundo\rquit\r", tmp_path, accepts=True)
    assert "Black accepts the draw." in shown
    assert "'undo' to take back the draw" in shown
    assert "Took back the draw agreement; play on." in shown and "Nothing to undo" not in shown
    assert app.game.result is None


def test_the_game_over_prompt_offers_undo_only_when_there_is_something_to_undo(tmp_path: Path):
    app, shown = play_session("n\rundo\rquit\r", tmp_path, fen="W:Wa1:B")  # over at once
    assert "Game over: White wins (no pieces left)" in shown
    assert "Type 'new' for another game, 'save FILE', 'record', or 'quit'." in shown
    assert "Game over (1-0). Command (new, save, record, quit): undo" in shown
    _, shown = play_session("c3:e5\rn\rquit\r", tmp_path, fen="W:Wc3:Bd4")
    assert "Game over (1-0). Command (new, undo, save, record, quit): quit" in shown


def test_new_and_resign_mid_game_ask_first(tmp_path: Path):
    app, shown = plain_session("c3-d4\nresign\nn\nnew\nno\nmoves\nquit\n", tmp_path)
    assert "Resign this game? [y/n] n" in shown
    assert "Leave this game for a new one? (It stays saved.) [y/n] no" in shown
    assert shown.count("Play on.") == 2
    assert app.game.result is None and app.game.ply == 2
    app, shown = plain_session("new\nquit\n", tmp_path)  # nothing played: nothing to lose
    assert "Leave this game" not in shown and "New game: White (you)" in shown
    app, shown = plain_session("resign\ny\nn\nquit\n", tmp_path)
    assert "Game over: Black wins (resignation)" in shown


def test_commands_work_at_the_new_game_question(tmp_path: Path):
    pdn = tmp_path / "won.pdn"
    app, shown = play_session(f"c3:e5\rrecord\rreview\rsave {pdn}\rhelp\rmaybe\rn\rquit\r",
                              tmp_path, fen="W:Wc3:Bd4")
    asked = "New game from the set-up position? [y/n; i: from the initial position] "
    assert f"{asked}record\n1. c3:e5" in shown
    assert f"{asked}review\n1. c3:e5" in shown
    # never "1 plies" (issue 28, item 33)
    assert f"Saved to {pdn} (1 ply)." in shown and read_pdn_file(pdn)[0].result == "1-0"
    assert "Please answer y (yes) or n (no), or type a command" in shown
    assert f"{asked}n" in shown and app.game.ply == 1
    app, shown = play_session("c3:e5\rundo\rmoves\rquit\r", tmp_path, fen="W:Wc3:Bd4")
    assert "Took back c3:e5." in shown and "Captures (compulsory) for White (1): c3:e5" in shown


SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


def test_review_shows_the_coachs_notes_on_the_game_so_far(tmp_path: Path):
    # shot-01 of combos/motifs.txt fires for White here; g3-h4 lets it pass.
    app, shown = play_session("review\rg3-h4\rreview\rrecord\rquit\r", tmp_path, fen=SHOT_01)
    assert "1. White to move: review\nNo move has been played yet." in shown
    after = shown.split("2. White to move: review\n", 1)[1]
    # the graded move's note as annotate writes it: its glyph, the move, why, the proof, better
    assert after.startswith("1. g3-h4 c5-b4\n?: 1. g3-h4 (")
    first = after.split("\n")[1]
    assert (": White missed the shot e3-d4 (e3-d4 gives a man, c5:e3 is forced, d2:f4:h6 "
            "takes two): it wins a man: e3-d4 c5:e3 d2:f4:h6; better 1. e3-d4 (") in first
    assert "Evaluation in men" in after  # the graph under the notes
    assert "2. White to move: record\n1. g3-h4 c5-b4\n2." in shown  # record stays the record
    assert "Nothing to note" not in shown


def test_review_of_a_game_without_a_missed_or_allowed_rule(tmp_path: Path):
    app, shown = play_session("e3-d4\rreview\rquit\r", tmp_path, fen=SHOT_01)
    assert "review\n1. e3-d4 c5:e3\n1. e3-d4: played: the shot e3-d4 (" in shown
    app, shown = play_session("c3:e5\rreview\rn\rquit\r", tmp_path, fen="W:Wc3:Bd4")
    assert "review\n1. c3:e5\nNothing to note: no move was graded" in shown


def test_fen_numbered_writes_the_squares_as_numbers(tmp_path: Path):
    _, shown = play_session("fen --numbered\rfen\rfen x\rquit\r", tmp_path)
    assert "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in shown
    assert fen(START) in shown
    assert "fen takes no argument but --numbered, got 'x'." in shown


def test_help_kb_and_tags_with_escape_sequences_shown_written_out(tmp_path: Path):
    pdn = tmp_path / "evil.pdn"
    pdn.write_text('[White "\x1b[31mRed\x07"]\n[Black "B"]\n[Result "*"]\n\n1. c3-d4 *\n\n'
                   '[White "X"]\n[Black "Y"]\n[Result "*"]\n\n1. c3-d4 *\n', encoding="utf-8")
    app, shown = play_session(f"help kb\rhelp\rload {pdn}\rquit\r", tmp_path)
    assert "No block was skipped: every rule file loaded whole." in shown
    assert "help kb" in shown.split("to move: help\n", 1)[1]  # the topic in the list
    assert "1. \\x1b[31mRed\\x07 – B, *, 1 ply" in shown
    assert "\x1b" not in "".join(app.console.transcript)
