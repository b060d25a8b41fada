"""What stands beside the board: the seats, material, the draw rules counting and the move
list (the last move marked); for a terminal too narrow for it, the same in one line.

>>> from kbdraughts.ai.spec import PlayerSpec
>>> from kbdraughts.notation import parse_move
>>> from kbdraughts.ui.session import HUMAN, Session
>>> session = Session(lambda spec: None, [HUMAN, PlayerSpec.parse("kb:1:nokb")])
>>> session.game.push(parse_move(session.game.position, "c3-d4"))
>>> [fragment_list_to_text(line) for line in side_panel(session, marks=True)][:3]
['Black (kb:1:nokb)', 'White 12 men, Black 12 men', '1. [c3-d4]']
>>> fragment_list_to_text(summary_line(session, marks=True))
'White (you) 12 · Black (kb:1:nokb) 12 · 1. [c3-d4]'
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text

from kbdraughts.board import BLACK, WHITE
from kbdraughts.notation import side_name
from kbdraughts.ui.render import last_move_text, material_text, move_list
from kbdraughts.ui.session import Session
from kbdraughts.ui.toolbar import draw_counts_text, material_short

#: Columns the board takes (rank labels and eight cells of three) and the gap to the panel.
BOARD_COLUMNS = 31
PANEL_GAP = 3


def side_panel(session: Session, marks: bool, width: int | None = None
               ) -> list[StyleAndTextTuples]:
    """The eight lines beside the ranks: the top seat, material, the draw rules counting, the
    last moves numbered (the last one marked; ``marks``: in ``[ ]`` too), the bottom seat.

    ``width``: the columns beside the board; the panel drops words to fit them (the seats
    without the player, the material in figures: ``White 8+1K, Black 7``), never numbers. It
    may still be wider when a line of moves is: :func:`panel_columns` tells."""
    for tier in range(3):
        panel = _panel(session, marks, tier)
        if width is None or max(len(fragment_list_to_text(line)) for line in panel) <= width:
            break
    return panel


def _panel(session: Session, marks: bool, tier: int) -> list[StyleAndTextTuples]:
    """The panel in full (``tier`` 0), the material in figures (1), the seats named by side
    alone (2)."""
    game = session.shown  # the position on the board, walked back or not
    counts = draw_counts_text(game)
    first = 3 if counts else 2
    panel: list[StyleAndTextTuples] = [[] for _ in range(8)]

    def seat(side: int) -> str:
        return session.seat_name(side) if tier < 2 else side_name(side)

    panel[0] = [("class:board.panel.side", seat(1 - session.bottom))]
    panel[1] = [("class:board.panel", material_text(game.position) if tier < 1
                 else material_short(game.position))]
    if counts:
        panel[2] = [("class:board.panel.counts", counts)]
    for row, line in enumerate(move_list(game.start.side, game.moves, 7 - first, marks)):
        panel[first + row] = line
    panel[7] = [("class:board.panel.side", seat(session.bottom))]
    return panel


def panel_columns(panel: list[StyleAndTextTuples]) -> int:
    """Columns the board and ``panel`` need side by side."""
    return BOARD_COLUMNS + PANEL_GAP + max(len(fragment_list_to_text(line)) for line in panel)


def panel_width(columns: int) -> int:
    """Columns a terminal ``columns`` wide leaves beside the board for the panel."""
    return columns - BOARD_COLUMNS - PANEL_GAP


def summary_line(session: Session, marks: bool) -> StyleAndTextTuples:
    """One line for a terminal too narrow for the panel: seats with their pieces (``+2K``
    kings), the draw rules counting, the last move."""
    game = session.shown
    wm, wk, bm, bk = game.position.counts()
    pieces = {WHITE: f"{wm}" + (f"+{wk}K" if wk else ""),
              BLACK: f"{bm}" + (f"+{bk}K" if bk else "")}
    parts = [f"{session.seat_name(s)} {pieces[s]}" for s in (WHITE, BLACK)]
    counts = draw_counts_text(game)
    if counts:
        parts.append(counts)
    out: StyleAndTextTuples = [("class:board.panel", " · ".join(parts))]
    last = last_move_text(game.start.side, game.moves)
    if last:
        number, _, move = last.partition(" ")
        out += [("class:board.panel", f" · {number} "),
                ("class:board.panel.last", f"[{move}]" if marks else move)]
    return out


def duration_text(seconds: float) -> str:
    """Time used, as a player says it: ``45 s``, ``3 min 12 s``, ``1 h 5 min``.

    >>> duration_text(45.2), duration_text(192), duration_text(3900)
    ('45 s', '3 min 12 s', '1 h 5 min')
    """
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"
