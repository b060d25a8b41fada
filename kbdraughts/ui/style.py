"""Colours of the console game, as data: class names used by ``render``, ``toolbar`` and the
messages map to prompt_toolkit style strings here and nowhere else."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE_RULES: dict[str, str] = {
    # the board
    "board.label": "#888888",
    "board.light": "bg:#d9c39a",
    "board.dark": "bg:#8a5a36",
    "board.last": "bg:#b8953a",  # squares the last move started on, passed and ended on
    "board.taken": "bg:#a33a2f #ffd6d0 bold",  # squares whose pieces the last move took
    "piece.white": "#ffffff bold",
    "piece.black": "#101010 bold",
    "board.panel": "#aaaaaa",
    "board.panel.side": "bold",
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
}

STYLE = Style.from_dict(STYLE_RULES)
