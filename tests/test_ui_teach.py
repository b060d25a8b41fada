"""``teach`` (ui/teach.py): the person's taught.txt is never lost, cut or misread (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kbdraughts.board import START, legal_moves
from kbdraughts.notation import move_text
from kbdraughts.ui import teach as teach_module
from kbdraughts.ui.teach import taught_file, teach


def _move(text: str):
    return next(m for m in legal_moves(START) if move_text(m) == text)


def test_a_taught_file_not_utf8_is_named_and_left_alone(tmp_path: Path):
    path = tmp_path / "taught.txt"
    data = b"# mine\nrule taught-1\n  name: caf\xe9\n"
    path.write_bytes(data)
    taught = teach(START, _move("c3-d4"), path)
    assert not taught.ok and not taught.written and taught.line == 3
    assert taught.checked.startswith(f"{path}:3: error: not UTF-8")
    assert path.read_bytes() == data


def test_the_console_says_so_and_the_game_goes_on(tmp_path: Path):
    from ui_driver import play_session

    taught_file().parent.mkdir(parents=True, exist_ok=True)
    taught_file().write_bytes(b"\xff\xfe r\x00u\x00l\x00e\x00")
    app, shown = play_session("teach c3-d4\rc3-d4\rquit\r", tmp_path)
    assert f"The rule was not kept: {taught_file()}:1: error: not UTF-8" in shown
    assert "Traceback" not in shown
    assert [move_text(m) for m in app.game.moves][:1] == ["c3-d4"]


def test_teach_writes_through_a_temporary_file(tmp_path: Path, monkeypatch):
    # A kill or a full disk while writing must leave the old rules whole: teach never opens
    # taught.txt itself for writing, it hands the whole text to write_atomic.
    path = tmp_path / "taught.txt"
    teach(START, _move("c3-d4"), path)
    before = path.read_text(encoding="utf-8")
    written = []

    def failing(target, text, append=False):
        written.append((Path(target), append))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(teach_module, "write_atomic", failing)
    with pytest.raises(OSError):
        teach(START, _move("e3-f4"), path)
    assert written == [(path, False)] and path.read_text(encoding="utf-8") == before


def test_a_huge_taught_number_does_not_crash(tmp_path: Path):
    path = tmp_path / "taught.txt"
    path.write_text("rule taught-" + "9" * 5000 + "\n  position: W:Wc3:Bf6\n  play: c3-d4\n"
                    "rule taught-7\n  position: W:Wc3:Bf6\n  play: c3-b4\n", encoding="utf-8")
    taught = teach(START, _move("c3-d4"), path)
    assert taught.ok and taught.rule_id == "taught-8"


# -- teach motif: a draft for the author to generalise (issue 12) ------------------------------

SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


def test_a_motif_draft_names_the_squares_of_the_line_and_the_claim(tmp_path: Path):
    from kbdraughts.notation import parse_fen, parse_move
    from kbdraughts.ui.teach import draft

    pos = parse_fen(SHOT_01)
    path = tmp_path / "drafts" / "motifs.txt"
    first = draft(pos, parse_move(pos, "e3-d4"), path)
    second = draft(pos, parse_move(pos, "g3-h4"), path)
    text = path.read_text(encoding="utf-8")
    assert (first.motif_id, second.motif_id) == ("draft-1", "draft-2")
    assert text.count("# Motifs drafted") == 1 and text.count("\nmotif draft-") == 2
    assert text.splitlines()[first.line - 1] == "motif draft-1"
    assert text.splitlines()[second.line - 1] == "motif draft-2"
    block = first.text
    assert "  play: S-T\n" in block and "  pieces: white 12, black 12\n" in block
    # the shot's line: e3-d4 (S-T), c5:e3 (A over T to S), d2:f4:h6 (B over S to C, over D to E)
    for cond in ("our_man(S)", "empty(T)", "next(S, T, fl)", "their_man(A)", "jump(A, T, S)",
                 "our_man(B)", "jump(B, S, C)", "jump(C, D, E)", "after(S-T, exchange(N))"):
        assert cond in block, cond
    assert "  gain: 1\n  sacrifice: 1\n" in block and f"  example: {SHOT_01}\n" in block
    quiet = second.text  # g3-h4 wins nothing: the draft says so instead of claiming it
    assert "gain: 1  # not found within two plies" in quiet and "after(" not in quiet


def test_a_black_move_is_drafted_for_white(tmp_path: Path):
    from kbdraughts.board import mirror_position
    from kbdraughts.notation import fen, parse_fen, parse_move
    from kbdraughts.ui.teach import draft

    pos = mirror_position(parse_fen(SHOT_01))  # Black to move, the shot d6-e5 for Black
    drafted = draft(pos, parse_move(pos, "d6-e5"), tmp_path / "m.txt")
    assert "  name: e3-d4 " in drafted.text and f"  example: {SHOT_01}\n" in drafted.text
    assert "next(S, T, fl)" in drafted.text and fen(pos).startswith("B:")


def test_a_draft_is_not_loaded_until_its_author_moves_it(tmp_path: Path):
    from kbdraughts.kb.knowledge import KnowledgeBase, load_knowledge_base
    from kbdraughts.notation import parse_fen, parse_move
    from kbdraughts.ui.teach import draft, drafts_file

    before = len(load_knowledge_base())
    pos = parse_fen(SHOT_01)
    drafted = draft(pos, parse_move(pos, "e3-d4"))
    assert drafted.path == drafts_file() and drafts_file().exists()
    assert len(load_knowledge_base()) == before
    if not hasattr(KnowledgeBase, "motif_hits"):
        pytest.skip("motif rules are not in this knowledge base yet (issue 12's motif branch)")
    mine = tmp_path / "mine.txt"  # the author moves the draft into a rule file: it fires
    mine.write_text(drafted.text, encoding="utf-8")
    kb = load_knowledge_base([mine])
    fired = [(m.rule.id, m.layer, move_text(m.move)) for m in kb.firing(pos)]
    assert fired == [("draft-1", "motif", "e3-d4")]


def test_teach_motif_at_the_console(tmp_path: Path):
    from ui_driver import play_session

    from kbdraughts.ui.teach import drafts_file

    app, shown = play_session("teach motif e3-d4\rteach motif\rteach motif c3-e5\r"
                              "teach e3-d4\rquit\r", tmp_path, fen=SHOT_01)
    assert f"Drafted motif draft-1 from e3-d4 here, written to {drafts_file()}:6." in shown
    assert "motif draft-1\n  name: e3-d4 (say what the idea is)" in shown
    assert "Say which move: teach MOVE (for example: teach c3-d4), or teach motif MOVE." in shown
    assert "c3-e5 is not legal" in shown or "There is no piece on c3" in shown
    assert "Taught rule taught-1" in shown  # teach MOVE is as it was
    assert drafts_file().read_text(encoding="utf-8").count("\nmotif draft-") == 1
    assert app.game.ply == 0


def test_a_draft_of_a_won_game_claims_the_pieces_there_are(tmp_path: Path):
    from kbdraughts.notation import parse_fen, parse_move
    from kbdraughts.ui.teach import draft

    pos = parse_fen("W:WKa1:Bc3,e5")
    text = draft(pos, parse_move(pos, "a1:d4:f6"), tmp_path / "m.txt").text
    assert "  play: S:B:T\n" in text and "  gain: 2\n" in text and "  priority: 2\n" in text
    assert "our_king(S)" in text and "ray(S, A, fr), ray(A, B, fr)" in text


def test_two_consoles_teaching_at_once_keep_both_rules(tmp_path: Path, monkeypatch):
    # issue 28, item 5: both said "Taught rule taught-1" and the file kept one
    import threading
    import time

    def slow_check(path):  # the knowledge base's check takes a while: the window of the race
        time.sleep(0.3)
        return "checked", True

    monkeypatch.setattr(teach_module, "check_knowledge_base", slow_check)
    path = tmp_path / "taught.txt"
    first, second = sorted(legal_moves(START), key=move_text)[:2]
    taught = []
    threads = [threading.Thread(target=lambda m=m: taught.append(teach(START, m, path)))
               for m in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(t.rule_id for t in taught) == ["taught-1", "taught-2"]
    text = path.read_text(encoding="utf-8")
    assert text.count("rule taught-") == 2
    assert f"play: {move_text(first)}" in text and f"play: {move_text(second)}" in text
