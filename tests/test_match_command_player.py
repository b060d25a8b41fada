"""External engines as players (``cmd:PROGRAM ARGS``): the line protocol, faults, restarts."""

from __future__ import annotations

import shlex
import sys
import time

import pytest

from kbdraughts.match.command_player import CommandOptions, CommandPlayer, PlayerFault
from kbdraughts.match.runner import Tally, play_game, run_game
from kbdraughts.match.players import make_player
from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.game import Game
from kbdraughts.notation import fen

PY = shlex.quote(sys.executable)
KB_ENGINE = f"{PY} -m kbdraughts.cli bestmove --level 1 --no-kb"


def script(tmp_path, name: str, body: str) -> str:
    """A tiny engine written to ``tmp_path``, as the command that runs it."""
    path = tmp_path / name
    path.write_text("import sys\n" + body, encoding="utf-8")
    return f"{PY} {shlex.quote(str(path))}"


#: An engine that writes down each line it is sent and answers the first legal move.
ECHO = """
from kbdraughts.match.line_protocol import read_game_line
from kbdraughts.notation import move_text
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line); log.flush()
    moves = read_game_line(line).legal_moves()
    print(move_text(moves[0]) + "  # the first" if moves else "none", flush=True)
"""


def test_a_match_against_kbdraughts_bestmove_completes_without_an_illegal_move():
    t = Tally()
    for i in range(2):
        rec = run_game(("kb:1:nokb", f"cmd:{KB_ENGINE}", i, 1, 300))
        assert rec.illegal == "" and rec.reason != "illegal move"
        t.add(rec)
        assert rec.turns[0] > 0 and rec.turns[1] > 0 and all(s > 0 for s in rec.seconds)
    assert t.games == 2 and t.turns[1] > 0 and t.seconds[1] > 0
    assert t.time_line("A", "B").startswith("time: A ")


def test_the_engine_is_sent_the_game_so_far_or_the_fen(tmp_path):
    log = tmp_path / "sent.txt"
    command = script(tmp_path, "echo.py", ECHO) + " " + shlex.quote(str(log))
    player = CommandPlayer(command, "echo")
    game = Game()
    try:
        for _ in range(3):
            choice = player.choose(game)
            game.push(choice.move)
        proc = player._proc
        player.choose(game)
        assert player._proc is proc  # one program for the game, kept between moves
    finally:
        player.close()
    sent = log.read_text().splitlines()
    start = fen(Game().position)
    assert sent[0] == start
    assert sent[3].startswith(start + " moves ") and len(sent[3].split()) == 5
    plain = CommandPlayer(command, "echo", CommandOptions(history=False))
    try:
        plain.choose(game)
    finally:
        plain.close()
    assert log.read_text().splitlines()[-1] == fen(game.position)


def test_garbage_is_an_illegal_move(tmp_path):
    command = script(tmp_path, "garbage.py", "for line in sys.stdin:\n"
                     "    print('hello there', flush=True)\n")
    game, reason, illegal = play_game(make_player("random", 1),
                                      make_player(PlayerSpec.parse(f"cmd:{command}",
                                                                   external=True)))
    assert reason == "illegal move" and game.result.winner == 0
    assert "answered 'hello there'" in illegal and illegal.startswith("cmd:")


def test_an_engine_that_ends_is_reported_not_waited_for(tmp_path):
    command = script(tmp_path, "quits.py", "sys.stdin.readline()\n"
                     "print('I give up', file=sys.stderr)\nsys.exit(3)\n")
    player = CommandPlayer(command, "quits", CommandOptions(timeout_s=30))
    started = time.perf_counter()
    with pytest.raises(PlayerFault, match=r"ended with status 3 .*I give up"):
        player.choose(Game())
    assert time.perf_counter() - started < 10
    with pytest.raises(PlayerFault, match="ended with status 3"):
        player.choose(Game())  # started again, and it ends again
    player.close()


def test_an_engine_too_slow_is_stopped(tmp_path):
    command = script(tmp_path, "sleeps.py", "import time\nsys.stdin.readline()\n"
                     "time.sleep(60)\n")
    player = CommandPlayer(command, "sleeps", CommandOptions(timeout_s=0.5))
    started = time.perf_counter()
    with pytest.raises(PlayerFault, match=r"no answer within 0.5 s"):
        player.choose(Game())
    assert time.perf_counter() - started < 10 and player._proc is None


def test_a_missing_program_is_a_fault():
    player = CommandPlayer("/no/such/engine --x", "none")
    with pytest.raises(PlayerFault, match="cannot start '/no/such/engine'"):
        player.choose(Game())


def test_none_is_no_move(tmp_path):
    command = script(tmp_path, "none.py", "for line in sys.stdin:\n    print('none', flush=True)\n")
    player = CommandPlayer(command, "none")
    try:
        assert player.choose(Game()) is None
    finally:
        player.close()


def test_a_flooding_engine_is_read_in_bounded_lines_and_a_bounded_queue(tmp_path):
    """One line without end, then lines without end: the first answer is a fault (the line is
    too long), the reader holds at most MAX_QUEUED_LINES lines (the pipe stops the engine),
    and the engine is stopped when the player closes."""
    import resource

    from kbdraughts.match.command_player import MAX_LINE_BYTES, MAX_QUEUED_LINES

    flood = script(tmp_path, "flood.py", "sys.stdin.readline()\n"
                   "sys.stdout.write('x' * 3_000_000 + '\\n')\n"
                   "while True:\n    sys.stdout.write('y' * 1000 + '\\n')\n")
    player = CommandPlayer(flood, "flood")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with pytest.raises(PlayerFault, match=f"more than {MAX_LINE_BYTES:,} bytes"):
            player.choose(Game())
        time.sleep(0.5)  # it floods on: the queue stays full, the engine waits on the pipe
        assert player._lines.qsize() <= MAX_QUEUED_LINES
        assert player._proc is not None and player._proc.poll() is None
    finally:
        player.close()
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 50_000  # not the 857 MB of an unbounded reader


def test_the_engines_own_children_end_with_it(tmp_path):
    """An engine that starts a process of its own: closing the player ends both (they share
    the engine's process group)."""
    import os

    pid_file = tmp_path / "child.pid"
    engine = script(tmp_path, "parent.py", "import subprocess\n"
                    "child = subprocess.Popen([sys.executable, '-c', 'import time; "
                    "time.sleep(600)'])\n"
                    f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
                    "for line in sys.stdin:\n    print('none', flush=True)\n")
    player = CommandPlayer(engine, "parent")
    assert player.choose(Game()) is None  # it answered 'none'
    child = int(pid_file.read_text())
    os.kill(child, 0)  # running
    player.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        try:  # a zombie until its parent (ended) is reaped by init: that counts as ended
            with open(f"/proc/{child}/stat") as f:
                if f.read().split(") ")[1].startswith("Z"):
                    break
        except OSError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the engine's child is still running after the match")


def test_what_an_engine_says_on_stderr_is_kept_short(tmp_path):
    """An engine that floods stderr, then answers nonsense: the fault quotes the last line it
    said, cut short, and its answer cut short; nothing of it is kept but the last 4,000 bytes."""
    loud = script(tmp_path, "loud.py", "sys.stdin.readline()\n"
                  "for _ in range(2000):\n    sys.stderr.write('noise ' * 500 + '\\n')\n"
                  "sys.stderr.write('the last word ' * 40 + '\\n'); sys.stderr.flush()\n"
                  "print('z' * 5000, flush=True)\nsys.stdin.readline()\n")
    player = CommandPlayer(loud, "loud")
    try:
        with pytest.raises(PlayerFault) as e:
            player.choose(Game())
        assert player._stderr is not None and len(player._stderr._data) <= 4000
    finally:
        player.close()
    message = str(e.value)
    assert message.startswith("answered 'zzzz") and "...'" in message and len(message) < 600
    assert "(it said: the last word the last word" in message or "(it said" not in message
