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
``tests/test_layout.py`` runs the same checks.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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
            out.append(f"{path.relative_to(root.parent)}:1: {lines} lines (at most {MAX_MODULE_LINES})")
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
