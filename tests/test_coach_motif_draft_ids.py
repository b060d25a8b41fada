"""``teach motif`` never writes a draft id twice: not after the largest number the file holds,
not after a draft was moved into a combos file, not when the file's ids are indented."""

from __future__ import annotations

from pathlib import Path

from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.resources import data_dir
from kbdraughts.ui.teach import draft, drafts_file

SHOT_01 = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,a5:Bc5,g5,b6,f6,a7,c7,e7,g7,b8,d8,f8,h8"


def ids_of(path: Path) -> list[str]:
    return [line.split()[1] for line in path.read_text(encoding="utf-8").splitlines()
            if line.lstrip().startswith("motif ")]


def test_a_ten_digit_draft_number_is_not_written_twice(tmp_path: Path):
    pos = parse_fen(SHOT_01)
    path = tmp_path / "motifs.txt"
    path.write_text("motif draft-999999999\n  status: draft\n  play: S-T\n"
                    "  when: our_man(S), next(S, T, D), empty(T), step(S, T)\n  gain: 1\n",
                    encoding="utf-8")
    made = [draft(pos, parse_move(pos, "e3-d4"), path).motif_id for _ in range(3)]
    assert made == ["draft-1000000000", "draft-1000000001", "draft-1000000002"]
    ids = ids_of(path)
    assert len(ids) == len(set(ids)) == 4


def test_a_draft_moved_into_a_combos_file_keeps_its_id(capsys):
    pos = parse_fen(SHOT_01)
    first = draft(pos, parse_move(pos, "e3-d4"))
    assert first.motif_id == "draft-1"
    # The author moves it (generalised or not) into their combos, leaving the drafts file empty.
    mine = data_dir() / "combos" / "mine.txt"
    mine.write_text(first.text, encoding="utf-8")
    drafts_file().write_text("", encoding="utf-8")
    second = draft(pos, parse_move(pos, "e3-d4"))
    assert second.motif_id == "draft-2"
    # ... and the knowledge base with both loads: no duplicate id.
    copy = data_dir() / "combos" / "more.txt"
    copy.write_text(drafts_file().read_text(encoding="utf-8"), encoding="utf-8")
    kb = load_knowledge_base()
    assert kb.errors == [] and {"draft-1", "draft-2"} <= {m.id for m in kb.motifs}


def test_an_indented_or_faulty_draft_still_counts(tmp_path: Path):
    pos = parse_fen(SHOT_01)
    path = tmp_path / "motifs.txt"
    path.write_text("  motif   draft-7\n  play: nonsense\n", encoding="utf-8")
    assert draft(pos, parse_move(pos, "e3-d4"), path).motif_id == "draft-8"
