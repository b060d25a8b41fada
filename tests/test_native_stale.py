"""A native core older than its C sources in a checkout is not run: ``pip install -e`` whose
compile fails only warns and leaves the old core in place, which would run old C beside new
Python. The program says so and runs its pure path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kbdraughts import native
from kbdraughts.native import newer_sources

ROOT = Path(__file__).resolve().parents[1]


def _checkout(tmp_path: Path) -> tuple[Path, Path, Path]:
    pkg = tmp_path / "kbdraughts"
    (pkg / "csrc").mkdir(parents=True)
    (tmp_path / "setup.py").write_text("")
    core = pkg / "_core.cpython-311-x86_64-linux-gnu.so"
    core.write_bytes(b"")
    (pkg / "_core.pyi").write_text("")
    source = pkg / "csrc" / "search.c"
    source.write_text("")
    os.utime(core, (1000, 1000))
    os.utime(pkg / "_core.pyi", (2000, 2000))  # the type stub is no build
    os.utime(source, (900, 900))
    return pkg, core, source


def test_a_source_changed_after_the_build_is_named(tmp_path):
    pkg, core, source = _checkout(tmp_path)
    assert newer_sources(pkg) is None
    os.utime(source, (1100, 1100))
    assert newer_sources(pkg) == "search.c"
    os.utime(core, (1200, 1200))  # built again
    assert newer_sources(pkg) is None


def test_an_installed_package_or_one_without_a_core_is_not_judged(tmp_path):
    pkg, core, source = _checkout(tmp_path)
    os.utime(source, (1100, 1100))
    (tmp_path / "setup.py").unlink()  # site-packages: files written in any order
    assert newer_sources(pkg) is None
    (tmp_path / "setup.py").write_text("")
    core.unlink()
    assert newer_sources(pkg) is None


def _described(checkout: Path) -> str:
    """What ``native.describe()`` says in the package at ``checkout``."""
    return subprocess.run(
        [sys.executable, "-P", "-c", "from kbdraughts import native; print(native.describe())"],
        cwd=checkout, env={**os.environ, "PYTHONPATH": str(checkout)}, capture_output=True,
        text=True, check=True).stdout


@pytest.mark.skipif(native.core is None, reason=f"no native core: {native.why_pure}")
def test_a_stale_core_runs_the_pure_path_and_says_why(tmp_path):
    shutil.copytree(ROOT / "kbdraughts", tmp_path / "kbdraughts",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "setup.py", tmp_path / "setup.py")
    said = _described(tmp_path)
    assert said.startswith("native core"), said
    (tmp_path / "kbdraughts" / "csrc" / "eval.c").touch()
    said = _described(tmp_path)
    assert said.startswith("pure-Python core (the C extension is older than csrc/eval.c"), said
