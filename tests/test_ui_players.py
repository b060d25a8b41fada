"""The AI's seats off the UI thread: the build falls back to no knowledge base, and Ctrl-C
while the AI thinks always stops it (also when it comes while the spinner is drawn)."""

from __future__ import annotations

import threading

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.ui import players
from kbdraughts.ui.players import AIThread, LazyPlayer, think


class Broken:
    """A player whose knowledge base does not load (as with a bad rule file of the person's)."""

    class engine:
        @property
        def kb(self):
            raise ValueError("mine.txt:1: error: no position")

    engine = engine()


def test_a_build_that_cannot_load_the_kb_plays_without_it():
    built: list[PlayerSpec] = []

    def factory(spec: PlayerSpec):
        built.append(spec)
        return Broken() if spec.uses_kb else "plain"

    thread = AIThread()
    player = LazyPlayer(PlayerSpec.parse("kb:2:300ms"), factory, thread)
    thread.start()
    assert player.get() == "plain"
    assert [str(s) for s in built] == ["kb:2:300ms", "kb:2:nokb:300ms"]
    assert player.warning == "mine.txt:1: error: no position; the AI plays without its knowledge base"


def test_ctrl_c_while_the_spinner_is_drawn_stops_the_ai(monkeypatch):
    monkeypatch.setattr(players, "SPINNER_AFTER", 0.0)
    thread = AIThread()
    thread.start()
    frames: list[str] = []

    def spin(frame: int, text: str) -> None:
        frames.append(text)
        if frame == 0:
            raise KeyboardInterrupt  # Ctrl-C lands while the first frame is drawn

    def work(stop: threading.Event) -> str:
        stop.wait(10)
        return "best so far"

    assert think(thread, work, spin, "thinking") == ("best so far", True)
    assert frames[0] == "thinking"


def test_ai_factory_builds_from_the_spec(monkeypatch):
    import kbdraughts.match.players

    monkeypatch.setattr(kbdraughts.match.players, "make_player", lambda text: f"player {text}")
    assert players.ai_factory(PlayerSpec.parse("kb:1:nokb")) == "player kb:1:nokb"


def test_a_build_whose_kb_skipped_a_rule_says_so_in_one_line():
    from kbdraughts.kb.rules.rule import Diagnostic

    class Skipped:
        class engine:
            class kb:
                errors = [Diagnostic("mine.txt", 3, "error", "the board has 1 row"),
                          Diagnostic("mine.txt", 9, "error", "unknown symbol 'X'")]

    thread = AIThread()
    player = LazyPlayer(PlayerSpec.parse("kb:1"), lambda spec: Skipped(), thread)
    thread.start()
    assert isinstance(player.get(), Skipped)  # it plays with the rest of its knowledge base
    assert player.warning == (
        "the knowledge base skipped the rules with errors: mine.txt:3: error: the board has 1 "
        "row (and 1 more); the rest loaded ('kbdraughts rules check' lists every error)")
