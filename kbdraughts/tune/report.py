"""``kbdraughts tune fit``: a heuristic file fitted to data files, the fit reported term by
term, and with ``write`` the weights put back with what they were fitted on."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Sequence

import numpy as np

from kbdraughts.errors import KbdraughtsError
from kbdraughts.eval.heuristic import Heuristic, HeuristicFileError, heuristic_path, shapes_path
from kbdraughts.files import MAX_KEPT_BYTES, decode_text, read_bounded, write_atomic_all
from kbdraughts.tune.fit import (Data, DataError, Fit, fit_named_first, fit_weights, fitted_terms,
                                 judged, read_data, term_matrix)
from kbdraughts.tune.shapes import shapes_text
from kbdraughts.tune.signs import declared_signs
from kbdraughts.tune.write import NOTE, number, with_note, with_weights

__all__ = ["fit_file", "note_lines", "FitError"]


class FitError(KbdraughtsError, ValueError):
    """What keeps a fit from starting (a file, a line); ``str`` says it for a person."""

#: Game numbers of the second data file start here, and so on: games of two files never meet.
GAMES_APART = 10_000_000


def fit_file(paths: Sequence[Path], heuristic: Path | None, l2: float, limit: int | None,
             write: bool, shapes: Path | None = None, target: str = "score",
             order: str = "named-first", force: bool = False) -> Fit:
    """Fit, print, maybe write (when the held-out loss fell, or ``force``d: for a match to
    judge weights the loss does not prefer); FitError when the files cannot be read."""
    path = heuristic or heuristic_path()
    if shapes is None and heuristic is None:
        shapes = shapes_path(path)
    h, data = _read(path, shapes, paths, limit)
    terms = fitted_terms(h)
    if not data or not terms:
        raise FitError("nothing to fit (no positions, or no value or pattern term)")
    d = term_matrix(h, data)
    w0 = np.concatenate([[t.weight for t in terms], d.region_start])
    try:
        fit = _fitted(d, w0, l2, target, order, _signs(path, terms) if order == "signed" else ())
    except ValueError as e:
        raise FitError(str(e)) from None
    print(f"loss: {fit.loss_before:.6f} -> {fit.loss_after:.6f}; held out: "
          f"{fit.held_before:.6f} -> {fit.held_after:.6f}")
    seen = (d.X != 0).sum(axis=0)
    for t, a, b, n in zip(terms, w0, fit.weights, seen):
        print(f"  {t.kind:7s} {t.name:22s} {number(a):>8s} -> {number(b):>8s}   ({n} positions)")
    if d.regions:
        print(f"  {len(h.regions)} regions: {len(d.regions)} arrangements met, the largest "
              f"weight {number(float(np.max(np.abs(fit.weights[len(terms):]))))}")
    _against_signs(path, terms, fit.weights)
    if not write:
        return fit
    if fit.held_after >= fit.held_before and not force:
        print("the held-out loss did not fall: the file is left as it was")
        return fit
    _write_fit(fit, h, d, terms, path, shapes, note_lines(fit, paths, l2, target, order))
    return fit


def _against_signs(path: Path, terms: list, weights: np.ndarray) -> None:
    """The fitted weights against the signs their lines declare (``# sign: +``): each one
    that disagrees wants a measured ``why not:`` in its comment (tests/test_heuristic_signs)."""
    against = [f"{t.name} {number(w)}" for t, w, s in zip(terms, weights, _signs(path, terms))
               if w * s < 0]
    if against:
        print(f"against their declared signs: {', '.join(against)}")


def _read(path: Path, shapes: Path | None, paths: Sequence[Path], limit: int | None
          ) -> tuple[Heuristic, list]:
    """The heuristic and the positions of every data file, or FitError saying why not."""
    try:
        h = Heuristic.from_file(path, shapes)
        data = []
        for k, p in enumerate(paths):
            data += [(pos, r, s, g + k * GAMES_APART) for pos, r, s, g in read_data(p, limit)]
    except (HeuristicFileError, DataError) as e:
        raise FitError(str(e)) from None
    except OSError as e:
        raise FitError(f"{e.filename}: {e.strerror}") from None
    return h, data


def _signs(path: Path, terms: list) -> list[int]:
    """Each fitted term's declared sign (``# sign: +`` 1, ``-`` -1, none 0), in order."""
    sign = {d.name: d.sign for d in declared_signs(decode_text(read_bounded(path, MAX_KEPT_BYTES),
                                                               path))}
    return [sign.get(t.name, 0) for t in terms]


def _fitted(d: Data, w0: np.ndarray, l2: float, target: str, order: str,
            signs: Sequence[int] = ()) -> Fit:
    """The fit in ``order``, its stages' losses printed; its losses before are the file's
    weights' whatever the order (the named-first stages start from other weights)."""
    if order == "joint":
        fit = fit_weights(d, w0, l2, target=target)
    else:
        first, second = fit_named_first(d, w0, l2, target=target, signs=signs)
        before, held_before = judged(d, w0)
        fit = replace(second, loss_before=before, held_before=held_before)
    print(f"{fit.positions} positions fitted to the {target}s ({order}), {fit.held_positions} "
          f"held out (every tenth game); K = {fit.k:.5f}")
    if order != "joint":
        print(f"held out: the file's weights {held_before:.6f}; stage 1, the named terms and "
              f"patterns alone (no regions) {first.held_after:.6f}; stage 2, the regions on "
              f"what they leave {second.held_after:.6f}")
    return fit


def _write_fit(fit: Fit, h: Heuristic, d: Data, terms: list, path: Path, shapes: Path | None,
               note: list[str]) -> None:
    """The fitted weights into the heuristic file and, when regions were fitted, the shapes
    file: both written as a pair (:func:`write_atomic_all`), so a full disk or a kill leaves
    the old pair, never a new heuristic file beside a cut or an old shapes file."""
    text = decode_text(read_bounded(path, MAX_KEPT_BYTES), path)
    new = with_weights(text, h.terms, {t.name: w for t, w in zip(terms, fit.weights)})
    files: list[tuple[Path, str, None]] = [(path, with_note(new, note), None)]
    if d.regions:
        shapes = shapes if shapes is not None else path.with_name("shapes.txt")
        tables = [list(c.table) for c in h._compiled]
        for (r, i), w in zip(d.regions, fit.weights[len(terms):]):
            tables[r][i] = float(w)
        old = decode_text(read_bounded(shapes, MAX_KEPT_BYTES), shapes)
        header = "".join(line + "\n" for line in old.split("\n")
                         if line.startswith("#") and not line.startswith(NOTE))
        files.append((shapes, with_note(header, note) + shapes_text("", h.regions, tables), None))
    try:
        write_atomic_all(files)
    except OSError as e:
        raise FitError(f"{e.filename}: not written: {e.strerror}; the files are as they "
                       "were") from None
    for written, _, _ in files:
        print(f"wrote {written}")


def note_lines(fit: Fit, paths: Sequence[Path], l2: float, target: str = "score",
               order: str = "named-first") -> list[str]:
    """The comment a fit leaves in the file: the data, the losses, the held-out loss."""
    names = ", ".join(p.name for p in paths)
    return [
        f"weights fitted by 'kbdraughts tune fit' on {date.today().isoformat()}: "
        f"{fit.positions} positions",
        f"of self-play ({names}), {fit.held_positions} more held out (every tenth game);",
        f"fitted to the {target}s ({order}); K = {fit.k:.5f}, l2 = {l2:g}. Texel loss "
        f"{fit.loss_before:.6f} -> {fit.loss_after:.6f};",
        f"held out {fit.held_before:.6f} -> {fit.held_after:.6f}.",
    ]
