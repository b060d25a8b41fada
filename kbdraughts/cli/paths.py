"""A run's output files checked against its input files, for every command with output
options: an output that names an input (the same path, a hard link, a symbolic link to it)
would write over what the run reads, and two outputs that name one file would write over
each other. Checked before anything is read or written.

>>> print(clash({"--unnamed": "a.pdn"}, {"GAME.pdn": "./a.pdn"}))
--unnamed a.pdn is the input GAME.pdn ./a.pdn: it would be written over; choose another file
>>> clash({"-o": "x.pdn", "--unnamed": "x.pdn"}, {}).split(":")[0]
'--unnamed x.pdn is the output -o x.pdn'
>>> clash({"--unnamed": None, "-o": "-"}, {"GAME.pdn": "-"}) is None
True
"""

from __future__ import annotations

import os
from typing import Collection, Iterator, Mapping

from kbdraughts.cli.args import fail

__all__ = ["same_file", "clash", "check_outputs"]

def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Whether ``a`` and ``b`` name one file: the same inode when both exist, else the same
    absolute path (an output not written yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _each(named: Mapping[str, object]) -> Iterator[tuple[str, str]]:
    """(option, path) for each path given (one, a list: ``--rules`` repeated, or None);
    ``-`` (standard input or output) is no file."""
    for name, value in named.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if isinstance(v, (str, os.PathLike)) and str(v) != "-":  # paths, or None
                yield name, os.fspath(v)


def clash(outputs: Mapping[str, object], inputs: Mapping[str, object],
          allowed: Collection[tuple[str, str]] = ()) -> str | None:
    """What is wrong when an output names an input or another output, else None; the
    (output, input) pairs ``allowed`` may name one file (annotate -o onto its input, which
    keeps every game)."""
    written: list[tuple[str, str]] = []
    for name, path in _each(outputs):
        for other, was in written:
            if same_file(path, was):
                return (f"{name} {path} is the output {other} {was}: one would write over the "
                        "other; choose another file")
        written.append((name, path))
        for other, source in _each(inputs):
            if (name, other) not in allowed and not os.path.isdir(source) \
                    and same_file(path, source):
                return (f"{name} {path} is the input {other} {source}: it would be written "
                        "over; choose another file")
    return None


def check_outputs(command: str, outputs: Mapping[str, object], inputs: Mapping[str, object],
                  allowed: Collection[tuple[str, str]] = ()) -> int | None:
    """USAGE_ERROR after saying which output names an input (:func:`clash`), else None."""
    problem = clash(outputs, inputs, allowed)
    return None if problem is None else fail(command, problem)
