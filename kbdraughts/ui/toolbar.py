"""The bottom toolbar: move number, side to move, material, the draw rules counting, level, the
clocks and the AI's last reason in a player's words.

A narrow terminal gets the same fields with fewer words, never fewer numbers: the reason is cut
at a word (``…``) and then dropped, then each field takes its short form (``White 8+1K, Black
7``, ``L4``), so the move number, the counts, the level and the clocks always show whole. The
clocks and the draw counts keep the words that say whose and which (``White 4:05, Black 5:00``,
``3v1 2/15``) as long as the panel beside the board does: the reason gives way first.

>>> info = ToolbarInfo(12, "White", "White 8 men 1 king, Black 7 men", 4, "search: +0.4 men",
...                    material_short="White 8+1K, Black 7", clock="White 4:05, Black 5:00")
>>> fragment_list_to_text(toolbar_fragments(info, 58))
' Move 12 │ White │ 8+1K v 7 │ L4 │ White 4:05, Black 5:00'
>>> fragment_list_to_text(toolbar_fragments(info, 41))
' 12. │ White │ 8+1K v 7 │ L4 │ 4:05 5:00'
>>> fragment_list_to_text(toolbar_fragments(info, 40))  # the prompt names the side to move
' 12. │ 8+1K v 7 │ L4 │ 4:05 5:00'
>>> fragment_list_to_text(toolbar_fragments(info, 100))
' Move 12 │ White │ White 8+1K, Black 7 │ L4 │ White 4:05, Black 5:00 │ AI: search: +0.4 men'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from kbdraughts.ai.clock import clock_text
from kbdraughts.ai.explain import said_for, short
from kbdraughts.board import BLACK, WHITE, Position
from kbdraughts.game import Game
from kbdraughts.notation import side_name
from kbdraughts.ui.render import material_text
from kbdraughts.ui.session import Session

SEP = " │ "


@dataclass(frozen=True)
class ToolbarInfo:
    """What the toolbar shows; ``session_info`` builds one from the game on every redraw."""

    move_number: int
    side: str  # "White" / "Black"
    material: str  # "White 8 men 1 king, Black 7 men"
    level: int | None  # the AI's level, None when no AI plays
    reason: str = ""  # the AI's last reason, short
    status: str = ""  # "to move", or the result when the game is over
    counts: str = ""  # the draw rules counting: "kings only 12/15, repetition 2/3"
    material_short: str = ""  # "White 8+1K, Black 7"
    clock: str = ""  # "White 4:05, Black 5:00" when the game has a clock


def _numbers_only(text: str, joint: str) -> str:
    """The words of ``text`` that hold a figure, its parts joined by ``joint``: ``White
    8+1K, Black 7`` -> ``8+1K v 7``; ``White 4:05, Black 5:00`` -> ``4:05 5:00``."""
    parts = [" ".join(w for w in part.split() if any(c.isdigit() for c in w))
             for part in text.split(", ")]
    return joint.join(p for p in parts if p)


#: The draw rules' names as the counts give them, and in fewer words.
_SHORTER = (("3 kings v 1:", "3v1"), ("kings only", "kings"), ("king ending", "ending"),
            ("repetition", "rep."))


def _counts_short(counts: str) -> str:
    """``3 kings v 1: 2/15, kings only 1/15`` -> ``3v1 2/15, kings 1/15``."""
    for name, short_name in _SHORTER:
        counts = counts.replace(name, short_name)
    return counts


def _fields(info: ToolbarInfo, tier: int) -> list[StyleAndTextTuples]:
    """The toolbar's fields but the reason, shorter as ``tier`` grows (0: in full; the
    last leaves out the side to move, which the prompt names)."""
    over = info.side == "Game over:"
    status = info.status or "to move"
    fields: list[StyleAndTextTuples] = [
        [("", f" Move {info.move_number}" if tier < 4 else f" {info.move_number}.")]]
    if over:
        fields.append([("bold", status if tier < 2 else status.split(" (")[0])])
    elif tier < 2:
        fields.append([("bold", info.side), ("", f" {status}")])
    elif tier < 6:  # the narrowest: the prompt says whose move it is
        fields.append([("bold", info.side)])
    material_short = info.material_short or info.material
    fields.append([("", info.material if tier < 1 else material_short if tier < 3
                    else _numbers_only(material_short, " v "))])
    if info.counts:  # never bare figures: "3 1: 2/15" says nothing of which rule counts
        fields.append([("class:toolbar.counts",
                        info.counts if tier < 3 else _counts_short(info.counts))])
    if info.level is not None:
        fields.append([("", f"Level {info.level}" if tier < 2 else f"L{info.level}")])
    if info.clock:
        fields.append([("class:toolbar.clock",
                        info.clock if tier < 4 else _numbers_only(info.clock, " "))])
    return fields


TIERS = 7


def _joined(fields: list[StyleAndTextTuples]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, field in enumerate(fields):
        if i:
            out.append(("class:toolbar.sep", SEP))
        out += field
    return out


def cut_at_word(text: str, width: int) -> str:
    """``text`` in ``width`` columns, cut after a whole word with ``…``; "" when not one fits.

    >>> cut_at_word("search: +0.4 men for you", 16), cut_at_word("searching", 5)
    ('search: +0.4 …', '')
    >>> cut_at_word("search: +0.4 men for you", 18)
    'search: +0.4 men …'
    """
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width - 1)  # a word, then " …"
    return text[:cut] + " …" if cut > 0 else ""


#: Columns the reason must have, at the least, before the other fields give up their words.
REASON_ROOM = 24
#: The tiers that may shorten the other fields so that the reason shows whole.
WHOLE_REASON_TIERS = 3
#: The tiers whose clocks say whose time is whose; past them the reason has no room.
CLOCK_WORDS_TIERS = 4


def toolbar_fragments(info: ToolbarInfo, columns: int | None = None) -> StyleAndTextTuples:
    """The toolbar in ``columns`` (None: any width): the first tier of shortening (up to
    WHOLE_REASON_TIERS) that shows the reason whole, else the first whose fields leave
    REASON_ROOM for the reason cut at a word, else the widest fields that fit alone."""
    width = columns if columns is not None else 10_000
    if info.reason:
        tail: StyleAndTextTuples = [("class:toolbar.reason", f"AI: {info.reason}")]
    else:  # before the AI's first move there is room to say where help is
        tail = [("class:toolbar.key", "Tab"), ("", " moves  "),
                ("class:toolbar.key", "help"), ("", " ")]
    tail_text = fragment_list_to_text(tail)
    sep = [("class:toolbar.sep", SEP)]
    tiers = [_joined(_fields(info, tier)) for tier in range(TIERS)]
    # the last column stays free: a terminal may wrap on it
    rooms = [width - 1 - len(fragment_list_to_text(fields)) - len(SEP) for fields in tiers]
    # the words about help go before any of the fields' words; the reason may take some
    for fields, room in list(zip(tiers, rooms))[:WHOLE_REASON_TIERS if info.reason else 1]:
        if len(tail_text) <= room:
            return fields + sep + tail
    if info.reason:  # cut, while the clocks keep their words; else dropped
        for fields, room in list(zip(tiers, rooms))[:CLOCK_WORDS_TIERS]:
            cut = cut_at_word(tail_text, room) if room >= REASON_ROOM else ""
            if cut:
                return fields + sep + [("class:toolbar.reason", cut)]
    for fields, room in zip(tiers, rooms):
        if room + len(SEP) >= 0:
            return fields
    return tiers[-1]


def _output_columns() -> int:
    """The width of the terminal the running prompt draws on."""
    from prompt_toolkit.application.current import get_app

    try:
        return get_app().output.get_size().columns
    except Exception:  # no terminal to ask: a common one
        return 80


def make_toolbar(get_info: Callable[[], ToolbarInfo],
                 columns: Callable[[], int] = _output_columns
                 ) -> Callable[[], StyleAndTextTuples]:
    """The ``bottom_toolbar`` callable for a PromptSession, fitted to ``columns()``."""
    return lambda: toolbar_fragments(get_info(), columns())


def draw_counts_text(game: Game) -> str:
    """The draw rules under way once they count: ``kings only 12/15, repetition 2/3``."""
    if game.result is not None:
        return ""
    return ", ".join(str(c) for c in game.draw_counts() if c.count > 0)


def material_short(pos: Position) -> str:
    """Pieces of each side in figures: ``White 8+1K, Black 7`` (``K``: kings).

    >>> from kbdraughts.notation import parse_fen
    >>> material_short(parse_fen("W:Wa1,c1,Kh2:Bb8")), material_short(parse_fen("W:WKa1:Bb8"))
    ('White 2+1K, Black 1', 'White 1K, Black 1')
    """
    def pieces(men: int, kings: int) -> str:
        return f"{kings}K" if kings and not men else f"{men}" + (f"+{kings}K" if kings else "")

    wm, wk, bm, bk = pos.counts()
    return f"White {pieces(wm, wk)}, Black {pieces(bm, bk)}"


def choice_words(choice: Any) -> str:
    """An AI's reason for the console: its words (no engine detail, no file), else its short
    form, else its reason."""
    return (getattr(choice, "words", "") or getattr(choice, "short", "")
            or getattr(choice, "reason", ""))


def clocks_text(session: Session) -> str:
    """Both clocks, ``White 4:05, Black 5:00``; "" without a clock."""
    clock = session.clock
    if clock is None:
        return ""
    return ", ".join(f"{side_name(s)} {clock_text(clock.left(s))}" for s in (WHITE, BLACK))


def _shown_choice(session: Session) -> tuple[int, Any] | None:
    """Walked back: the AI's choice of the move that led to the position shown, when the
    game played it there; else None (a later move's reason is not this position's)."""
    shown, ply = session.shown, session.shown.ply - 1
    choice = session.choices.get(ply)
    if choice is None or shown.moves[:ply + 1] != session.game.moves[:ply + 1]:
        return None
    return ply, choice


def session_info(session: Session) -> ToolbarInfo:
    """What the toolbar shows of ``session`` now."""
    game = session.shown  # the position on the board, walked back or not
    result = game.result
    last = session.last_choice() if not session.walking() else _shown_choice(session)
    return ToolbarInfo(
        move_number=session.move_number(),
        side=side_name(game.side) if result is None else "Game over:",
        material=material_text(game.position),
        level=session.shown_level() if any(p is not None for p in session.players) else None,
        reason=short(said_for(choice_words(last[1]),
                              side_name(session.game.positions[last[0]].side)))
        if last is not None else "",
        status="to move" if result is None else str(result),
        counts=draw_counts_text(game),
        material_short=material_short(game.position),
        clock=clocks_text(session),
    )
