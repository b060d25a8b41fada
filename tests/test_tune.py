"""tools/tune.py: the Texel fit finds known weights, --write keeps the file's layout."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path

from kbdraughts.ai.heuristic import Heuristic, material, position_features
from kbdraughts.board import WHITE, legal_moves
from kbdraughts.game import random_walk
from kbdraughts.kb.terms import POSITION_FEATURES, parse_terms
from kbdraughts.notation import fen

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("tune", ROOT / "tools" / "tune.py")
tune = importlib.util.module_from_spec(_spec)
sys.modules["tune"] = tune  # its dataclass looks its module up
_spec.loader.exec_module(tune)

TERMS = """# a test heuristic
value centre 0 per centre_men   # keep me
value tempo 0 per man_ranks
value blocked 0 per blocked_men when not endgame
"""
TRUE = {"centre": 30.0, "tempo": -8.0, "blocked": 15.0}
K = 0.01


def _positions(n: int) -> list:
    """Quiet positions at most a man apart (the terms, not only the material, decide)."""
    rng = random.Random(4)
    out = []
    while len(out) < n:
        pos = list(random_walk(rng, rng.randrange(6, 40)))[-1]
        if legal_moves(pos) and not legal_moves(pos)[0].captured and abs(material(pos)) <= 100:
            out.append(pos)
    return out


def _true_eval(pos) -> float:
    """White's view of material + the TRUE weights, computed straight from the features."""
    f = dict(zip(POSITION_FEATURES, position_features(pos)))
    e = material(pos) + TRUE["centre"] * f["centre_men"] + TRUE["tempo"] * f["man_ranks"]
    if not f["endgame"]:
        e += TRUE["blocked"] * f["blocked_men"]
    return e if pos.side == WHITE else -e


def test_the_fit_lowers_the_loss_and_finds_the_true_weights(tmp_path):
    positions = _positions(1500)
    # Results drawn from the true model: the fit must find its weights' signs and order.
    rng = random.Random(9)
    lines = []
    for pos in positions:
        p = 1 / (1 + math.exp(-K * _true_eval(pos)))
        lines.append(f"{fen(pos)} {1 if rng.random() < p else 0}")
    data = tmp_path / "games.txt"
    data.write_text("# made by the test\n" + "\n".join(lines) + "\n", encoding="utf-8")
    h = tmp_path / "heuristic.txt"
    h.write_text(TERMS, encoding="utf-8")
    d = tune.term_vectors(Heuristic.from_file(h), tune.read_data(data))
    start = [10.0, 10.0, 10.0]
    k0 = tune.fit_k(d, start)
    k, new = tune.fit_all(d, start)
    assert tune.loss(d, new, k) < tune.loss(d, start, k0)
    centre, tempo, blocked = new
    assert centre > blocked > 0 > tempo  # the true weights: 30, 15, -8
    assert 0.005 < k < 0.02  # the true K is 0.01


def test_the_fit_recovers_weights_from_exact_probabilities(tmp_path):
    # With the model's probabilities as results (no sampling noise) and K known, the
    # weights come back to within a point.
    positions = _positions(300)
    data = [(pos, 1 / (1 + math.exp(-K * _true_eval(pos)))) for pos in positions]
    h = Heuristic(parse_terms(TERMS))
    d = tune.term_vectors(h, data)
    new = tune.fit(d, [0.0, 0.0, 0.0], K)
    assert all(abs(w - t) <= 1.0 for w, t in zip(new, TRUE.values())), new
    assert abs(tune.fit_k(d, new) - K) < 0.001


def test_write_keeps_comments_and_layout_and_changes_the_numbers(tmp_path):
    path = tmp_path / "heuristic.txt"
    text = "# header\r\n" + TERMS.replace("value tempo 0", "value  tempo   0")
    path.write_bytes(text.encode("utf-8"))
    terms = parse_terms(text)
    out = tune.write_weights(text, terms, {"centre": 12.5, "tempo": -3.0, "blocked": 7.25})
    assert out == text.replace("centre 0", "centre 12.5").replace("tempo   0", "tempo   -3") \
        .replace("blocked 0", "blocked 7.25")
    assert [(t.name, t.weight) for t in parse_terms(out)] == [
        ("centre", 12.5), ("tempo", -3.0), ("blocked", 7.25)]


def test_fit_write_round_trips_a_file(tmp_path, capsys):
    positions = _positions(120)
    rng = random.Random(2)
    data = tmp_path / "games.txt"
    data.write_text("".join(f"{fen(p)} {rng.choice([0, 0.5, 1])}\n" for p in positions),
                    encoding="utf-8")
    h = tmp_path / "heuristic.txt"
    h.write_text(TERMS, encoding="utf-8")
    fitted = tune.run_fit(data, h, write=True)
    out = h.read_text(encoding="utf-8")
    assert "# keep me" in out and out.startswith("# a test heuristic\n")
    assert {t.name: t.weight for t in parse_terms(out)} == {
        n: float(tune.number(w)) for n, w in fitted.items()}
    assert "loss: old" in capsys.readouterr().out


def test_a_prior_keeps_the_weights_near_the_start():
    positions = _positions(300)
    data = [(pos, 1 / (1 + math.exp(-K * _true_eval(pos)))) for pos in positions]
    d = tune.term_vectors(Heuristic(parse_terms(TERMS)), data)
    free = tune.fit(d, [0.0, 0.0, 0.0], K)
    held = tune.fit(d, [0.0, 0.0, 0.0], K, prior=1.0)
    assert sum(abs(w) for w in held) < sum(abs(w) for w in free) / 2
    assert tune.loss(d, held, K) > tune.loss(d, free, K)
