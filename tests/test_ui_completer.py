"""The completer as a pure function of a Document and two callables."""

from __future__ import annotations

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from kbdraughts.board import START
from kbdraughts.notation import moves_text, parse_fen
from kbdraughts.board import legal_moves
from kbdraughts.ui.commands import completion_table
from kbdraughts.ui.completer import GameCompleter


def complete(text: str, moves: list[str] | None = None) -> list[str]:
    moves = moves_text(legal_moves(START)) if moves is None else moves
    completer = GameCompleter(lambda: moves, completion_table)
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent(True))]


def test_all_legal_moves_on_an_empty_line():
    assert complete("") == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]


def test_moves_from_a_square_whatever_the_separator():
    assert complete("c3") == ["c3-b4", "c3-d4"]
    assert complete("C3D") == ["c3-d4"]
    assert complete("c3 d") == ["c3-d4"]
    assert complete("c3-h8") == []


def test_captures_complete_with_their_full_path():
    moves = moves_text(legal_moves(parse_fen("W:Wc3:Bd4,f6")))
    assert complete("c3x", moves) == ["c3:e5:g7"]
    assert complete("c3:e5", moves) == ["c3:e5:g7"]


def test_commands_and_their_arguments(tmp_path):
    assert complete("he") == ["help"]
    assert complete("u") == ["undo"]
    assert complete("fl") == ["flip"]
    assert complete("teach c3") == ["c3-b4", "c3-d4"]
    assert complete("undo x") == []
    (tmp_path / "game1.pdn").write_text("")
    assert complete(f"load {tmp_path}/ga") == ["me1.pdn"]
