"""The project's scripts (bench/, tools/) loaded as modules for their tests: they are not a
package, so each is read from its file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str, name: str) -> ModuleType:
    """The script at ``ROOT / relative`` as module ``name``, registered in ``sys.modules``
    (a dataclass or NamedTuple defined in it looks its module up there)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None, relative
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
