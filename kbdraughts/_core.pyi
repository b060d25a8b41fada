"""The C core (kbdraughts/csrc, built by setup.py), as the type checker sees it: a module whose
names are typed where Python takes them in (board.py, eval/evaluation.py, ai/native_search.py,
egdb/), so this stub only says that it exists. Its functions mirror the pure modules' and the
equality tests hold them to those; a second list of their signatures here could only drift."""

from typing import Any

def __getattr__(name: str) -> Any: ...
