"""Nothing lost: a game read from PDN and written again keeps every tag, comment, NAG,
variation and the result's convention; the coach's notes go beside them, marked, and a second
run replaces them. A corpus of hand-made files in tests/data/pdn/ and a property test over
generated games with random annotations."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen, parse_move
from kbdraughts.pdn import PdnGame, load_pdn_file, parse_games, parse_pdn, pdn_game_text

CORPUS = Path(__file__).parent / "data" / "pdn"


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig")


@pytest.mark.parametrize("name", ["annotated_ru.pdn", "numbered.pdn", "results.pdn",
                                  "bom_crlf.pdn", "pydraughts.pdn"])
def test_corpus_files_are_written_back_byte_for_byte(name: str):
    read = load_pdn_file(CORPUS / name)
    assert read.errors == [] and read.warnings == [] and read.games
    newline = read.form.newline  # the file's own line ends kept (CRLF), none added
    out = newline.join(pdn_game_text(g, newline=newline) for g in read.games)
    assert out.rstrip(newline) == _text(CORPUS / name).rstrip(newline)


def test_annotated_game_reads_its_main_line_and_keeps_the_rest():
    (pg,) = load_pdn_file(CORPUS / "annotated_ru.pdn").games
    assert pg.tags["Annotator"] == "Сидоров" and pg.result == "1-0"
    assert [move_text(m) for m in pg.game.moves][17:20] == ["b6-c5", "b4:d6:f4", "d8-c7"]
    assert pg.game.result is not None and pg.game.result.winner == 0
    text = pdn_game_text(pg)
    for kept in ("{идея}", "$3", "?!", "(4. b4-c5\nd6:b4)", "; строчный комментарий", "2-0"):
        assert kept in text


def test_numbered_fen_and_numbered_moves_are_the_same_game():
    one, two = load_pdn_file(CORPUS / "numbered.pdn").games
    assert one.game.start == two.game.start == parse_fen("B:Wa3,c3,e3,d4,f4:Bh6,c7,g7,f8")
    assert one.game.moves == two.game.moves
    assert move_text(one.game.moves[6]) == "g5:e3:c5:a3"  # written by its two ends: g5xa3
    assert "[FEN \"B:W18-19,21-23:B3,6,8,12\"]" in pdn_game_text(two)  # the file's own form
    assert "[FEN \"B:W18,19,21,22,23:B3,6,8,12\"]" in pdn_game_text(one, numbered=True)
    assert "[Setup \"1\"]" in pdn_game_text(one)


def test_every_result_convention_is_read_and_written_back_as_the_file_had_it():
    games = load_pdn_file(CORPUS / "results.pdn").games
    assert [g.result for g in games] == ["1-0", "0-1", "1/2-1/2", "0-1", "1/2-1/2", "*"]
    assert [g.game.result.pdn if g.game.result else "*" for g in games] == [
        g.result for g in games]
    last = [pdn_game_text(g).splitlines()[-1].split()[-1] for g in games]
    assert last == ["1-0", "0-1", "1/2-1/2", "0-2", "1-1", "*"]


def test_a_game_played_on_gets_its_result_in_the_files_convention():
    (pg,) = parse_pdn('[Result "*"]\n\n1. c3-d4 {a} f6-g5 2-0'.replace("2-0", "*"))
    pg.game.push(parse_move(pg.game.position, "g3-f4"))
    assert pdn_game_text(pg).endswith("1. c3-d4 {a} f6-g5 2. g3-f4 *\n")
    (pg,) = parse_pdn('[Result "1-1"]\n\n1. c3-d4 {a} f6-g5 1-1')
    pg.game.undo()  # the agreed draw taken back
    pg.game.push(parse_move(pg.game.position, "g3-f4"))
    pg.game.resign(1)
    text = pdn_game_text(pg)
    assert '[Result "2-0"]' in text and text.endswith("1. c3-d4 {a} f6-g5 2. g3-f4 2-0\n")


def test_moves_taken_back_cut_the_files_text_after_them():
    (pg,) = parse_pdn("1. c3-d4 {one} f6-g5 {two} 2. g3-f4 (2. b2-c3) g5-h4 *")
    pg.game.pop()
    pg.game.pop()
    assert pdn_game_text(pg) == "1. c3-d4 {one} f6-g5 {two} *\n"
    pg.game.push(parse_move(pg.game.position, "b2-c3"))
    assert pdn_game_text(pg) == "1. c3-d4 {one} f6-g5 {two} 2. b2-c3 *\n"


def test_coach_notes_go_beside_the_authors_and_replace_the_coachs_earlier_ones():
    text = "{intro} 1. c3-d4 $1 {author} (1. c3-b4) f6-g5 2. g3-f4 *"
    (pg,) = parse_pdn(text)
    once = pdn_game_text(pg, notes={0: ["missed: x"], 2: ["allowed: y", "allowed: z"]})
    assert once == ("{intro} 1. c3-d4 $1 {author} {coach: missed: x} (1. c3-b4) f6-g5 "
                    "2. g3-f4 {coach: allowed: y} {coach: allowed: z} *\n")
    (again,) = parse_pdn(once)
    assert pdn_game_text(again) == once  # a load and save keeps the notes
    assert pdn_game_text(again, notes={0: ["missed: x"], 2: ["allowed: y", "allowed: z"]}) == once
    assert pdn_game_text(again, notes={1: ["new"]}) == (
        "{intro} 1. c3-d4 $1 {author} (1. c3-b4) f6-g5 {coach: new} 2. g3-f4 *\n")


def test_notes_written_before_the_coach_mark_are_replaced_too():
    old = ("1. c3-d4 {missed: shot-01 e3-d4 wins a man (combos/motifs.txt:15); allowed: x y "
           "(combos/motifs.txt:9)} f6-g5 {missed: the win} *")
    (pg,) = parse_pdn(old)
    assert pdn_game_text(pg) == old + "\n"  # load and save: kept
    assert pdn_game_text(pg, notes={1: ["new"]}) == (
        "1. c3-d4 f6-g5 {missed: the win} {coach: new} *\n")  # the person's own stays


def test_comments_before_and_between_tags_are_kept_in_place_or_before_changed_tags():
    text = '{file header}\n[Event "x"]\n{about the event}\n[Round  "1"]\r\n\n1. c3-d4 *'
    (pg,) = parse_pdn(text)
    assert pg.tags == {"Event": "x", "Round": "1"}
    assert pdn_game_text(pg) == text + "\n"  # the tags unchanged: their lines as they were
    assert pdn_game_text(pg, tags={"Round": "2"}) == (
        '{file header}\n{about the event}\n[Event "x"]\n[Round "2"]\n\n1. c3-d4 *\n')


def test_a_broken_game_is_named_and_the_others_are_read():
    read = load_pdn_file(CORPUS / "some_broken.pdn")
    assert [g.tags["Event"] for g in read.games] == ["Good one", "Good two"]
    assert [str(e) for e in read.errors] == [
        f"{CORPUS / 'some_broken.pdn'}:11: move 2... f2:d4: the piece on f2 is White's; "
        "you play Black (the file numbers it 3.: a move may be missing before it)"]
    assert isinstance(read.entries[1], Exception)  # in its place: --game N counts it


@pytest.mark.parametrize("name, encoding, guessed", [
    ("latin1.pdn", "latin-1", "Latin-1"), ("cp1251.pdn", "cp1251", "Windows-1251")])
def test_files_not_in_utf8_are_read_with_a_warning_naming_them(name, encoding, guessed):
    read = load_pdn_file(CORPUS / name)
    assert len(read.warnings) == 1 and read.warnings[0].startswith(f"{CORPUS / name}: not UTF-8")
    assert guessed in read.warnings[0]
    (pg,) = read.games
    original = (CORPUS / name).read_bytes().decode(encoding)
    assert pdn_game_text(pg) == original


def test_a_utf16_file_with_its_mark_is_read(tmp_path: Path):
    path = tmp_path / "utf16.pdn"
    text = '[White "Иванов"]\n\n1. c3-d4 {ход} *\n'
    path.write_bytes(text.encode("utf-16"))
    read = load_pdn_file(path)
    assert read.warnings == [] and pdn_game_text(read.games[0]) == text


def test_broken_structure_in_one_game_leaves_the_next_readable():
    text = ('[Event "a"]\n1. c3-d4 } *\n\n[Event "b"]\n1. c3-d4 ( f6-g5\n\n'
            '[Event "c"]\n1. c3-d4 [oops\n\n[Event "d"]\n1. e3-f4 *\n')
    entries = parse_games(text, "t.pdn")
    assert [str(e).split(": ", 1)[0] if isinstance(e, Exception) else e.tags["Event"]
            for e in entries] == ["t.pdn:2", "t.pdn:5", "t.pdn:8", "d"]


# --- the property: generated games with random annotations round-trip --------------------

_SCRIPTS = ["idea", "идея", "思路", "ιδέα", "فكرة", "✓ ok", "Zug!", "a (b) c", "x; y", "1-0?"]


def _comment(rng: random.Random) -> str:
    return "{" + " ".join(rng.choice(_SCRIPTS) for _ in range(rng.randint(0, 3))) + "}"


def _variation(rng: random.Random, depth: int = 0) -> str:
    parts = [rng.choice(["1. c3-d4", "e3xg5", "2... f6-g5", "22-18", "h2-g3!"])
             for _ in range(rng.randint(1, 3))]
    if depth < 2 and rng.random() < 0.4:
        parts.append(_variation(rng, depth + 1))
    if rng.random() < 0.3:
        parts.append(_comment(rng))
    return "(" + " ".join(parts) + ")"


def _move(rng: random.Random, move) -> str:
    text = move_text(move)
    if move.captured:
        text = text.replace(":", rng.choice([":", "x", "X"]))
    return text.upper() if rng.random() < 0.1 else text


def _generated(seed: int) -> tuple[str, Game]:
    rng = random.Random(seed)
    game = Game()
    while game.result is None and game.ply < rng.randint(0, 60):
        game.push(rng.choice(game.legal_moves()))
    units = [_comment(rng)] if rng.random() < 0.3 else []
    for i, move in enumerate(game.moves):
        if i % 2 == 0:
            units.append(f"{i // 2 + 1}.")
        units.append(_move(rng, move) + rng.choice(["", "", "!", "?", "!!", "??", "!?", "?!"]))
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            units.append(rng.choice([f"${rng.randint(0, 255)}", _comment(rng)]))
        if rng.random() < 0.15:
            units.append(_variation(rng))
    result = game.result.pdn if game.result else rng.choice(["*", "1-0", "0-2", "1-1"])
    tags = f'[Event "{rng.choice(_SCRIPTS)}"]\n[Result "{result}"]\n[Custom "kept"]\n\n'
    return tags + " ".join(units + [result]) + "\n", game


@pytest.mark.parametrize("seed", range(120))
def test_generated_games_with_annotations_round_trip(seed: int):
    text, game = _generated(seed)
    (pg,) = parse_pdn(text, "gen.pdn")
    assert pg.game.moves == game.moves
    assert pdn_game_text(pg) == text
    rng = random.Random(seed)
    notes = {p: [f"note {p}"] for p in range(game.ply) if rng.random() < 0.2}
    noted = pdn_game_text(pg, notes=notes)
    (back,) = parse_pdn(noted)
    assert back.game.moves == game.moves and back.tags == pg.tags
    assert noted.count("{coach: ") == len(notes)
    assert pdn_game_text(back, notes=notes) == noted  # a second run: no duplicates
    assert pdn_game_text(back, notes={}) == text  # the notes alone come out


def test_pdn_game_without_a_file_is_written_as_a_new_game():
    pg = PdnGame({"Event": "x"})
    assert pdn_game_text(pg, notes={}).startswith('[Event "x"]')


# --- any jumble of PDN pieces: read without a traceback, written back and read the same ------

_PIECES = ['[Event "x"]', '[FEN "W:W21-32:B1-12"]', '[Result "2-0"]', '{c}', '{coach: n}', "(",
           ")", "1.", "2...", "c3-d4", "f6-g5", "g3-f4", "g5:e3", "f2xd4", "22-18", "9-13",
           "$1", "!?", "1-0", "0-2", "*", "1-1", "}", "]", "[bad", ";x\n", ";y", "\n%esc\n",
           "\n", "слово", "c3-d44", "{", "1/2-1/2", "e3-f4", "h6-g5"]


def _written_back_the_same(pg: PdnGame) -> None:
    notes = {i: ["z"] for i in range(0, pg.game.ply, 2)}
    for given in (None, notes):
        text = pdn_game_text(pg, notes=given)
        (back,) = parse_games(text, "again.pdn")
        assert isinstance(back, PdnGame) and back.game.moves == pg.game.moves, text
        assert pdn_game_text(back, notes=given) == text  # the same on a second run
    assert len(back.source.notes) == len(notes)


@pytest.mark.parametrize("seed", range(4))
def test_jumbled_pieces_never_crash_and_games_write_back_the_same(seed: int):
    rng = random.Random(seed)
    for _ in range(400):
        text = " ".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 25)))
        for pg in parse_games(text, "jumble.pdn"):
            if not isinstance(pg, PdnGame):
                assert str(pg).startswith("jumble.pdn:")
                continue
            _written_back_the_same(pg)
            if pg.game.moves and pg.game.result is None:
                pg.game.pop()  # taken back
                _written_back_the_same(pg)
                for _ in range(2):  # played on
                    if pg.game.result is None and pg.game.legal_moves():
                        pg.game.push(pg.game.legal_moves()[0])
                _written_back_the_same(pg)
