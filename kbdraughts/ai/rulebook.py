"""What the engine needs of a knowledge base, typed: the boundary between ``ai`` and ``kb``.

The engine never imports the knowledge base (``kbdraughts.kb.knowledge``) at module level (it
pulls in pyDatalog): it asks for a ``KnowledgeBase`` by shape. The knowledge base's class is
one; a test's stand-in with a ``firing`` method is another. Only the rules' layer names
(:class:`RuleLayer`, from the rule value's module: no parser) are imported, and offered here.

>>> from kbdraughts.board import START, legal_moves
>>> class NoRules:
...     def firing(self, pos, legal=None):
...         return []
>>> isinstance(NoRules(), KnowledgeBase), NoRules().firing(START, legal_moves(START))
(True, [])
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from kbdraughts.board import Move, Position
from kbdraughts.collector import paused_gc
from kbdraughts.kb.rules.rule import RuleLayer

__all__ = ["FiringRule", "RuleMatch", "RuleLayer", "KnowledgeBase", "load_default_kb"]


class FiringRule(Protocol):
    """A rule as the engine reads it: where it is written, how it ranks, what it gives."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...  # "" when the rule has none
    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def exact(self) -> bool: ...  # pins the whole position (an opening line), not a pattern
    @property
    def priority(self) -> int: ...
    @property
    def sacrifice(self) -> int: ...  # men the rule's move gives away on purpose


class RuleMatch(Protocol):
    """A rule that applies to a position, with its move there."""

    @property
    def rule(self) -> FiringRule: ...
    @property
    def layer(self) -> RuleLayer: ...
    @property
    def move(self) -> Move | None: ...
    @property
    def mirrored(self) -> bool: ...  # matched with colours and board turned round
    @property
    def bindings(self) -> tuple[tuple[str, int], ...]: ...  # a motif's variables and squares


@runtime_checkable
class KnowledgeBase(Protocol):
    """Rules that fire in a position, best first (captures, exact rules, patterns)."""

    def firing(self, pos: Position, legal: Sequence[Move] | None = None
               ) -> Sequence[RuleMatch]: ...


def load_default_kb() -> KnowledgeBase:
    """The shipped knowledge base plus the user's rules. A faulty rule or motif is skipped and
    kept in its ``errors`` (``path:line: error: ...``) for the caller to report: one bad rule
    of the person's costs that rule, never the rest of the knowledge."""
    # Imported here: the engine starts without the rules parser and pyDatalog, and loads them
    # only when a level that uses the knowledge base first asks it.
    from kbdraughts.kb.knowledge import load_knowledge_base

    # The rules and pyDatalog's objects live as long as the process: frozen out of the
    # collector's reach (the load's garbage collected first), a full collection no longer walks
    # them in the middle of a timed search (single pauses of 230-370 ms measured, the p99 of
    # bestmove over its budget).
    with paused_gc(freeze=True, collect=True):
        return load_knowledge_base(skip_faulty=True)
