"""kbdraughts: a knowledge-based AI for Russian draughts, played in the terminal."""

__version__ = "0.1.0"
