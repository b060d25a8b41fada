"""The opening book: lines players chose, named by their sources, every move played checked by
a deep search; the ballots are a suite for match, not the book."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts.eval.heuristic import default_heuristic
from kbdraughts.ai.native_search import make_searcher
from kbdraughts.board import START, legal_moves, play
from kbdraughts.kb.book import (
    MAX_LOSS, MIN_DEPTH, Check, book_lines, book_moves, read_checks, rule_name, short_moves,
)
from kbdraughts.kb.openings import OPENINGS, opening_of
from kbdraughts.kb.combos import parse_rules
from kbdraughts.match.line_protocol import read_game_line
from kbdraughts.match.runner import read_starts
from kbdraughts.notation import fen, move_text
from kbdraughts.pdn import read_pdn_file
from kbdraughts.resources import combos_dir

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"
BOOK = combos_dir() / "openings.txt"


def tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def played_rules():
    return parse_rules(BOOK.read_text(encoding="utf-8"), "openings.txt")[0]


def books():
    return book_moves(book_lines(read_pdn_file(DATA / "ussr1924.pdn")))


def test_each_opening_replays_and_is_cited_in_the_book():
    text = BOOK.read_text(encoding="utf-8")
    assert len(OPENINGS) >= 20 and len({o.label for o in OPENINGS}) == len(OPENINGS)
    for o in OPENINGS:
        short_moves(o.moves + o.more)  # every move legal, one move per token
        assert f"# - {o.words()}, {' '.join(o.moves)}: {o.source}" in text
        assert opening_of(list(o.moves)) == o and opening_of(list(o.moves[:-1])) != o


def test_every_rule_played_was_checked_at_depth_20_and_is_not_worse():
    """The claim (no book move judged > 0.3 man worse) rests on the recorded checks."""
    checks = read_checks((DATA / "book_checks.txt").read_text(encoding="utf-8"))
    rules = played_rules()
    assert len(rules) >= 200
    for rule in rules:
        check = checks[(fen(rule.exact_position()), rule.play_text())]
        assert check.depth >= MIN_DEPTH and check.loss <= MAX_LOSS, (rule.id, check)


def test_the_rules_are_the_book_moves_and_say_their_opening():
    by_id = {b.rule_id: b for b in books()}
    for rule in played_rules():
        book = by_id[rule.id]
        assert (rule.exact_position(), rule.play_text()) == (book.position, move_text(book.move))
        assert rule.name == rule_name(book)
    named = [r for r in played_rules() if r.name.startswith(tuple(o.words() for o in OPENINGS))]
    assert len(named) >= 100


def test_a_marked_move_is_a_comment_that_says_why():
    gen = tool("gen_openings")
    worse = Check("W:Wc3:Bf6", "c3-d4", 20, -40, "c3-b4", 0)
    assert gen.verdict(worse) == (gen.MARKED, "not played: depth 20: c3-d4 -40, the best "
                                  "c3-b4 +0, 0.40 man worse")
    assert gen.verdict(worse._replace(score=-30))[0] == gen.PLAYED
    assert gen.verdict(worse._replace(depth=19))[0] == gen.UNCHECKED
    assert gen.verdict(None)[0] == gen.UNCHECKED
    lines = gen.rule_text(books()[0], gen.MARKED, "not played: why")
    assert lines[0] == "# not played: why" and all(x.startswith("# ") for x in lines)


def test_a_sample_of_book_moves_holds_at_a_lower_depth():
    """Consistency, not the claim: at depth 10 no sampled book move loses a man to the best."""
    searcher = make_searcher(default_heuristic().evaluate, tt_size=1 << 16)
    rules = played_rules()
    for rule in rules[::max(1, len(rules) // 6)]:
        pos = rule.exact_position()
        move = next(m for m in legal_moves(pos) if move_text(m) == rule.play_text())
        best = searcher.search(pos, max_depth=10).score
        ours = searcher.search(pos, max_depth=10, moves=[move]).score
        assert ours >= best - 100, (rule.id, ours, best)


def test_why_names_the_opening_and_its_source():
    """After 1.c3-d4 b6-a5 (Kol) the book answers 2.d4-c5 from its source's line."""
    after = fen(play(play(START, short_moves(["cd4"])[0]), short_moves(["cd4", "ba5"])[1]))
    out = subprocess.run([sys.executable, "-m", "kbdraughts.cli", "bestmove", "--level", "1",
                          "--explain", after], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("d4-c5  # exact rule kol.3 \"Кол (Kol) [«Кол», chapter 4 of a "
                                 "Russian draughts opening book], after c3-d4 b6-a5 -> d4-c5\"")
    assert "http" not in out.stdout  # the address is the book's header's, once


#: A word of Latin notation (a3-b4, a:c5, 1.cd4) or an address with a Cyrillic letter in it: a
#: look-alike (Cyrillic а, с, е, о ...) that reads the same and matches nothing.
_MIXED = re.compile(r"\S*(?:[a-zA-Z0-9][^\sa-zA-Z0-9]*[а-яёА-ЯЁ]|[а-яёА-ЯЁ][^\sа-яёА-ЯЁ]*"
                    r"[a-zA-Z0-9])\S*")


def test_book_reasons_cite_without_an_address_in_latin_notation():
    """Every book move's reason (what why, hint, the toolbar and the Hub say) names its opening
    and source in a few words, no URL; notation in it is Latin, as is the header's."""
    assert _MIXED.findall("3. а:с5 (Cyrillic а, с) https://ru.wiki/Старая") == [
        "а:с5", "https://ru.wiki/Старая"]
    assert _MIXED.findall("Кол (Kol) [«Кол», Руниверсалис], 1. a:c5 -> d4-c5") == []
    reasons = [rule_name(b) for b in books()]
    assert len(reasons) > 300
    for reason in reasons:
        assert "http" not in reason and "://" not in reason, reason
        assert _MIXED.findall(reason) == [], reason
    for o in OPENINGS:  # the header's sources in full: their addresses may be Cyrillic, not moves
        assert _MIXED.findall(re.sub(r"\(?https?://\S+", "", o.source)) == [], o.source
        assert "http" in o.source or "«" in o.source, o.source  # cited, in full


def test_the_generators_write_the_shipped_files():
    assert tool("gen_openings").generate()[0] == BOOK.read_text(encoding="utf-8")
    pytest.importorskip("draughts")  # pydraughts: needed only for the ballots
    shipped = (DATA / "ballots.txt").read_text(encoding="utf-8")
    assert tool("gen_ballots").generate()[0] == shipped


def test_the_ballots_are_a_match_suite_and_the_book_answers_after_some():
    starts = read_starts((DATA / "ballots.txt").read_text(encoding="utf-8"), "ballots.txt")
    assert len(starts) == 348
    positions = {(r.exact_position()) for r in played_rules()}
    ends = [read_game_line(s).position for s in starts]
    assert sum(p in positions for p in ends) >= 10  # keyed by position, not by the moves
    assert not re.search(r"^rule ballot", BOOK.read_text(encoding="utf-8"), re.M)
