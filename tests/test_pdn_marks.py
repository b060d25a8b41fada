"""An analysis's marks in PDN as lidraughts writes an analysed game (issue 38 item 5): the
grade's glyph on the move, ``{[%eval 0.35]}`` on every move analysed, the better line as a
variation marked ``{coach: best}``. Nothing of the author's lost, a second run replaces the
first's marks, and the file reads back through our reader and pydraughts 0.5.7."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kbdraughts.board import Move
from kbdraughts.game import Game
from kbdraughts.notation import move_text, parse_fen, parse_move
from kbdraughts.pdn import PdnGame, game_to_pdn, load_pdn_file, parse_pdn, pdn_game_text
from kbdraughts.pdn.marks import Mark, eval_text, read_marks, win_in
from kbdraughts.values import MAN_VALUE, WIN

CORPUS = Path(__file__).parent / "data" / "pdn"


def _game(name: str = "annotated_ru.pdn") -> PdnGame:
    return load_pdn_file(CORPUS / name).games[0]


def _line(game: Game, ply: int, length: int = 4) -> tuple[Move, ...]:
    """A legal line from the position before ``ply`` whose first move is not the one played
    (the last legal move, then each side's first), or () where the move was forced."""
    g = Game(game.start)
    for move in game.moves[:ply]:
        g.push(move)
    others = [m for m in g.legal_moves() if m != game.moves[ply]]
    if not others:
        return ()
    line = [others[-1]]
    g.push(others[-1])
    while len(line) < length and g.result is None:
        line.append(g.legal_moves()[0])
        g.push(line[-1])
    return tuple(line)


def _marks(game: Game, shift: float = 0.0) -> dict[int, Mark]:
    """A mark on every move: an evaluation, a grade on every third (with a better line), a
    decided ending on the last."""
    marks: dict[int, Mark] = {}
    for ply in range(len(game.moves)):
        nag = (6, 2, 4)[ply // 3 % 3] if ply % 3 == 1 else None
        marks[ply] = Mark(nag, round(0.15 * ply - 1 + shift, 2), None,
                          _line(game, ply) if nag else ())
    last = len(game.moves) - 1
    marks[last] = Mark(None, None, 3)
    return marks


def test_marks_are_written_as_lidraughts_writes_an_analysed_game():
    (pg,) = parse_pdn('[Event "x"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *')
    best = _line(pg.game, 1, 3)
    text = pdn_game_text(pg, marks={0: Mark(None, 0.0), 1: Mark(2, 0.354, line=best),
                                    2: Mark(4, -1.0, line=_line(pg.game, 2, 1)),
                                    3: Mark(None, None, -2)})
    assert text.splitlines()[-1] == (
        f"1. c3-d4 {{[%eval 0.0]}} f6-g5? {{[%eval 0.35]}} (1... {move_text(best[0])} "
        f"{{coach: best; mistake}} {_numbered(best, 1)}) "
        "2. d4-e5?? {[%eval -1.0]} (2. g3-h4 {coach: best; blunder}) d6:f4 {[%eval #-2]} "
        "3. g3:e5 *")


def _numbered(line: tuple[Move, ...], ply: int) -> str:
    """The moves of a line after its first, numbered as PDN numbers them after a comment."""
    out = []
    for k, move in enumerate(line[1:], start=1):
        at = ply + k
        number = f"{at // 2 + 1}." if at % 2 == 0 else (f"{at // 2 + 1}..." if k == 1 else "")
        out.append(f"{number} {move_text(move)}" if number else move_text(move))
    return " ".join(out)


def test_evaluations_in_lidraughts_form():
    assert [eval_text(v) for v in (0.35, 1, -0.5, 0.004, -0.004, 12.345)] == [
        "0.35", "1.0", "-0.5", "0.0", "0.0", "12.35"]
    assert eval_text(None) is None and eval_text(2.0, 5) == "#5"
    assert win_in((WIN - 7) / MAN_VALUE) == 4 and win_in(-(WIN - 1) / MAN_VALUE) == -1
    assert win_in(49.99) is None and win_in(-3.0) is None


def test_nothing_of_the_authors_is_lost_and_taking_the_marks_out_gives_the_file_back():
    pg = _game()
    original = pdn_game_text(pg)
    marked = pdn_game_text(pg, marks=_marks(pg.game))
    for kept in ("{Партия открывает турнир.}", "$1 {идея}", "{обязательно} {второй комментарий}",
                 "f6-e5?!", "(3... b6-a5 4. g3-f4 (4. b4-c5\nd6:b4) 4... a5:c3)", "g3-f4!?",
                 "; строчный комментарий\n", "b6-c5??", "{Зевок.}", "b4:d6:f4! $3",
                 "{Чёрные сдались.} {[%eval #3]} 2-0", '[Annotator "Сидоров"]'):
        assert kept in marked
    (again,) = parse_pdn(marked)
    assert pdn_game_text(again, marks={}) == original  # every mark out, nothing else touched
    assert pdn_game_text(pg, marks={}) == original


def test_a_move_the_author_marked_keeps_the_authors_glyph():
    pg = _game()
    plies = [5, 18]
    assert [move_text(pg.game.moves[p]) for p in plies] == ["f6-e5", "b4:d6:f4"]
    marks = {p: Mark(4, -2.0, line=_line(pg.game, p)) for p in plies}
    text = pdn_game_text(pg, marks=marks)
    assert "f6-e5?! {[%eval -2.0]}" in text and "b4:d6:f4! $3 {[%eval -2.0]}" in text
    assert "??" not in text.replace("b6-c5??", "") and "; blunder" not in text
    (again,) = parse_pdn(text)
    assert read_marks(again) == {p: Mark(None, -2.0, None, m.line) for p, m in marks.items()}
    assert pdn_game_text(again, marks=marks) == text  # the author's glyphs stay, run after run


def test_a_second_run_replaces_the_coachs_marks_and_notes_instead_of_adding_them():
    pg = _game()
    notes = {1: ["?: gives up the centre"], 5: ["loses a man"]}
    first = pdn_game_text(pg, notes=notes, marks=_marks(pg.game))
    (read,) = parse_pdn(first)
    assert pdn_game_text(read, notes=notes, marks=_marks(pg.game)) == first  # idempotent
    other = _marks(pg.game, shift=0.5)
    other = {p: Mark(None if p % 2 else m.nag, m.eval, m.win, m.line) for p, m in other.items()}
    assert pdn_game_text(read, notes={}, marks=other) == pdn_game_text(pg, notes={},
                                                                          marks=other)
    assert first.count("[%eval") == len(pg.game.moves)


def test_a_better_line_the_files_own_variation_already_gives_is_not_added_twice():
    (pg,) = parse_pdn("1. c3-d4 f6-g5 (1... b6-a5 {the book's move} 2. g3-h4) 2. g3-h4 *")
    b6a5 = pg.variations.branches[1][0].moves[0]
    text = pdn_game_text(pg, marks={1: Mark(6, 0.3, line=(b6a5,))})
    assert text == "1. c3-d4 f6-g5 {[%eval 0.3]} (1... b6-a5 {the book's move} 2. g3-h4) " \
        "2. g3-h4 *\n"


@pytest.mark.parametrize("name", ["annotated_ru.pdn", "numbered.pdn", "pydraughts.pdn"])
def test_marks_read_back_through_our_reader_without_loss(name: str):
    for pg in load_pdn_file(CORPUS / name).games:
        marks = _marks(pg.game)
        text = pdn_game_text(pg, notes={0: ["a note"]}, marks=marks)
        (again,) = parse_pdn(text)
        assert again.game.moves == pg.game.moves and again.result == pg.result
        # no variation of ours left unread
        assert [t.split(": ", 1)[1] for t in again.text_only] == [
            t.split(": ", 1)[1] for t in pg.text_only]
        # a grade is written with its better line, and not over the author's glyph
        authors = _authors_marks(pg)
        expected = {p: m if m.line and p not in authors else replace(m, nag=None)
                    for p, m in marks.items()}
        assert read_marks(again) == expected
        assert any(m.nag for m in expected.values())


def _authors_marks(pg: PdnGame) -> set[int]:
    """The plies whose moves the file marked with a glyph or NAG of its own."""
    assert pg.source is not None
    out = set()
    for ply, end in enumerate(pg.source.ends):
        start = pg.source.ends[ply - 1] if ply else 0
        after = pg.source.text[start:end].split(move_text(pg.game.moves[ply]), 1)[-1]
        if any(c in after.split("{")[0] for c in "!?$"):
            out.add(ply)
    return out


def test_a_game_not_read_from_a_file_gets_its_marks_too():
    (read,) = parse_pdn("1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *")
    pg = PdnGame(tags={"Event": "here"}, game=read.game)
    marks = _marks(pg.game)
    text = pdn_game_text(pg, notes={2: ["a note"]}, marks=marks)
    (again,) = parse_pdn(text)
    assert again.game.moves == pg.game.moves and read_marks(again) == marks
    assert "{coach: a note} {[%eval" in text


@pytest.mark.parametrize("name", ["annotated_ru.pdn", "pydraughts.pdn"])
def test_pydraughts_reads_the_same_game_from_the_marked_file(name: str):
    pdn_module = pytest.importorskip("draughts.PDN")
    for pg in load_pdn_file(CORPUS / name).games:
        plain = pdn_module.PDNReader(pdn_text=pdn_game_text(pg)).games[0]
        text = pdn_game_text(pg, notes={1: ["?: a note"]}, marks=_marks(pg.game))
        marked = pdn_module.PDNReader(pdn_text=text).games[0]
        assert marked.moves == plain.moves and marked.game_ending == plain.game_ending
        assert len(marked.moves) == len(pg.game.moves)
        assert marked.tags == plain.tags
        for ours, theirs in zip(pg.game.moves, marked.moves):
            assert theirs.replace("x", ":").replace(" ", "") in (
                move_text(ours), f"{move_text(ours)[:2]}:{move_text(ours)[-2:]}")


def test_annotate_writes_the_marks_and_a_second_run_gives_the_same_file(tmp_path: Path):
    """End to end: `kbdraughts annotate` on the coach's test game (Black walks into a shot,
    White lets it pass), then on its own output, then with --no-eval."""
    import subprocess
    import sys

    game = Game(parse_fen("B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:"
                          "Bd6,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"))
    for text in ("d6-c5", "g3-h4", "c7-d6"):
        game.push(parse_move(game.position, text))
    pdn = tmp_path / "game.pdn"
    pdn.write_text(game_to_pdn(game, {"Event": "shot"}), encoding="utf-8")

    def annotate(path: Path, *args: str) -> str:
        out = subprocess.run([sys.executable, "-m", "kbdraughts.cli", "annotate", str(path),
                              *args], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout

    once = annotate(pdn)
    (pg,) = parse_pdn(once)
    marks = read_marks(pg)
    assert sorted(marks) == [0, 1, 2] and all(m.eval is not None for m in marks.values())
    graded = [p for p, m in marks.items() if m.nag is not None]
    assert graded and all(marks[p].line for p in graded)  # each grade with its better line
    assert once.count("[%eval") == 3 and once.count("{coach: best; ") == len(graded)
    (tmp_path / "once.pdn").write_text(once, encoding="utf-8")
    assert annotate(tmp_path / "once.pdn") == once  # replaced, not added again
    plain = annotate(tmp_path / "once.pdn", "--no-eval")
    assert "[%eval" not in plain and plain.count("{coach: best; ") == len(graded)
    assert {p: m.eval for p, m in read_marks(parse_pdn(plain)[0]).items()} == {
        p: None for p in graded}
