"""Learning the evaluation's weights: self-play positions at the native search's depth
(:mod:`~kbdraughts.tune.games`), a Texel fit of every `value` and `pattern` weight with a
held-out set (:mod:`~kbdraughts.tune.fit`), the weights written back into the heuristic file
with what they were fitted on, and games on a Ray cluster for those who have one
(:mod:`~kbdraughts.tune.cluster`).

It sits above the move choice (:mod:`kbdraughts.ai`), beside the coach and the matches; the
command is ``kbdraughts tune``. NumPy and SciPy do the fitting: the ``tune`` extra.
"""
