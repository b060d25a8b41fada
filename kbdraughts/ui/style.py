"""Colours of the console game, as data: class names used by ``render``, ``toolbar`` and the
messages map to prompt_toolkit style strings here and nowhere else."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE_RULES: dict[str, str] = {
    # the board; colours exact in the 256-colour palette, so tmux and plain xterms show them
    "board.label": "#8a8a8a",
    "board.light": "bg:#d7d7af",
    "board.dark": "bg:#5f875f #87af87",  # the fg is the dot of an empty dark square
    "board.last": "bg:#af8700",  # squares the last move started on, passed and ended on
    "board.taken": "bg:#af3f3f #ffd7d7 bold",  # squares whose pieces the last move took
    "piece.white": "#ffffff bold",
    "piece.black": "#000000 bold",
    "board.panel": "#a8a8a8",
    "board.panel.side": "bold",
    "board.panel.last": "#ffd75f bold",  # the last move in the move list
    "board.panel.counts": "#ffd75f",  # the draw rules counting
    # messages
    "msg.error": "#ff6b5f",
    "msg.ai": "#7fc8ff",
    "msg.ai.move": "#7fc8ff bold",
    "msg.info": "",
    "msg.good": "#8fd16a bold",
    "msg.result": "#ffd75f bold",
    "msg.dim": "#888888",
    "msg.title": "bold",
    "spinner": "#7fc8ff",
    # the prompt
    "prompt.number": "#888888",
    "prompt.side": "bold",
    "prompt.word": "",
    # the bottom toolbar (prompt_toolkit reverses it by default; keep it quiet)
    "bottom-toolbar": "noreverse bg:#262626 #c0c0c0",
    "toolbar.key": "#ffd75f",
    "toolbar.sep": "#5f5f5f",
    "toolbar.reason": "#7fc8ff",
    "toolbar.counts": "#ffd75f",
}

STYLE = Style.from_dict(STYLE_RULES)
