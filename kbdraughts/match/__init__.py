"""Engines against each other: players built from specs, matches over processes, external
engines and the line protocol of ``kbdraughts bestmove``.

It sits above the move choice (:mod:`kbdraughts.ai`) and beside the coach; neither imports the
other. Import each part from its own module:

- ``players``: a player from a spec (``kb:4``, ``random``, ``greedy``, ``search:6``,
  ``cmd:PROGRAM ARGS``);
- ``runner``: games and matches, paired openings, colours swapped, over processes;
- ``command_player``: an external program as a player;
- ``line_protocol``: the game line in and the move line out of ``bestmove``.
"""
