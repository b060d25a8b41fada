"""The commands typed at the move prompt, whole, each registered with ``@command`` (the
registry, ``help`` and the :class:`Front` a command speaks through are in ``registry``, and
imported from here too).

A command is ``handler(front, argument_text)``: it changes the
:class:`~kbdraughts.ui.session.Session` and speaks through the Front (the loop,
``app.GameApp``), which it never imports.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from kbdraughts.ai.explain import said_for
from kbdraughts.ai.spec import MAX_LEVEL
from kbdraughts.board import Side
from kbdraughts.notation import MoveError, fen, move_text, moves_text, parse_move, side_name
from kbdraughts.ui.draws import answer_offer, draw_judgement
from kbdraughts.ui.registry import (  # noqa: F401 (the registry's names, imported from here)
    REGISTRY, Command, Front, QuitGame, command, completion_table, help_fragments, lookup,
    suggest)
from kbdraughts.ui.render import ASCII, record_text
from kbdraughts.ui.session import ending_name
from kbdraughts.variations import move_label
from kbdraughts.ui import knowledge  # noqa: F401 (registers the topic 'help kb')

if TYPE_CHECKING:  # the coach is imported by review, not before the first prompt
    from kbdraughts.coach.note import Note
    from kbdraughts.coach.verdict import MoveVerdict


# --- the commands, in the order `help` lists them ---------------------------------------------


@command("help", "this list; 'help COMMAND' for one command", "help [COMMAND]", aliases=("?",))
def _help(ui: Front, arg: str) -> None:
    ui.console.show(help_fragments(arg.strip()))


@command("moves", "list the legal moves")
def _moves(ui: Front, arg: str) -> None:
    game = ui.session.shown
    if game.result is not None:
        ui.error(f"The game is over ({game.result}); type 'new' for another.")
        return
    legal = game.legal_moves()
    texts = moves_text(legal)
    head = "Captures (compulsory)" if legal and legal[0].captured else "Legal moves"
    ui.info(f"{head} for {side_name(game.side)} ({len(texts)}): {' '.join(texts)}")


@command("record", "the moves of this game so far, numbered, with the variations in "
                   "parentheses (a file's, and those played here)", aliases=("history",))
def _record(ui: Front, arg: str) -> None:
    ui.info(walking.record_text(ui.session) or "No move has been played yet.")
    if ui.session.walking():
        ui.say(f"The board shows {walking.where(ui.session)}.", "dim")


@command("review", "the moves so far, every one graded as an analysis board grades it (?!, ?, "
                   "??) with the coach's notes, and the game's evaluation graph")
def _review(ui: Front, arg: str) -> None:
    # Imported here: the coach asks the knowledge base, which the first prompt must not wait for.
    from kbdraughts.coach.annotator import annotate
    from kbdraughts.coach.grade import grade_game
    from kbdraughts.coach.summary import notes_by_ply
    from kbdraughts.eval.ideas import why
    from kbdraughts.ai.rulebook import load_default_kb

    game = ui.session.game
    record = record_text(game.start.side, game.moves)
    if not record:
        ui.info("No move has been played yet.")
        return
    ui.info(record)

    def review(stop: threading.Event) -> tuple[list[Note], list[MoveVerdict]]:
        # every move graded as annotate grades it: the notes' grades, the graph's points
        verdicts = grade_game(game, why=why, stop=stop)
        return ([] if stop.is_set() else annotate(game, kb=load_default_kb(), stop=stop,
                                                  verdicts=verdicts), verdicts)
    answer = ui.ask_ai(review, "Reviewing the game… Ctrl-C: stop",
                       lambda e: ui.error(f"No review: {e}"))
    if answer is None:
        return
    (notes, verdicts), interrupted = answer
    graded = {v.ply for v in verdicts if v.grade is not None}
    said = notes_by_ply(game, notes, verdicts)  # as annotate writes them
    for ply in sorted(said):
        for k, words in enumerate(said[ply]):
            if k == 0 and ply in graded:  # a graded move's note names its move itself
                ui.info(words)
                continue
            ui.info(f"{move_label(ply, game.start.side)} {move_text(game.moves[ply])}: {words}")
    if interrupted:
        ui.info("(Stopped: the review went no further.)")
    elif not notes:
        ui.info("Nothing to note: no move was graded (none gave away a third of a man or "
                "more) and none won material by a combination.")
    if verdicts and not interrupted:
        _review_graph(ui, verdicts, len(game.moves))


def _review_graph(ui: Front, verdicts: list[MoveVerdict], plies: int) -> None:
    """The game's evaluation graph under the review's notes, as wide as the screen allows (at
    most 80 columns), in ASCII where the console draws the board in ASCII."""
    from kbdraughts.coach.graph import text_graph

    ascii = ui.console.glyphs is ASCII
    width = max(40, min(80, ui.console.columns() - 1))
    ui.console.show([("", text_graph(verdicts, plies, width=width, ascii=ascii))], wrap=False)


@command("undo", "take back your last move and the AI's reply, or a resignation or agreed "
                 "draw", aliases=("takeback",))
def _undo(ui: Front, arg: str) -> None:
    session = ui.session
    if session.clock is not None:  # as over a board with a clock: a move played stands
        ui.error("Moves are not taken back in a game with a clock; 'new' starts another game.")
        return
    if session.promoted is not None:  # right after 'promote': it is what undo takes back
        promote.unpromote(ui)
        return
    if session.walking():
        walking.undo_walked(ui)
        return
    ended = session.take_back_ending()
    if ended is not None:
        ui.changed()
        ui.save_now()
        ui.info(f"Took back the {ending_name(ended)}; play on.")
        return
    aside = len(session.variations)
    taken = session.undo()
    aside -= len(session.variations)  # those of the moves taken back go with them
    if not taken:
        ui.error("Nothing of yours to undo yet." if session.game.moves
                 else "Nothing to undo: no move has been played yet.")
        return
    ui.changed()
    ui.save_now()
    ui.info(f"Took back {' and '.join(move_text(m) for m in reversed(taken))}"
            + (f" and the {aside} variation{'s' * (aside != 1)} played instead" if aside else "")
            + ".")
    ui.show_board()


@command("hint", "what the AI would play here, and why")
def _hint(ui: Front, arg: str) -> None:
    game = ui.session.shown
    if game.result is not None:
        ui.error(f"The game is over ({game.result}).")
        return
    player = ui.session.hint_player()
    answer = ui.ask_ai(
        lambda stop: player.choose(game, stop), "Thinking about a hint… Ctrl-C: stop",
        lambda e: ui.error(f"No hint: the AI failed ({type(e).__name__}: {e})."))
    if answer is None:
        return
    choice, interrupted = answer
    if choice is None:
        ui.error("No hint: stopped before the AI chose." if interrupted
                 else "No hint: there is no legal move.")
        return
    # A player's words, as `why` gives them (the engine's detail is for `why --verbose`).
    reason = (getattr(choice, "words", "") or getattr(choice, "reason", "")
              or getattr(choice, "short", ""))
    # The move is the person's: its score is theirs ("for you"), not the AI's.
    reason = said_for(reason, "you" if ui.session.is_human(game.side) else side_name(game.side))
    ui.console.show([("class:msg.ai.move", f"Hint: {move_text(choice.move)}"),
                     ("class:msg.ai", f" — {reason}" if reason else "")])


@command("why", "the reason for the AI's last move; 'why --verbose' adds the engine's detail",
         "why [--verbose]")
def _why(ui: Front, arg: str) -> None:
    last = ui.session.last_choice()
    if last is None:
        ui.error("The AI has not moved yet in this game.")
        return
    ply, choice = last
    side = ui.session.game.positions[ply].side
    verbose = arg.strip().lower() in ("--verbose", "-v", "verbose")
    if verbose:
        reason = getattr(choice, "reason", "")
    else:  # a player's words: no nodes, depth or file (why --verbose, rules show ID)
        reason = said_for(getattr(choice, "words", "") or getattr(choice, "reason", ""),
                          side_name(side))
    ui.console.show([
        ("class:msg.ai.move", f"{side_name(side)} played {move_text(choice.move)}"),
        ("class:msg.ai", f": {reason or 'no reason given'}"),
    ])


@command("fen", "print the position as PDN FEN; --numbered: squares as numbers (1 = b8)",
         "fen [--numbered]")
def _fen(ui: Front, arg: str) -> None:
    if arg.strip() not in ("", "--numbered"):
        ui.error(f"fen takes no argument but --numbered, got {arg.strip()!r}.")
        return
    ui.info(fen(ui.session.shown.position, numbered=arg.strip() == "--numbered"))


@command("board", "draw the board again")
def _board(ui: Front, arg: str) -> None:
    ui.show_board()


def _acting_side(ui: Front) -> Side | None:
    """The side the person offers a draw or resigns for: the side to move if it is theirs,
    else their own; None (and said) once the game is over."""
    session, game = ui.session, ui.session.game
    if session.walking():
        ui.error("Back to the game's last position first ('last'): you are looking at "
                 f"{walking.where(session)}.")
        return None
    if game.result is not None:
        ui.error(f"The game is over ({game.result}).")
        return None
    return game.side if session.is_human(game.side) else session.person_side()


@command("draw", "offer a draw (the AI accepts when it judges the position drawn or worse)")
def _draw(ui: Front, arg: str) -> None:
    session, game = ui.session, ui.session.game
    me = _acting_side(ui)
    if me is None:
        return
    other = 1 - me
    if session.is_human(other):
        accepted = answer_offer(ui, f"{side_name(me)} offers a draw. "
                                    f"{side_name(other)}, accept? [y/n] ")
    else:
        player = session.players[other]
        assert player is not None
        answer = ui.ask_ai(
            lambda stop: draw_judgement(player, game, other),  # the AI's own rule
            f"{side_name(other)} considers your offer…",
            lambda e: ui.error(f"The AI could not judge the offer: {type(e).__name__}: {e}."))
        if answer is None:
            return
        (accepted, why), interrupted = answer
        accepted = accepted and not interrupted
        why = f" ({why})" if why and not interrupted else ""
        ui.say(f"{side_name(other)} {'accepts' if accepted else 'declines'} the draw{why}"
               f"{'.' if accepted else '; play on.'}", "ai")
    if accepted:
        game.agree_draw()
        ui.save_now()


@command("resign", "give up this game")
def _resign(ui: Front, arg: str) -> None:
    game = ui.session.game
    side = _acting_side(ui)
    if side is None:
        return
    if not ui.ask_yes_no("Resign this game? [y/n] "):
        ui.info("Play on.")
        return
    game.resign(side)
    ui.info(f"{side_name(side)} resigns.")
    ui.save_now()


@command("save", "save the game as PDN; asks before writing over a file, unless --force",
         "save FILE [--force]", argument="file")
def _save(ui: Front, arg: str) -> None:
    name, force = _forced(arg.strip())
    if not name:
        ui.error("Say where: save FILE (for example: save game.pdn).")
        return
    path = typed_path(ui, name, "save to")
    if path is None:
        return
    from kbdraughts.ui.loading import save_file

    save_file(ui, path, force)


def _forced(text: str) -> tuple[str, bool]:
    """The file name and whether ``--force`` came before or after it.

    >>> _forced("a b.pdn --force"), _forced("--force x.pdn"), _forced("x.pdn")
    (('a b.pdn', True), ('x.pdn', True), ('x.pdn', False))
    """
    if text == "--force":
        return "", True
    if text.startswith("--force "):
        return text[len("--force "):].strip(), True
    if text.endswith(" --force"):
        return text[:-len(" --force")].strip(), True
    return text, False


def typed_path(ui: Front, name: str, doing: str) -> Path | None:
    """The path a person typed, ``~`` expanded; None after saying what is wrong with it."""
    # NUL cannot be in a path at all; the other control characters are slips of the keyboard.
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        ui.error(f"Cannot {doing} {name!r}: a file name cannot hold control characters.")
        return None
    try:
        return Path(name).expanduser()
    except RuntimeError:  # ~user that does not exist
        user = name[1:].split("/", 1)[0]
        ui.error(f"Cannot {doing} {name}: there is no user {user!r} for '~{user}'.")
        return None


@command("load", "load a game from a PDN file and play on from its end; a file of several "
         "games lists them to choose from", "load FILE [--game N]", argument="file")
def _load(ui: Front, arg: str) -> None:
    from kbdraughts.ui.loading import load_file, split_game_argument

    name, number = split_game_argument(arg)
    if not name:
        ui.error("Say which file: load FILE (for example: load game.pdn).")
        return
    path = typed_path(ui, name, "load")
    if path is None:
        return
    load_file(ui, name, path, number)


@command("level", "show the AI's level, or set it", "level [N]")
def _level(ui: Front, arg: str) -> None:
    text = arg.strip()
    if not text:
        level = ui.session.shown_level()
        ui.info(f"The AI plays at level {level if level is not None else 'default'} "
                f"(1–{MAX_LEVEL}); 'level N' changes it.")
        return
    if not re.fullmatch(r"[0-9]{1,3}", text) or not 1 <= int(text) <= MAX_LEVEL:
        ui.error(f"Level must be a whole number from 1 to {MAX_LEVEL}, got {text!r}.")
        return
    changed = ui.session.set_level(int(text))
    ui.info(f"Level {int(text)}." + ("" if changed else
                                     " (No knowledge-based AI plays in this game.)"))


@command("flip", "turn the board around")
def _flip(ui: Front, arg: str) -> None:
    ui.session.bottom = 1 - ui.session.bottom
    ui.show_board()


@command("teach", "save this position and MOVE as a new rule in your own combos file; "
                  "'teach motif MOVE' drafts a motif from them for you to generalise",
         "teach [motif] MOVE", argument="move")
def _teach(ui: Front, arg: str) -> None:
    words = arg.split(None, 1)
    motif = bool(words) and words[0].lower() == "motif"
    text = (words[1] if len(words) > 1 else "") if motif else arg
    if not text.strip():
        ui.error("Say which move: teach MOVE (for example: teach c3-d4), or teach motif MOVE.")
        return
    game = ui.session.shown
    try:
        move = parse_move(game.position, text, game.legal_moves())
    except MoveError as e:
        ui.error(capitalised(str(e)))
        return
    # Imported here: the rule writer checks with the knowledge base, which the first prompt
    # must not wait for.
    from kbdraughts.ui.teach import draft_at, teach_at

    (draft_at if motif else teach_at)(ui, move)


# The commands of their own modules, listed here by `help` (before quit).
from kbdraughts.ui import analysis, setup, walking  # noqa: E402,F401
from kbdraughts.ui import promote  # noqa: E402,F401 (after walking's commands in help)


@command("quit", "leave; the game is saved and 'kbdraughts --resume' continues it",
         aliases=("exit", "q"))
def _quit(ui: Front, arg: str) -> None:
    raise QuitGame


def capitalised(text: str) -> str:
    """The message as a sentence; one that starts with a square or move ("c3:g7 is not
    legal") keeps it as written."""
    if re.match(r"[a-h][1-8]", text):
        return text
    return text[:1].upper() + text[1:]
