"""A Hub engine as a player: ``match`` and bench/ drive ``hub:PROGRAM ARGS`` as lidraughts-bot
would (Scan's protocol version 2).

The program is started at its first move, as a ``cmd:`` engine is
(:class:`kbdraughts.match.command_player.CommandPlayer`, whose process handling this shares):
``hub`` (its ``id`` and ``param`` lines until ``wait``), ``set-param name=variant
value=russian`` when it declares a variant, ``init`` until ``ready``. Each move: ``pos`` with
the game from its start, ``level move-time=S``, ``go think``; its ``done move=X`` is the move.
An ``error`` line, a move that is not legal, no answer in time or a program that ends is a
``PlayerFault``.
"""

from __future__ import annotations

import threading

from kbdraughts.ai.layers import Choice, LayerName
from kbdraughts.game import Game
from kbdraughts.match.command_player import CommandOptions, CommandPlayer, PlayerFault
from kbdraughts.match.hub import HubError, move_word, read_line, read_move, write_line, \
    write_position
from kbdraughts.notation import MoveError, move_text


class HubPlayer(CommandPlayer):
    """An external engine speaking the Hub protocol; ``command`` as for ``cmd:``."""

    def __init__(self, command: str, name: str, options: CommandOptions = CommandOptions()):
        super().__init__(command, name, options)
        self._greeted: object = None  # the process that has answered ``ready``
        self.said: list[str] = []  # the last move's info lines

    def choose(self, game: Game, stop: threading.Event | None = None) -> Choice | None:
        legal = game.legal_moves()
        if not legal:
            return None
        self._greet(stop)
        moves = " ".join(move_word(m) for m in game.moves)
        self._send(write_line("pos", pos=write_position(game.start), moves=moves))
        self._send(f"level move-time={self.options.hub_movetime_s:g}")
        self._send("go think")
        self.said = []
        while True:
            line = self._line(stop)
            if line is None:
                return None
            if line.command == "info":
                self.said.append(" ".join(f"{k}={v}" for k, v in line.args.items()))
            elif line.command == "done":
                break
        word = line.args.get("move", "")
        try:
            move = read_move(game.position, word, legal)
        except MoveError as e:
            raise PlayerFault(f"answered done move={word[:80]!r}: {str(e)[:200]}") from None
        why = f"{self.name}: {self.said[-1] if self.said else 'done move=' + word}"
        return Choice(move, LayerName.ENGINE, why, move_text(move))

    def _greet(self, stop: threading.Event | None) -> None:
        """``hub`` and ``init`` to a program that has not answered them (a new one)."""
        proc = self._process()
        if self._greeted is proc:
            return
        self._send("hub")
        variants = False
        while (line := self._line(stop, in_search=False)) is not None \
                and line.command != "wait":
            variants |= line.command == "param" and line.args.get("name") == "variant"
        if variants:
            self._send("set-param name=variant value=russian")
        self._send("init")
        while (line := self._line(stop, in_search=False)) is not None \
                and line.command != "ready":
            pass
        self._greeted = proc

    def _line(self, stop: threading.Event | None, in_search: bool = True):
        """The program's next line read; None when ``stop`` is set first (the search is
        stopped). PlayerFault for an ``error`` line during a search, or one not readable."""
        text = self._answer(stop)
        if text is None:
            return None
        try:
            line = read_line(text)
        except HubError as e:
            raise PlayerFault(f"wrote {text[:80]!r}: {e}") from None
        if line.command == "error" and in_search:
            raise PlayerFault(f"said error: {line.args.get('message', '')[:200]}")
        return line
