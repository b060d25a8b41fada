"""The ideas no rule names: where the coach proved material won by force and no rule of the
knowledge base names the move, the position and the winning move as a motif draft (the
``teach motif`` format, :func:`kbdraughts.coach.motif_draft.draft_motif`) for an author to
generalise: the list of motifs still to write, from real games.

Each draft is the position where the winning side is to move and its winning move: after a
*loses* note, the position after the losing move and the opponent's reply; after an unnamed
*missed* note, the position before it and the better move; after an unnamed *played* note,
the move played. A comment line above it says where it comes from (the file, the game's
number in the file, the move and the note), so the author can look at the game, and, where
Black wins, that the draft is turned round (a motif is written for White). A position seen
twice is drafted once.
"""

from __future__ import annotations

from typing import Any, Iterable

from kbdraughts.coach.annotator import LOSES, MISSED, PLAYED, Note
from kbdraughts.coach.note import move_number
from kbdraughts.coach.motif_draft import draft_motif
from kbdraughts.board import BLACK, Move, Position
from kbdraughts.files import printable
from kbdraughts.notation import move_text

__all__ = ["Drafts", "unnamed_idea"]


def unnamed_idea(positions: list[Position], note: Note) -> tuple[Position, Move] | None:
    """The position and the move winning by force that ``note`` shows and no rule names, or
    None (a named idea, or an ALLOWED note: a rule names it)."""
    if note.rule is not None:
        return None
    if note.kind == LOSES:
        return positions[note.ply + 1], note.key
    if note.kind in (MISSED, PLAYED):
        return positions[note.ply], note.key
    return None


class Drafts:
    """The drafts of a file's games, in order, each position once."""

    def __init__(self, source: str):
        self.source = source
        self.texts: list[str] = []
        self._seen: set[tuple[Position, Move]] = set()

    def add(self, number: int, pdn_game: Any, notes: Iterable[Note]) -> None:
        """The unnamed ideas of game ``number`` of the file (a PdnGame; its number counted
        from 1 in the whole file) from its ``notes``."""
        game = pdn_game.game
        for note in notes:
            found = unnamed_idea(game.positions, note)
            if found is None or found in self._seen:
                continue
            self._seen.add(found)
            pos, move = found
            where = (f"# {printable(self.source)}, game {number}, "
                     f"{move_number(game, note.ply)} "
                     f"{move_text(game.moves[note.ply])}: {note.words()}")
            if pos.side == BLACK:
                where += "\n# turned round: Black wins here, and a motif is written for White"
            self.texts.append(where + "\n" + draft_motif(pos, move,
                                                         f"unnamed-{len(self.texts) + 1}"))
