"""Every command's ``--help`` as a person reads it in a terminal (issue 40, item 23): no RST
markup (``tune --help`` showed the docstring's backticks), and ``tune fit --target`` says
what its default is and why."""

from __future__ import annotations

import argparse
from typing import Iterator

from kbdraughts.cli import build_parser


def helps(parser: argparse.ArgumentParser, name: str = "kbdraughts"
          ) -> Iterator[tuple[str, str]]:
    yield name, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, child in action.choices.items():
                yield from helps(child, f"{name} {sub}")


def test_no_help_shows_rst_markup():
    shown = dict(helps(build_parser()))
    assert "kbdraughts tune fit" in shown and len(shown) > 15
    marked = {name: [line for line in text.splitlines() if "`" in line]
              for name, text in shown.items() if "`" in text}
    assert not marked, marked


def test_tune_fit_target_says_its_default_and_why():
    fit = dict(helps(build_parser()))["kbdraughts tune fit"]
    target = " ".join(fit.split("--target {result,score,both}")[-1].split())
    assert target.startswith("what the fit follows: score, the search's scores"), target
    assert "the default: weights fitted so scored best in matches" in target
    assert "it played best" not in target
