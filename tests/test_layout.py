"""The package's shape (issue 10): sizes, one-way imports, no circle, a light command line."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("check_layout", ROOT / "tools" / "check_layout.py")
check_layout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_layout)


def test_the_package_keeps_its_limits():
    assert check_layout.faults() == []


def test_the_checker_sees_each_kind_of_fault(tmp_path: Path):
    pkg = tmp_path / "kbdraughts"
    (pkg / "kb").mkdir(parents=True)
    (pkg / "ui").mkdir()
    (pkg / "ai").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kb" / "__init__.py").write_text("")
    (pkg / "ui" / "__init__.py").write_text("")
    (pkg / "ai" / "__init__.py").write_text("")
    (pkg / "ai" / "referee.py").write_text("")
    (pkg / "kb" / "vocab.py").write_text("from kbdraughts.ai import referee\n")
    body = "\n".join(f"    x{i} = {i}" for i in range(61))
    (pkg / "board.py").write_text("import kbdraughts.kb.combos\n" + f"def long():\n{body}\n")
    (pkg / "kb" / "combos.py").write_text("from kbdraughts.ui import app\n" + "\n" * 401)
    (pkg / "ui" / "app.py").write_text("from kbdraughts.kb import combos\n")
    # The knowledge base's rooms: the rule files' room lowest, the motifs above it, kb on top.
    for room in ("rules", "motifs"):
        (pkg / "kb" / room).mkdir()
        (pkg / "kb" / room / "__init__.py").write_text("")
    (pkg / "kb" / "rules" / "pattern.py").write_text("from kbdraughts.kb.motifs import motif\n")
    (pkg / "kb" / "motifs" / "motif.py").write_text("from kbdraughts.kb.rules import pattern\n")
    (pkg / "kb" / "motifs" / "prove.py").write_text("from kbdraughts.kb import combos\n")
    (pkg / "eval").mkdir()
    (pkg / "eval" / "__init__.py").write_text("")
    for i in range(17):
        (pkg / "eval" / f"term{i}.py").write_text("")
    for room in ("coach", "match"):
        (pkg / room).mkdir()
        (pkg / room / "__init__.py").write_text("")
    (pkg / "coach" / "annotator.py").write_text("from kbdraughts.match import runner\n")
    (pkg / "match" / "runner.py").write_text("")
    (pkg / "ai" / "engine.py").write_text("from kbdraughts.coach import annotator\n")
    (pkg / "csrc").mkdir()
    (pkg / "csrc" / "search.c").write_text("int x;\n" * 401)
    (pkg / "csrc" / "core.h").write_text("int y;\n" * 400)
    found = "\n".join(check_layout.faults(pkg))
    assert "kb/combos.py:1: 402 lines" in found
    assert "board.py:2: function long is 62 lines" in found
    assert "kbdraughts imports kbdraughts.kb.combos" not in found  # the package's own __init__
    assert "kbdraughts.board imports kbdraughts.kb.combos: the core floor" in found
    assert "kbdraughts.kb.combos imports kbdraughts.ui.app: the kb floor" in found
    assert ("kbdraughts.kb.rules.pattern imports kbdraughts.kb.motifs.motif: the kb.rules floor"
            in found)
    assert "kbdraughts.kb.motifs.motif imports" not in found  # downwards: allowed
    assert "kbdraughts.kb.motifs.prove imports kbdraughts.kb.combos: the kb.motifs floor" in found
    assert "kbdraughts/eval/: 17 modules (at most 16 a room)" in found
    assert "kbdraughts.kb.vocab imports kbdraughts.ai.referee: the kb floor" in found
    assert "kbdraughts.coach.annotator imports kbdraughts.match.runner: the coach floor" in found
    assert "kbdraughts.ai.engine imports kbdraughts.coach.annotator: the ai floor" in found
    assert "csrc/search.c:1: 401 lines" in found and "core.h" not in found
    assert ("import circle: kbdraughts.kb.combos -> kbdraughts.ui.app -> kbdraughts.kb.combos"
            in found)


def test_no_library_module_imports_the_command_line():
    for path in (ROOT / "kbdraughts").rglob("*.py"):
        if "cli" in path.relative_to(ROOT / "kbdraughts").parts or path.stem == "__main__":
            continue  # the command line, and ``python -m kbdraughts`` that runs it
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = check_layout.module_name(path)
        assert not any(m.startswith("kbdraughts.cli") for m in check_layout.imports_of(tree, name)), path


def test_building_the_parser_does_not_load_pydatalog():
    code = ("import sys, kbdraughts.cli as cli; cli.build_parser(); "
            "print('pyDatalog' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
