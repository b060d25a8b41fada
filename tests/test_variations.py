"""The variation tree beside a game's main line (kbdraughts/variations.py), and variations made
here written to PDN and read back: in a game played here and beside a file's own moves."""

from __future__ import annotations

from kbdraughts.board import START, WHITE
from kbdraughts.game import Game
from kbdraughts.notation import parse_move
from kbdraughts.pdn import parse_pdn, pdn_game_text
from kbdraughts.pdn_write import game_to_pdn
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
    assert tree.text(main, WHITE) == (
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


def test_random_games_with_random_variations_round_trip():
    import random

    from kbdraughts.board import legal_moves

    rng = random.Random(2026)
    for _ in range(40):
        game = Game(START)
        for _ in range(rng.randrange(1, 30)):
            if game.result is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        tree = Variations()
        for _ in range(rng.randrange(0, 6)):  # a variation at a random place, a few moves
            ply = rng.randrange(game.ply)
            path = tuple(game.moves[:ply])
            pos = game.positions[ply]
            others = [m for m in legal_moves(pos) if m != game.moves[ply]]
            if not others:
                continue
            walk = Game(START)
            for m in path:
                walk.push(m)
            for _ in range(rng.randrange(1, 5)):
                if walk.result is not None:
                    break
                move = rng.choice(others) if walk.ply == ply else rng.choice(walk.legal_moves())
                tree.play(game.moves, tuple(walk.moves), move)
                walk.push(move)
        text = game_to_pdn(game, {"Event": "r"}, variations=tree)
        (pg,) = parse_pdn(text)
        assert pg.game.moves == game.moves  # the variations are never played
        assert pdn_game_text(pg) == text
        assert pg.source is not None
        read = sum(len(v) for v in pg.source.variation_texts(game.ply).values())
        assert read == sum(len(v) for v in tree.branches.values())
