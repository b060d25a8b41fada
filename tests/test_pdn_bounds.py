"""The PDN reader's cost bounded by its input (issue 40, items 3-5 and 13): linear time on texts
that once took quadratic time, memory a small multiple of the text, and a random and hostile
text read under a time limit (Hypothesis), never an exception but a PdnError in a game's place.

Each size below took 10-100 s before (a search to the end of the text from every game, result
or brace; a regular expression's stack of some 400 bytes for each byte of a tag) and takes well
under a second now: the limits leave room for a busy machine, not for a quadratic reader.
"""

from __future__ import annotations

import time
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbdraughts.pdn import PdnError, PdnGame
from kbdraughts.pdn.reader import PdnFile
from kbdraughts.pdn.split import split_games

GAME = "1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. g3-h4 h8-g7 1-0\n"


def _seconds(text: str) -> float:
    start = time.process_time()
    PdnFile(text, "t.pdn").entries
    return time.process_time() - start


@pytest.mark.parametrize("text", [
    "1-0 " * 40_000,  # bare results, 160 KB: 113 s before
    "{" * 200_000,  # a comment never closed, 200 KB: 46 s before
    "1. 1-0 " * 30_000,  # games without moves: a move searched for to the end each
    GAME * 6_000,  # 300 KB of games without tags: 27 s before
])
def test_hostile_texts_cut_in_linear_time(text: str) -> None:
    start = time.process_time()
    spans = split_games(text)
    assert time.process_time() - start < 2.0
    assert not spans or spans[-1].end == len(text)


def test_a_game_of_unclosed_braces_reads_in_linear_time() -> None:
    assert _seconds("1. c3-d4 " + "{" * 100_000) < 3.0  # the lexer's turn: 12 s before


def test_untagged_games_are_cut_apart() -> None:
    text = GAME * 100
    spans = split_games(text)
    assert len(spans) == 100
    assert text[spans[1].start:spans[1].end] == GAME


@pytest.mark.parametrize("text", [
    '[Event "' + "x" * 200_000 + '"]\n1. c3-d4 *\n',  # a long tag: 400 bytes a byte before
    '[Event "' + '\\"' * 100_000 + '"]\n1. c3-d4 *\n',  # escapes
    '[A "b"]\n' * 10_000 + "1. c3-d4 *\n",  # many short tags
])
def test_tags_cost_memory_a_small_multiple_of_the_text(text: str) -> None:
    tracemalloc.start()
    try:
        (game,) = PdnFile(text, "t.pdn").entries
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(game, PdnGame)
    assert peak < 40 * len(text)


def test_an_unclosed_brace_is_still_named() -> None:
    (game,) = PdnFile("1. c3-d4 {" + "{" * 1000 + "\n", "t.pdn").entries
    assert isinstance(game, PdnError)
    assert "t.pdn:1: comment '{' is never closed" in str(game)
    # a '{' closed later is a comment, braces inside it and all
    (game,) = PdnFile("1. c3-d4 {a { b} f6-g5 *", "t.pdn").entries
    assert isinstance(game, PdnGame) and len(game.game.moves) == 2


#: Pieces of PDN that meet in hostile files: the parser's every state, and its edges.
_PIECES = st.sampled_from([
    "1.", " 1. ", "2...", "c3-d4", "f6-g5", "22-18", "c3:e5", "x", "{", "}", "{c}", "(", ")",
    "[", "]", '[Event "e"]', '[FEN "W:W21:B12"]', '[A "\\"', '"', "\\", ";c\n", "\n%esc\n",
    "1-0", "0-1", "1/2-1/2", "*", "2-0", "$1", "!?", "\r", "\n", "\r\n", " ", "\t", "…", "Ь2-c3",
    "\x00", "\ufeff", "a9-b10", "10.", "1 . ", "-", ":"])


@settings(max_examples=300, deadline=2000, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=60))
def test_any_text_reads_to_games_or_errors(pieces: list[str]) -> None:
    text = "".join(pieces)
    f = PdnFile(text, "t.pdn")
    assert all(isinstance(g, (PdnGame, PdnError)) for g in f.entries)
    # the games' spans cover the text from the first game on, one after another
    for a, b in zip(f.spans, f.spans[1:]):
        assert a.end == b.start
    if f.spans:
        assert f.spans[-1].end == len(text)
        assert f.with_games({}) == text


@settings(max_examples=20, deadline=5000, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_PIECES, st.integers(5_000, 20_000))
def test_one_piece_repeated_reads_in_time(piece: str, times: int) -> None:
    text = piece * times  # up to 200 KB of one hostile piece
    assert _seconds(text) < 5.0
