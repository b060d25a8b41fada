"""``analyse``: the position on the board judged as it is thought about, until a key stops it.

The search runs in the AI thread (:func:`kbdraughts.coach.analysis.analyse`) and reports each
finished depth: the evaluation in men as White sees it, the best line, and the best three moves
for the side to move with their scores; the endgame tables' verdict in words where they reach.
The screen shows the latest depth as it comes; any key (Ctrl-C too) stops the search and leaves
the last finished depth on the screen. Through a pipe, where no key can be read, the latest
depth is written at each look, to ``PIPE_DEPTH`` unless a depth is given; the next line, or the
end of input, stops it as a key does (after the first depth, as a key does too), and the line
is then carried out.
"""

from __future__ import annotations

import re
import threading
import time
from typing import TYPE_CHECKING

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.game import Game
from kbdraughts.notation import move_text, side_name
from kbdraughts.ui.registry import Front, command
from kbdraughts.pdn.lines import line_text
from kbdraughts.variations import Line
from kbdraughts.wording import plural

if TYPE_CHECKING:
    from kbdraughts.coach.analysis import Report

#: The depth a console that cannot read a key (a pipe) analyses to, unless told.
PIPE_DEPTH = 10
#: The deepest depth asked for.
MAX_DEPTH = 60


def report_fragments(report: Report, game: Game) -> StyleAndTextTuples:
    """A finished depth's report on ``game``'s position as the console shows it."""
    from kbdraughts.coach.analysis import men_text

    best = report.best
    white = report.for_white(best.score)
    mover = side_name(report.side)
    line = line_text(Line(list(best.line)), game.ply, game.start.side)
    moves = "   ".join(f"{move_text(c.move)} {men_text(c.score)}"
                       for c in report.candidates)
    # Where the tables reach, their verdict is the evaluation: exact, where the search's
    # score is a bound of its own making (a table's win is TABLE_WIN less plies, no men).
    judged = ([("class:msg.ai.move", f"Endgame tables: {report.verdict}\n")] if report.verdict
              else [("class:msg.ai.move", f"{men_text(white)} men from White's point of view"),
                    ("", f" ({mover} to move: {men_text(best.score)} for {mover})\n")])
    out: StyleAndTextTuples = [
        ("class:msg.title", f"Depth {report.depth}: "),
        *judged,
        ("", f"  Best line: {line}\n"),
        ("", f"  {mover}'s best moves (scores for {mover}, in men): {moves}"),
    ]
    out.append(("class:msg.dim", f"\n  ({plural(report.nodes, 'position', True)} in "
                                 f"{report.seconds:.1f} s)"))
    return out


def _depth(ui: Front, arg: str) -> int | None | bool:
    """The depth asked for (None: until a key, or PIPE_DEPTH through a pipe); False after
    saying what is wrong with it."""
    text = arg.strip()
    if not text:
        return None if ui.console.interactive else PIPE_DEPTH
    if not re.fullmatch(r"\d{1,3}", text) or not 1 <= int(text) <= MAX_DEPTH:
        ui.error(f"analyse takes a depth in plies from 1 to {MAX_DEPTH}, got {text!r}.")
        return False
    return int(text)


@command("analyse", "judge the position on the board: the evaluation in men, the best line and "
                    "the 3 best moves, deeper and deeper until a key stops it (F2)",
         "analyse [DEPTH]", aliases=("analyze",))
def _analyse(ui: Front, arg: str) -> None:
    game = ui.session.shown
    depth = _depth(ui, arg)
    if depth is False:
        return
    if game.result is not None or not game.legal_moves():
        ui.error(f"Nothing to analyse: the game is over here ({game.result}).")
        return
    reports: list = []  # the AI thread appends each finished depth
    stop = threading.Event()
    ui.say(f"Analysing{f' to depth {depth}' if depth else ''}…"
           + (" any key stops." if ui.console.interactive
              else " the next line, or the end of input, stops."), "dim")
    future = ui.session.ai_thread.submit(_work, game, stop, reports, depth or MAX_DEPTH)
    keyed = False
    try:
        frame = 0
        while not reports and not future.done():  # the first depth (the tables may load)
            time.sleep(0.08)
            ui.console.spin(frame, "Analysing… Ctrl-C: stop")
            frame += 1
        ui.console.unspin()
        if reports:
            keyed = ui.console.watch(lambda: report_fragments(reports[-1], game), future.done)
    except KeyboardInterrupt:
        keyed = True
    finally:
        stop.set()
    try:
        future.result()
    except Exception as e:  # the search's fault never ends the game
        ui.error(f"The analysis failed: {type(e).__name__}: {e}.")
        return
    if reports:  # the last depth stays on the screen
        ui.say(f"Analysis {'stopped' if keyed else 'finished'} at depth {reports[-1].depth}.",
               "dim")
    else:
        ui.say("Stopped before the first depth.", "dim")


def _work(game: Game, stop: threading.Event, reports: list, depth: int) -> None:
    # Imported here: the search and its tables load in the AI thread, not at the first prompt.
    from kbdraughts.coach.analysis import analyse

    for report in analyse(game, stop, max_depth=depth):
        reports.append(report)
