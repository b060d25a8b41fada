"""Hub engines as players (``hub:PROGRAM ARGS``): kbdraughts itself over the protocol, and an
engine that answers nonsense."""

from __future__ import annotations

import os
import shlex
import sys

from kbdraughts.match.command_player import CommandOptions, PlayerFault
from kbdraughts.match.hub_player import HubPlayer
from kbdraughts.match.players import make_player
from kbdraughts.match.runner import play_game
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.game import Game

import pytest

HUB = shlex.quote(os.path.join(os.path.dirname(sys.executable), "kbdraughts")) + " hub"
FAST = CommandOptions(timeout_s=30, hub_movetime_s=0.05)


def test_kbdraughts_over_the_hub_protocol_plays_a_whole_game(endgame_tables):
    spec = PlayerSpec.parse(f"hub:{HUB} --level=2", external=True)
    player = make_player(spec, command=FAST)
    assert isinstance(player, HubPlayer) and str(spec).startswith("hub:")
    try:
        game, reason, illegal = play_game(player, make_player("random", seed=1), max_plies=200)
    finally:
        player.close()
    assert game.result is not None and not illegal, (reason, illegal)
    assert str(game.result).startswith("1-0") or "White" in str(game.result), game.result
    assert player.said and "time=" in player.said[-1]


def test_an_engine_that_answers_an_illegal_move_is_a_fault(tmp_path):
    path = tmp_path / "liar.py"
    path.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    say = {'hub': 'id name=liar\\nwait', 'init': 'ready', 'go': 'done move=1-5'}\n"
        "    if word in say: print(say[word], flush=True)\n", encoding="utf-8")
    player = HubPlayer(f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}", "liar", FAST)
    try:
        with pytest.raises(PlayerFault, match="done move='1-5'"):
            player.choose(Game())
    finally:
        player.close()
