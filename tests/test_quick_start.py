"""The README's Quick start: two commands, the second run by CI exactly as it is written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start() -> tuple[str, list[str]]:
    """The Quick start section's text and the lines of its command block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the Quick start has a ```sh block"
    return section, block.group(1).splitlines()


def test_two_commands_in_a_virtual_environment_and_the_python_version():
    section, (play, test) = quick_start()
    for command in (play, test):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e ")
    assert play.endswith(" && .venv/bin/kbdraughts")
    assert test.endswith(" && .venv/bin/pytest") and '".[test]"' in test
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'requires-python = ">=3.11"' in pyproject and "Python 3.11 or newer" in section


def test_ci_runs_the_test_command_exactly():
    _, (_, test) = quick_start()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert f"{test} || status=$?" in ci
