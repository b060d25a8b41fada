"""The bottom toolbar: move number, side to move, material, the draw rules counting, level and
the AI's last reason in a player's words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.ai.explain import short
from kbdraughts.game import Game
from kbdraughts.notation import side_name
from kbdraughts.ui.render import material_text
from kbdraughts.ui.session import Session


@dataclass(frozen=True)
class ToolbarInfo:
    """What the toolbar shows; ``session_info`` builds one from the game on every redraw."""

    move_number: int
    side: str  # "White" / "Black"
    material: str  # "White 8+1K, Black 7"
    level: int | None  # the AI's level, None when no AI plays
    reason: str = ""  # the AI's last reason, short
    status: str = ""  # "to move", or the result when the game is over
    counts: str = ""  # the draw rules counting: "kings only 12/15, repetition 2/3"


def toolbar_fragments(info: ToolbarInfo) -> StyleAndTextTuples:
    sep = ("class:toolbar.sep", " │ ")
    out: StyleAndTextTuples = [
        ("", f" Move {info.move_number}"), sep,
        ("bold", info.side), ("", f" {info.status or 'to move'}"), sep,
        ("", info.material),
    ]
    if info.counts:
        out += [sep, ("class:toolbar.counts", info.counts)]
    if info.level is not None:
        out += [sep, ("", f"Level {info.level}")]
    if info.reason:
        out += [sep, ("class:toolbar.reason", f"AI: {info.reason}")]
    else:  # before the AI's first move there is room to say where help is
        out += [sep, ("class:toolbar.key", "Tab"), ("", " moves  "),
                ("class:toolbar.key", "help"), ("", " ")]
    return out


def make_toolbar(get_info: Callable[[], ToolbarInfo]) -> Callable[[], StyleAndTextTuples]:
    """The ``bottom_toolbar`` callable for a PromptSession."""
    return lambda: toolbar_fragments(get_info())


def draw_counts_text(game: Game) -> str:
    """The draw rules under way once they count: ``kings only 12/15, repetition 2/3``."""
    if game.result is not None:
        return ""
    return ", ".join(str(c) for c in game.draw_counts() if c.count > 0)


def choice_words(choice: Any) -> str:
    """An AI's reason for the console: its words (no engine detail, no file), else its short
    form, else its reason."""
    return (getattr(choice, "words", "") or getattr(choice, "short", "")
            or getattr(choice, "reason", ""))


def session_info(session: Session) -> ToolbarInfo:
    """What the toolbar shows of ``session`` now."""
    game = session.game
    result = game.result
    last = session.last_choice()
    return ToolbarInfo(
        move_number=session.move_number(),
        side=side_name(game.side) if result is None else "Game over:",
        material=material_text(game.position),
        level=session.shown_level() if any(p is not None for p in session.players) else None,
        reason=short(choice_words(last[1])) if last is not None else "",
        status="to move" if result is None else str(result),
        counts=draw_counts_text(game),
    )
