"""Key bindings of the move prompt.

Ctrl-C clears a half-typed line and stays at the prompt; on an empty line it interrupts the
prompt (the app answers with how to leave) — it never ends the game. Ctrl-D on an empty line
ends the session (prompt_toolkit's default EOF). On an empty line the arrows walk through the
game (← ``back``, → ``forward``), Home and End go to its ``first`` and ``last`` position, and
F2 starts the analysis (``analyse``): each key types its command, so the transcript shows it.
"""

from __future__ import annotations

from typing import Callable

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

#: Keys that stand for a command on an empty line (with text, the arrows edit it as usual).
COMMAND_KEYS = {"left": "back", "right": "forward", "home": "first", "end": "last",
                "f2": "analyse"}


def game_key_bindings() -> KeyBindings:
    kb = KeyBindings()

    @kb.add("c-c")
    def _(event) -> None:
        buffer = event.app.current_buffer
        if buffer.text:
            buffer.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    empty = Condition(lambda: not get_app().current_buffer.text)
    for key, word in COMMAND_KEYS.items():
        kb.add(key, filter=empty)(_typing(word))

    return kb


def _typing(word: str) -> Callable[[KeyPressEvent], None]:
    """A key binding that enters ``word`` as the line."""
    def handler(event: KeyPressEvent) -> None:
        event.app.current_buffer.text = word
        event.app.current_buffer.validate_and_handle()
    return handler
