"""Key bindings of the move prompt.

Ctrl-C clears a half-typed line and stays at the prompt; on an empty line it interrupts the
prompt (the app answers with how to leave) — it never ends the game. Ctrl-D on an empty line
ends the session (prompt_toolkit's default EOF).
"""

from __future__ import annotations

from prompt_toolkit.key_binding import KeyBindings


def game_key_bindings() -> KeyBindings:
    kb = KeyBindings()

    @kb.add("c-c")
    def _(event) -> None:
        buffer = event.app.current_buffer
        if buffer.text:
            buffer.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    return kb
