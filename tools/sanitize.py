"""The native core under AddressSanitizer and UndefinedBehaviorSanitizer: built afresh with
``-fsanitize=address,undefined`` into a copy of the package, then the tests that drive it
(the equality tests, the move generator's, the search's, the fuzz tests and the C API's under
hostile callers) run on that build. Any sanitizer report ends the run with a failure. CI runs
it after the test suite.

    python tools/sanitize.py [PYTEST ARGS...]

It needs gcc with its sanitizer runtimes (Debian's gcc has them); where they are missing it
says so and exits 2. The interpreter itself is not instrumented, so ASan's runtime is
preloaded and leak checking is off (CPython keeps memory until exit on purpose).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "kbdraughts" / "csrc").glob("*.c"))
TESTS = ["tests/test_native.py", "tests/test_board.py", "tests/test_perft.py",
         "tests/test_core_fuzz.py", "tests/test_ai_search.py", "tests/test_oracle.py",
         "tests/test_egdb.py", "tests/test_egdb_leaves.py", "tests/test_egdb_check.py",
         "tests/test_native_api.py", "tests/test_native_fuzz.py"]
FLAGS = ["-std=c11", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
         "-fno-sanitize-recover=all", "-ffp-contract=off", "-Wall", "-Wextra",
         "-Wno-unused-parameter", "-Werror", "-fPIC", "-shared"]


def build(into: Path) -> Path:
    """A copy of the package with the sanitized core in it; the path of the core."""
    shutil.copytree(ROOT / "kbdraughts", into / "kbdraughts",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copytree(ROOT / "combos", into / "combos")
    core = into / "kbdraughts" / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["gcc", *FLAGS, f"-I{sysconfig.get_paths()['include']}",
                    *map(str, SOURCES), "-o", str(core)], check=True)
    return core


def runtime() -> str | None:
    """The ASan runtime to preload, or None when gcc has none."""
    out = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                         text=True).stdout.strip()
    return out if os.path.isabs(out) and os.path.exists(out) else None


def main(argv: list[str]) -> int:
    asan = runtime() if shutil.which("gcc") else None
    if asan is None:
        print("sanitize: gcc with libasan is needed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="kbd-sanitize-") as tmp:
        core = build(Path(tmp))
        # PYTHONSAFEPATH: `python -m pytest` (and the tests' own children) must not put the
        # checkout first on sys.path, where the package and an in-place build of the core (an
        # editable install's) would hide the copy. PYTHONMALLOC=malloc: Python's own small
        # blocks (lists' items, PyMem_Malloc's) come from malloc, where ASan sees them.
        env = dict(os.environ, PYTHONPATH=tmp, PYTHONSAFEPATH="1", PYTHONMALLOC="malloc",
                   LD_PRELOAD=asan,
                   ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
                   UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
        env.pop("KBDRAUGHTS_PURE", None)
        where = subprocess.run(  # from where the tests run, as they would import it
            [sys.executable, "-c", "import kbdraughts._core as c; print(c.__file__)"],
            env=env, capture_output=True, text=True, cwd=ROOT)
        if where.stdout.strip() != str(core):
            print(f"sanitize: the tests would not load the sanitized build:\n{where.stdout}"
                  f"{where.stderr}", file=sys.stderr)
            return 1
        print(f"sanitize: {core.name} built with {' '.join(FLAGS[4:6])}; running "
              f"{len(TESTS)} test files on it", flush=True)
        # --capture=sys: a report is written to the process's stderr just before it aborts,
        # where pytest's capture of the descriptors would lose it.
        return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                               "--capture=sys", *TESTS, *argv], env=env, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
