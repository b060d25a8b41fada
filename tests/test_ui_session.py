"""The session without a console: seats as PlayerSpec values, the level, undo, a new game, the
PDN tags and the autosave's note. The AI thread is never started: no player is built."""

from __future__ import annotations

from pathlib import Path

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.board import START
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_move
from kbdraughts.ui.autosave import Autosave
from kbdraughts.ui.session import HUMAN, KB, Session


def never_built(spec: PlayerSpec):
    raise AssertionError("the AI thread is not started in these tests")


def session(*specs: str, **kwargs) -> Session:
    return Session(never_built, [PlayerSpec.parse(s) for s in specs], **kwargs)


def test_seats_and_names():
    s = session("human", "kb:2")
    assert (s.seat_name(0), s.seat_name(1)) == ("White (you)", "Black (kb:2)")
    assert s.people() == [0] and s.players[0] is None and s.players[1] is not None
    assert session("kb", "me").bottom == 1  # the person's side at the bottom
    both = session("human", "you")
    assert both.seat_name(0) == "White (human)" and both.bottom == 0


def test_a_resumed_game_names_its_seats_as_a_new_one_does():
    """The autosave's tags name the seats ``You`` and the AI's spec: the resumed game reads
    ``White (you)`` as it did before (it read ``White (You)``); a file's players stay."""
    from kbdraughts.pdn import parse_pdn

    saved = parse_pdn('[White "You"]\n[Black "kb:2"]\n\n1. c3-d4 *\n')[0]
    s = session("human", "kb:2", record=saved, game=saved.game)
    assert (s.seat_name(0), s.seat_name(1)) == ("White (you)", "Black (kb:2)")
    loaded = parse_pdn('[White "Medkov"]\n[Black "You"]\n\n1. c3-d4 *\n')[0]
    s = session("human", "kb:2", record=loaded, game=loaded.game)
    assert (s.seat_name(0), s.seat_name(1)) == ("White (Medkov)", "Black (You)")


def test_the_level_reaches_every_engine_and_keeps_its_options():
    s = session("kb:1:nokb", "kb:2:200ms", level=3)
    assert [str(x) for x in s.specs] == ["kb:3:nokb", "kb:3:200ms"]
    assert s.set_level(1) and [str(x) for x in s.specs] == ["kb:1:nokb", "kb:1:200ms"]
    assert s.shown_level() == 1
    others = session("human", "random")
    assert not others.set_level(2) and str(others.specs[1]) == "random"
    assert others.shown_level() == 2


def test_hint_player_is_the_engine_playing_or_one_at_the_level():
    s = session("human", "kb:1:nokb")
    assert s.hint_player() is s.players[1]
    other = session("human", "random", level=2)
    assert other.hint_player().spec == KB.with_level(2)
    assert other.hint_player() is other.hint_player()


def test_undo_goes_back_to_the_persons_turn():
    s = session("human", "random")
    for text in ("c3-d4", "b6-a5"):
        s.play(parse_move(s.game.position, text, s.game.legal_moves()), choice="why")
    assert s.last_choice() == (1, "why")
    assert [move_text(m) for m in s.undo()] == ["b6-a5", "c3-d4"]
    assert s.game.position == START and s.last_choice() is None and s.undo() == []


def test_new_game_as_black_swaps_the_seats():
    s = session("human", "kb:1")
    s.game.push(s.game.legal_moves()[0])
    s.new_game("black")
    assert s.specs == [PlayerSpec.parse("kb:1"), HUMAN] and s.bottom == 1
    assert s.game.ply == 0


def test_tags_and_the_autosave_note_once(tmp_path: Path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    s = session("human", "kb:1:nokb", autosave=Autosave(blocked / "games"))
    assert s.tags()["White"] == "You" and s.tags()["Black"] == "kb:1:nokb"
    s.game.push(s.game.legal_moves()[0])
    note = s.save_now()
    assert note is not None and note.startswith("Note: could not autosave to ")
    assert note.endswith("; the game goes on unsaved.")
    assert s.save_now() is None  # said once
    saved = session("human", "random", autosave=Autosave(tmp_path / "games"), game=Game())
    saved.game.push(saved.game.legal_moves()[0])
    assert saved.save_now() is None and saved.autosave.path.exists()


def test_undo_never_takes_back_only_the_ais_moves():
    # As Black before the first move of one's own, undo would take back the AI's opening move
    # and the AI would play it again at once (issue 11).
    s = session("random", "human")
    s.play(s.game.legal_moves()[0])
    assert not s.can_undo() and s.undo() == [] and s.game.ply == 1
    s.play(s.game.legal_moves()[0])
    s.play(s.game.legal_moves()[0])
    assert s.can_undo() and len(s.undo()) == 2 and s.game.ply == 1
    watching = session("random", "random")  # no person: the last move, whoever played it
    watching.play(watching.game.legal_moves()[0])
    assert watching.can_undo() and len(watching.undo()) == 1


def test_a_resignation_or_an_agreed_draw_is_taken_back_before_any_move():
    s = session("human", "random")
    s.play(s.game.legal_moves()[0])
    s.game.resign(0)
    assert s.ended_by_word() is not None and s.can_undo()
    assert s.take_back_ending().winner == 1
    assert s.game.result is None and s.game.ply == 1 and s.take_back_ending() is None
    fresh = session("human", "random")
    assert not fresh.can_undo()
    fresh.game.agree_draw()  # on move 1: nothing but the agreement to take back
    assert fresh.can_undo() and fresh.take_back_ending().winner is None
    assert fresh.game.result is None
