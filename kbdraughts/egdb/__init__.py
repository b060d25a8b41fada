"""Endgame tables: every position of up to 5 pieces, its value for the side to move (win, loss,
draw, by the board) and its distance to conversion (plies to the next capture or crowning).

- :mod:`.index`: a position of a material as a number and back (no position stored);
- :mod:`.store`: a table and its file, checked whole before it is trusted;
- :mod:`.build`: building and checking a folder of tables, in dependency order (the C solves);
- :mod:`.reference`: the same tables in pure Python for up to 3 pieces, the tests' reference;
- :mod:`.check`: positions sampled from a table against an exhaustive search of their own (the
  C twin in ``csrc/egdb_check.c``);
- :mod:`.probe`: ``probe(pos) -> (value, distance) | None`` for the engine and the commands.

The draw rules of :mod:`kbdraughts.game` (15 moves for three kings against one, the king-only
and ending counters) are left to the caller, which knows the game's counters.
"""
