"""The console game: a prompt_toolkit read-move loop (``kbdraughts play``).

One module per concern: ``render`` draws the board, ``style`` holds the colours, ``completer``
completes moves and commands, ``toolbar`` builds the bottom bar, ``keys`` the key bindings,
``commands`` the command registry and handlers, ``console`` the terminal and plain-pipe I/O,
``players`` the seats (person or AI) and thinking off the UI thread, ``autosave`` and ``teach``
the files written for the person, ``app`` the loop that ties them together, ``cli`` the
``play`` sub-command.
"""
