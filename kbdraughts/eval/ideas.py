"""The evaluation's knowledge as the ideas a player names, never a table's id.

The positional part of the evaluation (all of it but the material) is split into *ideas*:

- a value term of ``combos/heuristic.txt`` is one idea, said in words ("the back guard"), with
  the men that count for it where a square mask says which ("your men c1, e1 against f8");
- a pattern term is one idea per side that holds it ("your stake on c5 held from behind",
  "Black's stake on f4 ...": Black's is the same shape turned round, on its own squares);
- the regions of ``combos/shapes.txt`` are grouped into the *areas* players name, by where their
  squares lie: the back rank, the left flank, the right flank, the centre and the golden
  square's neighbourhood (:func:`area_of`, computed from the squares, so a new template is
  grouped too). A region weighs two copies of its squares: White's men on its squares and
  Black's on the same squares turned round. Each copy is said as the area of the side whose
  half it lies in (``your left flank``, ``Black's left flank``), so a region and its mirror
  (the same squares turned round) fall into the same two ideas; a copy the mirror maps onto
  itself is both sides' (``the centre``). Its words say what stands there: "your left flank's
  shape (your men b2, a3 against b4)".

Shares are in men for the side asked; they add up to the evaluation's positional part
(:meth:`Heuristic.positional`). :func:`why` compares two lines' ends idea by idea.

>>> from kbdraughts.squares import SQUARE_NAMES
>>> _OF = {n: s for s, n in SQUARE_NAMES.items()}
>>> area_of([_OF[n] for n in ("b2", "a3", "c3")]), area_of([_OF[n] for n in ("c1", "e1", "d2")])
('left flank', 'back rank')
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple, Sequence

from kbdraughts.board import BLACK, SQUARE_FILE, SQUARE_RANK, WHITE, Position, Side
from kbdraughts.eval.evaluation import position_features
from kbdraughts.eval.heuristic import Heuristic, default_heuristic
from kbdraughts.eval.masks import BACK_RANK, CENTRE, GOLDEN, GUARD
from kbdraughts.eval.patterns import matches
from kbdraughts.eval.regions import region_index
from kbdraughts.squares import SQUARE_NAMES, mirror_square, side_name, square_at
from kbdraughts.values import KING_VALUE, MAN_VALUE

__all__ = ["Idea", "AREAS", "area_of", "idea_shares", "shares", "why", "differences",
           "material_words", "idea_words", "men_words", "move_term_words", "copy_idea",
           "TERM_WORDS", "PATTERN_WORDS", "MOVE_TERM_WORDS"]

#: The areas players name, in the order :func:`area_of` tries them.
AREAS = ("back rank", "left flank", "right flank", "golden square's neighbourhood", "centre")
_GOLDEN_SQUARES = (square_at(2, 4), square_at(5, 3))  # c5 and f4 (the masks' GOLDEN)
_SQUARE_OF = {name: s for s, name in SQUARE_NAMES.items()}

#: The value terms in words (a term not here is said by its name, its hyphens spaces).
TERM_WORDS = {
    "centre": "men in the centre", "back-rank": "men on the back rank",
    "tempo": "the tempo", "breakthrough": "the race to crown", "back-guard": "the back guard",
    "golden": "the golden men", "runaway": "men sure to crown",
    "blocked": "men held by the opponent", "outpost": "outposts",
    "king-mobility": "the kings' reach", "main-road": "a king on the main road",
    "flank-balance": "men uneven between the flanks", "tempo-opening": "men pushed early",
    "hanging": "men left hanging", "opposition": "the opposition", "passed": "passed men",
    "double-corner": "a king in the double corner",
}
#: Where the men stand that a feature counts, per side (said with the term: "the back guard
#: (your men c1, e1 against f8)").
_FEATURE_SQUARES = {"back_guard": GUARD, "golden": (GOLDEN, GOLDEN),
                    "back_men": BACK_RANK, "centre_men": (CENTRE, CENTRE)}
#: The pattern terms in words: ``{at}`` its first man's square, ``{men}`` all its men's, on the
#: holder's side of the board (a pattern not here is said by its name and squares).
PATTERN_WORDS = {
    "stake-held": "stake on {at} held from behind", "stake-alone": "stake on {at} alone",
    "bridge": "bridge {men}", "triangle": "triangle {men}",
    "left-anchor": "left flank's anchor {men}", "a1-alone": "man left behind on {at}",
    "right-lock": "right flank's lock {men}", "edge-h4": "edge man on {at} held",
    "centre-pair": "centre pair {men}", "long-diagonal": "long diagonal's pair {men}",
}
#: The weighted move's terms (level 1) in words.
MOVE_TERM_WORDS = {
    "crowning": "crowns", "safety": "what the opponent can take",
    "shot-danger": "a shot left to the opponent", "bar-the-way": "the king bars the way",
    "keep-the-guard": "the king keeps guard", "leave-the-guard": "the king leaves its guard",
    "centre": "the centre", "back-rank": "leaves the back rank", "edge": "to the edge",
    "tempo": "the tempo", "breakthrough": "the race to crown",
    "king-shuffle": "a king's idle move", "evaluation": "the position's value",
}


class Idea(NamedTuple):
    """One idea of the evaluation: a value term, a pattern held by one side, or an area."""

    kind: str  # "term", "pattern" or "area"
    name: str  # the term's or pattern's name, or the area (AREAS)
    owner: Side | None  # whose pattern or copy of an area; None: both sides' (a term)


def _key(squares: Sequence[int]) -> tuple[int, int]:
    return sum(SQUARE_RANK[s] for s in squares), sum(SQUARE_FILE[s] for s in squares)


def area_of(squares: Sequence[int]) -> str:
    """The area of squares seen from their owner's side (rank 1 its back rank): the back rank
    when their middle is no higher than rank 2 (the guard's squares); else a flank when
    their middle is on files a-c or f-h; else the golden square's neighbourhood when they
    hold c5 or f4 within a step of their middle; else the centre."""
    n = len(squares)
    file = sum(SQUARE_FILE[s] for s in squares) / n
    rank = sum(SQUARE_RANK[s] for s in squares) / n
    if rank <= 1:
        return "back rank"
    if file <= 2:
        return "left flank"
    if file >= 5:
        return "right flank"
    if any(g in squares and abs(SQUARE_FILE[g] - file) <= 1 and abs(SQUARE_RANK[g] - rank) <= 1
           for g in _GOLDEN_SQUARES):
        return "golden square's neighbourhood"
    return "centre"


@lru_cache(maxsize=1024)
def copy_idea(squares: tuple[int, ...]) -> Idea:
    """The area idea of one copy of a region, on these squares as they stand on the board:
    White's when they lie lower (nearer White's back rank, then further left) than the same
    squares turned round, Black's when higher, both sides' when they are their own mirror."""
    turned = tuple(mirror_square(s) for s in squares)
    if set(turned) == set(squares):
        return Idea("area", area_of(squares), None)
    if _key(squares) < _key(turned):
        return Idea("area", area_of(squares), WHITE)
    return Idea("area", area_of(turned), BLACK)


def _mover_shares(pos: Position, h: Heuristic) -> dict[Idea, float]:
    """Every idea's share of ``pos``'s positional evaluation for the side to move, in the
    evaluation's units (hundredths of a man)."""
    out: dict[Idea, float] = {}
    sign = 1.0 if pos.side == WHITE else -1.0

    def add(idea: Idea, v: float) -> None:
        if v:
            out[idea] = out.get(idea, 0.0) + v

    for name, v in h.score("value", position_features(pos))[1]:
        add(Idea("term", name, None), v)
    patterns, regions = h.shapes_applying(pos)
    for term, w, (white, black) in patterns:
        if w:
            add(Idea("pattern", term.name, WHITE), sign * w * matches(pos, white))
            add(Idea("pattern", term.name, BLACK), -sign * w * matches(pos, black))
    for r in regions:
        if (i := region_index(pos, r.white, True)) is not None:
            add(copy_idea(r.white), sign * r.table[i])
        if (i := region_index(pos, r.black, False)) is not None:
            add(copy_idea(r.black), -sign * r.table[i])
    return out


def idea_shares(pos: Position, side: Side, heuristic: Heuristic | None = None
                ) -> dict[Idea, float]:
    """Each idea's share of ``pos``'s positional evaluation, in men for ``side``."""
    h = heuristic or default_heuristic()
    sign = 1.0 if side == pos.side else -1.0
    return {idea: sign * v / MAN_VALUE for idea, v in _mover_shares(pos, h).items()}


def shares(pos: Position, side: Side, heuristic: Heuristic | None = None) -> dict[str, float]:
    """The ideas' shares of ``pos``'s positional evaluation in words, in men for ``side``:
    they add up to the evaluation less the material."""
    h = heuristic or default_heuristic()
    out: dict[str, float] = {}
    for idea, v in idea_shares(pos, side, h).items():
        words = idea_words(idea, pos, side, h)
        out[words] = out.get(words, 0.0) + v
    return out


def differences(a_end: Position, b_end: Position, side: Side, top: int = 3,
                heuristic: Heuristic | None = None, you: bool = True,
                smallest: float = 0.005) -> tuple[tuple[str, float], ...]:
    """The ``top`` ideas whose share differs most between two lines' ends, each with its
    share at ``a_end`` less ``b_end`` in men for ``side`` (at least ``smallest``), largest
    first, said as they stand at ``a_end``."""
    h = heuristic or default_heuristic()
    a, b = idea_shares(a_end, side, h), idea_shares(b_end, side, h)
    diff = {i: a.get(i, 0.0) - b.get(i, 0.0) for i in a.keys() | b.keys()}
    said = [(idea_words(i, a_end, side, h, you), d) for i, d in diff.items()
            if abs(d) >= smallest]
    return tuple(sorted(said, key=lambda wd: (-abs(wd[1]), wd[0]))[:top])


def why(played_end: Position, best_end: Position, side: Side, top: int = 3,
        heuristic: Heuristic | None = None) -> tuple[tuple[str, float], ...]:
    """The ideas whose share moved most between the played line's end and the best line's,
    each with its value in men for ``side``: played less best (negative: given up), largest
    first, said as they stand at the played line's end. Material comes first where the two
    ends differ in it (``a man``, ``a crowning``): a man given is the reason before any shape.

    >>> from kbdraughts.notation import parse_fen
    >>> why(parse_fen("B:Wc3:Bd6,f6"), parse_fen("B:Wc3,e3:Bd6,f6"), WHITE, top=1)
    (('a man', -1.0),)
    """
    given = material_words(played_end, best_end, side)[:top]
    rest = differences(played_end, best_end, side, top - len(given), heuristic)
    return given + rest


_COUNT = {1: "a", 2: "two", 3: "three"}


def _pieces(n: int, one: str, many: str) -> str:
    return f"{_COUNT.get(n, str(n))} {one if n == 1 else many}"


def material_words(a_end: Position, b_end: Position, side: Side
                   ) -> tuple[tuple[str, float], ...]:
    """The material ``side`` has at ``a_end`` more than at ``b_end`` (each side's counted
    against the other's), in words with its value in men, the largest first; () the same.

    Two lines' ends are often some plies apart in a race to crown, so the material is said as
    a player counts it: the pieces (a man each), then the crownings (a man made a king, worth
    ``KING_VALUE - MAN_VALUE``); a king more and a piece more together are a king.

    >>> from kbdraughts.notation import parse_fen
    >>> material_words(parse_fen("W:WKc3:Bd6"), parse_fen("W:Wc3:Bd6"), WHITE)
    (('a crowning', 1.5),)
    >>> material_words(parse_fen("W:Wc3:Bd6"), parse_fen("W:WKc3,e3:Bd6"), WHITE)
    (('a king', -2.5),)
    >>> material_words(parse_fen("W:Wc3,e3:BKd6"), parse_fen("W:WKc3:Bd6,f6"), WHITE)
    (('two crownings', -3.0), ('two men', 2.0))
    """
    def counts(pos: Position) -> tuple[int, int]:
        k = pos.kings
        ours, theirs = pos.white if side == WHITE else pos.black, \
            pos.black if side == WHITE else pos.white
        return (ours.bit_count() - theirs.bit_count(),
                (ours & k).bit_count() - (theirs & k).bit_count())
    (ap, ak), (bp, bk) = counts(a_end), counts(b_end)
    pieces, crowns = ap - bp, ak - bk
    # a piece more that is a king: a king, not a man and a crowning
    kings = (min(pieces, crowns) if pieces > 0 and crowns > 0
             else max(pieces, crowns) if pieces < 0 and crowns < 0 else 0)
    crowning = (KING_VALUE - MAN_VALUE) / MAN_VALUE
    said = [(_pieces(abs(n), one, many), n * value)
            for n, one, many, value in ((kings, "king", "kings", KING_VALUE / MAN_VALUE),
                                        (pieces - kings, "man", "men", 1.0),
                                        (crowns - kings, "crowning", "crownings", crowning))
            if n]
    return tuple(sorted(said, key=lambda wv: -abs(wv[1])))


# -- words ------------------------------------------------------------------------------------


def _possessive(owner: Side, side: Side, you: bool) -> str:
    return "your" if you and owner == side else f"{side_name(owner)}'s"


def men_words(pos: Position, side: Side, ours: int, theirs: int, you: bool = True) -> str:
    """``your men b2, a3 against b4``: ``side``'s men on ``ours`` and the other side's on
    ``theirs`` (kings apart: the regions and the men's terms weigh men); a long list is cut
    (``b6, f6, a7 and 5 more``).

    >>> from kbdraughts.notation import parse_fen
    >>> men_words(parse_fen("W:Wb2,a3:Bb4"), WHITE, -1, -1)
    'your men b2, a3 against b4'
    >>> men_words(parse_fen("W:Wb2:Bb4,d4,f4,h4,a5"), BLACK, -1, 0, you=False)
    "Black's men b4, d4, f4 and 2 more"
    >>> men_words(parse_fen("W:Wh2:Bb4"), WHITE, 0, -1)
    "Black's man b4, none of yours"
    """
    mine = _listed(pos.men(side) & ours)
    other = _listed(pos.men(1 - side) & theirs)
    who, none = ("your", "none of yours") if you else \
        (f"{side_name(side)}'s", f"none of {side_name(side)}'s")
    if mine:
        return f"{who} {mine}" + (f" against {other.split(' ', 1)[1]}" if other else "")
    if other:
        return f"{side_name(1 - side)}'s {other}, {none}"
    return "empty"


def _listed(bits: int) -> str:
    """``men b2, a3`` on ``bits`` (``man b2``; a long list cut; empty for none)."""
    names = [SQUARE_NAMES[s] for s in sorted(SQUARE_NAMES) if bits >> s & 1]
    if not names:
        return ""
    said = ", ".join(names) if len(names) <= 4 else \
        f"{', '.join(names[:3])} and {len(names) - 3} more"
    return f"{'man' if len(names) == 1 else 'men'} {said}"


@lru_cache(maxsize=64)
def _idea_squares(regions: tuple[tuple[str, ...], ...]) -> dict[Idea, int]:
    """The squares each area idea's copies cover, as a bitboard (the regions' squares)."""
    out: dict[Idea, int] = {}
    for names in regions:
        white = tuple(_SQUARE_OF[n] for n in names)
        for copy in (white, tuple(mirror_square(s) for s in white)):
            idea = copy_idea(copy)
            out[idea] = out.get(idea, 0) | sum(1 << s for s in copy)
    return out


def idea_words(idea: Idea, pos: Position, side: Side, heuristic: Heuristic | None = None,
               you: bool = True) -> str:
    """An idea in a player's words as it stands in ``pos``, told to ``side`` (``you``: as
    "your ...", else by the sides' names)."""
    h = heuristic or default_heuristic()
    if idea.kind == "area":
        where = _idea_squares(tuple(r.squares for r in h.regions)).get(idea, 0)
        men = men_words(pos, side, where, where, you)
        if idea.owner is None:
            name = "golden squares' neighbourhood" if idea.name.startswith("golden") \
                else f"{idea.name}'s shape"
            return f"the {name} ({men})"
        shape = idea.name if idea.name.startswith("golden") else f"{idea.name}'s shape"
        return f"{_possessive(idea.owner, side, you)} {shape} ({men})"
    if idea.kind == "pattern":
        return f"{_possessive(idea.owner or WHITE, side, you)} {_pattern_words(idea, h)}"
    said = TERM_WORDS.get(idea.name, idea.name.replace("-", " "))
    term = next((t for t in h.terms if t.kind == "value" and t.name == idea.name), None)
    masks = _FEATURE_SQUARES.get(term.per or "") if term is not None else None
    if masks is None:
        return said
    return f"{said} ({men_words(pos, side, masks[side], masks[1 - side], you)})"


def _pattern_words(idea: Idea, h: Heuristic) -> str:
    term = next((t for t in h.patterns if t.name == idea.name), None)
    men = [s for s, symbol in term.squares if symbol in "wW+"] if term is not None else []
    if idea.owner == BLACK:
        men = [mirror_square(s) for s in men]
    names = [SQUARE_NAMES[s] for s in men]
    template = PATTERN_WORDS.get(idea.name)
    if template is None:
        return f"{idea.name.replace('-', ' ')}" + (f" on {', '.join(names)}" if names else "")
    return template.format(at=names[0] if names else "", men=", ".join(names))


def move_term_words(name: str) -> str:
    """A weighted move's term in words (its name, hyphens spaced, when not known)."""
    return MOVE_TERM_WORDS.get(name, name.replace("-", " "))
