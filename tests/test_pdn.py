"""PDN games: writing, reading back, tolerance of what other programs write, and errors."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from kbdraughts.board import BLACK, START, WHITE
from kbdraughts.game import Game, Reason
from kbdraughts.notation import fen, move_text, parse_fen, parse_move
from kbdraughts.pdn import (
    MAX_PDN_BYTES, PdnError, PdnGame, game_to_pdn, parse_games, parse_pdn, read_pdn_file,
    write_pdn_file,
)

DATA = Path(__file__).parent / "data"


def random_game(seed: int, start=START, max_plies: int = 200) -> Game:
    rng = random.Random(seed)
    game = Game(start)
    while game.result is None and game.ply < max_plies:
        game.push(rng.choice(game.legal_moves()))
    return game


def play(game: Game, *texts: str) -> Game:
    for t in texts:
        game.push(parse_move(game.position, t))
    return game


def test_written_game_has_roster_tags_numbered_moves_and_result():
    g = play(Game(), "c3-d4", "f6-g5", "g3-f4")
    text = game_to_pdn(g, {"Event": "Club", "Date": "2024.05.01", "White": "Ann", "Black": "Bo"})
    assert text.splitlines() == [
        '[Event "Club"]',
        '[Date "2024.05.01"]',
        '[White "Ann"]',
        '[Black "Bo"]',
        '[Result "*"]',
        '[GameType "25"]',
        "",
        "1. c3-d4 f6-g5 2. g3-f4 *",
    ]


def test_game_from_a_position_with_black_to_move_writes_setup_and_starts_with_dots():
    start = parse_fen("B:Wc3,e3:Bf6,h6")
    g = play(Game(start), "f6-e5", "c3-d4")
    text = game_to_pdn(g)
    assert '[SetUp "1"]' in text and '[FEN "B:Wc3,e3:Bf6,h6"]' in text
    assert text.splitlines()[-1] == "1... f6-e5 2. c3-d4 *"
    back = parse_pdn(text)[0]
    assert back.game.start == start
    assert back.game.position == g.position


@pytest.mark.parametrize("seed", range(12))
def test_random_games_round_trip(seed: int):
    g = random_game(seed)
    text = game_to_pdn(g, {"White": "random", "Black": "random"})
    (back,) = parse_pdn(text)
    assert back.game.moves == g.moves
    assert back.game.positions == g.positions
    assert back.tags["White"] == "random"
    assert back.result == (g.result.pdn if g.result else "*")
    assert back.game.result == g.result
    assert game_to_pdn(back.game, back.tags) == text  # and writing it again is identical


def test_round_trip_from_a_king_position_and_captures():
    start = parse_fen("W:WKg1,a3,Kd4:Bb6,c7,Kh8")
    g = random_game(7, start, max_plies=40)
    assert any(m.is_capture for m in g.moves) or g.ply == 40
    (back,) = parse_pdn(game_to_pdn(g))
    assert back.game.positions == g.positions


def test_long_movetext_is_wrapped_without_splitting_a_numbered_move():
    g = random_game(3)
    body = game_to_pdn(g).split("\n\n", 1)[1].splitlines()
    assert len(body) > 1
    assert all(len(line) <= 79 for line in body)
    assert not any(line.rstrip().endswith(".") for line in body)


def test_tag_values_with_quotes_and_backslashes_round_trip():
    tags = {"Event": 'The "Big" one \\ 2', "Annotator": "Ирина"}
    (back,) = parse_pdn(game_to_pdn(Game(), tags))
    assert back.tags["Event"] == tags["Event"]
    assert back.tags["Annotator"] == "Ирина"


def test_result_of_the_game_is_written_and_a_decisive_token_is_recorded_on_read():
    g = play(Game(), "c3-d4")
    g.resign(BLACK)
    text = game_to_pdn(g)
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1. c3-d4 1-0")
    (back,) = parse_pdn(text)
    assert back.result == "1-0"
    assert back.game.result is not None and back.game.result.winner == WHITE
    assert back.game.result.reason is Reason.RECORDED  # the file says who won, not how
    g2 = Game()
    g2.agree_draw()
    assert parse_pdn(game_to_pdn(g2))[0].game.result.pdn == "1/2-1/2"


def test_a_game_lost_by_the_rules_keeps_its_reason():
    g = play(Game(parse_fen("W:Wc3:Bd4")), "c3:e5")
    assert g.result is not None and g.result.reason is Reason.NO_PIECES
    (back,) = parse_pdn(game_to_pdn(g))
    assert back.result == "1-0" and back.game.result == g.result


def test_reader_tolerates_comments_numbers_nags_marks_variations_and_shortened_captures():
    text = """
    ; a line comment
    [Event "Tolerance"]
    [GameType "25"]
    {A comment before the moves
     spanning two lines}
    1.c3-d4 {good} f6-g5! 2. g3-h4?! $3 ( 2. b2-c3 g7-f6 ) 2... g5-f4
    3. e3:g5 h6:f4 1. ... 4. d4-e5!? f4-g3 5. h2xf4 *
    """
    (pg,) = parse_pdn(text, "t.pdn")
    assert pg.tags == {"Event": "Tolerance", "GameType": "25"}
    assert [move_text(m) for m in pg.game.moves] == [
        "c3-d4", "f6-g5", "g3-h4", "g5-f4", "e3:g5", "h6:f4", "d4-e5", "f4-g3", "h2:f4",
    ]
    assert pg.result == "*"


def test_several_games_in_one_text_with_and_without_tags():
    text = game_to_pdn(play(Game(), "c3-d4"), {"Event": "one"}) + "\n"
    text += game_to_pdn(play(Game(), "a3-b4"), {"Event": "two"})
    text += "\n1. e3-f4 1/2-1/2\n\n1. g3-h4 h6-g5 2-0"
    games = parse_pdn(text)
    assert [g.tags.get("Event") for g in games] == ["one", "two", None, None]
    assert [move_text(g.game.moves[0]) for g in games] == ["c3-d4", "a3-b4", "e3-f4", "g3-h4"]
    assert [g.result for g in games] == ["*", "*", "1/2-1/2", "1-0"]


def test_a_tag_after_movetext_without_result_starts_a_new_game():
    games = parse_pdn('[Event "a"]\n1. c3-d4\n[Event "b"]\n1. a3-b4 *')
    assert [(g.tags["Event"], g.game.ply, g.result) for g in games] == [
        ("a", 1, "*"), ("b", 1, "*"),
    ]


def test_result_tag_is_used_when_the_movetext_has_no_token():
    (g,) = parse_pdn('[Result "0-1"]\n1. c3-d4')
    assert g.result == "0-1" and g.game.result.winner == BLACK


def test_empty_text_has_no_games():
    assert parse_pdn("") == []
    assert parse_pdn("  \n{just a comment}\n") == []


def test_data_file_games(tmp_path: Path):
    games = read_pdn_file(DATA / "games.pdn")
    assert len(games) == 3
    first, setup, short = games
    assert first.tags["White"] == "Иванов" and first.result == "1/2-1/2"
    assert setup.game.start == parse_fen(setup.tags["FEN"])
    assert setup.game.start.side == BLACK
    assert setup.game.result is not None and setup.game.result.winner == BLACK
    assert setup.game.result.reason is Reason.NO_PIECES
    assert short.result == "*" and short.game.result is None
    out = tmp_path / "copy.pdn"
    write_pdn_file(out, games)
    again = read_pdn_file(out)
    assert [g.game.positions for g in again] == [g.game.positions for g in games]
    for g, a in zip(games, again):
        assert a.tags == g.tags  # as the file had them: no Result tag added


def test_write_appends_and_reads_several(tmp_path: Path):
    out = tmp_path / "games.pdn"
    write_pdn_file(out, play(Game(), "c3-d4"), {"Event": "1"})
    write_pdn_file(out, play(Game(), "e3-f4"), {"Event": "2"}, append=True)
    games = read_pdn_file(out)
    assert [g.tags["Event"] for g in games] == ["1", "2"]


def test_writing_over_a_file_replaces_it_whole_or_leaves_it(tmp_path: Path, monkeypatch):
    # Issue 11: a full disk or a kill while saving cut the old file.
    out = tmp_path / "game.pdn"
    write_pdn_file(out, play(Game(), "c3-d4"), {"Event": "old"})
    before = out.read_text(encoding="utf-8")
    out.chmod(0o640)

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full_disk)
    with pytest.raises(OSError):
        write_pdn_file(out, play(Game(), "e3-f4"), {"Event": "new"})
    monkeypatch.undo()
    assert out.read_text(encoding="utf-8") == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.pdn"]  # no temporary file left
    link = tmp_path / "link.pdn"
    link.symlink_to(out)
    write_pdn_file(link, play(Game(), "e3-f4"), {"Event": "new"})
    assert link.is_symlink() and read_pdn_file(out)[0].tags["Event"] == "new"
    assert out.stat().st_mode & 0o777 == 0o640


def test_read_windows_1251_file(tmp_path: Path):
    out = tmp_path / "ru.pdn"
    out.write_bytes('[White "Петров"]\n1. c3-d4 *\n'.encode("cp1251"))
    assert read_pdn_file(out)[0].tags["White"] == "Петров"


def _error(text: str, source: str = "g.pdn") -> str:
    with pytest.raises(PdnError) as info:
        parse_pdn(text, source)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_illegal_move_names_source_line_move_number_and_move():
    message = _error('[Event "x"]\n\n1. c3-d4 f6-g5\n2. d4-e5 h6-g5 *')
    assert message.startswith("g.pdn:4: move 2... h6-g5:")
    assert "you must capture: d6:f4" in message  # the reason is parse_move's
    message = _error("1. c3-d5 *")
    assert message.startswith("g.pdn:1: move 1. c3-d5:") and "light square" in message


def test_illegal_move_reason_names_the_piece_and_its_moves():
    message = _error("1. c3-d4 f6-e5 2. d4-c5 *")
    assert message.startswith("g.pdn:1: move 2. d4-c5:")
    assert "d4:f6" in message


def test_errors_for_bad_syntax_tags_fen_and_game_type():
    assert _error("1. c3-d4 c3-d44 *").startswith("g.pdn:1: 'c3-d44' is not a move")
    assert _error("1. c3-d4 f6-g5 2. 33-28 *").startswith("g.pdn:1: '33-28': square 33")
    assert _error('\n[Event "x]\n1. c3-d4 *').startswith("g.pdn:2: malformed tag")
    assert _error("1. c3-d4 {never closed\n *").startswith("g.pdn:1: comment")
    assert _error("1. c3-d4 ( e3-f4 *").startswith("g.pdn:1: a variation")
    assert _error("1. c3-d4 ) *").startswith("g.pdn:1: ')'")
    message = _error('[Event "x"]\n[FEN "W:Wa1:Ba2"]\n1. a1-b2 *')
    assert message.startswith("g.pdn:2: bad FEN tag:") and "a2" in message
    message = _error('[GameType "20"]\n1. 32-28 *')
    assert message.startswith("g.pdn:1: GameType '20' is not Russian draughts")
    assert _error('[Result "2-1"]\n1. c3-d4').startswith("g.pdn:1: Result '2-1'")


def test_a_stray_closing_brace_or_bracket_is_an_error_naming_the_place(tmp_path: Path):
    # Issue 11: these were an AssertionError, and one such file broke every --resume.
    assert _error("1. c3-d4 } f6-g5 *") == "g.pdn:1: stray '}' closes no comment '{'"
    assert _error('[Event "x"]\n\n1. c3-d4\n] f6-g5 *') == "g.pdn:4: stray ']' closes no tag '['"
    assert _error("1. c3-d4 ( e3-f4 } ) *").startswith("g.pdn:1: stray '}'")
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n1. c3-d4 f6-g5 }\n*\n', encoding="utf-8")
    with pytest.raises(PdnError, match=rf"^{re.escape(str(bad))}:2: stray '}}'"):
        read_pdn_file(bad)


def test_moves_after_the_game_ended_by_the_rules_are_an_error():
    message = _error('[FEN "W:Wc3:Bd4"]\n1. c3:e5\nh8-g7 *')
    assert message == (
        "g.pdn:3: move 1... h8-g7: the game was already over: White wins (no pieces left)"
    )


def test_read_missing_file_is_a_pdn_error(tmp_path: Path):
    with pytest.raises(PdnError, match="cannot read"):
        read_pdn_file(tmp_path / "nope.pdn")


def test_a_file_without_end_or_too_large_is_refused_not_read_without_bound(tmp_path: Path):
    # Issue 11: `play --load /dev/zero` read without bound.
    with pytest.raises(PdnError, match=r"^/dev/zero: not read: larger than 64 MB$"):
        read_pdn_file("/dev/zero")
    big = tmp_path / "big.pdn"
    with big.open("wb") as f:
        f.truncate(MAX_PDN_BYTES + 1)
    with pytest.raises(PdnError, match=rf"^{re.escape(str(big))}: not read"):
        read_pdn_file(big)
    with pytest.raises(PdnError, match="cannot read"):
        read_pdn_file(tmp_path)  # a folder


def test_game_to_pdn_rejects_an_unknown_result():
    with pytest.raises(ValueError):
        game_to_pdn(Game(), {"Result": "3-0"})


def test_pdn_game_defaults():
    pg = PdnGame()
    assert pg.game.position == START and pg.result == "*" and pg.tags == {}
    assert fen(pg.game.position) == fen(START)


def test_comments_follow_their_moves_and_read_back():
    # kbdraughts annotate writes the coach's notes this way (issue 12)
    g = Game()
    for text in ("c3-d4", "f6-g5", "g3-f4", "g7-f6"):
        g.push(parse_move(g.position, text))
    text = game_to_pdn(g, comments={0: "missed: a } b; allowed: d", 3: "allowed: c"})
    assert text.splitlines()[-1] == (
        "1. c3-d4 {missed: a ) b; allowed: d} 1... f6-g5 2. g3-f4 g7-f6 {allowed: c} *")
    assert parse_pdn(text)[0].game.moves == g.moves
    assert game_to_pdn(g, comments={}) == game_to_pdn(g)


def test_a_result_inside_the_movetext_is_an_error_not_a_second_game():
    # issue 28, item 17: "... e7-f6 1-0 3. a3-b4 *" was read as two games
    text = '[Event "x"]\n1. c3-d4 f6-g5 2. g3-h4 e7-f6 1-0\n3. a3-b4 *\n'
    (entry,) = parse_games(text, "g.pdn")
    assert isinstance(entry, PdnError)
    assert str(entry).startswith("g.pdn:2: the result 1-0 stands inside the game: '3.' "
                                 "follows it on line 3")
    # a game without tags after a result starts with 1.: a game of its own
    one, two = parse_pdn("1. c3-d4 1-0\n1. c3-b4 *\n")
    assert (len(one.game.moves), one.result, len(two.game.moves)) == (1, "1-0", 1)


def test_a_cyrillic_letter_in_a_move_is_an_error_with_its_line():
    # issue 28, item 18: "2. Ь2-c3" was kept as a comment and the game lost its plies
    text = '[Event "x"]\n1. c3-d4 f6-g5\n2. Ь2-c3 g5-h4 *\n'
    (entry,) = parse_games(text, "g.pdn")
    assert isinstance(entry, PdnError)
    assert str(entry) == ("g.pdn:3: 'Ь2-c3' is not a move: 'Ь' is not a file a-h (a Cyrillic "
                          "letter: type the Latin one)")
    (pg,) = parse_pdn("1. c3-d4 (1. с3-b4) f6-g5 *")  # a Cyrillic с in a variation
    assert len(pg.game.moves) == 2 and "'с3-b4' is not a move" in pg.text_only[0]


def test_one_game_of_a_file_is_read_alone_and_the_file_cut_as_a_full_read_cuts_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # issue 28, item 14: play --load F --game N replayed every game of F
    from kbdraughts.pdn import load_pdn_file, reader

    games = [game_to_pdn(play_moves("c3-d4", "f6-g5"), {"Event": f"g{i}"}) for i in range(40)]
    text = "\n".join(games) + "\n1. c3-d4 1-0\n1. c3-b4 0-1\n"  # two without tags
    path = tmp_path / "many.pdn"
    path.write_text(text, encoding="utf-8")
    replayed = []
    real = reader._replay
    monkeypatch.setattr(reader, "_replay", lambda raw, *a: replayed.append(raw) or real(raw, *a))
    read = load_pdn_file(path)
    assert len(read) == 42 and replayed == []
    assert read.entry(29).tags["Event"] == "g29" and len(replayed) == 1
    assert [g.tags.get("Event") for g in read.entries] == [g.tags.get("Event") for g in
                                                          parse_pdn(text)]
    assert read.with_games({}) == text  # the pieces cover the whole text


def play_moves(*texts: str) -> Game:
    game = Game()
    for text in texts:
        game.push(parse_move(game.position, text))
    return game


def test_a_malformed_tag_after_a_result_starts_the_next_game_named_by_its_fault():
    one, two = parse_games('1. c3-d4 *\n\n[Event oops\n1. c3-b4 *\n', "g.pdn")
    assert isinstance(one, PdnGame) and len(one.game.moves) == 1
    assert isinstance(two, PdnError) and str(two).startswith("g.pdn:3: malformed tag")
