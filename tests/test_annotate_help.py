"""annotate's --help says what the coach does now: grades every move, at the threshold the
grading uses, by a node budget (not only the material notes it wrote before the grades)."""

import subprocess
import sys

from kbdraughts.coach.grade import INACCURACY


def test_annotate_help_names_the_grades_and_their_threshold() -> None:
    out = subprocess.run([sys.executable, "-m", "kbdraughts.cli", "annotate", "--help"],
                         capture_output=True, text=True, check=True).stdout
    text = " ".join(out.split())
    assert f"gives away {INACCURACY} man or more" in text
    for glyph in ("?! inaccuracy", "? mistake", "?? blunder"):
        assert glyph in text
    assert "[%eval" in text and "--nodes" in text
