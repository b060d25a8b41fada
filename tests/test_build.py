"""The package's build: the C core's sources ship in the sdist, and the build declares the
extension optional (an install without a compiler runs the pure path; .ci/run installs with
CC=false and plays to show it)."""

from __future__ import annotations

import tarfile
from pathlib import Path

from setuptools import build_meta

ROOT = Path(__file__).resolve().parent.parent


def test_the_sdist_ships_the_c_sources_and_the_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    name = build_meta.build_sdist(str(tmp_path))
    with tarfile.open(tmp_path / name) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    sources = {f"kbdraughts/csrc/{p.name}" for p in (ROOT / "kbdraughts" / "csrc").iterdir()
               if p.suffix in (".c", ".h")}
    assert len(sources) >= 10 and sources <= names
    assert {"setup.py", "pyproject.toml", "combos/motifs.txt", "combos/heuristic.txt"} <= names


def test_every_subpackage_is_installed():
    # pyproject.toml lists the packages (combos is mapped in beside them): a new subpackage
    # left out installs in an editable checkout and fails in a wheel (kbdraughts.egdb did).
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "kbdraughts").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


def test_the_extension_is_optional():
    text = (ROOT / "setup.py").read_text()
    assert "optional=True" in text
    listed = {p.name for p in (ROOT / "kbdraughts" / "csrc").glob("*.c")}
    assert all(f'"{name}"' in text for name in listed)  # every C file is built
