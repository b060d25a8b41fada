"""The coach's summaries: a game's notes counted by side and kind with the ideas named, and the
same for a whole file (``kbdraughts annotate`` writes the first after a game's last move and
the second on stderr).

>>> Tally().words(), Tally(sides=(1,)).words()
('White: no error; Black: no error', 'Black: no error')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from kbdraughts.coach.annotator import ERRORS, PLAYED, SIDE_NAMES, Note, idea_of
from kbdraughts.coach.note import graded_words
from kbdraughts.coach.verdict import Grade, MoveVerdict
from kbdraughts.board import BLACK, Side
from kbdraughts.game import Game

__all__ = ["Tally", "game_summary", "notes_by_ply"]



@dataclass
class Tally:
    """Notes counted by side and kind, and the ideas named (for a game or a whole file)."""

    kinds: Counter = field(default_factory=Counter)  # (side, kind) -> notes
    grades: Counter = field(default_factory=Counter)  # (side, Grade) -> moves graded
    graded: bool = False  # whether the moves were graded (then the grades are the errors)
    ideas: Counter = field(default_factory=Counter)  # idea -> notes naming it
    unnamed: int = 0  # material won by force that no rule names
    games: int = 0
    moves: int = 0
    sides: tuple[Side, ...] = (0, BLACK)  # the sides whose moves were looked at

    def add(self, game: Game, notes: Iterable[Note],
            verdicts: Sequence[MoveVerdict] | None = None) -> None:
        self.games += 1
        self.moves += len(game.moves)
        if verdicts is not None:
            self.graded = True
            self.grades.update((v.side, v.grade) for v in verdicts if v.grade is not None)
        for note in notes:
            self.kinds[note.side, note.kind] += 1
            if note.rule is not None:
                self.ideas[idea_of(note.rule)[0]] += 1
            else:
                self.unnamed += 1

    def errors(self, side: Side) -> int:
        return sum(self.kinds[side, k] for k in ERRORS)

    def _graded(self, side: Side) -> str:
        """``1 blunder, 2 mistakes, 3 inaccuracies``, or ``no error``."""
        parts = [f"{n} {g.word}{'s' if n != 1 else ''}".replace("inaccuracys", "inaccuracies")
                 for g in (Grade.BLUNDER, Grade.MISTAKE, Grade.INACCURACY)
                 if (n := self.grades[side, g])]
        return ", ".join(parts) or "no error"

    def words(self) -> str:
        """``White: 2 errors (loses 1, allowed 1), 1 combination; Black: no error; ideas:
        shot 2, king fork 1; 1 unnamed``."""
        parts = []
        for side in self.sides:
            n = self.errors(side)
            detail = ", ".join(f"{k} {self.kinds[side, k]}" for k in ERRORS
                               if self.kinds[side, k])
            said = f"{n} error{'s' if n != 1 else ''} ({detail})" if n else "no error"
            if self.graded:
                said = self._graded(side) + (f" ({detail})" if n else "")
            deeds = self.kinds[side, PLAYED]
            if deeds:
                said += f", {deeds} combination{'s' if deeds != 1 else ''}"
            parts.append(f"{SIDE_NAMES[side]}: {said}")
        ideas = ", ".join(f"{k} {v}" for k, v in self.ideas.most_common())
        text = "; ".join(parts) + (f"; ideas: {ideas}" if ideas else "")
        if self.unnamed:
            text += f"; {self.unnamed} won by force that no rule names"
        return text


def game_summary(game: Game, notes: Sequence[Note], side: Side | None = None,
                 verdicts: Sequence[MoveVerdict] | None = None) -> str | None:
    """One game's summary in words (``summary: White: ...``), None when there is no note nor
    graded move; ``side``: the only side whose moves were looked at; ``verdicts``: the
    grades, counted as its errors."""
    if not notes and not any(v.grade is not None for v in verdicts or ()):
        return None
    tally = Tally(sides=(0, BLACK) if side is None else (side,))
    tally.add(game, notes, verdicts)
    return f"summary: {tally.words()}"


def notes_by_ply(game: Game, notes: Sequence[Note], verdicts: Sequence[MoveVerdict],
                 verbose: bool = False) -> dict[int, list[str]]:
    """The words written after each move: a graded move's note (its glyph, the material
    notes that prove the loss, the better move), then the combinations played."""
    out: dict[int, list[str]] = {}
    for v in verdicts:
        if v.grade is not None:
            proofs = [n.words(verbose) for n in notes if n.ply == v.ply and n.kind in ERRORS]
            out.setdefault(v.ply, []).append(graded_words(game, v, proofs))
    graded = {v.ply for v in verdicts if v.grade is not None}
    for note in notes:  # an error note on a graded move is in the move's note already
        if note.kind not in ERRORS or note.ply not in graded:
            out.setdefault(note.ply, []).append(note.words(verbose))
    return out
