"""kbdraughts tune: the Texel fit finds known weights and judges itself on held-out games,
--write keeps the file's layout, games are a function of their number."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from kbdraughts.eval.heuristic import Heuristic, material, position_features
from kbdraughts.board import WHITE, legal_moves
from kbdraughts.cli import main
from kbdraughts.game import random_walk
from kbdraughts.eval.terms import POSITION_FEATURES, parse_terms
from kbdraughts.notation import fen
from kbdraughts.eval.shapes import parse_shapes
from kbdraughts.tune.fit import fit_named_first, fit_weights, loss, read_data, term_matrix
from kbdraughts.tune.games import Settings, play_game

TERMS = """# a test heuristic
value centre 0 per centre_men   # keep me
value tempo 0 per man_ranks
value blocked 0 per blocked_men when not endgame
pattern bridge 0 c1=w e1=w
"""
TRUE = {"centre": 30.0, "tempo": -8.0, "blocked": 15.0, "bridge": 40.0}
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


def _bridge(pos) -> int:
    """White's bridge (c1, e1) less Black's (f8, d8), straight from the squares."""
    men = pos.white & ~pos.kings, pos.black & ~pos.kings
    from kbdraughts.notation import parse_square
    has = [all(men[side] >> parse_square(sq) & 1 for sq in squares)
           for side, squares in ((0, ("c1", "e1")), (1, ("f8", "d8")))]
    return has[0] - has[1]


def _true_eval(pos) -> float:
    """White's view of material + the TRUE weights, computed straight from the features."""
    f = dict(zip(POSITION_FEATURES, position_features(pos)))
    sign = 1 if pos.side == WHITE else -1
    e = material(pos) + TRUE["centre"] * f["centre_men"] + TRUE["tempo"] * f["man_ranks"]
    if not f["endgame"]:
        e += TRUE["blocked"] * f["blocked_men"]
    return sign * e + TRUE["bridge"] * _bridge(pos)


def _data(positions, exact: bool, seed: int = 9):
    """(position, result, score, game): results drawn from the true model (or its exact
    probabilities), each position its own game."""
    rng = random.Random(seed)
    out = []
    for i, pos in enumerate(positions):
        p = 1 / (1 + math.exp(-K * _true_eval(pos)))
        out.append((pos, p if exact else float(rng.random() < p), math.nan, i))
    return out


def test_the_fit_lowers_the_held_out_loss_and_finds_the_true_weights():
    d = term_matrix(Heuristic(parse_terms(TERMS)), _data(_positions(2000), exact=False))
    fit = fit_weights(d, np.zeros(4), l2=0.0)
    assert fit.loss_after < fit.loss_before and fit.held_after < fit.held_before
    centre, tempo, blocked, bridge = fit.weights
    assert bridge > centre > blocked > 0 > tempo  # the true weights: 40, 30, 15, -8
    assert fit.held_positions == 200  # every tenth game


def test_the_fit_recovers_weights_from_exact_probabilities():
    d = term_matrix(Heuristic(parse_terms(TERMS)), _data(_positions(600), exact=True))
    fit = fit_weights(d, np.zeros(4), l2=0.0)
    assert abs(fit.k - K) < 0.001
    assert all(abs(w - t) <= 1.5 for w, t in zip(fit.weights, TRUE.values())), fit.weights


def test_fitted_to_the_search_scores_it_finds_the_weights_behind_them():
    # The scores a deeper search gave, here the true evaluation itself (for the side to
    # move, as the data files hold them); the results are noise the score target ignores.
    positions = _positions(600)
    rng = random.Random(3)
    data = [(p, float(rng.random() < 0.5), _true_eval(p) * (1 if p.side == WHITE else -1), i)
            for i, p in enumerate(positions)]
    d = term_matrix(Heuristic(parse_terms(TERMS)), data)
    fit = fit_weights(d, np.zeros(4), l2=0.0, target="score")
    assert all(abs(w - t) <= 2.0 for w, t in zip(fit.weights, TRUE.values())), fit.weights
    assert fit_weights(d, np.zeros(4), l2=0.0, target="result").weights[0] < 15  # noise


def test_the_pull_keeps_weights_the_data_barely_sees():
    d = term_matrix(Heuristic(parse_terms(TERMS)), _data(_positions(600), exact=True))
    free = fit_weights(d, np.zeros(4), l2=0.0).weights
    held = fit_weights(d, np.zeros(4), l2=1.0).weights
    assert np.sum(np.abs(held)) < np.sum(np.abs(free)) / 2


def test_fit_write_keeps_the_layout_and_notes_the_fit(tmp_path, capsys):
    data = tmp_path / "games.txt"
    data.write_text("# made by the test\n" + "".join(
        f"{fen(p)} {r:g} 0 {g}\n" for p, r, _, g in _data(_positions(1500), exact=False)),
        encoding="utf-8")
    h = tmp_path / "heuristic.txt"
    h.write_text(TERMS, encoding="utf-8")
    assert main(["tune", "fit", str(data), "--heuristic", str(h), "--write", "--l2", "0",
                 "--target", "result"]) == 0
    out = h.read_text(encoding="utf-8")
    assert "# keep me" in out and out.startswith("# a test heuristic\n# tune: weights fitted")
    assert "held out" in out.split("value centre")[0]
    fitted = {t.name: t.weight for t in parse_terms(out)}
    assert fitted["bridge"] > fitted["centre"] > 0 > fitted["tempo"]
    printed = capsys.readouterr().out
    assert "held out:" in printed and "wrote" in printed
    # A second fit replaces the first's note, it does not add one.
    assert main(["tune", "fit", str(data), "--heuristic", str(h), "--write", "--target",
                 "result"]) == 0
    assert h.read_text(encoding="utf-8").count("# tune: weights fitted") == 1


#: A region over the bridge's squares and d2 between them: its arrangements can say what the
#: named bridge says.
BRIDGE_REGION = "region home c1 d2 e1\n"


def test_named_first_gives_the_named_terms_what_they_say_and_the_regions_the_rest():
    data = _data(_positions(1500), exact=False)
    h = Heuristic(parse_terms(TERMS), parse_shapes(BRIDGE_REGION, "s.txt"))
    d = term_matrix(h, data)
    assert d.S is not None and d.S.shape[1] > 1
    w0 = np.zeros(4 + d.S.shape[1])
    first, second = fit_named_first(d, w0, l2=1e-3)
    alone = fit_weights(term_matrix(Heuristic(parse_terms(TERMS)), data), np.zeros(4), l2=1e-3)
    # Stage 1 is the fit without regions; stage 2 holds its named weights.
    assert np.array_equal(first.weights, alone.weights)
    assert np.array_equal(second.weights[:4], first.weights)
    assert second.held_after <= first.held_after + 1e-3
    # Fitted at once, the region takes a share of the bridge (40 in truth) from its name.
    joint = fit_weights(d, w0, l2=1e-3)
    bridge = first.weights[3]
    assert bridge > 20 and joint.weights[3] < 0.8 * bridge, (bridge, joint.weights[3])


def test_a_fit_is_a_function_of_its_data(tmp_path):
    data = tmp_path / "games.txt"
    data.write_text("".join(  # the scores: the true evaluation, for the side to move
        f"{fen(p)} {r:g} {_true_eval(p) * (1 if p.side == WHITE else -1):.0f} {g // 3}\n"
        for p, r, _, g in _data(_positions(900), exact=False)), encoding="utf-8")
    written = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        h, s = tmp_path / run / "heuristic.txt", tmp_path / run / "shapes.txt"
        h.write_text(TERMS, encoding="utf-8")
        s.write_text(BRIDGE_REGION, encoding="utf-8")
        assert main(["tune", "fit", str(data), "--heuristic", str(h), "--shapes", str(s),
                     "--write"]) == 0
        written.append((h.read_bytes(), s.read_bytes()))
    assert written[0] == written[1]
    assert b"(named-first)" in written[0][0] and b"  w.w" in written[0][1]


def test_a_bad_data_line_is_named_with_its_file_and_line(tmp_path, capsys):
    data = tmp_path / "games.txt"
    data.write_text("# header\nW:Wc3:Bd6 1 0 0\nW:Wc3:Bd6 2 0 1\n", encoding="utf-8")
    assert main(["tune", "fit", str(data)]) == 2
    assert f"{data}:3: error:" in capsys.readouterr().err
    assert main(["tune", "fit", str(tmp_path / "none.txt")]) == 2


def test_a_game_is_a_function_of_its_number(tmp_path):
    settings = Settings(depth=3, opening_plies=4, max_plies=40)
    first = play_game(settings, 3)
    assert first == play_game(settings, 3) and first != play_game(settings, 4)
    out = tmp_path / "d.txt"
    assert main(["tune", "games", "--out", str(out), "--games", "3", "--depth", "3",
                 "--jobs", "1"]) == 0
    rows = read_data(out)
    assert {g for *_, g in rows} <= {0, 1, 2} and all(r in (0, 0.5, 1) for _, r, _, _ in rows)
    # Cut short, it goes on at the next game number.
    assert main(["tune", "games", "--out", str(out), "--games", "2", "--depth", "3",
                 "--jobs", "2"]) == 0
    assert {g for *_, g in read_data(out)} <= {0, 1, 2, 3, 4}
    assert out.read_text(encoding="utf-8").count("# kbdraughts tune games") == 1


def test_games_on_a_ray_cluster_are_the_games_of_one_process(tmp_path):
    pytest.importorskip("ray")
    settings = Settings(depth=2, opening_plies=4, max_plies=30)
    from kbdraughts.tune.games import played_lines

    here = list(played_lines(settings, 10, jobs=1))
    there = list(played_lines(settings, 10, cluster="local"))
    assert there == here and len(here) == 10


def test_signed_keeps_each_named_weight_to_its_declared_sign_and_the_rest_free():
    data = _data(_positions(1500), exact=True)
    d = term_matrix(Heuristic(parse_terms(TERMS)), data)
    free, _ = fit_named_first(d, np.zeros(4), l2=1e-4)
    # tempo declared good (+) though the truth weighs it -8: held at 0, the others found
    signed, _ = fit_named_first(d, np.zeros(4), l2=1e-4, signs=(1, 1, 1, 1))
    assert free.weights[1] < -4
    assert signed.weights[1] == 0.0
    assert all(w > 0 for w in signed.weights[[0, 2, 3]])
    assert signed.held_after >= free.held_after  # the sign costs what the data wanted


def test_tune_fit_order_signed_reads_the_signs_from_the_file(tmp_path, capsys):
    heuristic = tmp_path / "heuristic.txt"
    heuristic.write_text(TERMS.replace("per man_ranks", "per man_ranks  # sign: +")
                         .replace("per centre_men", "per centre_men  # sign: +"),
                         encoding="utf-8")
    data = tmp_path / "games.txt"
    data.write_text("".join(f"{fen(p)} {r:g} {_true_eval(p) * (1 if p.side == WHITE else -1):.0f}"
                            f" {g}\n" for p, r, _, g in _data(_positions(900), exact=False)),
                    encoding="utf-8")
    args = ["tune", "fit", str(data), "--heuristic", str(heuristic)]
    assert main(args + ["--order", "named-first"]) == 0
    assert "against their declared signs: tempo -" in capsys.readouterr().out
    assert main(args + ["--order", "signed", "--write"]) == 0
    out = capsys.readouterr().out
    assert "against their declared signs" not in out and "(signed)" in out
    written = heuristic.read_text(encoding="utf-8")
    assert "value tempo 0 per man_ranks" in written and "(signed)" in written


def test_write_keeps_the_file_unless_the_held_out_loss_fell_or_it_is_forced(tmp_path, capsys):
    # the held-out games (every tenth) say the opposite of the others: what the fit learns
    # makes the held-out loss rise
    data = tmp_path / "games.txt"
    data.write_text("".join(f"{fen(p)} {1 - r if g % 10 == 0 else r:g} 0 {g}\n"
                            for p, r, _, g in _data(_positions(900), exact=False)),
                    encoding="utf-8")
    h = tmp_path / "heuristic.txt"
    h.write_text(TERMS, encoding="utf-8")
    args = ["tune", "fit", str(data), "--heuristic", str(h), "--target", "result", "--write"]
    assert main(args) == 0
    assert "did not fall" in capsys.readouterr().out
    assert h.read_text(encoding="utf-8") == TERMS
    assert main(args + ["--force"]) == 0  # forced, for a match to judge them
    assert "wrote" in capsys.readouterr().out
    assert {t.name: t.weight for t in parse_terms(h.read_text(encoding="utf-8"))}["bridge"] > 0
