"""The README's examples are true: its showcase is played again in a real terminal and its
commands are run, each output compared with the README's text.

The showcase (the first code block, a console 100 columns wide) is replayed in tmux: the moves
it shows typed, then ``hint``; the screen's last lines must be the block, the toolbar too. The
examples (the block of ``$ kbdraughts ...`` lines under "The commands") run in a shell, one
by one in a folder of their own; each line under a command is a line it prints, and a line
ending in `` ...`` stands for the line's start.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_terminal_tmux import Terminal

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The line a move is typed on in the showcase: ``3. White to move: a3:c5``.
TYPED = re.compile(r"^(\d+)\. (?:White|Black) to move: (\S+)$")


def blocks(text: str) -> list[list[str]]:
    """The README's unmarked code blocks, as lines."""
    return [b.splitlines() for b in re.findall(r"^```\n(.*?)^```$", text, re.S | re.M)]


def showcase() -> list[str]:
    """The first code block: the console as a terminal shows it."""
    return blocks(README.read_text(encoding="utf-8"))[0]


def examples() -> list[tuple[str, list[str]]]:
    """(command, the lines the README shows it printing) of the examples' block."""
    section = README.read_text(encoding="utf-8").split("## The commands", 1)[1]
    block = next(b for b in blocks(section) if b and b[0].startswith("$ kbdraughts bestmove"))
    out: list[tuple[str, list[str]]] = []
    for line in block:
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def shown(expected: str, actual: str) -> bool:
    """Whether a printed line is the README's: whole, or its start where the README ends
    the line with `` ...``."""
    if expected.endswith(" ..."):
        return actual.startswith(expected[:-4])
    return actual == expected


def test_the_output_comparison_takes_an_ellipsis_as_the_line_s_start():
    assert shown("a: 1 game; ...", "a: 1 game; 2 notes") and shown("x y", "x y")
    assert not shown("a: 1 game; ...", "a: 2 games; 2 notes") and not shown("x y", "x y z")


def test_the_showcase_is_the_console_as_it_plays_the_moves_shown(tmp_path):
    lines = showcase()
    typed = [TYPED.match(line) for line in lines]
    first = next(m for m in typed if m is not None)
    # The moves before the showcase's first line are in its move list: 1. c3-d4 b6-a5 ...
    listed = re.findall(r"\d+\. ([a-h][1-8](?:[-:][a-h][1-8])+) ", " ".join(lines))
    ours = listed[:int(first.group(1)) - 1] + [first.group(2)]
    commands = [m.group(2) for m in typed[lines.index(first.group(0)) + 1:] if m is not None]
    assert ours and commands == ["hint"], (ours, commands)
    term = Terminal(tmp_path, [], width=100, height=len(lines) + 2)
    try:
        term.wait_for("1. White to move:")
        for number, move in enumerate(ours, 2):
            term.type(move)
            term.wait_for(f"{number}. White to move:")
        term.type("hint")
        screen = term.wait_for("Hint:", lines[-1][:20])
        tail = screen.rstrip("\n").splitlines()[-len(lines):]
        assert [line.rstrip() for line in tail] == lines, "\n".join(tail)
    finally:
        term.tmux("kill-server")


@pytest.fixture
def shell(tmp_path: Path, endgame_tables) -> dict[str, str]:
    """The environment the examples run in: ``kbdraughts`` on the PATH (this interpreter's),
    the endgame tables already built, the project's ``bench`` reachable from the folder."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "kbdraughts"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kbdraughts.cli "$@"\n')
    shim.chmod(0o755)
    (tmp_path / "bench").symlink_to(ROOT / "bench")
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "COLUMNS": "100"}


def test_the_examples_print_what_the_readme_shows(tmp_path, shell):
    runs = examples()
    assert [c.split()[:2] for c in (command for command, _ in runs)][:4] == [
        ["kbdraughts", "bestmove"], ["kbdraughts", "match"], ["kbdraughts", "egdb"],
        ["kbdraughts", "annotate"]]
    for command, expected in runs:
        out = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=shell,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, (command, out.stderr)
        printed = (out.stdout + out.stderr).splitlines()
        assert len(printed) == len(expected), (command, printed)
        for want, got in zip(expected, printed):
            assert shown(want, got), f"$ {command}\nREADME: {want}\nprints: {got}"


# -- combos/README.md: the knowledge base's counts as rules check gives them -----------------------

COMBOS_README = ROOT / "combos" / "README.md"
#: rules check's summary line: ``3 files, 393 rules (328 exact, 65 patterns), 18 motifs, ...``.
SUMMARY = re.compile(r"\d+ files?, [\d,]+ rules \([\d,]+ exact, [\d,]+ patterns\), [\d,]+ motifs?, "
                     r"[\d,]+ warnings?, [\d,]+ errors?")


def test_the_authoring_guide_counts_the_knowledge_base_as_rules_check_does(capsys):
    from kbdraughts.cli import main
    assert main(["rules", "check", "--positions", "0"]) == 0
    summary = capsys.readouterr().out.splitlines()[-1]
    assert SUMMARY.fullmatch(summary), summary
    text = COMBOS_README.read_text(encoding="utf-8")
    # The walk's own file (1 file, 0 rules, 1 motif) is not the shipped knowledge base.
    shipped = [s for s in SUMMARY.findall(text) if not s.startswith("1 file,")]
    assert len(shipped) >= 2 and set(shipped) == {summary}, (shipped, summary)
    motifs = re.search(r"(\d+) motifs", summary).group(1)
    assert f"then {motifs} motifs, rules with variables" in text  # the files' table
