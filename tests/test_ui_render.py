"""The board drawing, the glyph fallback and the toolbar."""

from __future__ import annotations

from prompt_toolkit.formatted_text import fragment_list_to_text

from kbdraughts.board import BLACK, START, play
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.ui.render import ASCII, UNICODE, board_fragments, board_text, glyphs_for
from kbdraughts.ui.toolbar import ToolbarInfo, toolbar_fragments


def test_seen_from_each_side():
    white = board_text(START, glyphs=ASCII).splitlines()
    black = board_text(START, glyphs=ASCII, bottom=BLACK).splitlines()
    assert white[0].split() == list("abcdefgh") and white[1].startswith(" 8")
    assert black[0].split() == list("hgfedcba") and black[1].startswith(" 1")
    assert white[-2] == " 1  w     w     w     w     1"
    assert black[1] == " 1     w     w     w     w  1"


def test_last_move_and_taken_pieces_are_marked_without_colour():
    pos = parse_fen("W:Wc3:Bd4,f6")
    move = parse_move(pos, "c3:g7")
    text = board_text(play(pos, move), last=move, glyphs=ASCII)
    rows = {line[1]: line for line in text.splitlines()[1:-1]}
    assert "[w]" in rows["7"]  # the capturing man landed on g7
    assert rows["6"].count("x") == 1 and rows["4"].count("x") == 1  # f6 and d4 taken
    assert "[.]" in rows["5"] and "[.]" in rows["3"]  # passed e5, started c3


def test_highlight_styles_in_colour():
    pos = parse_fen("W:Wc3:Bd4")
    move = parse_move(pos, "c3:e5")
    frags = board_fragments(play(pos, move), last=move)
    taken = [(style, text) for style, text in frags if "board.taken" in style]
    assert taken == [("class:board.taken", " × ")]  # d4, where the black man was
    assert any("board.last" in s and "piece.white" in s for s, _ in frags)
    assert all(" " in t or t == "\n" for s, t in frags if "board.light" in s)


def test_kings_and_men_differ():
    text = board_text(parse_fen("W:Wc3,Ke1:Bd6,Kf8"), glyphs=UNICODE)
    assert all(g in text for g in "○♕●♛")


def test_unicode_falls_back_to_ascii_when_the_encoding_cannot_show_it():
    assert glyphs_for("utf-8") is UNICODE
    assert glyphs_for("ascii") is ASCII
    assert glyphs_for("latin-1") is ASCII
    assert glyphs_for(None) is ASCII
    assert glyphs_for("utf-8", force_ascii=True) is ASCII


def test_toolbar_shows_move_side_material_level_and_reason():
    info = ToolbarInfo(12, "Black", "White 8 men, Black 7 men", 3, "rule petrov-1")
    text = fragment_list_to_text(toolbar_fragments(info))
    for part in ("Move 12", "Black to move", "White 8 men, Black 7 men", "Level 3",
                 "AI: rule petrov-1"):
        assert part in text
    assert "Level" not in fragment_list_to_text(
        toolbar_fragments(ToolbarInfo(1, "White", "m", None)))


def test_the_move_list_numbers_the_moves_and_marks_the_last():
    from kbdraughts.board import WHITE
    from kbdraughts.game import Game
    from kbdraughts.ui.render import last_move_text, move_list

    game = Game(parse_fen("B:Wc3,e3:Bf6,h6"))
    for text in ("f6-g5", "c3-d4", "g5-h4", "e3-f4"):
        game.push(parse_move(game.position, text))
    rows = move_list(game.start.side, game.moves, 4)
    assert [fragment_list_to_text(r) for r in rows] == ["1. ... f6-g5", "2. c3-d4 g5-h4",
                                                         "3. e3-f4"]
    assert rows[-1][-1] == ("class:board.panel.last", " e3-f4")  # styled in colour
    marked = move_list(game.start.side, game.moves, 2, marks=True)
    assert [fragment_list_to_text(r) for r in marked] == ["2. c3-d4 g5-h4", "3. [e3-f4]"]
    assert last_move_text(game.start.side, game.moves) == "3. e3-f4"
    assert last_move_text(WHITE, []) == ""


def test_wrapping_breaks_at_spaces_never_inside_a_word_or_a_move():
    from kbdraughts.ui.commands import help_fragments
    from kbdraughts.ui.render import wrap_text

    help_text = fragment_list_to_text(help_fragments())
    for width in (40, 60, 79):
        wrapped = wrap_text(help_text, width)
        assert all(len(line) <= width for line in wrapped.splitlines())
        assert wrapped.split() == help_text.split()  # the same words, none cut
    long = "a" * 50 + " c3:e5:g7:e5 done"
    assert wrap_text(long, 20).splitlines() == ["a" * 50, "c3:e5:g7:e5 done"]


def test_the_panel_drops_words_to_fit_beside_the_board_never_numbers():
    from kbdraughts.ai.spec import PlayerSpec
    from kbdraughts.game import Game
    from kbdraughts.ui.panel import panel_columns, panel_width, side_panel
    from kbdraughts.ui.session import HUMAN, Session

    session = Session(lambda spec: None, [HUMAN, PlayerSpec.parse("kb:2:nokb:300ms")],
                      game=Game(parse_fen("W:WKa1,c3,e3,g3:Bb6,d6,f6,Kh8")))
    wide = [fragment_list_to_text(line) for line in side_panel(session, False, None)]
    assert wide[:2] == ["Black (kb:2:nokb:300ms)", "White 3 men 1 king, Black 3 men 1 king"]
    for columns, material, seat in ((80, wide[1], wide[0]), (60, "White 3+1K, Black 3+1K", None),
                                    (56, "White 3+1K, Black 3+1K", "Black")):
        panel = side_panel(session, False, panel_width(columns))
        lines = [fragment_list_to_text(line) for line in panel]
        assert panel_columns(panel) <= columns and lines[1] == material, (columns, lines)
        if seat is not None:
            assert lines[0] == seat, (columns, lines)
