"""The weighted simple move and the search's evaluation: features in Python, weights as data.

``combos/heuristic.txt`` holds the terms (see its header; the format and the pyDatalog question
"which terms apply" are in :mod:`kbdraughts.eval.terms`). The features that hold for a move or a
position make a *signature*; a game only ever meets a few dozen signatures, so each is asked
once and the answer cached: choosing a move costs feature arithmetic, not a Datalog query per
move. pyDatalog is first imported when a heuristic is first asked, so importing this module
and making an engine stay light. The position's features are computed in
:mod:`kbdraughts.eval.evaluation`; the evaluation is then material plus one dot product of the
features with the weights of the signature's terms. A move's ``eval_gain`` is what it gains in
that evaluation, so level 1's weighted move uses the tuned evaluation too.
"""

from __future__ import annotations

import warnings
from operator import mul
from pathlib import Path
from typing import Any, Sequence

from kbdraughts.eval.evaluation import (
    BACK_RANK, CENTRE, ENDGAME_PIECES, MEN_SUMS, OTHERS, men_sums, men_tables, other_features,
    position_features, white_features,
)
from kbdraughts.eval.features import MAX_CONDITIONS, PHASES
from kbdraughts.eval.move_features import BARRIERS, EDGE, ShotFn, barrier, move_features
from kbdraughts.eval.patterns import Masks, pattern_counts, pattern_masks
from kbdraughts.eval.regions import Compiled, compile_regions, region_hundredths, region_value
from kbdraughts.eval.shapes import Region, read_shapes
from kbdraughts.board import (
    BLACK, WHITE, Move, Position,
)
from kbdraughts.eval.terms import (  # the format's names, also importable from here
    EVAL_SCALE, KINDS, MOVE_FEATURES, POSITION_FEATURES, HeuristicFileError, Term, TermQuestion,
    hundredths, parse_terms, read_terms,
)
from kbdraughts.errors import KbdraughtsError
from kbdraughts.files import MAX_KEPT_BYTES, read_bounded
from kbdraughts.native import core as _core
from kbdraughts.resources import combos_dir, data_dir
from kbdraughts.values import KING_VALUE, MAN_VALUE

__all__ = [
    "Heuristic", "default_heuristic", "heuristic_path", "material", "move_features",
    "position_features", "barrier", "ShotFn", "BARRIERS", "CENTRE", "BACK_RANK", "EDGE",
    "ENDGAME_PIECES", "KINDS", "MOVE_FEATURES", "POSITION_FEATURES", "HeuristicFileError",
    "Term", "parse_terms", "NativeWarning", "MAX_NATIVE_CONDITIONS",
]


class NativeWarning(KbdraughtsError, UserWarning):
    """The search cannot run on the native core with this heuristic: ``str`` is
    ``path:line: warning: ...`` and says why (it runs on the pure-Python core, slower). A
    warning beside the package's base: where warnings are made errors, the base catches it."""


class Heuristic:
    """The terms of a heuristic file, ready to weigh moves and evaluate positions."""

    def __init__(self, terms: Sequence[Term], regions: Sequence[Region] = (),
                 shapes_path: str = "<shapes>", path: str = "<heuristic>"):
        self.terms = list(terms)
        self._by_name = {(t.kind, t.name): t for t in self.terms}
        # The shapes file's regions: asked which apply as the terms are (by their `when`).
        self.regions = list(regions)
        self._compiled = compile_regions(self.regions, shapes_path)
        self._question = TermQuestion(self.terms + [
            Term("region", r.name, 0.0, None, r.needs, r.line) for r in self.regions])
        self._region_rows: dict[int, tuple[bool, ...]] = {}
        self._cache: dict[tuple[str, int], tuple[tuple[str, float, int | None], ...]] = {}
        # The evaluation's signature needs only the features some value term's `when` names;
        # its answers are cached per signature as a constant and a weight per feature.
        self._conditioned = tuple(sorted({
            POSITION_FEATURES.index(f) for t in self.terms if t.kind in ("value", "pattern")
            for f, _ in t.needs} | {POSITION_FEATURES.index(f) for r in self.regions
                                    for f, _ in r.needs}))
        # The pattern terms, compiled to masks once; their weights per signature are asked
        # with the value terms'.
        self.patterns = [t for t in self.terms if t.kind == "pattern"]
        self._pattern_masks = tuple(pattern_masks(t.squares) for t in self.patterns)
        self._pattern_rows: dict[int, tuple[float, ...]] = {}
        self._pattern_cents: dict[int, tuple[int, ...]] = {}
        # The evaluation's rows in hundredths (EVAL_SCALE), whole numbers: its sums are exact.
        self._values: dict[int, tuple[int, tuple[int, ...], tuple[int, ...],
                                      tuple[int, ...]]] = {}
        # The quick evaluation's conditions (``_quickly``, and the native one's): (signature
        # bit, index in OTHERS + MEN_SUMS); the men sums are computed only when one is named
        # (the shipped file names only `endgame`).
        self._quick = tuple((1 << i, _CONDITION_INDEX[POSITION_FEATURES[i]])
                            for i in self._conditioned)
        self._quick_men = any(j >= len(OTHERS) for _, j in self._quick)
        self._quick_rows: dict[int, tuple[int, tuple[int, ...], tuple]] = {}
        self.warnings = self._native_warnings(path, shapes_path) if _core is not None else []
        for warning in self.warnings:
            warnings.warn(NativeWarning(warning), stacklevel=2)
        # The native core's evaluator (kbdraughts._core.Evaluator: a C type, no stubs), made on
        # first need.
        self._native: Any = None
        self._before: tuple[Position, float] | None = None
        self._uses_gain = any(t.kind == "weight" and (t.per == "eval_gain" or any(
            f == "eval_gain" for f, _ in t.needs)) for t in self.terms)

    @classmethod
    def from_file(cls, path: str | Path | None = None,
                  shapes: str | Path | None = None) -> "Heuristic":
        """The terms of a heuristic file and the regions of its shapes file (``shapes``, or
        ``shapes.txt`` beside it when there is one)."""
        p = Path(path) if path else heuristic_path()
        try:
            data = read_bounded(p, MAX_KEPT_BYTES)  # /dev/zero refused, never read to the end
        except OSError as e:
            raise HeuristicFileError(f"{p}:1: error: cannot read: {e.strerror}") from None
        shapes = Path(shapes) if shapes else p.with_name("shapes.txt")
        return cls(read_terms(data, str(p)), read_shapes(shapes), str(shapes), str(p))

    def _native_warnings(self, path: str, shapes_path: str) -> list[str]:
        """Why the native core cannot weigh these terms, at the line that makes it so: every
        feature runs natively, but its evaluator holds at most MAX_NATIVE_CONDITIONS
        features named in `when`s (2 ** that many rows)."""
        if len(self._quick) <= MAX_NATIVE_CONDITIONS:
            return []
        seen: set[str] = set()
        named = [(path, t.line, f) for t in self.terms if t.kind in ("value", "pattern")
                 for f, _ in t.needs] + [(shapes_path, r.line, f) for r in self.regions
                                         for f, _ in r.needs]
        for at in named:  # the first line that names one too many
            seen.add(at[2])
            if len(seen) > MAX_NATIVE_CONDITIONS:
                break
        where, line, feature = at
        return [f"{where}:{line}: warning: `when` names a {len(seen)}th feature ({feature}); "
                f"the native search weighs at most {MAX_NATIVE_CONDITIONS} features in "
                f"conditions ({len(self._quick)} are named), so the search runs on the "
                f"pure-Python core, slower"]

    def applicable(self, kind: str, signature: int) -> tuple[tuple[str, float, int | None], ...]:
        """(name, weight, index of its `per` feature) of the terms that apply, per pyDatalog."""
        key = (kind, signature)
        hit = self._cache.get(key)
        if hit is None:
            names = self._question.applicable(kind, signature)
            feats = KINDS[kind]
            hit = tuple(
                (n, self._by_name[kind, n].weight,
                 feats.index(p) if (p := self._by_name[kind, n].per) else None)
                for n in names
            )
            self._cache[key] = hit
        return hit

    def score(self, kind: str, values: Sequence[float]) -> tuple[float, list[tuple[str, float]]]:
        """The sum of the applicable terms for these feature values, and each term's share."""
        sig = 0
        for i, v in enumerate(values):
            if v:
                sig |= 1 << i
        total = 0.0
        parts = []
        for name, w, per in self.applicable(kind, sig):
            share = w * values[per] if per is not None else w
            if share:
                total += share
                parts.append((name, share))
        return total, parts

    def weigh(self, pos: Position, move: Move, memo: dict | None = None,
              shots: ShotFn | None = None) -> tuple[float, list[tuple[str, float]]]:
        """A quiet move's weight and its terms (for the mover); ``shots`` see move_features."""
        gain = None
        if self._uses_gain:
            last = self._before  # every move of one position shares its evaluation
            before = last[1] if last is not None and last[0] == pos else self.positional(pos)
            self._before = (pos, before)
            gain = lambda after: -self.positional(after) - before  # noqa: E731
        return self.score("weight", move_features(pos, move, memo, shots, gain))

    def evaluate(self, pos: Position) -> float:
        """A position's score for the side to move: material plus the `value` terms."""
        native = self._native
        if native is None and _core is not None:  # no method call per leaf on the pure path
            native = self.native_evaluator()
        return native.evaluate(pos) if native is not None else self._quickly(pos, 0)

    def shares(self, pos: Position) -> dict[str, float]:
        """What each term, pattern and region adds to the evaluation of ``pos``, for the side
        to move, by name (``region NAME`` for a region); the material apart, as
        ``material``. The explanations compare them between two lines' ends."""
        values = position_features(pos)
        sig = sum(1 << i for i, v in enumerate(values) if v)
        out = {"material": float(material(pos))}
        out.update(self.score("value", values)[1])
        sign = 1 if pos.side == WHITE else -1
        if self._pattern_masks:
            for t, w, n in zip(self.patterns, self._pattern_row(sig),
                               pattern_counts(pos, self._pattern_masks)):
                if w and n:
                    out[t.name] = out.get(t.name, 0.0) + sign * w * n
        for on, r in zip(self._region_row(sig), self._compiled):
            if on and (v := region_value(pos, r)):
                out[f"region {r.name}"] = sign * v
        return out

    def shapes_applying(self, pos: Position) -> tuple[
            list[tuple[Term, float, tuple[Masks, Masks]]], list[Compiled]]:
        """The pattern terms with their weight under ``pos``'s conditions (0 where a `when`
        fails) and their masks, and the compiled regions that apply in ``pos``: what
        ``shares`` weighs, for a finer breakdown (:mod:`kbdraughts.eval.ideas`)."""
        sig = sum(1 << i for i, v in enumerate(position_features(pos)) if v)
        patterns = list(zip(self.patterns, self._pattern_row(sig), self._pattern_masks))
        return patterns, [r for on, r in zip(self._region_row(sig), self._compiled) if on]

    def native_evaluator(self) -> Any:  # kbdraughts._core.Evaluator | None
        """The native core's evaluator of these terms (the same numbers as ``_quickly``), or
        None without the core or when the `when`s name more than MAX_NATIVE_CONDITIONS
        features (the loader warned). Its rows are every signature's, asked of pyDatalog
        once, here."""
        if (self._native is None and _core is not None
                and len(self._quick) <= MAX_NATIVE_CONDITIONS):
            rows, pattern_rows, region_rows = [], [], []
            for c in range(1 << len(self._quick)):
                sig = sum(bit for k, (bit, _) in enumerate(self._quick) if c >> k & 1)
                const, on_phase, (with_material, _) = self._quick_row(sig)
                white, black, weights = with_material
                rows.append((const, on_phase, white, black, weights))
                pattern_rows.append(self._pattern_hundredths(sig))
                region_rows.append(self._region_row(sig))
            # A pattern weighed 0 under every signature adds an exact 0: left out (the
            # shipped file has 6 of 10).
            live = [k for k in range(len(self.patterns)) if any(w[k] for w in pattern_rows)]
            self._native = _core.Evaluator(
                rows, [j for _, j in self._quick],
                patterns=[self._pattern_masks[k] for k in live],
                pattern_weights=[[w[k] for k in live] for w in pattern_rows],
                regions=[(r.white, r.black, r.hundredths) for r in self._compiled],
                region_rows=region_rows)
        return self._native

    def positional(self, pos: Position) -> float:
        """The `value` terms alone (the evaluation less the material), for the side to move."""
        return self._quickly(pos, 1)

    def _slowly(self, pos: Position, which: int) -> float:
        """``evaluate`` (``which`` 0) or ``positional`` (1) feature by feature: the reference
        the quick way is tested against (the same sum of hundredths in another order)."""
        values = white_features(pos)
        sig = 0
        for i in self._conditioned:
            if values[i]:
                sig |= 1 << i
        const, on_phase, with_material, without = self._value_row(sig)
        total = sum(map(mul, without if which else with_material, values))
        total = self._shapes(pos, sig, total)
        for w, i in zip(on_phase, _PHASE_FEATURES):
            const += w * values[i]
        return (const + (-total if pos.side else total)) / EVAL_SCALE

    def _quickly(self, pos: Position, which: int) -> float:
        """``evaluate`` (``which`` 0) or ``positional`` (1) the quick way, the same sum: the
        features that are sums over men weighed by four table look-ups a side (they are most
        of the features, and the leaves' most frequent work), the others one by one."""
        other = other_features(pos)
        named = other + men_sums(pos) if self._quick_men else other
        sig = 0
        for bit, j in self._quick:
            if named[j]:
                sig |= bit
        row = self._quick_rows.get(sig)
        if row is None:
            row = self._quick_rows[sig] = self._quick_row(sig)
        const, on_phase, rows = row
        (t0, t1, t2, t3), (u0, u1, u2, u3), weights = rows[which]
        white, black, kings, side = pos
        wm, bm = white & ~kings, black & ~kings
        total = (t0[wm & 511] + t1[wm >> 9 & 511] + t2[wm >> 18 & 511] + t3[wm >> 27]
                 - u0[bm & 511] - u1[bm >> 9 & 511] - u2[bm >> 18 & 511] - u3[bm >> 27]
                 + sum(map(mul, weights, other)))
        total = self._shapes(pos, sig, total)
        for w, j in zip(on_phase, _PHASE_OTHERS):  # the phases, the same for both sides
            const += w * other[j]
        return (const + (-total if side else total)) / EVAL_SCALE

    def _shapes(self, pos: Position, sig: int, total: int) -> int:
        """``total`` with the pattern terms and the regions added, White's view, in
        hundredths (whole numbers: the native evaluation adds the same in its own order)."""
        if self._pattern_masks:
            total += sum(map(mul, self._pattern_hundredths(sig),
                             pattern_counts(pos, self._pattern_masks)))
        if self._compiled:
            for on, r in zip(self._region_row(sig), self._compiled):
                if on:
                    total += region_hundredths(pos, r)
        return total

    def _region_row(self, sig: int) -> tuple[bool, ...]:
        """Which regions apply under ``sig``."""
        row = self._region_rows.get(sig)
        if row is None:
            on = set(self._question.applicable("region", sig)) if self.regions else set()
            row = self._region_rows[sig] = tuple(r.name in on for r in self.regions)
        return row

    def _pattern_row(self, sig: int) -> tuple[float, ...]:
        """The weight of each pattern term under ``sig`` (0 where its `when` fails)."""
        row = self._pattern_rows.get(sig)
        if row is None:
            weights = {name: w for name, w, _ in self.applicable("pattern", sig)}
            row = self._pattern_rows[sig] = tuple(weights.get(t.name, 0.0)
                                                  for t in self.patterns)
        return row

    def _pattern_hundredths(self, sig: int) -> tuple[int, ...]:
        """``_pattern_row`` in hundredths, the evaluation's."""
        row = self._pattern_cents.get(sig)
        if row is None:
            row = self._pattern_cents[sig] = tuple(map(hundredths, self._pattern_row(sig)))
        return row

    def _quick_row(self, sig: int) -> tuple[int, tuple[int, ...], tuple]:
        """The value row of ``sig`` as men tables per side and weights of OTHERS, with the
        material and without."""
        const, on_phase, with_material, without = self._value_row(sig)
        rows = []
        for weights in (with_material, without):
            men = tuple(weights[POSITION_FEATURES.index(f)] for f in MEN_SUMS)
            rows.append((men_tables(men, WHITE), men_tables(men, BLACK),
                         tuple(weights[POSITION_FEATURES.index(f)] for f in OTHERS)))
        return const, on_phase, tuple(rows)

    def _value_row(self, sig: int) -> tuple[int, tuple[int, ...], tuple[int, ...],
                                            tuple[int, ...]]:
        """The value terms applicable to ``sig`` folded into a constant, the weight of each
        phase (PHASES: the same for both sides) and a weight per other feature, with the
        material (men and kings at their values) and without, all in hundredths: one dot
        product, turned for Black. Asked once per signature."""
        row = self._values.get(sig)
        if row is not None:
            return row
        const = 0
        per_feature = [0] * len(POSITION_FEATURES)
        for _n, w, per in self.applicable("value", sig):
            if per is None:
                const += hundredths(w)
            else:
                per_feature[per] += hundredths(w)
        on_phase = tuple(per_feature[i] for i in _PHASE_FEATURES)
        for i in _PHASE_FEATURES:
            per_feature[i] = 0
        with_material = list(per_feature)
        with_material[_MEN] += MAN_VALUE * EVAL_SCALE
        with_material[_KINGS] += KING_VALUE * EVAL_SCALE
        row = self._values[sig] = (const, on_phase, tuple(with_material), tuple(per_feature))
        return row


#: The most features the `when`s may name for the native evaluator (the schema's; the C core's
#: MAX_EVAL_BITS is generated from it).
MAX_NATIVE_CONDITIONS = MAX_CONDITIONS
_MEN, _KINGS = POSITION_FEATURES.index("men"), POSITION_FEATURES.index("kings")
#: Where the phases stand in POSITION_FEATURES and in OTHERS.
_PHASE_FEATURES = tuple(POSITION_FEATURES.index(f) for f in PHASES)
_PHASE_OTHERS = tuple(OTHERS.index(f) for f in PHASES)
#: Where a feature named in a `when` stands among the quick evaluation's values: OTHERS,
#: then MEN_SUMS (the native evaluator's order too).
_CONDITION_INDEX = {f: j for j, f in enumerate(OTHERS + MEN_SUMS)}


def material(pos: Position) -> int:
    """Men and kings, ours minus theirs, from the side to move."""
    k = pos.kings
    w = (pos.white & ~k).bit_count() * MAN_VALUE + (pos.white & k).bit_count() * KING_VALUE
    b = (pos.black & ~k).bit_count() * MAN_VALUE + (pos.black & k).bit_count() * KING_VALUE
    return w - b if pos.side == WHITE else b - w


def heuristic_path() -> Path:
    """The user's ``data_dir()/combos/heuristic.txt`` when there is one (tuned weights), else
    the shipped ``combos/heuristic.txt``."""
    user = data_dir() / "combos" / "heuristic.txt"
    return user if user.is_file() else combos_dir() / "heuristic.txt"


_defaults: dict[Path, Heuristic] = {}


def shapes_path(heuristic: Path) -> Path:
    """The shapes file that goes with the AI's heuristic file: ``shapes.txt`` beside it, else
    the shipped one (a user's copy of heuristic.txt alone keeps the shipped regions)."""
    beside = heuristic.with_name("shapes.txt")
    return beside if beside.is_file() else combos_dir() / "shapes.txt"


def default_heuristic() -> Heuristic:
    """The heuristic of ``heuristic_path()``, loaded once per file."""
    path = heuristic_path()
    if path not in _defaults:
        _defaults[path] = Heuristic.from_file(path, shapes_path(path))
    return _defaults[path]
