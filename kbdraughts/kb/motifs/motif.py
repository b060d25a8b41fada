"""A motif: a draughts idea written once as a logic rule with variables, found anywhere.

A ``motif ID`` block (in the same ``combos/*.txt`` files as ``rule`` blocks) names a move with
variables (``play: S-T``) and the conditions under which it works (``when:``), written for White
and mirrored for Black. The body is a conjunction of literals over the vocabulary of
:data:`VOCABULARY` (geometry, the position, counts, library predicates that ask the move
generator, ``after(S-T, condition)``), comparisons and ``not`` literals; ``define`` adds an
author's predicate. This module holds the values (:class:`Motif`, :class:`Lit`) and the reader
of a body; :mod:`kbdraughts.kb.motifs.parse` reads the blocks, :mod:`kbdraughts.kb.motifs.ground`
compiles them.

Terms are plain values, so a parsed motif is marshal-able data: a variable is a ``str`` starting
with an upper-case letter, an atom (a direction: ``fl fr bl br``) a lower-case ``str``, a square
or a number an ``int`` (a square is its board index, see :mod:`kbdraughts.squares`).

>>> body = parse_body("our_man(S), next(S, T, D), forward(D), not empty(c3), N >= 2")
>>> [(l.pred, l.args, l.negated) for l in body]  # doctest: +NORMALIZE_WHITESPACE
[('our_man', ('S',), False), ('next', ('S', 'T', 'D'), False), ('forward', ('D',), False),
 ('empty', (10,), True), ('>=', ('N', 2), False)]
>>> parse_body("after(S-T, exchange(N))")[0].pred
'after_exchange'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

from kbdraughts.errors import KbdraughtsError
from kbdraughts.squares import SQUARE_NAMES

__all__ = ["Lit", "Motif", "Define", "VOCABULARY", "COMPARISONS", "PROMISES", "parse_body",
           "parse_literal", "is_var", "BodyError", "DIRECTIONS", "SQUARE_BY_NAME",
           "MAX_CONDITIONS", "MAX_NUMBER_DIGITS"]

#: The claims a motif can promise instead of a gain in men.
PROMISES = ("crowns", "catches the lone king", "holds the main road")
#: Directions for White: forward-left, forward-right, back-right, back-left.
DIRECTIONS = ("fl", "fr", "br", "bl")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
SQUARE_BY_NAME = {name: s for s, name in SQUARE_NAMES.items()}


class Pred(NamedTuple):
    """A predicate of the vocabulary: its kind, the type of each argument (``s`` square, ``d``
    direction, ``n`` number), which number arguments it binds (``out``), and its meaning."""

    kind: str  # geometry, position, count, library, after
    types: str
    doc: str
    out: tuple[int, ...] = ()


#: The vocabulary: ``name`` -> :class:`Pred`. ``after(S-T, c(X...))`` is ``after_c(S, T, X...)``.
VOCABULARY: dict[str, Pred] = {
    # geometry: resolved when the motif is compiled
    "next": Pred("geometry", "ssd", "B is the square next to A in direction D"),
    "ray": Pred("geometry", "ssd", "B lies on the diagonal from A in direction D (any distance)"),
    "jump": Pred("geometry", "sss", "a man on A can jump OVER landing on B (any direction)"),
    "forward": Pred("geometry", "d", "D is a forward direction for White (fl or fr)"),
    "main_road": Pred("geometry", "s", "S lies on the main road a1-h8"),
    "crown_square": Pred("geometry", "s", "S is on rank 8, where White's men are crowned"),
    "rank": Pred("geometry", "sn", "S is on rank R (1..8, from White's side)"),
    # the position: bit masks of the compiled motif
    "empty": Pred("position", "s", "S is empty"),
    "man": Pred("position", "s", "a man of either side stands on S"),
    "king": Pred("position", "s", "a king of either side stands on S"),
    "piece": Pred("position", "s", "a piece of either side stands on S"),
    **{f"{who}_{what}": Pred("position", "s", f"{'our' if who == 'our' else 'their'} {what} "
                             "stands on S") for who in ("our", "their")
       for what in ("man", "king", "piece")},
    # counts
    **{f"{who}_{what}": Pred("count", "n", f"N is the number of {who} {what}", (0,))
       for who in ("our", "their") for what in ("men", "kings", "pieces")},
    # library: computed by the move generator, every square bound
    "step": Pred("library", "ss", "S-T is a legal quiet move of ours now"),
    "king_move": Pred("library", "ss", "S-T is a legal quiet move of our king now"),
    "capture": Pred("library", "ssn", "we have a legal capture from S ending on T taking N", (2,)),
    "king_attacks": Pred("library", "sn", "our king on S could take N different pieces first",
                         (1,)),
    "hanging": Pred("library", "sn", "were it their move, a capture taking our piece on S "
                    "nets them N pieces (N >= 1: it hangs)", (1,)),
    "their_shot": Pred("library", "ssn", "were it their move, their quiet move S-T would be "
                       "followed by captures netting them N pieces", (2,)),
    "threat_now": Pred("library", "n", "were it their move now, whatever they played, the "
                       "captures that follow would net us at least N pieces", (0,)),
    # after(S-T, ...): the board after our move S-T (which must be legal now)
    "after_they_take": Pred("after", "ssn", "they must capture and every capture takes N "
                            "pieces (0: they have no capture)", (2,)),
    "after_forced_take": Pred("after", "sss", "they must capture and every capture takes X"),
    "after_exchange": Pred("after", "ssn", "the captures that follow (both sides, forced, "
                           "each side's best) net us N pieces, counting our move", (2,)),
    "after_threat": Pred("after", "ssn", "whatever they reply, the captures that follow net "
                         "us at least N pieces", (2,)),
    "after_safe": Pred("after", "sss", "no capture of theirs takes the piece on X"),
    "after_king_attacks": Pred("after", "sssn", "our king on X could then take N different "
                               "pieces first", (3,)),
    "after_crowns_within": Pred("after", "ssn", "a man of ours is crowned within N plies "
                                "whatever they do (N given, at most 5)"),
    "after_catches_within": Pred("after", "ssn", "their last piece is taken, or they cannot "
                                 "move, within N plies whatever they do (N given, at most 5)"),
    "after_gains_within": Pred("after", "ssnn", "whatever they do within P plies and the "
                               "captures after them, our material grows by N men or more (a "
                               "king 2.5, as the deep search counts; P and N given, P at most 5)"),
}


def is_var(term: object) -> bool:
    """A variable: a name starting with an upper-case letter."""
    return isinstance(term, str) and term[:1].isupper()


class Lit(NamedTuple):
    """A literal of a body: a predicate (or a comparison), its arguments, negated or not."""

    pred: str
    args: tuple
    negated: bool = False

    def text(self) -> str:
        """The literal as an author writes it (squares by name)."""
        types = VOCABULARY[self.pred].types if self.pred in VOCABULARY else ""
        shown = [SQUARE_NAMES[a] if i < len(types) and types[i] == "s" and isinstance(a, int)
                 else str(a) for i, a in enumerate(self.args)]
        if self.pred in COMPARISONS:
            return f"{shown[0]} {self.pred} {shown[1]}"
        if self.pred.startswith("after_"):
            rest = f"({', '.join(shown[2:])})" if shown[2:] else ""
            core = f"after({shown[0]}-{shown[1]}, {self.pred[6:]}{rest})"
        else:
            core = f"{self.pred}({', '.join(shown)})"
        return ("not " if self.negated else "") + core


@dataclass(frozen=True)
class Define:
    """``define name(ARGS) :- body``: one clause of an author's predicate."""

    name: str
    params: tuple[str, ...]
    body: tuple[Lit, ...]
    line: int
    body_lines: tuple[int, ...] = field(default=(), compare=False)  # each literal's line


@dataclass(frozen=True, eq=False)
class Motif:
    """A parsed motif. It satisfies :class:`kbdraughts.ai.rulebook.FiringRule` (``exact`` is
    False) and adds its claim: ``gain`` (men it nets), ``promise``, ``warning`` (names a danger
    and plays no move). ``play`` is ``()`` for a warning, else the move's terms (start, the
    landings; ``capture`` tells ``S:T`` from ``S-T``). ``pieces`` and ``kings``: the (low,
    high) counts of White's and Black's pieces and kings it accepts (as written, for White).
    ``defines``: its file's defines. A ``draft`` needs no example; ``rules check`` and
    ``rules match`` read it, the AI and the coach do not."""

    id: str
    path: str
    line: int
    name: str = ""
    priority: int = 0
    sacrifice: int = 0
    pieces: tuple[tuple[int, int], tuple[int, int]] = ((0, 12), (0, 12))
    kings: tuple[tuple[int, int], tuple[int, int]] = ((0, 12), (0, 12))
    play: tuple = ()
    play_line: int = 0
    capture: bool = False
    body: tuple[Lit, ...] = ()
    body_line: int = 0
    gain: int | None = None
    promise: str | None = None
    warning: bool = False
    examples: tuple[tuple[str, int], ...] = ()
    defines: tuple[Define, ...] = field(default=(), repr=False)
    draft: bool = False  # ``status: draft``: checked and matched, never played by the AI
    body_lines: tuple[int, ...] = field(default=(), repr=False)  # each literal's line

    exact = False

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def variables(self) -> tuple[str, ...]:
        """Its variables in order of first appearance, the play's first."""
        seen: dict[str, None] = {}
        for t in self.play:
            if is_var(t):
                seen.setdefault(t, None)
        for lit in self.body:
            for t in lit.args:
                if is_var(t):
                    seen.setdefault(t, None)
        return tuple(seen)

    def counts_fit(self, ours: tuple[int, int], theirs: tuple[int, int]) -> bool:
        """Whether (pieces, kings) of the side to move and of the other pass the filter."""
        (pl, ph), (ql, qh) = self.pieces
        (kl, kh), (ll, lh) = self.kings
        return pl <= ours[0] <= ph and ql <= theirs[0] <= qh and kl <= ours[1] <= kh \
            and ll <= theirs[1] <= lh

    def claim(self) -> str:
        if self.warning:
            return "warning"
        return f"gain {self.gain}" if self.gain is not None else str(self.promise)


class BodyError(KbdraughtsError, ValueError):
    """A body that does not read: the message says what is wrong."""


_TOKEN = re.compile(r"\s*(?:(<=|>=|!=|==|<|>|=)|([(),\-:])|(\d+)|([A-Za-z_][A-Za-z0-9_]*))")


def _tokens(text: str) -> list[str]:
    out, i = [], 0
    text = text.rstrip()
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None or m.end() == i:
            raise BodyError(f"unexpected {text[i:].strip()[:10]!r}")
        out.append(m.group(m.lastindex or 0))
        i = m.end()
    return out


#: The most digits of a number in a body: counts and ranks are small; a longer one is a typo.
MAX_NUMBER_DIGITS = 4
#: The most conditions a ``when:`` (or a define's body) may hold.
MAX_CONDITIONS = 100
#: What each argument type of the vocabulary is written as, for an error message.
_TYPE_WORDS = {"s": "a square by name (like d4)", "d": "a direction (fl fr bl br)",
               "n": "a number"}


def _cut(token: str | None, limit: int = 20) -> str | None:
    """A token quoted in a message, cut short (it may be 5,000 digits)."""
    return token if token is None or len(token) <= limit else token[:limit] + "..."


def term_of(token: str) -> object:
    """A token as a term: a number, a square (``d4``), a variable or an atom."""
    if not token:
        raise BodyError("expected a term, got nothing")
    if token.isdigit():
        if len(token) > MAX_NUMBER_DIGITS:
            raise BodyError(f"the number {token[:8]}... ({len(token)} digits) is too large "
                            f"(at most {MAX_NUMBER_DIGITS} digits)")
        return int(token)
    if token in SQUARE_BY_NAME:
        return SQUARE_BY_NAME[token]
    if re.fullmatch(r"[a-h][1-8]", token):
        raise BodyError(f"{token} is a light square (only dark squares hold pieces)")
    if token[0].isalpha() or is_var(token) or token[0] == "_":
        return token
    raise BodyError(f"expected a term, got {_cut(token)!r}")


class _Reader:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise BodyError(f"expected {expected or 'more'}, got {_cut(tok) or 'the end'!r}")
        self.i += 1
        return tok

    def atom(self) -> tuple[str, list[str]]:
        """A predicate's name and its arguments as written (tokens)."""
        name = self.take()
        if not re.fullmatch(r"[a-z_][A-Za-z0-9_]*", name):
            raise BodyError(f"expected a predicate name, got {_cut(name)!r}")
        args: list[str] = []
        if self.peek() == "(":
            self.take("(")
            while self.peek() != ")":
                args.append(self.take())
                if self.peek() == ",":
                    self.take(",")
            self.take(")")
        return name, args

    def literal(self) -> Lit:
        negated = self.peek() == "not"
        if negated:
            self.take()
        if self.peek() == "after" and not negated:
            self.take()
            self.take("(")
            s = self.take()
            self.take("-")
            t = self.take()
            self.take(",")
            name, args = self.atom()
            self.take(")")
            return _typed(f"after_{name}", [s, t, *args], False)
        following = self.toks[self.i + 1] if self.i + 1 < len(self.toks) else None
        if not negated and following in COMPARISONS + ("=",):
            left = self.take()
            op = "==" if self.take() == "=" else self.toks[self.i - 1]
            right = self.take()
            if op not in ("==", "!=") and any(_is_atom(a) for a in (left, right)):
                raise BodyError(f"{left} {op} {right}: only numbers and squares are ordered")
            return Lit(op, (term_of(left), term_of(right)))
        name, args = self.atom()
        return _typed(name, args, negated)


def _is_atom(token: str) -> bool:
    return token[:1].islower() and token not in SQUARE_BY_NAME and not token.isdigit()


def _typed(pred: str, tokens: list[str], negated: bool) -> Lit:
    """The literal, its constants checked against the vocabulary's argument types (a define's
    are checked when its parameters' types are known, in motif_check)."""
    types = VOCABULARY[pred].types if pred in VOCABULARY else ""
    for token, want in zip(tokens, types):
        if is_var(token):
            continue
        fits = {"s": token in SQUARE_BY_NAME, "d": token in DIRECTIONS,
                "n": token.isdigit()}[want]
        if not fits and not (want == "s" and re.fullmatch(r"[a-h][1-8]", token)):
            raise BodyError(f"in {pred.removeprefix('after_')}: {token[:20]!r} is not "
                            f"{_TYPE_WORDS[want]}")
    return Lit(pred, tuple(term_of(t) for t in tokens), negated)


def parse_body(text: str) -> tuple[Lit, ...]:
    """A ``when:`` body: literals separated by commas (BodyError when it does not read)."""
    return _parse_body(text)[0]


def body_lines(parts: Sequence[tuple[int, str]]) -> tuple[int, ...]:
    """The line each literal of a body written over ``parts`` (line number, text) starts on,
    so that a fault is named where it is written, not on the block's first line.

    >>> body_lines([(7, "our_man(S), next(S, T, D),"), (8, "not empty(T), N > 1")])
    (7, 7, 8, 8)
    """
    token_lines = [line for line, text in parts for _ in _tokens(text)]
    return tuple(token_lines[i] for i in _parse_body(" ".join(t for _, t in parts))[1])


def _parse_body(text: str) -> tuple[tuple[Lit, ...], list[int]]:
    """The literals and the index of the token each starts at."""
    r = _Reader(text)
    starts = [r.i]
    out = [r.literal()]
    while r.peek() == ",":
        r.take(",")
        starts.append(r.i)
        out.append(r.literal())
        if len(out) > MAX_CONDITIONS:  # deeper, the compiler's recursion would overflow
            raise BodyError(f"more than {MAX_CONDITIONS} conditions: name a part with "
                            "'define'")
    if r.peek() is not None:
        raise BodyError(f"expected ',' between conditions, got {_cut(r.peek() or '')!r}")
    return tuple(out), starts


def parse_literal(text: str) -> Lit:
    """One literal (a define's head reads this way)."""
    (lit,) = parse_body(text)
    return lit
