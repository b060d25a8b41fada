"""Choosing a game of a PDN file to play on: the list a file of several games shows, the game
``--game N`` (or the person's answer) names, and the ``load FILE --game N`` argument.

Games are numbered as they stand in the file, a game that cannot be read counted too (it is
listed with its ``file:line`` reason), so ``--game N`` means the same to ``play``,
``annotate`` and the console.

>>> split_game_argument("my games.pdn --game 3"), split_game_argument("a.pdn")
(('my games.pdn', 3), ('a.pdn', None))
"""

from __future__ import annotations

import re
from pathlib import Path

import os

from kbdraughts.board import START
from kbdraughts.files import printable, special_kind, write_atomic
from kbdraughts.game import Game
from kbdraughts.notation import side_name
from kbdraughts.pdn import (
    PdnError, PdnFile, PdnGame, load_pdn_file, pdn_game_text, write_pdn_file)
from kbdraughts.ui.registry import Front
from kbdraughts.wording import plural

__all__ = ["game_lines", "pick", "split_game_argument", "record_verdict", "load_file",
           "variation_notes", "save_file", "loaded_line"]


def _describe(pg: PdnGame) -> str:
    tags = pg.tags
    players = f"{tags.get('White', '?')} – {tags.get('Black', '?')}"
    event = tags.get("Event", "")
    event = f", {event}" if event and event != "?" else ""
    return f"{players}{event}, {pg.result}, {plural(pg.game.ply, 'ply')}"


#: The games a list shows at most: a large file's are not all read to be listed.
LISTED = 30


def game_lines(read: PdnFile) -> list[str]:
    """One line per game of the file, numbered from 1: players, event, result, length; a game
    that cannot be read with its reason. Past :data:`LISTED` games, a line says how many
    more there are."""
    lines = []
    for i in range(min(len(read), LISTED)):
        g = read.entry(i)
        lines.append(f"{i + 1}. " + (f"cannot be read: {g}" if isinstance(g, PdnError)
                                     else printable(_describe(g))))
    if len(read) > LISTED:
        lines.append(f"… and {len(read) - LISTED} more ('--game N' chooses any).")
    return lines


def pick(read: PdnFile, number: int, name: str) -> PdnGame:
    """Game ``number`` (from 1) of the file; ValueError saying why it cannot be played."""
    held = len(read)
    if not held:
        raise ValueError(f"{name}: no game in this file")
    if not 1 <= number <= held:
        raise ValueError(f"{name}: no game {number} (the file holds {held} "
                         f"game{'s' if held != 1 else ''})")
    chosen = read.entry(number - 1)  # that game alone is read: the file may be large
    if isinstance(chosen, PdnError):
        raise ValueError(f"game {number} cannot be read: {chosen}")
    return chosen


def split_game_argument(text: str) -> tuple[str, int | None]:
    """The file name and the game number of ``FILE --game N`` (``None`` without it)."""
    m = re.fullmatch(r"(.*?)\s+--game\s+(\d{1,6})", text.strip())
    if m is None:
        return text.strip(), None
    return m.group(1), int(m.group(2))


def record_verdict(winner: int | None) -> str:
    """How a loaded game's result reads: a record of the game, not the person's own.

    >>> record_verdict(1), record_verdict(None)
    ('The game as recorded: Black won.', 'The game as recorded: a draw.')
    """
    if winner is None:
        return "The game as recorded: a draw."
    return f"The game as recorded: {side_name(winner)} won."


def load_file(ui: Front, name: str, path: Path, number: int | None) -> None:
    """The console's ``load``: read the file, let the person choose among several games
    (unless ``number`` did), play on with the chosen one."""
    try:
        read = load_pdn_file(path)
    except (PdnError, OSError, ValueError) as e:
        ui.error(f"{e}")
        return
    for warning in read.warnings:
        ui.say(f"Note: {warning}", "dim")
    if number is None and len(read) > 1:
        ui.info(f"{name} holds {len(read)} games:\n" + "\n".join(game_lines(read)))
        answer = ui.console.ask([("class:msg.title",
                                  f"Which game? [1-{len(read)}, Enter: none] ")])
        if not answer.strip().isdigit():
            ui.info("Not loaded.")
            return
        number = int(answer)
    try:
        chosen = pick(read, 1 if number is None else number, name)
    except ValueError as e:
        ui.error(f"{e}")
        return
    if not _may_leave(ui, name):
        ui.info("Not loaded; play on.")
        return
    ui.session.load_game(chosen.game, chosen)
    ui.changed()
    ui.info(loaded_line(name, number, len(read), chosen.game))
    for kind, note in variation_notes(chosen):
        ui.say(note, kind)
    ui.save_now()


def loaded_line(name: str, number: int | None, held: int, game: Game) -> str:
    """What is said once a game is loaded: which, how long, and where it stands.

    >>> loaded_line("a.pdn", 2, 3, Game())
    'Loaded a.pdn (game 2 of 3): 0 plies, White to move.'
    """
    more = f" (game {number or 1} of {held})" if held > 1 else ""
    where = f"{side_name(game.side)} to move" if game.result is None else f"{game.result}"
    return f"Loaded {name}{more}: {plural(game.ply, 'ply')}, {where}."


def _may_leave(ui: Front, name: str) -> bool:
    """Whether the game on the board may give way to a loaded one: asked when it is under
    way and the person's own (a loaded game still as the file has it is not asked for)."""
    session, game = ui.session, ui.session.game
    if game.result is not None or not (game.moves or game.start != START) \
            or session.as_loaded():
        return True
    return ui.ask_yes_no(f"Leave this game for the one in {name}? (It stays saved.) [y/n] ")


def variation_notes(pg: PdnGame) -> list[tuple[str, str]]:
    """What to say of a loaded game's variations, as (kind, text): how to walk into those
    that can be played, and those that cannot, each with its ``file:line`` and why (said
    once, here).

    >>> from kbdraughts.pdn import parse_pdn
    >>> walk, unread = variation_notes(parse_pdn("1. c3-d4 (1. c3-b4) (1. c3-e5) *")[0])
    >>> walk[1][:37]
    'The file has 1 variation to walk into'
    >>> print(unread[1].replace(": the piece", ":\\n    the piece"))
    Note: 1 variation of the file cannot be played and is kept as text (saved as written):
      <pdn>:1: variation (1. c3-e5): move 1. c3-e5: c3-e5 is not legal:
        the piece on c3 can play c3-b4 or c3-d4
    """
    notes = []
    count, unread = len(pg.variations), pg.text_only
    if count:
        notes.append(("dim", f"The file has {count} variation{'s' * (count != 1)} to walk "
                      "into: go to where one starts ('goto N', ←) and play its first move; "
                      "'promote' makes it the game's line."))
    if unread:
        notes.append(("dim", f"Note: {len(unread)} variation{'s' * (len(unread) != 1)} of "
                      f"the file cannot be played and {'are' if len(unread) > 1 else 'is'} "
                      "kept as text (saved as written):\n  " + "\n  ".join(unread)))
    return notes


def save_file(ui: Front, path: Path, force: bool) -> None:
    """The console's ``save``: the game written to ``path``, asked first before a file is
    written over (saying how many games it holds). A loaded game saved back into the file
    of several games it came from replaces its own game there, the others kept byte for
    byte; a FIFO or a device is refused, never replaced."""
    session = ui.session
    saved = session.saved_game()
    kind = special_kind(path)
    if kind is not None or path.is_dir():
        ui.error(f"Cannot write {path}: it is {kind or 'a folder'}, not a file; say a file "
                 "name.")
        return
    whole = _into_collection(saved, path)
    try:
        if path.exists() and not force and not ui.ask_yes_no(_overwrite(path, whole)):
            ui.info("Not saved.")
            return
        if whole is not None:
            write_atomic(path, whole[1], form=whole[0].form)
        else:
            write_pdn_file(path, saved, None if isinstance(saved, PdnGame) else session.tags())
    except (OSError, ValueError) as e:  # ValueError: a name the file system cannot encode
        ui.error(f"Cannot write {path}: {getattr(e, 'strerror', None) or e}.")
        return
    aside = len(session.variations)
    where = ""
    if whole is not None and isinstance(saved, PdnGame):
        where = f"as its game {saved.index + 1}, its other {len(whole[0]) - 1} kept; "
    ui.info(f"Saved to {path} ({where}{plural(session.game.ply, 'ply')}"
            + (f", {aside} variation{'s' * (aside != 1)}" if aside else "") + ").")


def _into_collection(saved: object, path: Path) -> tuple[PdnFile, str] | None:
    """The file ``path`` with ``saved`` written in its own game's place, when ``path`` is
    the file of several games it was loaded from, unchanged since; else None."""
    if not isinstance(saved, PdnGame) or saved.file is None or len(saved.file) < 2:
        return None
    try:
        if not os.path.samefile(saved.file.source, path):
            return None
        now = load_pdn_file(path)
    except (OSError, ValueError):  # PdnError is a ValueError
        return None
    if now.text != saved.file.text:  # changed since it was loaded: asked as any file is
        return None
    return now, now.with_games({saved.index: pdn_game_text(saved, newline=now.form.newline)})


def _overwrite(path: Path, whole: tuple[PdnFile, str] | None) -> str:
    """The question before ``save`` writes over ``path``: what it holds that would go."""
    if whole is not None:
        return (f"Write the game back into {path} in its own place (its other "
                f"{len(whole[0]) - 1} games kept)? [y/n] ")
    try:
        held = len(load_pdn_file(path))
    except (OSError, ValueError):
        held = 0
    if held > 1:
        return (f"Overwrite {path}? It holds {held} games; all {held} would be replaced by "
                "this one. [y/n] ")
    return f"Overwrite {path}? [y/n] "
