"""The ``kbdraughts`` command as a whole: ``--version``, a light start-up, and its place on top."""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from kbdraughts import __version__
from kbdraughts.cli import build_parser, main
from kbdraughts.native import describe

CMD = [sys.executable, "-m", "kbdraughts.cli"]
ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=os.environ.copy())


def test_version():
    r = subprocess.run(CMD + ["--version"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (0, f"kbdraughts {__version__}, {describe()}\n",
                                                  "")
    assert __version__ == "0.1.0"
    pure = subprocess.run(CMD + ["--version"], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, KBDRAUGHTS_PURE="1", COLUMNS="40"))
    assert pure.stdout == (f"kbdraughts {__version__}, pure-Python core (KBDRAUGHTS_PURE is set: "
                           "searches ~7 plies shallower)\n")  # one line, however narrow


def test_without_a_compiler_the_version_and_the_console_say_what_it_costs(tmp_path: Path):
    """Issue 28, item 34: an install without a C compiler succeeds silently; the version and
    the console's start say the pure core searches about 7 plies shallower."""
    import shutil

    shutil.copytree(ROOT / "kbdraughts", tmp_path / "kbdraughts",
                    ignore=shutil.ignore_patterns("_core*", "__pycache__", "csrc"))
    shutil.copytree(ROOT / "combos", tmp_path / "combos")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("KBDRAUGHTS_PURE", None)
    # the copy without its extension, the editable install's finder (which would find the
    # checkout's) left out
    copy = [sys.executable, "-c", "import runpy, sys; sys.meta_path[:] = [f for f in "
            "sys.meta_path if 'Editable' not in repr(f)]; "
            "runpy.run_module('kbdraughts.cli', run_name='__main__')"]
    said = "pure-Python core (no C compiler at install: searches ~7 plies shallower)"
    version = subprocess.run(copy + ["--version"], capture_output=True, text=True, timeout=60,
                             env=env, cwd=tmp_path)
    assert version.stdout == f"kbdraughts {__version__}, {said}\n", version.stderr
    played = subprocess.run(copy + ["play", "--level", "1"], input="quit\n",
                            capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert f"Note: {said}." in played.stdout, played.stdout + played.stderr


def test_python_dash_m_kbdraughts_is_the_command_too():
    r = subprocess.run([sys.executable, "-m", "kbdraughts", "moves", "W:Wc3:Bd4,f6"],
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout.split(), r.stderr) == (0, ["c3:e5:g7"], "")


def test_building_the_parser_imports_neither_pydatalog_nor_the_console():
    r = run_python("import kbdraughts.cli as c, sys; c.build_parser(); "
                   "print('pyDatalog' in sys.modules, 'prompt_toolkit' in sys.modules, "
                   "'kbdraughts.ai.spec' in sys.modules)")
    assert r.stdout == "False False False\n", r.stderr


def test_building_the_parser_imports_only_argparse():
    """Run without site, so that nothing imported at start-up hides what the parser imports."""
    heavy = ["dataclasses", "inspect", "shutil", "pyDatalog", "prompt_toolkit", "kbdraughts.ai"]
    r = subprocess.run(
        [sys.executable, "-S", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
         "import kbdraughts.cli as c; c.build_parser(); "
         f"print([m for m in {heavy!r} if m in sys.modules])"],
        capture_output=True, text=True, timeout=60)
    assert r.stdout == "[]\n", r.stderr


def test_help_is_as_wide_as_columns_says(monkeypatch):
    from kbdraughts.cli.args import terminal_columns

    monkeypatch.setenv("COLUMNS", "50")
    assert terminal_columns() == 50
    assert max(map(len, build_parser().format_help().splitlines())) <= 48
    monkeypatch.setenv("COLUMNS", "0")
    assert terminal_columns() > 0


def test_moves_and_perft_run_without_pydatalog():
    r = run_python("import sys; from kbdraughts.cli import main; "
                   "main(['moves', 'W:Wc3:Bd4']); main(['perft', '2']); "
                   "print(sorted(m for m in ('pyDatalog', 'prompt_toolkit', 'kbdraughts.kb', "
                   "'kbdraughts.ai.engine') if m in sys.modules))")
    assert r.stdout == "c3:e5\n49\n[]\n", r.stderr


def _check_layout():
    path = ROOT / "tools" / "check_layout.py"
    spec = importlib.util.spec_from_file_location("check_layout", path)
    layout = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(layout)
    return layout


def test_no_library_module_imports_the_command_line():
    layout = _check_layout()
    for path in sorted((ROOT / "kbdraughts").rglob("*.py")):
        name = layout.module_name(path)
        if name in ("kbdraughts.cli", "kbdraughts.__main__") or name.startswith("kbdraughts.cli."):
            continue  # the command line, and ``python -m kbdraughts`` that runs it
        imported = layout.imports_of(ast.parse(path.read_text(encoding="utf-8")), name)
        assert not [m for m in imported if m.split(".")[:2] == ["kbdraughts", "cli"]], path


def test_the_command_line_keeps_the_layout_limits():
    # Import faults name "the cli floor"; size faults name the file under kbdraughts/cli/.
    assert [f for f in _check_layout().faults() if "cli" in f] == []


def test_every_command_is_registered():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert sorted(sub.choices) == ["annotate", "bestmove", "egdb", "hub", "match", "moves", "perft",
                                   "play", "rules", "tune"]


def test_no_command_is_a_usage_error(capsys):
    assert main(["rules"]) == 2
    assert "check" in capsys.readouterr().out


def _every_command(parser, path=()):
    """Each command path of the parser, the top one included: ("rules", "check"), ..."""
    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _every_command(sub, path + (name,))


def test_every_command_and_subcommand_prints_its_help(capsys):
    """Issue 28, item 16: a '%' in a help string made `rules check --help` raise."""
    paths = list(_every_command(build_parser()))
    assert ("rules", "check") in paths and ("egdb", "build") in paths and len(paths) > 12
    for path in paths:
        try:
            main(list(path) + ["--help"])
        except SystemExit as stop:
            assert stop.code == 0, path
        out = capsys.readouterr().out
        assert out.startswith("usage: kbdraughts"), (path, out[:200])
