"""The console game: a prompt_toolkit read-move loop (``kbdraughts play``).

One module per concern: ``session`` the state commands act on (the game, the seats as
``PlayerSpec`` values, the level, the autosave), ``commands`` the command registry and the
commands whole, ``app`` the read-move loop, ``launch`` starts a game from the command line's
options, ``render`` draws the board, ``style`` holds the colours, ``completer`` completes moves
and commands, ``toolbar`` builds the bottom bar, ``keys`` the key bindings, ``console`` the
terminal and plain-pipe I/O, ``players`` the AI's seats and thinking off the UI thread,
``autosave`` and ``teach`` the files written for the person, ``cli`` the ``play`` sub-command.
"""
