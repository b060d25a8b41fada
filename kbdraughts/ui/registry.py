"""What a console command is and the one registry of them, filled by the ``@command``
decorator (the commands themselves are in ``commands``, which registers them on import).

``help`` is generated from the registry, the completer reads the names and argument kinds from
it, and the loop looks a typed word up in it before trying the text as a move. A command is
``handler(front, argument_text)``: it changes the :class:`~kbdraughts.ui.session.Session` and
speaks through the :class:`Front` (the loop, ``app.GameApp``), which it never imports.
"""

from __future__ import annotations

import difflib
import threading
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.errors import KbdraughtsError
from kbdraughts.ui.console import Console
from kbdraughts.ui.session import Session


class QuitGame(KbdraughtsError):
    """Raised by ``quit`` (and a "quit" answer to a question) to leave the loop."""


class Front(Protocol):
    """What a command needs of the loop that runs it."""

    session: Session
    console: Console

    def say(self, text: str, kind: str = "info") -> None: ...
    def info(self, text: str) -> None: ...
    def error(self, text: str) -> None: ...
    def show_board(self) -> None: ...
    def changed(self) -> None: ...  # the game changed under the view: draw it again
    def save_now(self) -> None: ...  # autosave, the first failure reported
    def ask_yes_no(self, question: str) -> bool: ...  # QuitGame on "quit"

    def ask_ai(self, work: Callable[[threading.Event], Any], label: str,
               failed: Callable[[Exception], None]) -> tuple[Any, bool] | None:
        """``work(stop)`` in the AI thread behind a spinner: ``(answer, interrupted)``, or
        None after ``failed(error)`` reported the AI's fault."""
        ...


Handler = Callable[[Front, str], None]


@dataclass(frozen=True)
class Command:
    name: str
    handler: Handler
    summary: str  # one line for `help`
    usage: str  # how to type it: "save FILE"
    aliases: tuple[str, ...] = ()
    argument: str | None = None  # what its argument completes as: "move", "file" or None


REGISTRY: dict[str, Command] = {}
_BY_WORD: dict[str, Command] = {}


def command(name: str, summary: str, usage: str | None = None, aliases: tuple[str, ...] = (),
            argument: str | None = None) -> Callable[[Handler], Handler]:
    """Register the decorated ``handler(app, argument_text)`` as a command."""

    def register(handler: Handler) -> Handler:
        cmd = Command(name, handler, summary, usage or name, aliases, argument)
        REGISTRY[name] = cmd
        for word in (name, *aliases):
            _BY_WORD[word] = cmd
        return handler

    return register


def lookup(word: str) -> Command | None:
    return _BY_WORD.get(word.lower())


def completion_table() -> dict[str, str | None]:
    """Every command word with its argument kind, for the completer."""
    return {word: cmd.argument for word, cmd in _BY_WORD.items()}


def suggest(word: str) -> str | None:
    """The command a mistyped word most likely meant."""
    close = difflib.get_close_matches(word.lower(), list(_BY_WORD), n=1, cutoff=0.6)
    return close[0] if close else None


HOW_TO_PLAY = """\
How to play (Russian draughts)
  Type a move as its squares: c3-d4; a capture with ':' (or 'x'): c3:e5; a capture of several
  pieces with every landing square: c3:e5:g7 (or just its ends, c3:g7, when only one move fits).
  Tab lists the legal moves. Men move one square diagonally forward and capture forwards and
  backwards; capturing is compulsory (you may choose which capture) and goes on while it can.
  A man reaching the far rank becomes a king, which moves and captures any distance.
  You win when the other side has no pieces or no legal move."""


#: What ``help TOPIC`` tells besides the commands: a one-line summary and the lines, made
#: when asked (``help kb``: the knowledge base's faulty blocks as they are now).
TOPICS: dict[str, tuple[str, Callable[[], list[str]]]] = {}


def help_topic(name: str, summary: str) -> Callable[[Callable[[], list[str]]],
                                                    Callable[[], list[str]]]:
    """Register the decorated ``lines()`` as the help topic ``name``."""

    def register(lines: Callable[[], list[str]]) -> Callable[[], list[str]]:
        TOPICS[name] = (summary, lines)
        return lines

    return register


def help_fragments(topic: str = "") -> StyleAndTextTuples:
    if topic.lower() in TOPICS:
        return [("", "\n".join(TOPICS[topic.lower()][1]()))]
    if topic:
        cmd = lookup(topic)
        if cmd is None:
            return [("class:msg.error", f"No command or topic {topic!r}; type 'help' for the "
                                        "list.")]
        also = f" (also: {', '.join(cmd.aliases)})" if cmd.aliases else ""
        return [("class:msg.title", cmd.usage), ("", f" — {cmd.summary}{also}")]
    width = max(len(c.usage) for c in REGISTRY.values()) + 2
    out: StyleAndTextTuples = [("", HOW_TO_PLAY + "\n\n"), ("class:msg.title", "Commands\n")]
    for cmd in REGISTRY.values():
        also = f" (or {', '.join(cmd.aliases)})" if cmd.aliases else ""
        out += [("class:msg.title", f"  {cmd.usage:<{width}}"), ("", f"{cmd.summary}{also}\n")]
    for name, (summary, _) in TOPICS.items():
        out += [("class:msg.title", f"  {'help ' + name:<{width}}"), ("", f"{summary}\n")]
    out.append(("class:msg.dim", "Keys: Tab completes, Up/Down recall earlier lines, Ctrl-C clears "
                                 "the line or stops the AI thinking,\n      Ctrl-D quits (the "
                                 "game is saved). On an empty line: ←/→ back/forward, Home/End "
                                 "first/last,\n      F2 analyse (any key stops it)."))
    return out
