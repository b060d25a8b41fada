"""``kbdraughts rules stats`` and the precision warning of ``rules check`` (cli/rules.py over
coach/rule_stats.py): what fires, what the referee finds right, and the false firings shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from kbdraughts.ai.claims import Claim, GAIN, holds
from kbdraughts.coach.rule_stats import game_positions, measure, random_positions
from kbdraughts.cli import main
from kbdraughts.kb.knowledge import load_knowledge_base
from kbdraughts.notation import parse_fen, parse_move
from kbdraughts.pdn import PdnError, load_pdn_file

DATA = Path(__file__).parent / "data"

#: A draft as a new author writes it first: "a man steps up next to theirs wins a man".
STEP_UP = """\
motif step-up
  name: a man steps up next to theirs
  status: draft
  play: S-T
  when: our_man(S), next(S, T, D), forward(D), empty(T), next(T, X, E), their_piece(X),
    step(S, T)
  gain: 1
"""
#: The same idea made precise by exclusions (the README's quiet threat).
THREAT = """\
motif sure-threat
  status: draft
  play: S-T
  when: our_man(S), next(S, T, D), forward(D), empty(T), jump(T, X, L), their_piece(X),
    empty(L), step(S, T), after(S-T, they_take(0)), after(S-T, threat(N)), N >= 1
  gain: 1
"""


@pytest.fixture
def drafts(tmp_path: Path) -> Path:
    f = tmp_path / "drafts.txt"
    f.write_text(STEP_UP + "\n" + THREAT, encoding="utf-8")
    return f


_ROW = re.compile(r"^ *(\d+) +(\d+|-) +(\d+|-) +(\d+|-) +([\d.]+%|-)  (motif|rule) (\S+) ")


def rows(out: str) -> dict[str, tuple[str, ...]]:
    """The table's rows: id -> (fired, right, false, unjudged, precision)."""
    return {m.group(7): m.groups()[:5] for line in out.splitlines() if (m := _ROW.match(line))}


def test_stats_shows_an_imprecise_draft_and_its_false_firings(drafts: Path, capsys):
    assert main(["rules", "stats", "--rules", str(drafts), "--positions", "400"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("rules stats: 400 quiet positions of random games (seed 2026)")
    table = rows(out)
    fired, right, false, unjudged, precision = table["step-up"]
    assert int(fired) == int(right) + int(false) + int(unjudged) and int(false) > 0
    assert float(precision.rstrip("%")) < 95
    assert table["sure-threat"][2] == "0" and table["sure-threat"][4] == "100.0%"
    # Each false firing shown: the draft fires there with that move, and the referee says no.
    kb = load_knowledge_base([drafts])
    shown = re.findall(r"^    false: (\S+) (?:nets [-+]\d+|loses the game|wins the game): "
                       r"(\S+)$", out, re.MULTILINE)
    assert len(shown) == 3
    for move_text, fen_text in shown:
        pos = parse_fen(fen_text)
        move = parse_move(pos, move_text)
        assert any(m.rule.id == "step-up" and m.move == move
                   for m in kb.matches(pos, drafts=True))
        assert not holds(Claim(GAIN, 1), pos, move)
    last = out.splitlines()[-1]
    assert re.fullmatch(r"400 positions: [\d,]+ firings judged, [\d,]+ right \([\d.]+%\), "
                        r"0 unjudged; [\d.]+ s", last)


def test_stats_of_named_rules_and_an_unknown_id(drafts: Path, capsys):
    assert main(["rules", "stats", "sure-threat", "--rules", str(drafts), "--positions", "200",
                 "--worst", "0"]) == 0
    out = capsys.readouterr().out
    assert list(rows(out)) == ["sure-threat"] and "false:" not in out
    assert main(["rules", "stats", "step", "--rules", str(drafts)]) == 2
    assert capsys.readouterr().err == (
        "kbdraughts rules stats: no rule or motif 'step' among 0 rules (0 exact, 0 patterns), "
        "2 motifs; did you mean step-up?\n")


def test_stats_on_games_counts_their_quiet_positions(drafts: Path, tmp_path: Path, capsys):
    pdn = tmp_path / "games.pdn"
    pdn.write_text((DATA / "games.pdn").read_text(encoding="utf-8")
                   + '\n\n[Event "broken"]\n\n1. c3-d4 c3-d4 *\n', encoding="utf-8")
    games = [g.game for g in load_pdn_file(pdn).entries if not isinstance(g, PdnError)]
    assert main(["rules", "stats", "--rules", str(drafts), "--games", str(pdn)]) == 0
    out = capsys.readouterr()
    n = len(game_positions(games))
    assert out.out.startswith(f"rules stats: {n} quiet positions of 3 games in {pdn}")
    assert "game skipped" in out.err
    expected = {s.rule.id: s.fired for s in measure(load_knowledge_base([drafts]),
                                                    game_positions(games))}
    assert {k: int(v[0]) for k, v in rows(out.out).items()} == expected
    assert main(["rules", "stats", "--games", str(tmp_path / "none.pdn")]) == 2
    assert "none.pdn: cannot read" in capsys.readouterr().err


def test_rules_check_warns_under_95_percent(drafts: Path, capsys):
    assert main(["rules", "check", str(drafts), "--positions", "300"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[-1].endswith("2 motifs, 1 warning, 0 errors")
    found = re.fullmatch(
        rf"{re.escape(str(drafts))}:1: warning: motif step-up: precision [\d.]+% \([\d,]+ of "
        r"[\d,]+ firings right\) on 300 positions of random games, under 95%: 'kbdraughts "
        r"(rules stats step-up --rules \S+)' shows the false firings", out[0])
    assert found, out[0]
    advice = shlex.split(found[1])  # the command it advises works (issue 40, item 19)
    assert advice == ["rules", "stats", "step-up", "--rules", str(drafts)]
    assert main(advice + ["--positions", "300"]) == 0
    assert "step-up" in capsys.readouterr().out
    assert main(["rules", "check", str(drafts), "--positions", "0"]) == 0
    assert capsys.readouterr().out.endswith("2 motifs, 0 warnings, 0 errors\n")


def test_random_positions_are_seeded_distinct_and_quiet():
    from kbdraughts.board import captures, legal_moves

    a = random_positions(7, 300)
    assert a == random_positions(7, 300) and a != random_positions(8, 300)
    assert len(set(a)) == 300
    assert all(legal_moves(p) and not captures(p) for p in a)


def test_a_judgement_past_the_budget_is_unjudged(drafts: Path, monkeypatch):
    kb = load_knowledge_base([drafts])
    sample = random_positions(1, 200)
    before = {s.rule.id: s for s in measure(kb, sample)}
    monkeypatch.setattr("kbdraughts.coach.rule_stats.JUDGE_NODES", 0)
    after = {s.rule.id: s for s in measure(kb, sample)}
    for rule_id, s in after.items():
        assert s.fired == before[rule_id].fired > 0
        assert s.unjudged == s.fired and s.right == 0 and s.precision is None


def _walk_blocks() -> list[str]:
    """The code blocks of combos/README.md's authoring walk."""
    text = (Path(__file__).parent.parent / "combos" / "README.md").read_text(encoding="utf-8")
    walk = text.split("### Authoring a motif", 1)[1].split("\n## ", 1)[0]
    return walk.split("```\n")[1::2]


def test_the_readme_walk_shows_real_output(tmp_path: Path, capsys, monkeypatch):
    """The README's draft, its refinement and the outputs it pastes that do not depend on
    the clock: `rules match`, `rules check`'s warning, `rules check --prove`."""
    blocks = _walk_blocks()
    draft, match, check, when, stats, prove = (blocks[0], blocks[2], blocks[3], blocks[4],
                                               blocks[5], blocks[6])
    monkeypatch.chdir(tmp_path)
    Path("attack.txt").write_text(draft, encoding="utf-8")
    command, *expected = match.splitlines()
    assert main(command.split(" ", 1)[1].replace('"', "").split()[1:]) == 0
    assert capsys.readouterr().out.splitlines() == expected
    assert main(["rules", "check", "attack.txt"]) == 0
    assert capsys.readouterr().out.splitlines() == check.splitlines()[1:3]
    old_when = draft[draft.index("  when:"):draft.index("  gain:")]
    refined = draft.replace(old_when, when)
    assert "they_take(0)" in refined
    example = "example: W:We1,g1,c3,h4,c5:Be3,f6,h6,b8,d8"
    assert example in (Path(__file__).parent.parent / "combos" / "README.md").read_text(
        encoding="utf-8")
    Path("attack.txt").write_text(refined + f"  {example}\n", encoding="utf-8")
    assert main(["rules", "check", "--prove", "attack.txt"]) == 0
    assert capsys.readouterr().out.splitlines() == prove.splitlines()[1:]
    assert "   327    327      0        0    100.0%  motif attack" in stats
