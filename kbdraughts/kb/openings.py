"""The names players use for the classical openings of Russian draughts, for the opening book.

Each opening's line (its defining moves, then the moves its source goes on with) is a line of
the opening book (:mod:`kbdraughts.kb.book`); ``tools/gen_openings.py`` names each book rule by
the opening its line has reached with the rule's move (:func:`opening_of`), with the source, so
``why`` says «Кол» (Kol) and where that was read; the rule's id stays for ``--verbose``.

An opening is named only where its moves were checked against a published source (given
beside it, and in the header of ``combos/openings.txt``): 30 here. Others the players name,
«Игра Шмульяна», «Игра Бабурина», «Обратная игра Филиппова» and «Косяк» among them, are left
out: no source at hand gave their moves, and a wrong name is worse than none.

Moves are in the ballots' short notation: ``cd4`` is the man on the c-file going to d4, ``db4``
a capture from the d-file landing on b4 (``ee3``: e7:g5:e3).

>>> opening_of(["cd4", "ba5", "bc3"]).words()
'Кол (Kol)'
>>> opening_of(["cd4"]) is None  # the first move alone names no opening
True
"""

from __future__ import annotations

import re
from typing import NamedTuple, Sequence

__all__ = ["Opening", "OPENINGS", "opening_of"]


class Opening(NamedTuple):
    """An opening: its defining moves (short notation), its names, where they were read, and
    the moves the source goes on with."""

    moves: tuple[str, ...]
    russian: str
    english: str
    cite: str  # the source in a few words, for `why`: no address, no moves
    source: str  # the source in full, where its moves were read: its address, its moves
    more: tuple[str, ...] = ()  # the source's moves after the defining ones: the book's line

    @property
    def label(self) -> str:
        """The stem of its book rules' ids: ``reverse-kol``."""
        return re.sub(r"[^a-z]+", "-", self.english.lower().replace("'", "")).strip("-")

    def words(self) -> str:
        """``Кол (Kol)``."""
        return f"{self.russian} ({self.english})"


_WIKI = "ru.wikipedia.org"
_TG = "http://table-games.ru/books/item/f00/s00/z0000010/"
_KOMB = "https://kombinashki.ru/debyuty"
_PERCEPTIO = "a translation of ru.wikipedia.org's article"  # perceptio*.com mirror it
O = Opening  # noqa: E741 (a one-letter row marker for the table below)
OPENINGS: tuple[Opening, ...] = (
    O(("cd4", "ba5"), "Кол", "Kol",
      "«Кол», chapter 4 of a Russian draughts opening book",
      "«Кол», chapter 4 of a Russian draughts opening book, "
      f"{_TG}st029.shtml: 1. cd4 ba5 2. dc5 d:b4 3. a:c5 fg5", ("dc5", "db4", "ac5", "fg5")),
    O(("cd4", "dc5", "bc3", "ed6"), "Старая партия", "Old game",
      "Russian Wikipedia, «Старая партия»",
      f"{_WIKI}, «Старая партия» (https://russianwiki.com/wiki/Старая_партия): the tabiya "
      "after 1.cd4 dc5 2.bc3 ed6"),
    O(("cd4", "dc5", "bc3", "fg5"), "Городская партия", "City game",
      "«Теории шашечных начал»; Russian Wikipedia, «Городская партия»",
      "«Теории шашечных начал», http://draughts.narod.ru/articles/"
      "teorii_hahehnyx_nahal_i_metodax_ee_izuhenia.htm: 1. c3-d4 d6-c5 2. b2-c3 f6-g5; "
      f"{_WIKI}, «Городская партия»"),
    O(("cb4", "fe5", "ef4"), "Обратная городская партия", "Reverse City game",
      "Russian Wikipedia, «Городская партия»; draughts.narod.ru",
      f"{_WIKI}, «Городская партия»: the same opening for Black, 1.cb4 fe5 2.ef4 gf6 "
      "(or 2...ef6); https://draughts.narod.ru/articles/obratnaa_gorodskaa.htm: 1. c3-b4 f6-e5 "
      "2. e3-f4 g7-f6 3. b4-a5 f6-g5 4. b2-c3 g5:e3 5. d2:f4",
      ("gf6", "ba5", "fg5", "bc3", "ge3", "df4")),
    O(("ab4", "ba5", "ed4"), "Игра Бодянского", "Bodyansky's game",
      "«Игра Бодянского», Руниверсалис",
      "«Игра Бодянского», Руниверсалис (руни.рф): the tabiya after 1.ab4 ba5 2.ed4, "
      "and 2... ab6 3.ba3 bc5 4.d:b6", ("ab6", "ba3", "bc5", "db6")),
    O(("gh4", "fe5"), "Обратный кол", "Reverse Kol",
      "«Обратный кол», shashkivsem.ru",
      "https://www.shashkivsem.ru/kak-pobedit-v-debyute-chernymi: «Обратный кол», "
      "1.gh4 fe5 2.cb4 ef4 3.e:g5 h:f4 4.bc3 bc5; Kol (1.cd4 ba5) with the colours reversed",
      ("cb4", "ef4", "eg5", "hf4", "bc3", "bc5")),
    O(("gf4", "fe5", "hg3"), "Игра Каулена", "Kaulen's game",
      "«Игра Каулена», kombinashki.ru",
      f"{_KOMB}9.php: «Игра Каулена», 1. g3-f4 f6-e5 2. h2-g3, the example game "
      "Herzenson - Semenov to 15... a7-b6",
      tuple("ed4 ce5 hg5 fh6 dh2 ab4 gf6 ba5 fe5 bc3 hg7 cb4 gf6 ab2 ef4 eg5 fh4 de3 bc5 "
            "bd6 ce5 bc3 ef4 eg5 hf6 cd4 ab6".split())),
    O(("cd4", "dc5", "dc3", "fg5"), "Отказанная городская партия", "City game declined",
      "Russian Wikipedia, «Отказанная городская партия»",
      f"{_WIKI}, «Отказанная городская партия» (ru.wikipedia-on-ipfs.org): the tabiya after "
      "1.cd4 dc5 2.dc3 fg5 3.gh4 gf4 4.e:g5 h:f4 5.fg3 c:e3 6.g:e5 bc5 7.ed6 c:e5 8.cd4 e:c3 "
      "9.b:f2", tuple("gh4 gf4 eg5 hf4 fg3 ce3 ge5 bc5 ed6 ce5 cd4 ec3 bf2".split())),
    O(("cd4", "de5", "bc3", "ed6", "ef4"), "Перекрёсток", "Crossroads",
      "Russian Wikipedia, «Перекрёсток (шашечный дебют)», in translation",
      f"{_PERCEPTIO} «Перекрёсток (шашечный дебют)» (perceptiopt.com): the tabiya 1.cd4 de5 "
      "2.bc3 ed6, the game after 3.ef4; the classical line 3...ba5 4.fe3 cb6 5.cb2 bc5 "
      "6.d:b6 a:c7 7.ed4", tuple("ba5 fe3 cb6 cb2 bc5 db6 ac7 ed4".split())),
    O(("cd4", "de5", "bc3", "ed6", "gh4", "dc5"), "Обратный перекрёсток", "Reverse Crossroads",
      "«Отказанный обратный перекрёсток», after Russian Wikipedia",
      "«Отказанный обратный перекрёсток», chess.wikisort.ru (a copy of ru.wikipedia.org's "
      "article): 1.cd4 de5 2.bc3 ed6 3.gh4 dc5 builds the Reverse Crossroads"),
    O(("cd4", "de5", "bc3", "ed6", "gh4", "hg5"), "Отказанный обратный перекрёсток",
      "Reverse Crossroads declined",
      "«Отказанный обратный перекрёсток», after Russian Wikipedia",
      "«Отказанный обратный перекрёсток», chess.wikisort.ru (a copy of ru.wikipedia.org's "
      "article, after Chernopishchuk, Vysotsky, Baku 1990): 1.cd4 de5 2.bc3 ed6 3.gh4 hg5 "
      "(or 3...fe7)"),
    O(("cd4", "de5", "gf4"), "Вилочка", "Fork",
      "Russian Wikipedia, «Вилочка (шашечный дебют)», in translation",
      f"{_PERCEPTIO} «Вилочка (шашечный дебют)» (perceptiode.com, after Tsoukernik 1996, "
      "p. 60): 1.cd4 de5 2.gf4"),
    O(("cd4", "fg5", "bc3", "gh4"), "Киевская защита", "Kiev defence",
      "«Киевская защита», chapter 3 of a Russian draughts opening book; kombinashki.ru",
      f"«Киевская защита», chapter 3, {_TG}st028.shtml and {_KOMB}11.php: Tikheeva - "
      "Starobinsky, 1.cd4 fg5 2.bc3 gh4 3.cb4 hg5 ... 12.cd2",
      tuple("cb4 hg5 dc5 bd4 ec5 cb6 de3 bd4 ec5 gf6 ab2 hg7 ba5 db4 ac3 ed6 ab4 de5 "
            "cd2".split())),
    O(("cd4", "fg5", "gf4"), "Центральная партия", "Central game",
      "«Гамбит поэта - 2», gambler.ru",
      "«Гамбит поэта - 2», https://plus.gambler.ru/tavlei/theory/theory_7.htm (after "
      "Kuperman, Kaplan 1957, p. 272): 1.cd4 fg5 2.gf4 gf6 3.bc3 hg7", ("gf6", "bc3", "hg7")),
    O(("cd4", "hg5", "gh4"), "Обратная игра Бодянского", "Reverse Bodyansky's game",
      "Russian Wikipedia, «Отказанная обратная игра Бодянского», in translation",
      f"{_PERCEPTIO} «Отказанная обратная игра Бодянского» (perceptiopt.com, after Abaulin): "
      "1.cd4 hg5 2.gh4 is the Reverse Bodyansky's game"),
    O(("cd4", "hg5", "gf4"), "Отказанная обратная игра Бодянского",
      "Reverse Bodyansky's game declined",
      "Russian Wikipedia, «Отказанная обратная игра Бодянского», in translation",
      f"{_PERCEPTIO} «Отказанная обратная игра Бодянского» (perceptiopt.com, after Abaulin): "
      "1.cd4 hg5 2.gf4"),
    O(("ab4", "fe5"), "Отказанная игра Бодянского", "Bodyansky's game declined",
      "Russian Wikipedia, «Отказанная обратная игра Бодянского», in translation",
      f"{_PERCEPTIO} «Отказанная обратная игра Бодянского» (perceptiopt.com): after 1.ab4 "
      "Black declines with 1...fe5 (or 1...hg5, 1...bc5)"),
    O(("cb4", "fe5", "bc5"), "Тычок", "Tychok",
      "Russian Wikipedia, «Тычок (шашечный дебют)», in translation",
      f"{_PERCEPTIO} «Тычок (шашечный дебют)» (perceptiode.com): 1.cb4 fe5 2.bc5 d:b4 3.a:c5",
      ("db4", "ac5")),
    O(("cb4", "fg5", "bc5"), "Жертва Кукуева", "Kukuev's sacrifice",
      "Russian Wikipedia, «Тычок (шашечный дебют)», in translation",
      f"{_PERCEPTIO} «Тычок (шашечный дебют)» (perceptiode.com): the gambit 1.cb4 fg5 2.bc5 "
      "b:d4 3.e:c5 d:b4 4.a:c5 gf4 5.g:e5 cb6", tuple("bd4 ec5 db4 ac5 gf4 ge5 cb6".split())),
    O(("cb4", "fe5", "bc3", "ef4"), "Обратный тычок", "Reverse Tychok",
      "«Дебют Обратный Тычок», v-damki.com",
      "«Дебют Обратный Тычок», https://v-damki.com/debuts/103-debyut-obratnyy-tychok.html:"
      " 1. c3-b4 f6-e5 2. b2-c3 e5-f4 3. g3:e5 d6:f4 4. e3:g5 h6:f4",
      ("ge5", "df4", "eg5", "hf4")),
    O(("gh4", "ba5"), "Игра Петрова", "Petrov's game",
      "Russian Wikipedia, «Игра Петрова», in translation",
      f"{_PERCEPTIO} «Игра Петрова» (perceptiopl.com): 1.gh4 ba5, and A. D. Petrov's line "
      "of 1827 to 10... a7-b6",
      tuple("fg3 cb6 ef4 fg5 hf6 ee3 df4 gf6 gh4 fe7 hg3 bc5 gh2 cb4 ac5 dd2 ce3 ab6".split())),
    O(("cd4", "fe5", "df6"), "Игра Романычева", "Romanychev's game",
      "Russian Wikipedia, «Игра Романычева»",
      f"{_WIKI}, «Игра Романычева» (https://dic.academic.ru/dic.nsf/ruwiki/1304019): the tabiya "
      "after 1.cd4 fe5 2.d:f6, Black's answer 2...g:e5 or 2...e:g5", ("eg5",)),
    O(("cd4", "fe5", "df6", "ge5", "ab4"), "Гибельное начало", "The ruinous opening",
      "Russian Wikipedia, «Игра Романычева»",
      f"{_WIKI}, «Игра Романычева» (https://dic.academic.ru/dic.nsf/ruwiki/1304019): after "
      "1.cd4 fe5 2.d:f6 g:e5 3.ab4, named so by Shoshin's analysis: Black's game is very bad"),
    O(("ed4", "de5", "ab4", "hg5"), "Игра Филиппова", "Filippov's game",
      "«Игра Филиппова», kombinashki.ru",
      f"{_KOMB}9.php: «Игра Филиппова», 1. e3-d4 d6-e5 2. a3-b4 h6-g5"),
    O(("cd4", "dc5", "bc3", "cd6", "cb4", "ba5", "db6", "ac7"), "Отыгрыш", "Otygrysh",
      "Russian Wikipedia, «Отыгрыш», in translation",
      f"{_PERCEPTIO} «Отыгрыш» (perceptiofr.com, named by D. Sargin): the tabia 1.cd4 dc5 "
      "2.bc3 cd6 3.cb4 ba5 4.d:b6 a:c7, and Sokov's option 5.e3-d4", ("ed4",)),
    O(("cd4", "dc5", "gh4"), "Отыгрыш Сокова", "Sokov's Otygrysh",
      "Russian Wikipedia, «Отыгрыш», in translation",
      f"{_PERCEPTIO} «Отыгрыш» (perceptiofr.com): Sokov's Otygrysh with 2.gh4, 1.cd4 dc5 "
      "2.gh4, and his novelty of 1934, 1.c3-d4 d6-c5 2.g3-h4 c7-d6 3.h2-g3", ("cd6", "hg3")),
    O(("cd4", "fg5", "bc3", "gh4", "cb4", "gf6", "dc5", "bd4", "ec5"),
      "Новоленинградская защита", "Novo-Leningrad defence",
      "Russian Wikipedia, «Новоленинградская защита», in translation",
      f"{_PERCEPTIO} «Новоленинградская защита» (perceptiode.com, perceptiohu.com, after "
      "Litvinovich, Negra 1985, p. 110): the tabia 1.cd4 fg5 2.bc3 gh4 3.cb4 gf6 4.dc5 b:d4 "
      "5.e:c5, then 5...hg7 6.ba5 d:b4 7.a:c3", ("hg7", "ba5", "db4", "ac3")),
    O(("cd4", "fg5", "bc3", "gh4", "cb4", "de5", "df6", "eg5"), "Защита Святого — Коршунова",
      "Svyatoy-Korshunov defence",
      "Russian Wikipedia, «Защита Святого — Коршунова», in translation",
      f"{_PERCEPTIO} «Защита Святого — Коршунова» (perceptiode.com, perceptiopl.com): the "
      "tabia 1.cd4 fg5 2.bc3 gh4 3.cb4 de5 4.d:f6 e:g5, Korshunov's line 5.ba5 bc5 6.ab2 fe7 "
      "7.gf4 gf6 8.dc3 ed6 9.cb4 hg7 10.ed4",
      tuple("ba5 bc5 ab2 fe7 gf4 gf6 dc3 ed6 cb4 hg7 ed4".split())),
    O(("gh4", "bc5", "cb4"), "Отказанная игра Петрова", "Petrov's game declined",
      "Russian Wikipedia, «Игра Петрова», in translation",
      f"{_PERCEPTIO} «Игра Петрова» (perceptiopl.com): Black declines 1...ba5, the systems "
      "1.gh4 fe5 2.ab4, 1.gh4 fg5 2.h:f6 g:e5 and 1.gh4 bc5 2.cb4"),
    O(tuple("cd4 de5 bc3 ed6 ef4 ba5 fe3 cb6 cb2 bc5 db6 ac7 ed4 cb6 gf2 bc7 fe3".split()),
      "Игра Мосолова", "Mosolov's game",
      "Russian Wikipedia, «Перекрёсток (шашечный дебют)», in translation",
      f"{_PERCEPTIO} «Перекрёсток (шашечный дебют)» (perceptiofr.com): the classical Crossroads "
      "to 7.ed4, then 7...cb6 8.gf2 bc7 9.fe3 (7...cb6 or ab6, 8...ba7 or bc7 as move 7 "
      "allows)"),
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
