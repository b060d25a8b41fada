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
        imported = check_layout.imports_of(tree, name)
        assert not any(m.startswith("kbdraughts.cli") for m in imported), path


def test_building_the_parser_does_not_load_pydatalog():
    code = ("import sys, kbdraughts.cli as cli; cli.build_parser(); "
            "print('pyDatalog' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _csrc(tmp_path: Path, files: dict[str, str]) -> list[str]:
    """The faults check_layout finds in a package whose native core holds ``files``."""
    csrc = tmp_path / "kbdraughts" / "csrc"
    csrc.mkdir(parents=True)
    (csrc.parent / "__init__.py").write_text("")
    for name, text in files.items():
        (csrc / name).write_text(text)
    return check_layout.faults(csrc.parent)


def _function(head: str, n: int, body: str = "") -> str:
    """A C function of exactly n lines: its head (a line or more), its braces, ``body``, and as
    many lines more as it takes."""
    used = head.count("\n") + 1 + 2 + body.count("\n")
    return f"{head}\n{{\n{body}" + "    v++;\n" * (n - used) + "}\n"


def test_the_checker_sees_a_long_c_function(tmp_path: Path):
    # Braces in literals, comments and preprocessor lines are no braces.
    tricky = ('    const char *s = "{ not a brace";\n    /* } nor here */ // {\n'
              "    char c = '}';\n#define OPEN {\n#if defined(X)\n    v = 1;\n#else\n"
              "    v = 2;\n#endif\n")
    found = _csrc(tmp_path, {
        "walker.c": _function("int long_one(int v)", 61) + _function("static int fits(int v)", 60),
        # An initializer at depth 0 is no function; a function's lines count from its type.
        "table.c": "static const int KEYS[] = {\n" + "    1,\n" * 70 + "};\n"
                   + _function("static\ndouble\nsplit(int v)", 61)
                   + _function("static\ndouble\nfits(int v)", 60),
        "tricky.c": "int x;\n" + _function("int t(int v)", 61, tricky) + "int y;\n",
        "order.h": _function("static inline int cut(int v)", 61),
    })
    assert sorted(found) == [
        "kbdraughts/csrc/order.h:1: function cut is 61 lines (at most 60)",
        "kbdraughts/csrc/table.c:73: function split is 61 lines (at most 60)",
        "kbdraughts/csrc/tricky.c:2: function t is 61 lines (at most 60)",
        "kbdraughts/csrc/walker.c:1: function long_one is 61 lines (at most 60)",
    ]


def test_the_checker_sees_a_circle_of_c_files(tmp_path: Path):
    found = _csrc(tmp_path, {
        "table.h": "void table_store(int v);\n",
        "table.c": '#include "table.h"\nvoid table_store(int v) { tree_tick(v); }\n',
        "tree.c": '#include "table.h"\nvoid tree_tick(int v) { table_store(v); }\n',
    })
    assert found == ["kbdraughts/csrc: C circle: table -> tree -> table (table.c:2 uses "
                     "tree_tick; tree.c:1 includes table.h)"]


def test_a_c_global_counts_as_its_file(tmp_path: Path):
    found = _csrc(tmp_path, {
        "core.h": "extern int COUNT[4], *SEEN;\n",
        "count.c": '#include "core.h"\nint COUNT[4], *SEEN;\nvoid tally(void) { report(); }\n',
        "report.c": '#include "core.h"\nvoid report(void) { SEEN = 0; }\n',
    })
    assert found == ["kbdraughts/csrc: C circle: count -> report -> count (count.c:3 uses report; "
                     "report.c:2 uses SEEN)"]


def test_what_is_no_c_dependency(tmp_path: Path):
    found = _csrc(tmp_path, {
        # A shared header declares both files' functions: including it is no arrow by itself.
        "core.h": "void walk(void);\nint helper(int v);\nstatic inline int twice(int v) "
                  "{ return 2 * v; }\n",
        # A file's own (static) function named like another file's is its own.
        "walker.c": '#include "core.h"\nstatic int mix(int v) { return v; }\n'
                    "static int spin(int v) { return v; }\n"
                    "void walk(void) { helper(mix(spin(twice(1)))); }\n",
        "spinner.c": "int spin(int v) { return v; }\nvoid tidy(void) { walk(); }\n",
        # A variable named like another file's function is no use of it, nor is a macro named
        # like another file's static function.
        "helper.c": '#include "core.h"\n#define mix(v) (v)\n'
                    "int helper(int v) { int walk = mix(v); return walk; }\n",
    })
    assert found == []


def test_the_native_core_depends_one_way():
    files = {}
    for path in sorted((ROOT / "kbdraughts" / "csrc").iterdir()):
        if path.suffix in check_layout.C_SUFFIXES:
            bare, code = check_layout.c_code(path.read_text(encoding="utf-8"))
            files[path.name] = check_layout.CFile(path, bare, code, *check_layout.c_scan(code))
    graph, _ = check_layout.c_graph(files)
    search = {"root", "search", "ordering", "table", "clock"}
    assert {"search", "table", "ordering", "clock"} <= graph["root"]
    assert {"table", "ordering", "clock"} <= graph["search"] and "root" not in graph["search"]
    assert graph["ordering"] & search == {"table"} and not graph["table"] & search
    assert not graph["clock"] & search
    assert "negamax" in {fn.name for fn in files["search.c"].functions}
    assert check_layout.find_cycle(graph) is None


def test_a_shared_header_passes_its_includes_on(tmp_path: Path):
    found = _csrc(tmp_path, {
        "core.h": '#include "table.h"\n',
        "table.h": "void table_store(int v);\n",
        "table.c": '#include "table.h"\nvoid table_store(int v) { tree_tick(v); }\n',
        "tree.c": '#include "core.h"\nvoid tree_tick(int v) { (void)v; }\n',
    })
    assert found == ["kbdraughts/csrc: C circle: table -> tree -> table (table.c:2 uses "
                     "tree_tick; tree.c:1 includes table.h)"]


def test_a_call_counts_beside_a_variable_of_its_name(tmp_path: Path):
    found = _csrc(tmp_path, {
        "walker.c": "void walk(void) { helper(1); }\n",
        "helper.c": "static int a(void) { int walk = 1; return walk; }\n"
                    "int helper(int v) { if (v) walk(); return a(); }\n",
    })
    assert found == ["kbdraughts/csrc: C circle: helper -> walker -> helper (helper.c:2 uses "
                     "walk; walker.c:1 uses helper)"]
