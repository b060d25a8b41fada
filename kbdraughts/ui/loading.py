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

from kbdraughts.notation import side_name
from kbdraughts.pdn import PdnError, PdnFile, PdnGame, load_pdn_file
from kbdraughts.ui.registry import Front
from kbdraughts.wording import plural

__all__ = ["game_lines", "pick", "split_game_argument", "record_verdict", "load_file",
           "variation_notes"]


def _describe(pg: PdnGame) -> str:
    tags = pg.tags
    players = f"{tags.get('White', '?')} – {tags.get('Black', '?')}"
    event = tags.get("Event", "")
    event = f", {event}" if event and event != "?" else ""
    return f"{players}{event}, {pg.result}, {plural(pg.game.ply, 'ply')}"


def game_lines(read: PdnFile) -> list[str]:
    """One line per game of the file, numbered from 1: players, event, result, length; a game
    that cannot be read with its reason."""
    return [f"{i}. " + (f"cannot be read: {g}" if isinstance(g, PdnError) else _describe(g))
            for i, g in enumerate(read.entries, 1)]


def pick(read: PdnFile, number: int, name: str) -> PdnGame:
    """Game ``number`` (from 1) of the file; ValueError saying why it cannot be played."""
    held = len(read.entries)
    if not held:
        raise ValueError(f"{name}: no game in this file")
    if not 1 <= number <= held:
        raise ValueError(f"{name}: no game {number} (the file holds {held} "
                         f"game{'s' if held != 1 else ''})")
    chosen = read.entries[number - 1]
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
    if number is None and len(read.entries) > 1:
        ui.info(f"{name} holds {len(read.entries)} games:\n" + "\n".join(game_lines(read)))
        answer = ui.console.ask([("class:msg.title",
                                  f"Which game? [1-{len(read.entries)}, Enter: none] ")])
        if not answer.strip().isdigit():
            ui.info("Not loaded.")
            return
        number = int(answer)
    try:
        chosen = pick(read, number or 1, name)
    except ValueError as e:
        ui.error(f"{e}")
        return
    ui.session.load_game(chosen.game, chosen)
    ui.changed()
    game = chosen.game
    more = f" (game {number} of {len(read.entries)})" if len(read.entries) > 1 else ""
    ui.info(f"Loaded {name}{more}: {plural(game.ply, 'ply')}, {side_name(game.side)} to move.")
    for kind, note in variation_notes(chosen):
        ui.say(note, kind)
    ui.save_now()


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
