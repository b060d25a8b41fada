"""``kbdraughts hub``: the wire (squares, positions, moves, lines) and the engine loop, driven in
process line by line: the dialogues of lidraughts-bot and pydraughts >= 0.6, bad input, stop,
ponder, and the same move as ``bestmove`` at a fixed depth."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading

import pytest

from kbdraughts.ai.tree import CHECK_MASK
from kbdraughts.board import START, legal_moves, play
from kbdraughts.game import Game
from kbdraughts.match.hub import (
    MIRRORED, STANDARD, HubError, move_word, read_game, read_line, read_move, read_position,
    write_line, write_position,
)
from kbdraughts.match.hub_engine import HubEngine
from kbdraughts.match.hub_params import PARAMS
from kbdraughts.notation import MoveError, fen, parse_fen, parse_move

START_HUB = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
#: Quiet middle games (bench/search.py's), none in the opening book.
MIDDLE = [line.split("#")[0].strip() for line in open("bench/data/middlegames.txt")
          if line.strip() and not line.startswith("#")][:6]


class Wire:
    """The engine's output as lines that can be waited for."""

    def __init__(self):
        self.lines: queue.Queue[str] = queue.Queue()
        self._part = ""

    def write(self, text: str) -> None:
        self._part += text
        *whole, self._part = self._part.split("\n")
        for line in whole:
            self.lines.put(line)

    def flush(self) -> None:
        pass

    def next(self, timeout: float = 30.0) -> str:
        return self.lines.get(timeout=timeout)

    def until(self, command: str, timeout: float = 30.0) -> list[str]:
        """The lines up to the first that starts with ``command``, that one included."""
        seen = []
        while not (seen and seen[-1].split(" ")[0] == command):
            seen.append(self.next(timeout))
        return seen

    def empty(self) -> bool:
        return self.lines.empty()


@pytest.fixture
def hub(endgame_tables):
    wire = Wire()
    engine = HubEngine(wire)
    yield engine, wire
    engine.stop()


def send(engine: HubEngine, *lines: str) -> None:
    for line in lines:
        assert engine.handle(line)


# -- the wire --------------------------------------------------------------------------------

def test_squares_as_lidraughts_and_pydraughts_06_number_them():
    pos = read_position(START_HUB)
    assert pos == START and write_position(pos) == START_HUB
    c3d4 = parse_move(START, "c3-d4")
    assert move_word(c3d4) == "22-18" and move_word(c3d4, MIRRORED) == "10-14"
    assert read_move(START, "10-14", legal_moves(START), MIRRORED) == c3d4
    # b6:d8:g5 takes c7 and f6, crowned on d8 mid-capture (the example)
    crowning = parse_fen("W:Wb6:Bc7,f6")
    move = parse_move(crowning, "b6:d8:g5")
    assert move.crowned and move_word(move) == "9x16x6x11"
    assert read_move(crowning, "9x16x11x6", legal_moves(crowning)) == move  # any order


def test_every_legal_move_reads_back_in_both_numberings():
    pos = START
    for ply in range(40):
        moves = legal_moves(pos)
        if not moves:
            break
        for m in moves:
            for numbering in (STANDARD, MIRRORED):
                assert read_move(pos, move_word(m, numbering), moves, numbering) == m
        pos = play(pos, moves[(7 * ply) % len(moves)])


@pytest.mark.parametrize("text, fault", [
    ("W" + "e" * 31, "32 of"), ("X" + "e" * 32, "W or B"), ("W" + "x" * 32, "32 of"),
    ("W" + "eeee" + "w" * 13 + "e" * 15, "at most 12"), ("W" + "w" + "e" * 31, "crowning"),
])
def test_bad_positions_are_refused(text, fault):
    with pytest.raises(HubError, match=fault):
        read_position(text)


def test_moves_that_cannot_be_played_name_the_legal_ones():
    with pytest.raises(MoveError, match="not a legal move here; legal: 22-17, 23-18"):
        read_move(START, "23-17", legal_moves(START))
    with pytest.raises(MoveError, match="not a Hub move"):
        read_move(START, "c3-d4", legal_moves(START))
    with pytest.raises(MoveError, match="does not exist"):
        read_move(START, "22-40", legal_moves(START))
    with pytest.raises(HubError, match="move 2 of moves"):
        read_game(START_HUB, "22-18 22-18")


def test_lines_read_back_what_was_written():
    args = {"message": 'an "odd" = text', "depth": "3", "pv": "", "flag": ""}
    line = read_line(write_line("info", **args))
    assert line.command == "info"
    assert line.args == {**args, "message": "an 'odd' = text"}
    with pytest.raises(HubError):
        read_line('pos pos="Wbb')


# -- the loop --------------------------------------------------------------------------------

def test_the_lidraughts_bot_dialogue_line_by_line(hub):
    engine, wire = hub
    send(engine, "hub")
    said = wire.until("wait")
    assert said[0].startswith("id name=kbdraughts")
    declared = {read_line(line).args["name"] for line in said if line.startswith("param")}
    assert declared == {p.name for p in PARAMS} and "variant" in declared
    send(engine, "set-param name=variant value=russian", "set-param name=initial-time value=180",
         "set-param name=level value=4", "init")
    assert wire.until("ready") == ["ready"]  # the unknown initial-time is ignored, no error
    game = Game()
    for ply in range(8):
        moves = " ".join(move_word(m) for m in game.moves)
        level = "level move-time=10" if ply < 2 else "level time=5.5 inc=0.5"
        send(engine, f'pos pos={START_HUB} moves="{moves}"', level, "go think")
        said = wire.until("done")
        assert all(line.startswith("info ") for line in said[:-1]), said
        done = read_line(said[-1]).args
        assert list(done)[0] == "move"  # lidraughts-bot reads move= first
        game.push(read_move(game.position, done["move"], game.legal_moves()))
        reply = game.legal_moves()[ply % len(game.legal_moves())]
        game.push(reply)
    # pondering: go ponder on the predicted reply, then ponder-hit, and a miss: stop
    moves = " ".join(move_word(m) for m in game.moves)
    send(engine, f'pos pos={START_HUB} moves="{moves}"', "level time=5 inc=0.5", "go ponder")
    assert wire.empty() or wire.until("info")  # no done before the hit
    send(engine, "ping")
    assert "pong" in wire.until("pong")
    send(engine, "ponder-hit")
    assert read_move(game.position, read_line(wire.until("done")[-1]).args["move"],
                     game.legal_moves())
    send(engine, f'pos pos={START_HUB} moves="{moves}"', "go ponder", "stop")
    assert wire.until("done")[-1].startswith("done move=")
    assert not engine.handle("quit")


def test_the_mirrored_numbering_of_pydraughts_06_by_its_recorded_dialogue(hub):
    """pydraughts 0.6.7 sent these lines for c3-d4 f6-e5 (pos= in lidraughts' numbers, the
    moves mirrored: 1 = a1); the answer is d4:f6 in its numbers, 14x23x19."""
    engine, wire = hub
    send(engine, "hub", "set-param name=numbering value=mirrored", "init")
    wire.until("ready")
    send(engine, f'pos pos={START_HUB} moves="10-14 23-19"', "level move-time=0.1", "go think")
    assert read_line(wire.until("done")[-1]).args["move"] == "14x23x19"
    send(engine, f'pos pos={START_HUB} moves="22-18 11-15"', "go think")
    assert wire.until("error")[-1].startswith('error message="move 1 of moves')


@pytest.mark.parametrize("line, fault", [
    ("fly", "unknown command"), ("pos pos=Wbbb", "a position is"),
    (f'pos pos={START_HUB} moves="22-18 18-14"', "move 2 of moves"),
    ("pos pos=W" + "eeee" + "w" * 13 + "e" * 15, "at most 12"),
    ("set-param name=level value=9", "level must be"), ("set-param name=kb", "needs"),
    ("level", "level needs"), ("level move-time=-1", "move-time must be"),
    ("go fast", "go needs"), ('pos pos="W', "cannot read"), ("go think", "without a position"),
])
def test_bad_input_gets_an_error_line_and_the_engine_goes_on(hub, line, fault):
    engine, wire = hub
    send(engine, "hub", "init")
    wire.until("ready")
    send(engine, line, "ping")
    said = wire.until("pong")
    assert len(said) == 2 and said[0].startswith("error message=") and fault in said[0], said


def test_stop_ends_an_infinite_analysis_with_its_move(hub):
    engine, wire = hub
    send(engine, "hub", "init")
    wire.until("ready")
    pos = parse_fen(MIDDLE[0])
    send(engine, f"pos pos={write_position(pos)}", "level infinite", "go analyze")
    first = read_line(wire.until("info")[-1]).args
    assert int(first["depth"]) >= 1 and "pv" in first and "score" in first
    send(engine, "level move-time=1")  # refused while it analyses
    assert "while searching" in wire.until("error")[-1]
    send(engine, "stop")
    move = read_line(wire.until("done")[-1]).args["move"]
    assert read_move(pos, move, legal_moves(pos))


@pytest.mark.parametrize("fen_text", [
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",  # the book answers
    "W:Wc3:Bd4,h8",  # one legal move (the capture): no forced move answers an analysis
])
def test_analyze_searches_the_position_itself(hub, fen_text):
    engine, wire = hub
    send(engine, "hub", "set-param name=egdb-pieces value=0", "init")
    wire.until("ready")
    pos = parse_fen(fen_text)
    send(engine, f"pos pos={write_position(pos)}", "level depth=3", "go analyze")
    said = wire.until("done")
    depths = [int(read_line(x).args["depth"]) for x in said if x.startswith("info")]
    assert depths == [1, 2, 3], said
    assert read_move(pos, read_line(said[-1]).args["move"], legal_moves(pos))


def test_analyze_searches_without_contempt_where_play_has_it(hub):
    engine, wire = hub
    send(engine, "hub", "set-param name=egdb-pieces value=0", "init")
    wire.until("ready")
    searcher = engine.engine.searcher
    asked, search = [], searcher.search
    searcher.search = lambda *a, **k: asked.append(k.get("contempt")) or search(*a, **k)
    for mode in ("think", "analyze"):
        send(engine, f"pos pos={write_position(parse_fen(MIDDLE[2]))}", "level depth=2",
             f"go {mode}")
        wire.until("done")
        asked.append(mode)
    think = asked[:asked.index("think")]
    analyze = asked[asked.index("think") + 1:asked.index("analyze")]
    assert True in think and analyze and True not in analyze, asked


def test_info_lines_read_as_lidraughts_reads_scan_s():
    """lidraughts' own Scan client reads ``info`` with one pattern, keys in Scan's order."""
    import re

    scan_info = re.compile(r'^info depth=(\d+) mean-depth=\S+ score=(\S+) nodes=(\d+) '
                           r'time=(\S+) (?:nps=\S+ )?pv="?(.+)"?')
    wire = Wire()
    engine = HubEngine(wire)
    try:
        send(engine, "hub", "set-param name=egdb-pieces value=0", "init")
        wire.until("ready")
        pos = parse_fen(MIDDLE[3])
        send(engine, f"pos pos={write_position(pos)}", "level depth=6", "go analyze")
        infos = [x for x in wire.until("done") if x.startswith("info")]
    finally:
        engine.stop()
    assert len(infos) == 6 and all(scan_info.match(x) for x in infos), infos
    last = read_line(infos[-1]).args
    assert 3 < float(last["mean-depth"]) < 12, last  # about the depth: reduced, extended


def test_nodes_and_depth_bound_the_search(hub):
    engine, wire = hub
    send(engine, "hub", "init")
    wire.until("ready")
    send(engine, f"pos pos={write_position(parse_fen(MIDDLE[1]))}", "level depth=3",
         "go think")
    infos = [read_line(x).args for x in wire.until("done")[:-1]]
    assert int(infos[-1]["depth"]) == 3
    send(engine, "new-game", "level nodes=3000", "go think")
    infos = [read_line(x).args for x in wire.until("done")[:-1]]
    depths = [int(i["depth"]) for i in infos]  # the last, cut short, may repeat its depth
    assert depths[:-1] == list(range(1, len(infos))) and depths[-1] - depths[-2] in (0, 1)
    # The search's since go: the last depth is given what is left, so it stops at the sum,
    # within a tick of the clock (no overshoot by a whole depth).
    assert int(infos[-2]["nodes"]) < 3000 <= int(infos[-1]["nodes"]) <= 3000 + CHECK_MASK + 1


def test_a_node_budget_gives_the_same_move_and_line_at_any_speed(hub):
    """`level nodes=N` depends on no clock: the same position searched twice, the second time
    beside a thread that keeps the processor busy, gives the same depth, nodes, score and line."""
    engine, wire = hub
    send(engine, "hub", "init")
    wire.until("ready")
    answers = []
    for busy in (False, True):
        stop = threading.Event()
        if busy:
            threading.Thread(target=lambda: [None for _ in iter(stop.is_set, True)],
                             daemon=True).start()
        send(engine, "new-game", f"pos pos={write_position(parse_fen(MIDDLE[2]))}",
             "level nodes=20000", "go think")
        lines = wire.until("done")
        stop.set()
        infos = [read_line(x).args for x in lines[:-1]]
        answers.append(([(i["depth"], i["nodes"], i["score"], i["pv"]) for i in infos],
                        lines[-1]))
    assert answers[0] == answers[1]
    assert int(answers[0][0][-1][1]) <= 20000 + CHECK_MASK + 1


def test_the_same_moves_as_bestmove_at_a_fixed_depth(hub):
    """bestmove --level 2 (4 plies) and --level 3 (8 plies), and the Hub engine at the same
    levels with `level depth=4` and a time that bounds nothing, on the same positions."""
    engine, wire = hub
    send(engine, "hub", "init")
    wire.until("ready")
    for level, limit in (("2", "level depth=4"), ("3", "level move-time=60")):
        answered = subprocess.run(
            [sys.executable, "-m", "kbdraughts", "bestmove", "--level", level, "--movetime",
             "60000"], input="\n".join(MIDDLE) + "\n", capture_output=True, text=True,
            check=True).stdout.split()
        send(engine, f"set-param name=level value={level}", "init")
        wire.until("ready")
        for text, theirs in zip(MIDDLE, answered, strict=True):
            pos = parse_fen(text)
            send(engine, f"pos pos={write_position(pos)}", limit, "go think")
            move = read_move(pos, read_line(wire.until("done")[-1]).args["move"],
                             legal_moves(pos))
            assert move == parse_move(pos, theirs), (level, text)


def test_the_position_reached_by_moves_keeps_its_history():
    """Kings shuffling: the game the moves make sees the repetitions, as the console's does
    (the third time, a draw); a list that goes on past it is played on from there (the
    client keeps its own rules)."""
    kings = "W" + "B" + "e" * 27 + "W" + "eee"  # White's king a1, Black's b8
    shuffle = "29-25 1-5 25-29 5-1 " * 2
    game = read_game(kings, shuffle.strip())
    assert game.repetitions() == 3 and game.result is not None
    assert fen(game.position) == fen(read_position(kings))
    on = read_game(kings, shuffle + "29-25")
    assert on.ply == 1 and fen(on.position) == fen(play(read_position(kings), on.moves[0]))


def test_the_command_line_offers_every_parameter():
    from kbdraughts.cli.hub import PARAM_HINTS
    assert list(PARAM_HINTS) == [p.name for p in PARAMS]


def test_two_hub_engines_keep_their_own_tables_settings(endgame_tables, tmp_path):
    """Issue 37: ``egdb-folder`` and ``egdb-pieces`` make the engine's own tables; they once
    replaced the process's default, so a second Hub engine changed the first one's tables."""
    from kbdraughts.egdb import probe
    from kbdraughts.match.hub_params import Params

    assert probe._default is None  # the fixture's fresh default, not made yet
    engines = []
    for folder, pieces in ((endgame_tables, "4"), (tmp_path, "2")):
        params = Params()
        for name, value in (("level", "2"), ("kb", "false"), ("egdb-folder", str(folder)),
                            ("egdb-pieces", pieces)):
            params.set(name, value)
        engines.append(params.engine())
    first, second = engines
    second.tables.wait()  # the 2-piece tables it builds in its empty folder
    assert (first.tables.folder, first.tables.auto_pieces) == (endgame_tables, 4)
    assert (second.tables.folder, second.tables.auto_pieces) == (tmp_path, 2)
    won = Game(parse_fen("W:WKa1,Kc1,Ke1:BKd8"))  # 4 pieces: the first's tables reach it
    assert first.choose(won).layer == "endgame database"
    assert second.choose(won).layer == "search"
    assert probe._default is None  # neither made nor replaced the process's default
