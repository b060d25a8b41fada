"""A new game: ``new`` from the initial position or from the one set up, and ``setup FEN``, a
position set up in a running console and played from; ``new`` then starts again from it (as
after ``kbdraughts --fen``), ``new initial`` from the initial position."""

from __future__ import annotations

from kbdraughts.board import BLACK, START, WHITE, Position
from kbdraughts.notation import FenError, fen, parse_fen
from kbdraughts.ui.registry import Front, command


@command("new", "start a new game: from the position set up (setup, --fen) if there is one, "
         "else the initial one; 'new initial' from the initial one; 'new black' to play Black",
         "new [white|black] [initial]")
def _new(ui: Front, arg: str) -> None:
    words = arg.strip().lower().split()
    initial = "initial" in words
    colour = [w for w in words if w != "initial"]
    if len(colour) > 1 or colour and colour[0] not in ("white", "black", "random"):
        ui.error(f"'new {arg.strip()}': say 'new', 'new white', 'new black' or 'new initial'.")
        return
    if leaves_game(ui, "a new one"):
        new_game(ui, colour[0] if colour else None, START if initial else None)


def leaves_game(ui: Front, what: str) -> bool:
    """Whether the game may be left for ``what``: asked when one is under way."""
    game = ui.session.game
    if game.result is None and (game.moves or game.start != START) and not ui.ask_yes_no(
            f"Leave this game for {what}? (It stays saved.) [y/n] "):
        ui.info("Play on.")
        return False
    return True


def new_game(ui: Front, colour: str | None, start: Position | None = None) -> None:
    """A new game from ``start`` (default: the position set up, else the initial one);
    ``colour``: the person's side, if one plays."""
    session = ui.session
    session.new_game(colour, start)
    ui.changed()
    where = "" if session.game.start == START else f" from {fen(session.game.start)}"
    ui.info(f"New game{where}: {session.seat_name(WHITE)} against {session.seat_name(BLACK)}.")



@command("setup", "set up a position (a FEN, as 'fen' prints it) and play from it", "setup FEN")
def _setup(ui: Front, arg: str) -> None:
    text = arg.strip()
    if not text:
        ui.error("Say the position: setup FEN (for example: setup W:Wc3,e3:Bd6,f6; 'fen' "
                 "prints the one on the board).")
        return
    try:
        pos = parse_fen(text)
    except FenError as e:
        ui.error(f"Bad FEN: {e}.")
        return
    if leaves_game(ui, "the set-up position"):
        ui.session.start = pos
        new_game(ui, None)
