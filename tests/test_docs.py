"""The manual names only commands and options that exist, and its Quick start is the one CI runs.

Every ``kbdraughts ...`` in a code span or a code block of README.md and docs/*.md must walk
the real parser (``kbdraughts.cli.build_parser``) to a command, nested ones too (``rules
check``, ``egdb verify``), and every option it names must be one that command knows. An option
named alone (``--movetime MS`` after the usage of ``kbdraughts play``) belongs to the last
command named before it in its section; before any, to some kbdraughts command. Other programs
(``pip``, ``pytest``, ``python bench/...``) and the console's own commands (``why --verbose``)
start a context of their own, where options are not kbdraughts' (a console command's must be
in its usage line). Prose is never read for options: only code.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

from kbdraughts.cli import build_parser
from test_quick_start import quick_start

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: The word kbdraughts as a command: at a word's start, after ``bin/`` or ``cmd:``; not a path
#: (``kbdraughts/ai``), a module (``kbdraughts.cli``) or a message (``kbdraughts: bad FEN``).
COMMAND = re.compile(r"""(?:^|(?<=[\s'"(:])|(?<=/bin/))kbdraughts(?![\w./:-])""")
#: A command in quotes inside another (``match kb 'cmd:kbdraughts bestmove --level 1'``).
QUOTED = re.compile(r"""(['"])(?:cmd:)?(?=[^'"]*kbdraughts)([^'"]*)\1""")
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
#: Programs whose options are their own.
OTHERS = {"python", "python3", "pip", "pip3", "pytest", "tmux", "sudo", "apt", "apt-get", "git",
          "gcc", "source", "echo", "grep"}


@dataclass(frozen=True)
class Code:
    """One code span, or one line of a code block, with where it stands."""

    page: str
    line: int
    text: str
    section: int  # a count of the headings before it: a new section forgets the last command
    block: bool  # a line of a code block, not a span


#: The code blocks that hold commands and their output: unmarked, or marked as a shell's.
SHELL_BLOCKS = ("", "sh", "shell", "bash", "console", "text")


def code_of(text: str, page: str = "text") -> Iterator[Code]:
    """The code spans and code-block lines of a Markdown text, in order."""
    section, fenced, paragraph, start = 0, False, [], 0
    other = False  # a block in another language (a config file's yaml, Python): not ours
    for number, line in enumerate(text.splitlines() + [""], 1):
        if line.startswith("```"):
            fenced = not fenced
            other = fenced and line[3:].strip() not in SHELL_BLOCKS
        elif fenced:
            if not other:
                yield Code(page, number, line, section, block=True)
            continue
        if line.strip() and not line.startswith(("```", "#")):
            start = start if paragraph else number
            paragraph.append(line)
            continue
        # A span may run over a line break, not past its paragraph.
        for span in re.finditer(r"`([^`]+)`", "\n".join(paragraph)):
            line_of_span = start + span.string.count("\n", 0, span.start())
            yield Code(page, line_of_span, span[1], section, block=False)
        paragraph = []
        section += line.startswith("#")


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next((dict(a.choices) for a in parser._actions
                 if isinstance(a, argparse._SubParsersAction)), {})


def below(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parser and every parser under it."""
    return [parser] + [p for sub in subcommands(parser).values() for p in below(sub)]


def options(parsers: list[argparse.ArgumentParser]) -> set[str]:
    return {o for p in parsers for a in p._actions for o in a.option_strings}


def walk(words: list[str], root: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parsers the words after ``kbdraughts`` lead to: one command, several (``egdb
    build|probe``), or all under a placeholder (``COMMAND``). ValueError for no such command."""
    parsers = [root]
    for word in (w.strip("[](){}<>'\",;.`").replace("\\", "") for w in words):
        choices = subcommands(parsers[0]) if len(parsers) == 1 else {}
        if not choices:
            break
        if not word:
            continue
        if word.startswith("-"):
            # A bare `kbdraughts --resume` plays, as main() has it; --help is everyone's.
            if parsers[0] is root and word not in ("-h", "--help", "--version"):
                return [choices["play"]]
            return parsers
        if not word.replace("|", "").isalpha() or word.isupper():  # COMMAND, FEN, 0.1.0
            return below(parsers[0])
        missing = [w for w in word.split("|") if w not in choices]
        if missing:
            raise ValueError(f"no command {' '.join(parsers[0].prog.split()[1:] + missing)!r}")
        parsers = [choices[w] for w in word.split("|")]
    return parsers


def commands_in(code: str) -> list[str]:
    """The kbdraughts commands in a line of code, each from its name to the next command, a
    quote's end, a pipe or a shell comment: the outer command first, then any quoted one."""
    out = []
    for piece in [QUOTED.sub("ARG", code), *(m[2] for m in QUOTED.finditer(code))]:
        starts = [m.end() for m in COMMAND.finditer(piece)]
        for start, end in zip(starts, starts[1:] + [None]):
            out.append(re.split(r"\s(?:#|\||&&)\s|;\s", piece[start:end])[0])
    return out


def problems(text: str, page: str = "text") -> list[str]:
    """``page:line: ...`` for each command or option the text names that does not exist."""
    import kbdraughts.ui.commands  # noqa: F401 (registers the console's commands)
    from kbdraughts.ui.registry import lookup

    root, out = build_parser(), []
    context: list[argparse.ArgumentParser] | None = None
    section = -1
    for code in code_of(text, page):
        if code.section != section:  # a new section: no command named yet
            section, context = code.section, below(root)
        line = code.text.strip().removeprefix("$ ")
        first = line.split()[0] if line.split() else ""
        where = f"{code.page}:{code.line}: `{code.text.strip()}`"
        commands = commands_in(line)
        for i, command in enumerate(commands):
            try:
                parsers = walk(command.split(), root)
            except ValueError as e:
                out.append(f"{where}: {e}")
                continue
            unknown = [o for o in OPTION.findall(command) if o not in options(parsers)]
            out += [f"{where}: {parsers[0].prog} has no option {o}" for o in unknown]
            context = parsers if i == 0 else context  # what an option named next belongs to
        if commands:
            continue
        if first in OTHERS or first.endswith(".py") or "/bin/" in first:
            context = None  # another program: its options are its own
        elif (console := lookup(first)) is not None:
            context = None
            out += [f"{where}: the console's {first} has no option {o}"
                    for o in OPTION.findall(line) if o not in console.usage]
        elif line.startswith(("-", "[-")) and context is not None:
            out += [f"{where}: no option {o} in {' or '.join(sorted({p.prog for p in context}))}"
                    for o in OPTION.findall(line) if o not in options(context)]
    return out


# -- the checker itself, on small texts: it catches what it should and nothing else -------------


@pytest.mark.parametrize("text", [
    "Run `kbdraughts bestmove --frobnicate`.",
    "Run `kbdraughts frobnicate`.",
    "`kbdraughts egdb verify --prove`",  # rules check's option, not egdb verify's
    "`kbdraughts egdb build|prune`",
    "```\nkbdraughts perft DEPTH [--fen FEN]\n             [--divide] [--fast]\n```",
    "```\nkbdraughts perft DEPTH\n```\n\n`--movetime MS` sets the time.",  # play's, not perft's
    "`kbdraughts match kb:1 'cmd:kbdraughts bestmove --games 2'`",  # the inner command's
    "## A section\n\n`--no-such-option` alone is some command's, or wrong.",
    "`why --numbered`",  # the console's why has no --numbered
])
def test_a_command_or_option_that_does_not_exist_is_caught(text):
    assert problems(text), text


@pytest.mark.parametrize("text", [
    "`kbdraughts rules check --prove`, `kbdraughts egdb verify --sample 5 --seed 1`",
    "`kbdraughts egdb build|probe|verify`, `kbdraughts rules check\\|match`",
    "`kbdraughts --resume`, `.venv/bin/kbdraughts --version`, `kbdraughts COMMAND --help`",
    "`kbdraughts annotate GAME.pdn [-o OUT]`, then `-o -` writes to stdout",
    "`kbdraughts annotate a.pdn | grep -c coach; tmux -L s && pip -q`",
    "```\nkbdraughts play [--color white|black]\n           [--movetime MS | --clock M+S]\n```",
    "`kbdraughts match kb:1 'cmd:kbdraughts bestmove --level 1' --cmd-fen`",
    "`kbdraughts play`, then `pip install --user x`, `pytest -q`, `tmux -L s`, `sudo apt -y`",
    "`python bench/match.py --seeds 10`: `--seeds 10` averages over ten seeds",
    "`kbdraughts play` ... `why --verbose`, then `--verbose` adds the detail",
    "The `kbdraughts/ai` folder, `kbdraughts.cli`, `kbdraughts: bad FEN: line 3`",
    "kbdraughts --made-up in prose is not code",
])
def test_other_programs_paths_and_prose_are_left_alone(text):
    assert problems(text) == [], text


# -- the manual ---------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_command_and_option_the_manual_names_exists(page):
    name = page.relative_to(ROOT).as_posix()
    assert problems(page.read_text(encoding="utf-8"), name) == []


def test_the_readme_quick_start_is_the_one_ci_runs():
    section, commands = quick_start()  # as tests/test_quick_start.py reads it and .ci/run runs it
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("## Quick start") == 1
    assert [c.text for c in code_of(section) if c.block] == commands  # what is checked here
    assert problems(section, "README.md") == []
    # No page of the manual keeps a second, different way to install and run it.
    for page in PAGES[1:]:
        for code in code_of(page.read_text(encoding="utf-8"), page.name):
            assert "-m venv" not in code.text or code.text in commands, code


def test_the_manual_s_links_between_pages_reach_a_page_and_a_heading():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target, anchor in re.findall(r"\]\(([^)#\s]*\.md)?(?:#([\w-]+))?\)", text):
            linked = (page.parent / target).resolve() if target else page
            assert linked.exists(), f"{page.name}: {target}"
            if anchor:
                assert anchor in anchors(linked.read_text(encoding="utf-8")), \
                    f"{page.name}: {target}#{anchor}"


def anchors(text: str) -> set[str]:
    """The anchors GitHub makes of a page's headings."""
    heads = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", text, flags=re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


# -- docs/architecture.md names every module ----------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: A package's door and its ``python -m`` entry: the folder's entry speaks for them.
DOORS = ("__init__.py", "__main__.py")
#: An entry of the "What lives where" tree: two spaces, a folder (``kb/rules/``) or a
#: top-level module (``squares.py``), then its words, continued on lines indented further.
ENTRY = re.compile(r"^  (\S+)\s")


def module_entries(text: str) -> dict[str, str]:
    """The entries of the package's tree in architecture.md's "What lives where": folder
    (``kb/rules/``) or top-level module (``board.py``) to the words after it."""
    section = text.split("## What lives where", 1)[1]
    block = re.search(r"```\nkbdraughts/\n(.*?)```", section, re.S)
    assert block, "What lives where holds the package's tree in a code block"
    entries: dict[str, str] = {}
    key = None
    for line in block.group(1).splitlines():
        if not line.startswith(" "):
            break  # combos/, tests/ ...: beside the package, not in it
        m = ENTRY.match(line)
        if m:
            key = m.group(1)
            assert key not in entries, f"two entries for {key}"
            entries[key] = line[m.end():].strip()
        elif key is not None:
            entries[key] += " " + line.strip()
    return entries


def unnamed_modules(entries: dict[str, str], modules: list[Path]) -> list[str]:
    """The modules (paths under kbdraughts/) the entries do not name: a top-level module by its
    own entry, any other by its file name in its folder's entry."""
    out = []
    for path in modules:
        folder = "".join(f"{part}/" for part in path.parts[:-1])
        if not folder:
            named = path.name in entries
        else:
            named = re.search(rf"(?<![\w./]){re.escape(path.name)}(?!\w)",
                              entries.get(folder, "")) is not None
        if not named and path.name not in DOORS:
            out.append(path.as_posix())
    return out


def test_the_module_check_catches_a_missing_module_and_nothing_else():
    entries = module_entries("## What lives where\n\n```\nkbdraughts/\n  board.py  bitboards\n"
                             "  kb/rules/ rule.py (the Rule), index.py\n            (datalog.py\n"
                             "combos/   files\n```\n")
    assert entries == {"board.py": "bitboards", "kb/rules/": "rule.py (the Rule), index.py "
                       "(datalog.py"}
    paths = [Path(p) for p in ("board.py", "kb/rules/rule.py", "kb/rules/datalog.py",
                               "kb/rules/__init__.py")]
    assert unnamed_modules(entries, paths) == []
    missing = [Path(p) for p in ("fen.py", "kb/rules/fields.py", "kb/rule.py", "kb/rules/x.py")]
    # index.py of kb/rules/ names no kb/motifs/index.py; "rule.py" is no "x.py"'s name.
    assert unnamed_modules(entries, missing + [Path("kb/motifs/index.py")]) == [
        "fen.py", "kb/rules/fields.py", "kb/rule.py", "kb/rules/x.py", "kb/motifs/index.py"]


def test_architecture_names_every_module_of_the_package():
    package = ROOT / "kbdraughts"
    modules = sorted(p.relative_to(package) for p in package.rglob("*.py"))
    assert len(modules) > 100
    unnamed = unnamed_modules(module_entries(ARCHITECTURE.read_text(encoding="utf-8")), modules)
    assert unnamed == [], (f"docs/architecture.md's 'What lives where' names no {unnamed}: add "
                           "each to its folder's entry (a new folder: an entry of its own)")


# -- figures live in docs/benchmarks.md, dated; the code says what and why ----------------------

#: A commit hash: 7 to 40 hex digits, a digit and a letter among them, a word of its own.
COMMIT = re.compile(r"(?<![\w/.-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/-])")
#: A match score: wins, draws and losses (+66 =28 -6), or a share with its tenth (80.0%).
SCORE = re.compile(r"\+\d+ =\d+ [-−]\d+|(?<![\d.])\d{1,3}\.\d%")


def doc_texts(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each docstring (module, class, function) and comment of a module."""
    import ast
    import io
    import tokenize
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.body[0].lineno, doc
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def stale_figures(source: str, name: str = "text") -> list[str]:
    """``name:line: ...`` for each commit hash or match score in a module's docs and comments."""
    return [f"{name}:{line + text.count(chr(10), 0, m.start())}: {m.group(0)!r}"
            for line, text in doc_texts(source)
            for pattern in (COMMIT, SCORE) for m in pattern.finditer(text)]


def test_the_figure_check_catches_hashes_and_scores_and_nothing_else():
    caught = ('"""Scored +66 =28 -6 against d57fdf1."""', "x = 1  # 49.0%, beside 51.8%",
              "def f():\n    '''commit 0b44945e'''")
    assert [len(stale_figures(text)) for text in caught] == [2, 2, 1]
    alone = ('"""Never past 45-85% of the budget; under 95%; 1e308; 0x7fffffff."""',
             "x = 'd57fdf1'  # a string, not a doc", "# draft-1000000000000000000, decade, 1.5x",
             '"""bench/data/ab12cd34.txt, --seed 2026, 3.7 M nodes/s"""')
    assert [stale_figures(text) for text in alone] == [[]] * 4


def test_no_docstring_or_comment_of_the_package_carries_a_commit_or_a_match_score():
    """Such figures go stale: they live in docs/benchmarks.md, dated, and the code points there."""
    package = ROOT / "kbdraughts"
    found = [f for path in sorted(package.rglob("*.py"))
             for f in stale_figures(path.read_text(encoding="utf-8"),
                                    path.relative_to(ROOT).as_posix())]
    assert found == [], "move these to docs/benchmarks.md (dated) and point there: " + \
        "; ".join(found)


def test_no_page_installs_from_a_registry_that_does_not_serve_kbdraughts():
    """kbdraughts is installed from its source (the Quick start), not ``pip install kbdraughts``."""
    for page in [*PAGES, ROOT / "combos" / "README.md"]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip3? install (?:-\S+ )*kbdraughts\b", text), page.name
