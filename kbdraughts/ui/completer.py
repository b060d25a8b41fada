"""Tab completion: the legal moves now, and the commands.

The completer is given callables, not the game: ``get_moves`` returns the legal moves as text
(``c3-d4``, ``c3:e5:g7``) and ``get_commands`` the command names with what their argument is, so
it always reflects the current position and can be tested with a plain ``Document``.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

#: What a command's argument is, for completion: "move", "file" or None (nothing to complete).
ArgumentKind = str | None


def compact(text: str) -> str:
    """A move without separators or case, so ``C3xE5``, ``c3:e5`` and ``c3e5`` compare equal."""
    return re.sub(r"[^a-h1-8]", "", text.lower())


class GameCompleter(Completer):
    """Completes legal moves (whatever separator was typed) and command names; after a command,
    its argument (a move for ``teach``, a file for ``save``/``load``)."""

    def __init__(
        self,
        get_moves: Callable[[], Iterable[str]],
        get_commands: Callable[[], Mapping[str, ArgumentKind]],
    ):
        self.get_moves = get_moves
        self.get_commands = get_commands
        self._paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event: CompleteEvent):
        text = document.text_before_cursor.lstrip()
        commands = self.get_commands()
        head, space, rest = text.partition(" ")
        if space and head.lower() in commands:
            kind = commands[head.lower()]
            if kind == "move":
                yield from self._moves(rest.lstrip())
            elif kind == "file":
                sub = Document(rest.lstrip(), len(rest.lstrip()))
                yield from self._paths.get_completions(sub, complete_event)
            return
        yield from self._moves(text)
        if not text:
            return  # Tab on an empty line: the moves only
        low = text.lower()
        for name in sorted(commands):
            if name.startswith(low) and name.isalpha():
                yield Completion(name, -len(text), display_meta="command")

    def _moves(self, typed: str) -> Iterable[Completion]:
        key = compact(typed)
        if typed and not key:
            return
        if typed and not re.match(r"[a-hA-H]", typed):
            return
        for move in self.get_moves():
            if compact(move).startswith(key):
                taken = move.count(":")
                meta = f"capture, takes {taken}" if taken > 1 else ("capture" if taken else "")
                yield Completion(move, -len(typed), display_meta=meta)
