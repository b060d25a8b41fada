"""The variation tree beside a game's main line (kbdraughts/variations.py), and variations made
here written to PDN and read back: in a game played here and beside a file's own moves."""

from __future__ import annotations

import pytest

from kbdraughts.board import START, WHITE
from kbdraughts.game import Game
from kbdraughts.notation import parse_move
from kbdraughts.pdn import parse_pdn, pdn_game_text
from kbdraughts.pdn.lines import record_text
from kbdraughts.pdn.writer import game_to_pdn
from kbdraughts.variations import Played, Variations


def game_of(*texts: str) -> Game:
    game = Game(START)
    for text in texts:
        game.push(parse_move(game.position, text))
    return game


def moves(game: Game, *texts: str) -> tuple:
    """The moves ``texts`` played on from the end of ``game`` (a copy)."""
    g = game_of(*(m for m in _texts(game)))
    out = []
    for text in texts:
        move = parse_move(g.position, text)
        g.push(move)
        out.append(move)
    return tuple(out)


def _texts(game: Game) -> list[str]:
    from kbdraughts.notation import move_text
    return [move_text(m) for m in game.moves]


MAIN = ("c3-d4", "f6-g5", "b2-c3", "g7-f6")


def test_playing_at_each_place_of_the_tree():
    game = game_of(*MAIN)
    main = game.moves
    tree = Variations()
    start = game_of()
    a3b4, = moves(start, "a3-b4")
    assert tree.play(main, (), main[0]) is Played.FOLLOWED
    assert tree.play(main, (), a3b4) is Played.BRANCHED
    assert tree.play(main, (), a3b4) is Played.ENTERED  # kept: not added twice
    assert len(tree) == 1
    b6a5, = moves(game_of("a3-b4"), "b6-a5")
    assert tree.play(main, (a3b4,), b6a5) is Played.EXTENDED
    assert tree.continuation(main, ()) == list(main)
    assert tree.continuation(main, (a3b4,)) == [b6a5]
    assert not tree.in_main_line(main, (a3b4,)) and tree.in_main_line(main, main[:2])
    assert tree.play(main, tuple(main), moves(game, "c3-b4")[0]) is Played.MAIN_END
    assert len(tree) == 1  # the game plays its own next move, not the tree
    assert tree.locate(main, (main[0], b6a5)) is None


def test_nested_variations_are_written_with_their_numbers():
    game = game_of(*MAIN)
    main = game.moves
    tree = Variations()
    f6e5, = moves(game_of("c3-d4"), "f6-e5")
    tree.play(main, main[:1], f6e5)
    d4f6, = moves(game_of("c3-d4", "f6-e5"), "d4:f6")
    tree.play(main, (main[0], f6e5), d4f6)
    g7e5, = moves(game_of("c3-d4", "f6-e5", "d4:f6"), "g7:e5")
    tree.play(main, (main[0], f6e5, d4f6), g7e5)
    e7g5, = moves(game_of("c3-d4", "f6-e5", "d4:f6"), "e7:g5")
    assert tree.play(main, (main[0], f6e5, d4f6), e7g5) is Played.BRANCHED  # nested
    assert record_text(tree, main, WHITE) == (
        "1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6 g7:e5 (2... e7:g5)) 2. b2-c3 g7-f6")
    assert len(tree) == 2


def test_taking_back_a_variations_moves_and_pruning():
    game = game_of(*MAIN)
    main = game.moves
    tree = Variations()
    a3b4, b6a5 = moves(game_of(), "a3-b4", "b6-a5")
    tree.play(main, (), a3b4)
    tree.play(main, (a3b4,), b6a5)
    assert not tree.take_back(main, (a3b4,))  # not at the variation's end
    assert not tree.take_back(main, main[:2])  # the main line is the game's to take back
    assert tree.take_back(main, (a3b4, b6a5))
    assert tree.continuation(main, (a3b4,)) == []
    assert tree.take_back(main, (a3b4,))
    assert len(tree) == 0 and tree.branches == {}
    g5h4, = moves(game_of("c3-d4", "f6-g5", "b2-c3"), "g5-h4")
    tree.play(main, main[:3], g5h4)
    assert tree.prune(3) == 1 and len(tree) == 0


def test_a_game_with_variations_written_read_and_written_again_is_the_same():
    game = game_of(*MAIN)
    main = game.moves
    tree = Variations()
    a3b4, = moves(game_of(), "a3-b4")
    tree.play(main, (), a3b4)
    g5h4, = moves(game_of("c3-d4", "f6-g5", "b2-c3"), "g5-h4")
    tree.play(main, main[:3], g5h4)
    text = game_to_pdn(game, {"Event": "v"}, variations=tree)
    assert "1. c3-d4 (1. a3-b4) 1... f6-g5 2. b2-c3 g7-f6 (2... g5-h4) *" in text
    (pg,) = parse_pdn(text)
    assert pg.game.moves == main  # a variation is never played
    assert pg.source is not None and pg.source.variation_texts(4) == {
        0: ["(1. a3-b4)"], 3: ["(2... g5-h4)"]}
    assert pdn_game_text(pg) == text


def test_a_variation_made_beside_a_files_moves_goes_in_after_the_move():
    text = '[Event "x"]\n\n1. c3-d4 {idea} f6-g5 (1... b6-a5) 2. b2-c3 g7-f6 1-0\n'
    (pg,) = parse_pdn(text)
    main = pg.game.moves
    e3f4, = moves(game_of("c3-d4", "f6-g5"), "e3-f4")
    pg.variations.play(main, main[:2], e3f4)
    again = pdn_game_text(pg)
    assert "1. c3-d4 {idea} f6-g5 (1... b6-a5) 2. b2-c3 (2. e3-f4) g7-f6 1-0" in again
    (read,) = parse_pdn(again)
    assert pdn_game_text(read) == again
    assert read.source is not None and sorted(read.source.variation_texts(4)) == [1, 2]


def random_game(rng, plies: range, lines: range) -> tuple[Game, Variations]:
    """A random game of a length in ``plies``, and a tree of random variations of it (a
    number in ``lines``, each a few moves from a random place)."""
    from kbdraughts.board import legal_moves

    game = Game(START)
    for _ in range(rng.randrange(plies.start, plies.stop)):
        if game.result is not None:
            break
        game.push(rng.choice(game.legal_moves()))
    tree = Variations()
    for _ in range(rng.randrange(lines.start, lines.stop)):
        ply = rng.randrange(game.ply)
        others = [m for m in legal_moves(game.positions[ply]) if m != game.moves[ply]]
        walk = Game(START)
        for m in game.moves[:ply]:
            walk.push(m)
        for _ in range(rng.randrange(1, 5) if others else 0):
            if walk.result is not None:
                break
            move = rng.choice(others) if walk.ply == ply else rng.choice(walk.legal_moves())
            tree.play(game.moves, tuple(walk.moves), move)
            walk.push(move)
    return game, tree


def test_random_games_with_random_variations_round_trip():
    import random

    rng = random.Random(2026)
    for _ in range(40):
        game, tree = random_game(rng, range(1, 30), range(0, 6))
        text = game_to_pdn(game, {"Event": "r"}, variations=tree)
        (pg,) = parse_pdn(text)
        assert pg.game.moves == game.moves  # the variations are never played
        assert pdn_game_text(pg) == text
        assert pg.source is not None
        read = sum(len(v) for v in pg.source.variation_texts(game.ply).values())
        assert read == sum(len(v) for v in tree.branches.values())


# --- promote, and the lines a file wrote ------------------------------------------------------


def _texts_of(line_moves) -> list[str]:
    from kbdraughts.notation import move_text
    return [move_text(m) for m in line_moves]


def test_promote_lifts_the_line_shown_all_the_way_and_back():
    game = game_of(*MAIN)
    main = list(game.moves)
    tree = Variations()
    one = game_of("c3-d4")
    f6e5, d4f6, g7e5 = moves(one, "f6-e5", "d4:f6", "g7:e5")
    b6a5, = moves(one, "b6-a5")
    e7g5, = moves(game_of("c3-d4", "f6-e5", "d4:f6"), "e7:g5")
    g5h4, = moves(game_of("c3-d4", "f6-g5", "b2-c3"), "g5-h4")
    for path, move in [((main[0],), f6e5), ((main[0], f6e5), d4f6),
                       ((main[0], f6e5, d4f6), g7e5), ((main[0], f6e5, d4f6), e7g5),
                       ((main[0],), b6a5), (tuple(main[:3]), g5h4)]:
        tree.play(main, path, move)
    before = record_text(tree, main, WHITE)
    assert before == ("1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6 g7:e5 (2... e7:g5)) (1... b6-a5) "
                      "2. b2-c3 g7-f6 (2... g5-h4)")
    new, ply = tree.promote(main, (main[0], f6e5, d4f6, e7g5))  # from inside the nested one
    assert (_texts_of(new), ply) == (["c3-d4", "f6-e5", "d4:f6", "e7:g5"], 1)
    assert record_text(tree, new, WHITE) == (
        "1. c3-d4 f6-e5 (1... f6-g5 2. b2-c3 g7-f6 (2... g5-h4)) (1... b6-a5) 2. d4:f6 e7:g5 "
        "(2... g7:e5)")  # the old line first, the other variation of its move after it
    assert len(tree) == 4 and tree.in_main_line(new, new)
    back, ply = tree.promote(new, tuple(main))
    assert back == main and ply == 1
    assert record_text(tree, main, WHITE) == (
        "1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6 e7:g5 (2... g7:e5)) (1... b6-a5) 2. b2-c3 g7-f6 "
        "(2... g5-h4)")
    with pytest.raises(ValueError):
        tree.promote(main, main[:2])  # the main line is no variation


def test_a_files_moves_are_not_taken_back_and_prune_drops_their_text():
    (pg,) = parse_pdn("1. c3-d4 {a} f6-g5 (1... b6-a5 {b}) 2. b2-c3 (2. h4-g5) g7-f6 *")
    tree, main = pg.variations, pg.game.moves
    b6a5, = moves(game_of("c3-d4"), "b6-a5")
    a3b4, = moves(game_of("c3-d4", "b6-a5"), "a3-b4")
    assert tree.play(main, main[:1], b6a5) is Played.ENTERED
    assert tree.from_file(main, (main[0], b6a5)) and not tree.take_back(main, (main[0], b6a5))
    assert tree.play(main, (main[0], b6a5), a3b4) is Played.EXTENDED
    assert not tree.from_file(main, (main[0], b6a5, a3b4))
    assert tree.take_back(main, (main[0], b6a5, a3b4))  # one played here
    assert sorted(tree.units) == [0, 1, 2, 3] and list(tree.asides) == [2]
    assert tree.prune(1) == 1 and list(tree.units) == [0] and tree.asides == {}


def test_a_files_variations_nested_are_read_into_the_tree_and_the_rest_kept_as_text():
    text = ('[Event "v"]\n\n1. c3-d4 (1. c3-b4 {x} f6-g5 (1... b6-a5 2. 23-18)) (1. c3-b4)\n'
            '(1. a3-b4 h6-g5 (1... g7-h6 b2-c3 c3-d4)) ( {empty} ) f6-g5 (1... c3-d4)\n'
            '2. b2-c3 (2. b2-c3) (2. g3-h4 c3-d9) *\n')
    (pg,) = parse_pdn(text, "v.pdn")
    assert pdn_game_text(pg) == text  # nothing lost, nothing added
    tree, main = pg.variations, pg.game.moves
    assert [_texts_of(b.moves) for b in tree.branches[0]] == [["c3-b4", "f6-g5"],
                                                             ["a3-b4", "h6-g5"]]
    nested = tree.branches[0][0].branches[1][0]
    assert _texts_of(nested.moves) == ["b6-a5", "e3-d4"]  # 23-18 read as e3-d4
    assert len(tree) == 3
    assert [m.split(": ", 2)[:2] for m in pg.text_only] == [
        ["v.pdn:3", "variation (1. c3-b4)"],  # the same first move as the one before
        ["v.pdn:4", "variation (1... g7-h6 b2-c3 c3-d4)"],  # c3-d4: no piece on c3 there
        ["v.pdn:4", "variation (1... c3-d4)"],  # a White move for Black
        ["v.pdn:5", "variation (2. b2-c3)"],  # the move it stands beside
        ["v.pdn:5", "variation (2. g3-h4 c3-d9)"]]  # c3-d9 is no move
    assert "it begins with b2-c3, the move it stands beside" in pg.text_only[3]
    assert "another variation of that move begins with c3-b4 too" in pg.text_only[0]
    assert tree.asides == {0: ["(1. c3-b4)", "( {empty} )"], 1: ["(1... c3-d4)"],
                           2: ["(2. b2-c3)", "(2. g3-h4 c3-d9)"]}


FILE = ('[Event "f"]\n\n1. c3-d4 {centre} f6-g5 (1... b6-a5 $1 {flank} 2. g3-h4 '
        '(2. d4-c5 {sharp} d6:b4 ; a line comment\n) 2... a5-b4 {end}) 2. g3-h4 g5-f4 2-0\n')


def test_played_here_inside_a_files_variation_goes_inside_its_parentheses():
    (pg,) = parse_pdn(FILE)
    tree, main = pg.variations, pg.game.moves
    b6a5, g3h4, a5b4 = moves(game_of("c3-d4"), "b6-a5", "g3-h4", "a5-b4")
    d4c5, d6b4 = moves(game_of("c3-d4", "b6-a5"), "d4-c5", "d6:b4")
    a3c5, = moves(game_of("c3-d4", "b6-a5", "g3-h4", "a5-b4"), "a3:c5")
    e3f4, = moves(game_of("c3-d4", "b6-a5"), "e3-f4")
    a3c5_nested, = moves(game_of("c3-d4", "b6-a5", "d4-c5", "d6:b4"), "a3:c5")
    assert tree.play(main, main[:1], b6a5) is Played.ENTERED
    assert tree.play(main, (main[0], b6a5), d4c5) is Played.ENTERED  # nested, the file's
    assert pdn_game_text(pg) == FILE  # walking into the file's lines adds nothing
    assert tree.play(main, (main[0], b6a5, g3h4, a5b4), a3c5) is Played.EXTENDED
    assert tree.play(main, (main[0], b6a5), e3f4) is Played.BRANCHED
    assert tree.play(main, (main[0], b6a5, d4c5, d6b4), a3c5_nested) is Played.EXTENDED
    text = pdn_game_text(pg)
    assert text == (
        '[Event "f"]\n\n1. c3-d4 {centre} f6-g5 (1... b6-a5 $1 {flank} 2. g3-h4 '
        '(2. d4-c5 {sharp} d6:b4 ; a line comment\n 3. a3:c5) (2. e3-f4) 2... a5-b4 {end} '
        '3. a3:c5) 2. g3-h4 g5-f4 2-0\n')
    (again,) = parse_pdn(text)
    assert pdn_game_text(again) == text and again.text_only == []
    assert record_text(again.variations, main, WHITE) == record_text(tree, main, WHITE)


def test_a_promoted_files_game_keeps_every_comment_with_its_move():
    (pg,) = parse_pdn(FILE)
    tree, main = pg.variations, pg.game.moves
    line = tree.branches[1][0]
    new, ply = tree.promote(main, main[:1] + line.moves[:1] + line.branches[1][0].moves)
    pg.game = game_of(*_texts_of(new))
    text = pdn_game_text(pg)
    assert text == (
        '[Event "f"]\n\n1. c3-d4 {centre} 1... b6-a5 $1 {flank} (1... f6-g5 2. g3-h4 g5-f4) '
        '2. d4-c5 {sharp} (2. g3-h4 a5-b4 {end}) 2... d6:b4 ; a line comment\n*\n')
    (again,) = parse_pdn(text)  # the result by the rules: the game goes on, '*'
    assert again.game.moves == pg.game.moves and pdn_game_text(again) == text
    assert again.game.result is None and again.text_only == []


def _shape(line) -> tuple:
    return (tuple(line.moves), tuple(sorted(
        (i, tuple(_shape(b) for b in lines)) for i, lines in line.branches.items())))


def _lines(line, path=()):
    """Every variation under ``line`` with the moves to its end."""
    for i, lines in sorted(line.branches.items()):
        for b in lines:
            to_end = path + tuple(line.moves[:i]) + tuple(b.moves)
            yield to_end
            yield from _lines(b, path + tuple(line.moves[:i]))


def _every_line(tree: Variations, main) -> set:
    """The main line and each variation from the start to its end: what promote keeps (the
    order and nesting of the variations aside)."""
    return {tuple(main), *_lines(tree.root(main))}


def test_random_annotated_files_promoted_and_back_keep_every_comment():
    import random
    import re

    rng = random.Random(20)
    for round_ in range(100):
        game, tree = random_game(rng, range(2, 30), range(1, 6))
        plain = game_to_pdn(game, {"Event": "r"}, variations=tree)
        count = iter(range(10**6))
        notes = (lambda m: m.group(0) + rng.choice(
            ["", "", f" {{c{next(count)}}}", f" $1 {{c{next(count)}}}", f" ; l{next(count)}\n"]))
        text = re.sub(r"(?<![\w.])[a-h][1-8](?:[-:][a-h][1-8])+", notes, plain)
        comments = sorted(re.findall(r"\{c\d+\}|; l\d+", text))
        (pg,) = parse_pdn(text)
        assert pdn_game_text(pg) == text and pg.text_only == []
        assert _shape(pg.variations.root(pg.game.moves)) == _shape(tree.root(game.moves))
        paths = list(_lines(pg.variations.root(pg.game.moves)))
        if not paths:
            continue
        chosen = rng.choice(paths)
        original = list(pg.game.moves)
        new, ply = pg.variations.promote(pg.game.moves, chosen)
        pg.game = game_of(*_texts_of(new))
        promoted = pdn_game_text(pg)
        assert sorted(re.findall(r"\{c\d+\}|; l\d+", promoted)) == comments, round_
        (read,) = parse_pdn(promoted)
        assert read.game.moves == new and read.text_only == []
        assert _shape(read.variations.root(new)) == _shape(pg.variations.root(new))
        assert _every_line(read.variations, new) == _every_line(tree, game.moves)
        back, _ = read.variations.promote(new, original)
        read.game = game_of(*_texts_of(back))
        again = pdn_game_text(read)
        assert back == original
        assert sorted(re.findall(r"\{c\d+\}|; l\d+", again)) == comments
        (last,) = parse_pdn(again)
        assert _every_line(last.variations, back) == _every_line(tree, game.moves)


def test_500_nested_variations_are_read_counted_written_and_promoted_without_recursion():
    # issue 28, item 10: RecursionError in variations.py and in the PDN writer
    from kbdraughts.pdn import game_to_pdn, parse_pdn, pdn_game_text
    from kbdraughts.pdn.lines import record_text

    depth = 500
    text = ("1. c3-d4 " + "".join(f"(1. {'c3-b4' if i % 2 == 0 else 'a3-b4'} "
                                  for i in range(depth)) + ")" * depth + " f6-g5 *")
    (pg,) = parse_pdn(text)
    assert len(pg.variations) == depth
    assert pdn_game_text(pg) == text + "\n"
    assert record_text(pg.variations, pg.game.moves, pg.game.start.side).count("(") == depth
    written = game_to_pdn(pg.game, variations=pg.variations)
    assert written.count("(") == depth and len(parse_pdn(written)[0].variations) == depth
    # the outermost made the game's line: the 499 inside it kept, and the old line
    moves, ply = pg.variations.promote(pg.game.moves, [parse_move(START, "c3-b4")])
    assert ply == 0 and moves == [parse_move(START, "c3-b4")]
    assert len(pg.variations) == depth
