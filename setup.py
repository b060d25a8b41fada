"""The build of the optional native core, kbdraughts._core (C11, the Python C API only).

Everything else is in pyproject.toml. The extension is optional: where no C compiler or no
Python headers exist the build skips it with a warning, the install succeeds, and kbdraughts
runs its pure-Python modules (``kbdraughts --version`` says which core runs).
"""

from glob import glob

from setuptools import Extension, setup

SOURCES = ["geometry.c", "movegen.c", "eval.c", "clock.c", "table.c", "ordering.c", "search.c",
           "root.c", "referee.c", "convert.c", "evaluator.c", "searcher.c", "egdb.c", "egdb_py.c",
           "egdb_check.c", "module.c"]

setup(
    ext_modules=[
        Extension(
            "kbdraughts._core",
            sources=[f"kbdraughts/csrc/{name}" for name in SOURCES],
            depends=sorted(glob("kbdraughts/csrc/*.h")),  # a change to any header rebuilds all
            # -ffp-contract=off: no fused multiply-add, so the evaluation rounds as Python does.
            extra_compile_args=["-std=c11", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter",
                                "-ffp-contract=off"],
            optional=True,
        )
    ]
)
