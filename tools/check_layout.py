"""Check the package's shape: module and function sizes, and that imports flow one way.

    python tools/check_layout.py          # prints each fault; exit 1 if any, else a summary

The limits (issues 10 and 30): no module under ``kbdraughts/`` over 400 lines, the C files of
``kbdraughts/csrc`` included, no function over 60 lines (from its ``def`` or first decorator to
its last line, docstring included), no import circle between modules (every import counted, also
those inside functions), and the floors import only downwards:

- the core (board, squares, notation, game, pdn, egdb, referee, native, resources) imports no
  floor above it;
- ``kb``, the knowledge base, never imports ``ai`` (the referee it once took from there is in the
  core now);
- ``ai``, the choice of a move, never imports the coach or the matches;
- ``coach`` and ``match`` share a floor and never import each other: two rooms beside each other;
- none of those imports ``ui`` or ``cli``, and ``ui`` never imports ``cli``.
The native core's C files (issue 37) are held to the same spirit: no C function over 60 lines
and no circle between the files, a file depending on another when it includes its header or
uses a function or global it defines (``c_graph``; core.h and pyface.h are shared headers).
``tests/test_layout.py`` runs the same checks.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import NamedTuple

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
PACKAGE = "kbdraughts"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE
#: Floor of each room (a subpackage, or a subpackage's subpackage; the core is the package's own
#: modules with egdb and pdn): a module may import its own room, or a room on a lower floor.
FLOORS = {"core": 0, "kb.rules": 1.0, "kb.motifs": 1.1, "kb": 1.2, "eval": 1.5, "ai": 2,
          "coach": 3, "match": 3, "tune": 3, "ui": 4, "cli": 5}
#: No room holds more modules than this (its ``__init__`` not counted); the core is many rooms'
#: worth of small modules, and the console (24 modules) is not split yet (issue 37 asked it of
#: ai, eval and kb's rooms).
MAX_ROOM_MODULES = 16
UNLIMITED_ROOMS = frozenset({"core", "ui"})
#: The native core's sources, held to the same size as a Python module.
C_SUFFIXES = (".c", ".h")


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def floor_of(module: str) -> tuple[str, float]:
    """(room, floor) of a module: the longest room name its dotted path starts with."""
    parts = module.split(".")
    if parts[1:] == ["__main__"]:  # ``python -m kbdraughts``: the command line itself
        return "cli", FLOORS["cli"]
    room = next((r for r in (".".join(parts[1:3]), ".".join(parts[1:2])) if r in FLOORS), "core")
    return room, FLOORS[room]


def imports_of(tree: ast.AST, module: str) -> set[str]:
    """The kbdraughts modules ``tree`` imports (anywhere in the file)."""
    out: set[str] = set()
    package = module if module.count(".") == 0 else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            if base.split(".")[0] != PACKAGE:
                continue
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def long_functions(tree: ast.AST) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every function longer than MAX_FUNCTION_LINES."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            length = node.end_lineno - first + 1
            if length > MAX_FUNCTION_LINES:
                out.append((node.name, first, length))
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in ``graph`` (module -> modules it imports), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def faults(root: Path = ROOT) -> list[str]:
    """Every breach of the limits under ``root``, one line each, ``path:line: what``."""
    out: list[str] = []
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, str(path))
        name = module_name(path, root)
        shown = path.relative_to(root.parent)
        lines = text.count("\n")
        if lines > MAX_MODULE_LINES:
            out.append(f"{shown}:1: {lines} lines (at most {MAX_MODULE_LINES})")
        for fn, line, length in long_functions(tree):
            out.append(f"{shown}:{line}: function {fn} is {length} lines "
                       f"(at most {MAX_FUNCTION_LINES})")
        modules = {m for m in imports_of(tree, name) if _is_module(m, root)}
        graph[name] = {m for m in modules if m != name and not name.startswith(m + ".")}
        room, floor = floor_of(name)
        for m in sorted(graph[name]):
            other, other_floor = floor_of(m)
            if other_floor > floor or (other_floor == floor and other != room):
                out.append(f"{shown}:1: {name} imports {m}: the {room} floor must not import "
                           f"the {other} floor")
    for path in sorted(p for p in root.rglob("*") if p.suffix in C_SUFFIXES):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MAX_MODULE_LINES:
            out.append(f"{path.relative_to(root.parent)}:1: {lines} lines "
                       f"(at most {MAX_MODULE_LINES})")
    if (root / C_DIR).is_dir():
        out.extend(c_faults(root / C_DIR, root.parent))
    rooms: dict[str, int] = {}
    for path in root.rglob("*.py"):
        if path.name != "__init__.py":
            room = floor_of(module_name(path, root))[0]
            rooms[room] = rooms.get(room, 0) + 1
    for room, count in sorted(rooms.items()):
        if room not in UNLIMITED_ROOMS and count > MAX_ROOM_MODULES:
            out.append(f"{PACKAGE}/{room.replace('.', '/')}/: {count} modules "
                       f"(at most {MAX_ROOM_MODULES} a room)")
    cycle = find_cycle(graph)
    if cycle:
        out.append("import circle: " + " -> ".join(cycle))
    return out


def _is_module(name: str, root: Path) -> bool:
    rel = Path(*name.split(".")[1:]) if "." in name else Path()
    base = root / rel
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()

# -- the native core's C files (kbdraughts/csrc) ------------------------------------------------

C_DIR = "csrc"
#: The shared declaration headers: each declares the functions and globals of several files
#: (core.h: geometry, movegen, referee and eval's; pyface.h: convert and egdb_py's, the Python
#: face's globals), so including one counts as no file by itself: what it includes counts as
#: included by its includer, and a use of a function or global it declares counts as a
#: dependency on the file that defines it. Any other header is its own ``.c`` file's (table.h
#: is table.c's): including it, or using an inline function it defines, depends on that file.
C_SHARED_HEADERS = frozenset({"core.h", "pyface.h"})
_C_COMMENT_OR_LITERAL = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                                   re.S)
_C_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
_C_NAME = re.compile(r"(?<![\w.])(?<!->)[A-Za-z_]\w*")
#: A variable's or parameter's declaration, roughly: a type's last word, then the name.
_C_VARIABLE = re.compile(r"\b(?!return\b|case\b|goto\b|else\b|sizeof\b)[A-Za-z_]\w*[\s*]+"
                         r"([A-Za-z_]\w*)\s*[=;,)\[]")


class CFunction(NamedTuple):
    name: str
    first: int  # the line its declaration starts on (its return type)
    last: int  # the line of its closing brace
    static: bool


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group())


def c_code(text: str) -> tuple[str, str]:
    """(``text`` without comments, and its bare code: without comments, literals or preprocessor
    lines), each newline kept so that an offset still gives its line."""
    bare = _C_COMMENT_OR_LITERAL.sub(lambda m: m.group() if m.group()[0] in "\"'" else _blank(m),
                                     text)
    lines, going_on = [], False
    for line in bare.split("\n"):
        directive = going_on or line.lstrip().startswith("#")
        going_on = directive and line.rstrip().endswith("\\")
        lines.append(" " * len(line) if directive else line)
    code = _C_COMMENT_OR_LITERAL.sub(_blank, "\n".join(lines))
    return bare, code


def _function_head(code: str, start: int, brace: int) -> tuple[str, int, bool] | None:
    """(name, offset of its first character, static) when the ``{`` at ``brace``, at depth 0,
    opens a function's body: the declaration since ``start`` ends in a parameter list."""
    head = code[start:brace].rstrip()
    if not head.endswith(")"):
        return None  # an initializer (``= {``), a struct, union or enum
    level, j = 0, len(head) - 1
    for j in range(len(head) - 1, -1, -1):
        level += {")": 1, "(": -1}.get(head[j], 0)
        if level == 0:
            break
    name = re.search(r"(\w+)\s*$", head[:j])
    if not name:
        return None
    first = start + len(head) - len(head.lstrip())
    return name.group(1), first, bool(re.search(r"\bstatic\b", head[: name.start()]))


def c_scan(code: str) -> tuple[list[CFunction], list[str]]:
    """The functions ``code`` (a file's bare code, see c_code) defines, and its other statements
    at depth 0 (declarations, definitions of globals).

    A simple parse, not a C parser: braces are counted in the bare code (so both branches of an
    ``#if`` inside a body are read, and must each balance), and a ``{`` at depth 0 right after a
    parameter list's ``)`` opens a function; a macro that expands to a function's head, or an
    ``__attribute__`` between the ``)`` and the ``{``, is not understood."""
    functions: list[CFunction] = []
    statements: list[str] = []
    depth, start, head = 0, 0, None
    for m in re.finditer(r"[{};]", code):
        ch, i = m.group(), m.start()
        if ch == "{":
            if depth == 0:
                head = _function_head(code, start, i)
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and head:
                name, first, static = head
                functions.append(CFunction(name, code.count("\n", 0, first) + 1,
                                           code.count("\n", 0, i) + 1, static))
                start, head = i + 1, None
        elif ch == ";" and depth == 0:
            statements.append(code[start:i])
            start = i + 1
    return functions, statements


def _declared(statement: str) -> list[str]:
    """The names a declaration of globals (``int A[4], *B``, ``T C = {...}``) declares."""
    text = re.sub(r"\[[^\]]*\]", "", statement.split("=")[0])
    return [m.group(1) for part in text.split(",") if (m := re.search(r"(\w+)\s*$", part))]


class CFile(NamedTuple):
    path: Path
    bare: str
    code: str
    functions: list[CFunction]
    statements: list[str]


def _c_owners(files: dict[str, CFile]) -> tuple[dict[str, str], set[str]]:
    """Which file (by stem) defines each name another file may use: a ``.c`` file's functions
    but its static ones, an own header's inline functions, and the globals declared ``extern``
    somewhere, owned by the ``.c`` file that defines them; and the names of those globals."""
    owners: dict[str, str] = {}
    externs: set[str] = set()
    for name, f in files.items():
        for s in f.statements:
            if re.match(r"\s*extern\b", s) and "(" not in s:
                externs.update(_declared(s))
        if name in C_SHARED_HEADERS:
            continue
        stem = f.path.stem
        owners.update((fn.name, stem) for fn in f.functions
                      if name.endswith(".h") or not fn.static)
    for name, f in files.items():
        if name.endswith(".c"):
            for s in f.statements:
                if not re.match(r"\s*(extern|typedef)\b", s) and "(" not in s.split("=")[0]:
                    owners.update((v, f.path.stem) for v in _declared(s) if v in externs)
    return owners, externs


def _c_includes(files: dict[str, CFile], name: str, seen: set[str]) -> list[tuple[str, int]]:
    """(header, line) of each own header the file includes, through the shared headers."""
    out: list[tuple[str, int]] = []
    for m in _C_INCLUDE.finditer(files[name].bare):
        header, line = m.group(1), files[name].bare.count("\n", 0, m.start()) + 1
        if header not in files or header in seen:
            continue
        seen.add(header)
        if header in C_SHARED_HEADERS:
            out.extend((h, line) for h, _ in _c_includes(files, header, seen))
        else:
            out.append((header, line))
    return out


def c_graph(files: dict[str, CFile]) -> tuple[dict[str, set[str]], dict[tuple[str, str], str]]:
    """File (stem) -> the files it depends on, and why, the first reason for each arrow: A
    depends on B when A.c or A.h includes B.h, or uses a function (calls it, or names it where
    A declares no variable of that name: a false arrow where it does after a comma, as in
    ``int a, b``, never a hidden one) or a global that B defines."""
    owners, externs = _c_owners(files)
    graph: dict[str, set[str]] = {}
    why: dict[tuple[str, str], str] = {}
    for name, f in sorted(files.items()):
        if name in C_SHARED_HEADERS:
            continue
        a = f.path.stem
        arrows = graph.setdefault(a, set())
        defined = {fn.name for fn in f.functions}
        variables = set(_C_VARIABLE.findall(f.code)) - externs
        found = [(h, line, f"includes {h}") for h, line in _c_includes(files, name, {name})]
        for m in _C_NAME.finditer(f.code):
            used, b = m.group(), owners.get(m.group())
            if b and used not in defined and (used not in variables
                                              or re.match(r"\s*\(", f.code[m.end():])):
                found.append((b, f.code.count("\n", 0, m.start()) + 1, f"uses {used}"))
        for b, line, what in found:
            b = Path(b).stem
            if b != a:
                arrows.add(b)
                why.setdefault((a, b), f"{name}:{line} {what}")
    return graph, why


def c_faults(csrc: Path, base: Path) -> list[str]:
    """The C files' faults: a function over MAX_FUNCTION_LINES lines (from the line its
    declaration starts on to its closing brace), and a circle between files."""
    files: dict[str, CFile] = {}
    for path in sorted(p for p in csrc.iterdir() if p.suffix in C_SUFFIXES):
        bare, code = c_code(path.read_text(encoding="utf-8"))
        files[path.name] = CFile(path, bare, code, *c_scan(code))
    out: list[str] = []
    for f in files.values():
        for fn in f.functions:
            if fn.last - fn.first + 1 > MAX_FUNCTION_LINES:
                out.append(f"{f.path.relative_to(base)}:{fn.first}: function {fn.name} is "
                           f"{fn.last - fn.first + 1} lines (at most {MAX_FUNCTION_LINES})")
    graph, why = c_graph(files)
    cycle = find_cycle(graph)
    if cycle:
        reasons = "; ".join(why[a, b] for a, b in zip(cycle, cycle[1:]))
        out.append(f"{csrc.relative_to(base)}: C circle: {' -> '.join(cycle)} ({reasons})")
    return out


def main() -> int:
    found = faults()
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} fault{'s' if len(found) != 1 else ''}", file=sys.stderr)
        return 1
    n = sum(1 for _ in ROOT.rglob("*.py"))
    print(f"{n} modules: none over {MAX_MODULE_LINES} lines, no function over "
          f"{MAX_FUNCTION_LINES} lines, imports flow one way, no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
