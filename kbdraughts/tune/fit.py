"""The Texel fit: every `value` and `pattern` weight of a heuristic file fitted at once to the
results of games, with a held-out set that judges it.

The evaluation is linear in its weights (material plus each applicable term's weight times its
feature), so each position's terms are computed once into a row of a matrix ``X`` (White's
view), and the fit is NumPy arithmetic. The loss is Texel's: the mean squared difference
between the game's result for White and ``sigmoid(K * evaluation)``. ``K`` is fitted first, to
the file's own weights (the material, whose values are fixed, sets the scale); then the
weights, by SciPy's L-BFGS-B with the exact gradient and an L2 pull back towards the file's
weights (``l2``: the loss that a whole man of change in one weight costs), so that a term the
data barely sees keeps its written weight.

The named knowledge is fitted first (:func:`fit_named_first`, the default): the `value` terms
and `pattern` shapes alone, as if there were no regions; then the regions, from nothing, on what
the named weights leave, those held. Fitted together (``joint``, the fit before issue 38) the
thousands of region weights took the ideas' meaning and left the named terms the residue: the
centre and the triangle came out at -5.58 and -6.61 a man, the opposite of the books.

Games whose number is a multiple of ``HOLD_OUT`` are held out: never fitted, only measured.
A fit is kept only if it lowers the held-out loss; its report says by how much.

>>> float(sigmoid(np.array([0.0]))[0])
0.5
"""

from __future__ import annotations

import math
from itertools import count
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
from scipy import sparse
from scipy.optimize import minimize, minimize_scalar

from kbdraughts.errors import KbdraughtsError
from kbdraughts.eval.patterns import pattern_counts
from kbdraughts.eval.heuristic import Heuristic, material, position_features
from kbdraughts.tune.shapes import region_columns
from kbdraughts.board import WHITE, Position
from kbdraughts.files import check_readable
from kbdraughts.notation import FenError, parse_fen

__all__ = ["Data", "DataError", "Fit", "read_data", "term_matrix", "fit_weights", "loss", "sigmoid",
           "HOLD_OUT", "fitted_terms", "ORDERS", "fit_named_first", "judged"]

#: One game in this many is held out.
HOLD_OUT = 10


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -500, 500)))


def fitted_terms(h: Heuristic) -> list:
    """The terms a fit weighs: every `value` and `pattern` term, in the file's order."""
    return [t for t in h.terms if t.kind in ("value", "pattern")]


@dataclass
class Data:
    """Positions as the fit sees them: per position the result for White, its search score
    for White, its game, its material for White; a column of ``X`` per term, and of the
    sparse ``S`` per region arrangement met (``regions``: each one's region and index)."""

    results: np.ndarray
    scores: np.ndarray
    games: np.ndarray
    base: np.ndarray
    X: np.ndarray
    S: sparse.csr_matrix | None = None
    regions: list[tuple[int, int]] = field(default_factory=list)
    region_start: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def split(self) -> tuple["Data", "Data"]:
        """(the positions to fit, the held-out ones): whole games apart."""
        held = self.games % HOLD_OUT == 0
        return self._rows(~held), self._rows(held)

    def _rows(self, mask: np.ndarray) -> "Data":
        return Data(self.results[mask], self.scores[mask], self.games[mask], self.base[mask],
                    self.X[mask], self.S[mask] if self.S is not None else None, self.regions,
                    self.region_start)

    @property
    def columns(self) -> int:
        return self.X.shape[1] + (self.S.shape[1] if self.S is not None else 0)

    def evaluate(self, w: np.ndarray) -> np.ndarray:
        """The evaluation for White of every position under weights ``w`` (terms, then the
        region arrangements)."""
        n = self.X.shape[1]
        e = self.base + self.X @ w[:n]
        return e + self.S @ w[n:] if self.S is not None else e

    def transposed(self, v: np.ndarray) -> np.ndarray:
        """``[X S].T @ v``: the gradient's product."""
        g = self.X.T @ v
        return np.concatenate([g, self.S.T @ v]) if self.S is not None else g


class DataError(KbdraughtsError, ValueError):
    """A line of a data file that cannot be read; ``str`` is ``path:line: error: ...``."""


#: The longest line of a data file read (a FEN of 32 pieces and three numbers is some 120
#: bytes): a longer one is no data line, and ``/dev/zero`` is no file of lines.
MAX_LINE = 4096


def read_data(path: Path, limit: int | None = None) -> list[tuple[Position, float, float, int]]:
    """The (position, result for White, score for the side to move, game) lines of a games
    file; an older file of ``FEN RESULT`` lines numbers its positions as games. A device is
    refused (OSError); each line is read to at most :data:`MAX_LINE` bytes."""
    out = []
    check_readable(path, fifo=True)  # streamed, each line capped: a pipe is read as it comes
    with path.open(encoding="utf-8", errors="replace") as f:
        for i in count(1):
            line = f.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                raise DataError(f"{path}:{i}: error: a line of more than {MAX_LINE} "
                                "characters: not a data file of 'tune games'")
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            try:
                out.append(_data_line(words, i))
            except (ValueError, FenError) as e:
                raise DataError(f"{path}:{i}: error: {e}") from None
            if limit is not None and len(out) >= limit:
                break
    return out


def _data_line(words: list[str], i: int) -> tuple[Position, float, float, int]:
    """One line's (position, result, score, game), or ValueError saying what is wrong."""
    if not 2 <= len(words) <= 4:
        raise ValueError(f"expected 'FEN RESULT [SCORE GAME]', got {len(words)} word"
                         f"{'s' * (len(words) != 1)}")
    try:
        result = float(words[1])
    except ValueError:
        result = math.nan
    if result not in (0.0, 0.5, 1.0):
        raise ValueError(f"the result {words[1][:20]!r} is not 1, 0.5 or 0")
    score = math.nan
    if len(words) > 2:
        try:
            score = float(words[2])
        except ValueError:
            score = math.inf
        if not abs(score) < MAX_SCORE:
            raise ValueError(f"the score {words[2][:20]!r} is not a number of hundredths of a "
                             f"man below {MAX_SCORE:,}")
    game = i
    if len(words) > 3:
        if not words[3].isdigit() or len(words[3]) > 12:
            raise ValueError(f"the game {words[3][:20]!r} is not a whole number")
        game = int(words[3])
    return parse_fen(words[0]), result, score, game


#: No search score is this large (a mate is 30,000): one that is comes from a broken file.
MAX_SCORE = 1_000_000


def term_matrix(h: Heuristic, data: Sequence[tuple[Position, float, float, int]]) -> Data:
    """The linear form of ``h``'s evaluation on ``data``, White's view, computed once."""
    terms = fitted_terms(h)
    column = {(t.kind, t.name): j for j, t in enumerate(terms)}
    patterns = [column["pattern", t.name] for t in h.patterns]
    masks = h._pattern_masks
    X = np.zeros((len(data), len(terms)))
    base, signs = np.empty(len(data)), np.empty(len(data))
    sigs = []  # each position's signature: the regions that apply are asked of it too
    for i, (pos, _r, _s, _g) in enumerate(data):
        signs[i] = sign = 1 if pos.side == WHITE else -1
        values = position_features(pos)
        # Only the features named in conditions decide which terms apply (as the quick
        # evaluation asks): a few signatures, each asked of pyDatalog once.
        sig = sum(1 << k for k in h._conditioned if values[k])
        sigs.append(sig)
        for name, _w, per in h.applicable("value", sig):
            X[i, column["value", name]] = sign * (values[per] if per is not None else 1)
        if masks:
            applies = {name for name, _w, _p in h.applicable("pattern", sig)}
            for t, j, n in zip(h.patterns, patterns, pattern_counts(pos, masks)):
                if n and t.name in applies:
                    X[i, j] = n  # pattern counts are White's view already
        base[i] = sign * material(pos)
    d = Data(np.array([r for _, r, _, _ in data]), signs * np.array([s for *_, s, _ in data]),
             np.array([g for *_, g in data]), base, X)
    if h.regions:
        in_force = np.array([h._region_row(sig) for sig in sigs], dtype=bool)
        d.S, d.regions, d.region_start = region_columns([p for p, *_ in data], h._compiled,
                                                        in_force)
    return d


def loss(d: Data, w: np.ndarray, k: float) -> float:
    """Texel's loss: the mean squared error of ``sigmoid(K * eval)`` against the results."""
    return float(np.mean((d.results - sigmoid(k * d.evaluate(w))) ** 2))


def fit_k(d: Data, w: np.ndarray) -> float:
    """The scale ``K`` that fits ``w``'s evaluation best to the results."""
    res = minimize_scalar(lambda lk: loss(d, w, math.exp(lk)), bounds=(-12, 0), method="bounded")
    return math.exp(res.x)


def judged(d: Data, w: np.ndarray) -> tuple[float, float]:
    """Texel's loss of ``w`` on ``d``'s training games and on its held-out ones, at the K that
    fits the training games best (as a fit's losses are measured)."""
    train, held = d.split()
    k = fit_k(train, w)
    return loss(train, w, k), loss(held, w, k)


@dataclass
class Fit:
    """A fit's outcome: the weights, K, and the losses that judge it."""

    weights: np.ndarray
    k: float
    loss_before: float
    loss_after: float
    held_before: float
    held_after: float
    positions: int
    held_positions: int


#: What the evaluation is fitted to: the game's result (Texel), the search's score at the
#: games' depth (so the evaluation learns what a deeper look sees), or the mean of the two.
TARGETS = ("result", "score", "both")


def targeted(d: Data, k: float, target: str) -> Data:
    """``d`` with its results replaced by the target the fit is to meet."""
    if target == "result":
        return d
    seen = sigmoid(k * np.nan_to_num(d.scores, nan=0.0))
    labels = seen if target == "score" else (d.results + seen) / 2
    if np.isnan(d.scores).any():
        raise ValueError("the data has no search scores: fit it to 'result'")
    return Data(labels, d.scores, d.games, d.base, d.X, d.S, d.regions, d.region_start)


def fit_weights(d: Data, w0: np.ndarray, l2: float = 1e-4, fixed: Iterable[int] = (),
                target: str = "result", k0: float | None = None,
                signs: Sequence[int] = ()) -> Fit:
    """Fit the weights and K together to ``target`` on ``d``'s training games, judged on its
    held-out ones by the results. ``fixed``: columns that keep their weight. ``k0``: the K
    that turns the scores into the target (default: ``w0``'s best). ``signs``: the first
    columns' signs (+1 kept at 0 or more, -1 at 0 or less, 0 free). The losses are Texel's on
    the results, each weights at its own best K."""
    train, held = d.split()
    if not len(train.results) or not len(held.results):
        games = len(np.unique(d.games))
        raise ValueError(f"{len(d.results)} positions of {games} game{'s' * (games != 1)}: a fit "
                         f"needs games to fit and games to hold out (every {HOLD_OUT}th): "
                         f"play more games, or read more positions (--limit)")
    kw = fit_k(train, w0)  # w0's own best K: its losses, and the fit's start
    goal = targeted(train, kw if k0 is None else k0, target)
    scale = 100.0  # weights are in hundredths of a man: the pull counts whole men
    free = np.ones(len(w0) + 1, dtype=bool)
    free[list(fixed)] = False

    def cost(x: np.ndarray) -> tuple[float, np.ndarray]:
        w, k = x[:-1], math.exp(x[-1])
        e = goal.evaluate(w)
        p = sigmoid(k * e)
        err = p - goal.results
        slope = (2.0 / len(p)) * err * p * (1.0 - p)
        pull = (w - w0) / scale
        grad = np.append(k * goal.transposed(slope) + 2.0 * l2 * pull / scale, k * (slope @ e))
        grad[~free] = 0.0
        return float(np.mean(err ** 2) + l2 * np.sum(pull ** 2)), grad

    # K is bounded, and the signed columns (a few named terms): a bound on each of the
    # thousands of region weights would make every L-BFGS-B step pay for its breakpoints.
    signed = np.zeros(len(w0))
    signed[:len(signs)] = signs
    lo, hi = np.where(signed > 0, 0.0, -np.inf), np.where(signed < 0, 0.0, np.inf)
    bounds = [(None if a == -np.inf else a, None if b == np.inf else b) for a, b in zip(lo, hi)]
    start = np.append(np.clip(w0.astype(float), lo, hi), math.log(kw))
    bounds.append((-12, 0))
    res = minimize(cost, start, jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 2000, "ftol": 1e-14, "gtol": 1e-12})
    w = np.where(free[:-1], res.x[:-1], w0)
    k = math.exp(res.x[-1]) if target == "result" else fit_k(train, w)
    return Fit(w, k, loss(train, w0, kw), loss(train, w, k), loss(held, w0, kw),
               loss(held, w, k), len(train.results), len(held.results))


#: The fit's order: the named terms and patterns first, then the regions on what they leave
#: (the default); the same with each named weight held to the sign its line declares; or
#: everything at once.
ORDERS = ("named-first", "signed", "joint")


def fit_named_first(d: Data, w0: np.ndarray, l2: float = 1e-4,
                    target: str = "result", signs: Sequence[int] = ()) -> tuple[Fit, Fit]:
    """(stage 1, stage 2): the `value` and `pattern` weights fitted alone, the regions left
    out, each within its sign in ``signs`` (:func:`fit_weights`); then the regions, from 0,
    on what stage 1 leaves, its weights held. Both follow the same target (the scores turned
    into probabilities by ``w0``'s K, as the joint fit's), so their losses and the joint fit's
    compare. Without regions, stage 2 is stage 1."""
    n = d.X.shape[1]
    k0 = fit_k(d.split()[0], w0) if target != "result" else None
    named = Data(d.results, d.scores, d.games, d.base, d.X)
    first = fit_weights(named, w0[:n], l2, target=target, k0=k0, signs=signs)
    if d.S is None:
        return first, first
    start = np.concatenate([first.weights, np.zeros(d.S.shape[1])])
    second = fit_weights(d, start, l2, fixed=range(n), target=target, k0=k0)
    return first, second
