"""The commands typed at the move prompt: one registry, filled by the ``@command`` decorator.

``help`` is generated from the registry, the completer reads the names and argument kinds from
it, and the app looks a typed word up in it before trying the text as a move.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples

from kbdraughts.notation import MoveError, fen, moves_text, parse_move, side_name

if TYPE_CHECKING:
    from kbdraughts.ui.app import GameApp

Handler = Callable[["GameApp", str], None]


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


def help_fragments(topic: str = "") -> StyleAndTextTuples:
    if topic:
        cmd = lookup(topic)
        if cmd is None:
            return [("class:msg.error", f"No command {topic!r}; type 'help' for the list.")]
        also = f" (also: {', '.join(cmd.aliases)})" if cmd.aliases else ""
        return [("class:msg.title", cmd.usage), ("", f" — {cmd.summary}{also}")]
    width = max(len(c.usage) for c in REGISTRY.values()) + 2
    out: StyleAndTextTuples = [("", HOW_TO_PLAY + "\n\n"), ("class:msg.title", "Commands\n")]
    for cmd in REGISTRY.values():
        also = f" (or {', '.join(cmd.aliases)})" if cmd.aliases else ""
        out += [("class:msg.title", f"  {cmd.usage:<{width}}"), ("", f"{cmd.summary}{also}\n")]
    out.append(("class:msg.dim", "Keys: Tab completes, Up/Down recall earlier lines, Ctrl-C clears "
                                 "the line or stops the AI thinking,\n      Ctrl-D quits (the "
                                 "game is saved)."))
    return out


# --- the commands, in the order `help` lists them ---------------------------------------------


@command("help", "this list; 'help COMMAND' for one command", "help [COMMAND]", aliases=("?",))
def _help(app: GameApp, arg: str) -> None:
    app.console.show(help_fragments(arg.strip()))


@command("moves", "list the legal moves")
def _moves(app: GameApp, arg: str) -> None:
    game = app.game
    if game.result is not None:
        app.error(f"The game is over ({game.result}); type 'new' for another.")
        return
    legal = game.legal_moves()
    texts = moves_text(legal)
    head = "Captures (compulsory)" if legal and legal[0].captured else "Legal moves"
    app.info(f"{head} for {side_name(game.side)} ({len(texts)}): {' '.join(texts)}")


@command("record", "the moves of this game so far, numbered", aliases=("history",))
def _record(app: GameApp, arg: str) -> None:
    from kbdraughts.ui.render import record_text

    game = app.game
    app.info(record_text(game.start.side, game.moves) or "No move has been played yet.")


@command("undo", "take back your last move and the AI's reply", aliases=("takeback",))
def _undo(app: GameApp, arg: str) -> None:
    app.undo()


@command("hint", "what the AI would play here, and why")
def _hint(app: GameApp, arg: str) -> None:
    app.hint()


@command("why", "the reason for the AI's last move")
def _why(app: GameApp, arg: str) -> None:
    app.why()


@command("fen", "print the position as PDN FEN")
def _fen(app: GameApp, arg: str) -> None:
    app.info(fen(app.game.position))


@command("board", "draw the board again")
def _board(app: GameApp, arg: str) -> None:
    app.show_board()


@command("draw", "offer a draw (the AI accepts when it judges the position drawn or worse)")
def _draw(app: GameApp, arg: str) -> None:
    app.offer_draw()


@command("resign", "give up this game")
def _resign(app: GameApp, arg: str) -> None:
    app.resign()


@command("new", "start a new game from the initial position; 'new black' to play Black",
         "new [white|black]")
def _new(app: GameApp, arg: str) -> None:
    colour = arg.strip().lower()
    if colour not in ("", "white", "black", "random"):
        app.error(f"'new {arg.strip()}': say 'new', 'new white' or 'new black'.")
        return
    app.new_game(colour or None)


@command("save", "save the game as PDN", "save FILE", argument="file")
def _save(app: GameApp, arg: str) -> None:
    if not arg.strip():
        app.error("Say where: save FILE (for example: save game.pdn).")
        return
    app.save(arg.strip())


@command("load", "load a game from a PDN file and play on from its end", "load FILE",
         argument="file")
def _load(app: GameApp, arg: str) -> None:
    if not arg.strip():
        app.error("Say which file: load FILE (for example: load game.pdn).")
        return
    app.load(arg.strip())


@command("level", "show the AI's level, or set it", "level [N]")
def _level(app: GameApp, arg: str) -> None:
    app.set_level(arg.strip())


@command("flip", "turn the board around")
def _flip(app: GameApp, arg: str) -> None:
    app.bottom = 1 - app.bottom
    app.show_board()


@command("teach", "save this position and MOVE as a new rule in your own combos file",
         "teach MOVE", argument="move")
def _teach(app: GameApp, arg: str) -> None:
    if not arg.strip():
        app.error("Say which move: teach MOVE (for example: teach c3-d4).")
        return
    game = app.game
    try:
        move = parse_move(game.position, arg, game.legal_moves())
    except MoveError as e:
        app.error(capitalised(str(e)))
        return
    app.teach(move)


@command("quit", "leave; the game is saved and 'kbdraughts --resume' continues it",
         aliases=("exit", "q"))
def _quit(app: GameApp, arg: str) -> None:
    app.quit()


def capitalised(text: str) -> str:
    """The message as a sentence; one that starts with a square or move ("c3:g7 is not
    legal") keeps it as written."""
    if re.match(r"[a-h][1-8]", text):
        return text
    return text[:1].upper() + text[1:]
