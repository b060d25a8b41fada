"""The material numbers of the AI, in one place.

The ancestor program scored a capture sequence by +105 for each man the AI takes and -100 for
each man it loses: the 5 points make an even trade worth playing for the side that starts it.
A king is worth about two and a half men, a crowning about two men.
"""

from __future__ import annotations

#: A man we take / a man we lose, in the capture tree.
MAN_TAKEN = 105
MAN_LOST = 100
#: A king is worth this many men.
KING_MEN = 2.5
#: Crowning a man is worth this many men.
CROWN_MEN = 2.0

KING_TAKEN = round(MAN_TAKEN * KING_MEN)  # 262
KING_LOST = round(MAN_LOST * KING_MEN)  # 250
CROWN_GAIN = round(MAN_LOST * CROWN_MEN)  # 200

#: Material of a position for the search (symmetric: no bonus for the side that takes).
MAN_VALUE = 100
KING_VALUE = round(MAN_VALUE * KING_MEN)  # 250

#: Scores beyond every material sum: a won or lost game.
WIN = 100_000

#: A position the endgame tables call won, less the plies to its next capture or crowning: the
#: search's score there (beyond any material sum, short of a game won on the board).
TABLE_WIN = 50_000
#: Scores this close to TABLE_WIN come from the tables (their distances are under 256 plies).
TABLE_ZONE = 1000
