"""Walking through the game: ``goto``, ``back``, ``forward``, ``first``, ``last`` (and the arrow
keys on an empty line), the moves played from an earlier position kept as variations, and the
record with them.

The game keeps all its moves while the board shows an earlier position: the session's ``view``
is a game replayed to the position shown, its ``variations`` the lines tried instead of the
game's moves (:mod:`kbdraughts.variations`), a loaded file's among them. A move played there
follows the line shown when it is its next move, else starts a variation (or enters one already
kept, the file's too: never a second copy beside it); the game's own moves after it stay. The
AI plays only at the game's last position; in a variation the person plays both sides. ``undo``
in a variation takes back moves played here, never a file's own.
"""

from __future__ import annotations

import re

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.board import BLACK, WHITE, Move
from kbdraughts.files import printable, printable_lines
from kbdraughts.notation import move_text, side_name
from kbdraughts.pdn import COACH, comments_of
from kbdraughts.pdn.lines import record_text as lines_record
from kbdraughts.ui.registry import Front, command
from kbdraughts.ui.session import Session
from kbdraughts.variations import Played, move_label

#: Said once a move is played away from the game's last position.
BOTH_SIDES = ("In a variation you play both sides; the AI plays only at the game's last "
              "position ('last').")


def _can_walk(ui: Front) -> bool:
    session = ui.session
    if session.clock is not None and session.game.result is None:
        ui.error("Not while the clock runs: a game with a clock is walked through once it "
                 "is over.")
        return False
    return True


def where(session: Session) -> str:
    """Where the board stands, in words: ``move 12 of 40``, ``in a variation``."""
    path, main = session.shown_path(), session.game.moves
    if not session.walking():
        return "the game's last position"
    line = "the game" if session.variations.in_main_line(main, path) else "a variation"
    if not path:
        return f"the start of {line}"
    return f"after {move_label(len(path) - 1, session.game.start.side)} " \
           f"{move_text(path[-1])} in {line}"


def prompt(session: Session) -> StyleAndTextTuples:
    """The move prompt while the board shows an earlier position."""
    shown = session.shown
    dots = "." if shown.side == WHITE else "..."
    state = f"{shown.result}" if shown.result is not None else \
        f"{side_name(shown.side)} to move"
    return [("class:prompt.number", f"{session.move_number()}{dots} "),
            ("class:prompt.side", state),
            ("class:msg.dim", f" ({where(session)}; ←/→ walk, 'last' returns): ")]


def _go(ui: Front, path: tuple[Move, ...]) -> None:
    session = ui.session
    session.show(path)
    ui.show_board()
    note_comments(ui)
    if not session.walking():
        ui.say("The game's last position: play goes on here.", "dim")
    note_variations(ui)


def note_comments(ui: Front) -> None:
    """Say the file's comments on the move the board shows just played, the coach's notes
    among them (``Coach: ...``)."""
    session = ui.session
    path = session.shown_path()
    unit = session.variations.unit(session.game.moves, path)
    if unit is None:
        return
    label = f"{move_label(len(path) - 1, session.game.start.side)} {move_text(path[-1])}"
    for comment in comments_of(unit.body):
        coach = comment.startswith(COACH)
        text = comment[len(COACH):].strip() if coach else comment
        ui.say(f"{'Coach' if coach else 'Comment'} on {label}: {printable(text)}",
               "ai" if coach else "info")


def note_variations(ui: Front) -> None:
    """Name the variations kept at the position shown (a file's and those played here),
    when there are some, and how to enter one."""
    session = ui.session
    path, main = session.shown_path(), session.game.moves
    aside = session.variations.alternatives(main, path)
    if aside:
        after = session.variations.continuation(main, path)[:1]
        ui.say(f"Here the line goes on with {move_text(after[0]) if after else 'nothing'}; "
               f"variations kept: {', '.join(move_text(m) for m in aside)} (play one to "
               "follow it).", "dim")


@command("back", "show the position before the last move (the game's moves are kept; "
                 "← on an empty line)", aliases=("prev",))
def _back(ui: Front, arg: str) -> None:
    path = ui.session.shown_path()
    if _can_walk(ui):
        if path:
            _go(ui, path[:-1])
        else:
            ui.error("This is the start of the game.")


@command("forward", "show the next position of the line shown (→ on an empty line)",
         aliases=("next",))
def _forward(ui: Front, arg: str) -> None:
    session = ui.session
    path = session.shown_path()
    if not _can_walk(ui):
        return
    after = session.variations.continuation(session.game.moves, path)
    if after:
        _go(ui, path + (after[0],))
    else:
        ui.error("This is the game's last position." if not session.walking()
                 else "This is the end of this variation; 'last' returns to the game.")


@command("first", "show the start of the game (Home on an empty line)")
def _first(ui: Front, arg: str) -> None:
    if _can_walk(ui):
        _go(ui, ())


@command("last", "back to the game's last position, where play goes on (End on an empty "
                 "line)")
def _last(ui: Front, arg: str) -> None:
    if _can_walk(ui):
        _go(ui, tuple(ui.session.game.moves))


@command("goto", "show the position before move N of the line shown ('goto 5...': before "
                 "Black's 5th move)", "goto N", argument=None)
def _goto(ui: Front, arg: str) -> None:
    session = ui.session
    found = re.fullmatch(r"\s*(\d{1,4})\s*(\.\.\.|…|\.)?\s*", arg)
    if not found:
        ui.error(f"Say which move: goto N (for example: goto 5, or goto 5... for Black's), "
                 f"got {arg.strip()!r}.")
        return
    if not _can_walk(ui):
        return
    path = session.shown_path()
    line = path + tuple(session.variations.continuation(session.game.moves, path))
    start = session.game.start.side
    black = found.group(2) in ("...", "…")
    ply = 2 * (int(found.group(1)) - 1) + black - (start == BLACK)
    if not 0 <= ply <= len(line):
        last = f"its last move is {move_label(len(line) - 1, start)}" if line else \
            "no move is played yet"
        ui.error(f"Move {found.group(1)}{'...' if black else ''} is not in the line shown "
                 f"({last}).")
        return
    _go(ui, line[:ply])


def play_walked(ui: Front, move: Move) -> None:
    """``move`` played at the position shown, away from the game's last: forward along the
    line shown, into a variation kept, or a new variation; said which."""
    session = ui.session
    shown, path, main = session.shown, session.shown_path(), session.game.moves
    if shown.result is not None:
        ui.error(f"This line ends here ({shown.result}); 'back' steps back, 'last' returns "
                 "to the game.")
        return
    instead = session.variations.continuation(main, path)[:1]
    played = session.variations.play(main, path, move)
    label = f"{move_label(len(path), session.game.start.side)} {move_text(move)}"
    session.show(path + (move,))
    ui.show_board()
    if played in (Played.FOLLOWED, Played.ENTERED):
        note_comments(ui)
    if played is Played.BRANCHED:
        ui.info(f"A new variation: {label} instead of {move_text(instead[0])}; the moves "
                "after it are kept ('record' shows the variations, 'save' writes them).")
        ui.say(BOTH_SIDES, "dim")
    elif played is Played.EXTENDED:
        ui.info(f"The variation goes on: {label}.")
    elif played is Played.ENTERED and session.variations.from_file(main, path + (move,)):
        ui.info(f"Into the file's variation {label}: → follows it, ← comes back, 'promote' "
                "makes it the game's line.")
        ui.say(BOTH_SIDES, "dim")
    elif played is Played.ENTERED:
        ui.info(f"Into the variation {label}, kept from before.")
    elif not session.walking():
        ui.info(f"{label} is the game's own move: back at its last position, play goes on.")
    else:
        ui.info(f"{label} is the next move of this line: one step forward.")
    if played in (Played.BRANCHED, Played.EXTENDED):
        session.promoted = None  # the tree changed since: the promotion stays
        ui.save_now()
    note_variations(ui)


def undo_walked(ui: Front) -> None:
    """``undo`` away from the game's last position: the last move of a variation shown at its
    end is taken back; elsewhere nothing is (the game's moves are taken back at its end)."""
    session = ui.session
    path = session.shown_path()
    if session.variations.take_back(session.game.moves, path):
        session.promoted = None
        session.show(path[:-1])
        ui.show_board()
        ui.save_now()
        ui.info(f"Took back {move_text(path[-1])} from the variation.")
        return
    tree, main = session.variations, session.game.moves
    if not tree.in_main_line(main, path) and not tree.continuation(main, path) \
            and tree.from_file(main, path):
        ui.error(f"{move_text(path[-1])} is the file's own move: undo takes back only moves "
                 "played here; 'back' (←) steps back without taking anything back.")
        return
    ui.error("You are looking at an earlier position of the game: 'back' (←) steps back "
             "without taking anything back; undo takes back moves at the game's last position "
             "('last') or at the end of a variation.")


def record_text(session: Session) -> str:
    """The game's moves with the variations, the file's (as it wrote them) and those made
    here, in parentheses after the move each is played instead of."""
    game = session.game
    return printable_lines(lines_record(session.variations, game.moves, game.start.side))
