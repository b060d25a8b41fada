"""The shipped motifs without their depth conditions (``gains_within``, issue 20): the motifs
as they fired before, for the tests of what the deep search refutes."""

from __future__ import annotations

import re
from pathlib import Path

from kbdraughts.resources import combos_dir

#: A motif's last condition: its gain still there P plies on (combos/motifs.txt).
DEPTH_CONDITION = re.compile(r",\n    after\([SK]-T, gains_within\(\d, 1\)\)")


def loose_motifs(directory: Path) -> Path:
    """combos/motifs.txt written into ``directory`` without its depth conditions."""
    out = directory / "motifs.txt"
    out.write_text(DEPTH_CONDITION.sub("", (combos_dir() / "motifs.txt").read_text()))
    return out
