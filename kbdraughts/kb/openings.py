"""The names players use for the classical openings of Russian draughts, for the opening book.

``tools/gen_openings.py`` names each rule of ``combos/openings.txt`` by the opening its line
has reached with the rule's move (:func:`opening_of`): the explanations and ``why`` then say
«Кол» (Kol) where they said "ballot IX-20"; the rule's id stays for ``--verbose``.

An opening is named only where its defining moves were checked against a published source
(given beside it, and in the header of ``combos/openings.txt``). Others the players name,
«Отыгрыш» and «Перекрёсток» among them, are left out: no source at hand gave their moves,
and a wrong name is worse than none.

Moves are in the ballots' short notation: ``cd4`` is the man on the c-file going to d4.

>>> opening_of(["cd4", "ba5", "bc3"]).words()
'Кол (Kol)'
>>> opening_of(["cd4"]) is None  # the first move alone names no opening
True
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

__all__ = ["Opening", "OPENINGS", "opening_of"]


class Opening(NamedTuple):
    """An opening: its defining moves (short notation), its names, where they were read."""

    moves: tuple[str, ...]
    russian: str
    english: str
    source: str

    def words(self) -> str:
        """``Кол (Kol)``."""
        return f"{self.russian} ({self.english})"


_WIKI = "ru.wikipedia.org"
OPENINGS: tuple[Opening, ...] = (
    Opening(("cd4", "ba5"), "Кол", "Kol",
            "«Кол», chapter 4 of a Russian draughts opening book, "
            "http://table-games.ru/books/item/f00/s00/z0000010/st029.shtml: 1. cd4 ba5"),
    Opening(("cd4", "dc5", "bc3", "ed6"), "Старая партия", "Old game",
            f"{_WIKI}, «Старая партия»: the tabiya after 1.cd4 dc5 2.bc3 ed6"),
    Opening(("cd4", "dc5", "bc3", "fg5"), "Городская партия", "City game",
            "«Теории шашечных начал», http://draughts.narod.ru/articles/"
            "teorii_hahehnyx_nahal_i_metodax_ee_izuhenia.htm: 1. c3-d4 d6-c5 2. b2-c3 f6-g5; "
            f"{_WIKI}, «Городская партия»"),
    Opening(("cb4", "fe5", "ef4"), "Обратная городская партия", "Reverse City game",
            f"{_WIKI}, «Городская партия»: the same opening for Black, 1.cb4 fe5 2.ef4 gf6 "
            "(or 2...ef6)"),
    Opening(("ab4", "ba5", "ed4"), "Игра Бодянского", "Bodyansky's game",
            "«Игра Бодянского», Руниверсалис (руни.рф): the tabiya after 1.ab4 ba5 2.ed4"),
    Opening(("gh4", "fe5"), "Обратный кол", "Reverse Kol",
            "https://www.shashkivsem.ru/kak-pobedit-v-debyute-chernymi: «Обратный кол», "
            "1.gh4 fe5 ...; Kol (1.cd4 ba5) with the colours reversed"),
    Opening(("gf4", "fe5", "hg3"), "Игра Каулена", "Kaulen's game",
            "https://kombinashki.ru/debyuty9.php: «Игра Каулена», 1. g3-f4 f6-e5 2. h2-g3"),
)


def opening_of(moves: Sequence[str]) -> Opening | None:
    """The opening a line has reached after ``moves`` (short notation from the start): the one
    with the longest defining moves that begin it; None before any opening is complete."""
    best: Opening | None = None
    for o in OPENINGS:
        if tuple(moves[:len(o.moves)]) == o.moves and (best is None
                                                       or len(o.moves) > len(best.moves)):
            best = o
    return best
