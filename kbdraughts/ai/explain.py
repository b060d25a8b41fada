"""The reasons the engine gives: one line per move, and a short form for the status bar.

Every number a reason quotes comes from where it is defined (``values``, the search's result,
the rule's file and line), never written again here.

>>> capture_rule_values()
'+105 a man taken, -100 a man lost'
>>> score_text(WIN - 3), score_text(-42.4)
('wins in 3 plies', 'score -42')

In a player's words (the console): scores in men for the side that judges, a won game in its
own moves, no engine detail and no file paths (``why --verbose`` and ``bestmove --explain``
show those).

>>> outcome_text(150), outcome_text(-100), outcome_text(3), outcome_text(WIN - 5)
('+1.5 men', '-1 man', 'even', 'wins in 3 moves')
>>> judgement_text(30)
'it judges the position +0.3 men for itself'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Sequence

from kbdraughts import native
from kbdraughts.capture_tree import Line, exchange
from kbdraughts.ai.claims import DANGER, claim_of
from kbdraughts.ai.rulebook import FiringRule, RuleLayer, RuleMatch
from kbdraughts.ai.search import SearchResult
from kbdraughts.board import Move, Position, captures, play
from kbdraughts.eval.ideas import move_term_words
from kbdraughts.files import printable
from kbdraughts.notation import move_text
from kbdraughts.resources import combos_dir
from kbdraughts.wording import plural
from kbdraughts.values import MAN_LOST, MAN_TAKEN, MAN_VALUE, TABLE_WIN, TABLE_ZONE, WIN

#: The short form's length at most (the console's status bar).
SHORT = 40
#: Scores this close to WIN are a won or lost game, counted in plies.
MATE_ZONE = 1000
#: How a player's words name the side they judge for: the side that chose the move (the
#: console names it: :func:`said_for`).
FOR_ITSELF = "for itself"


def short(text: str) -> str:
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


def signed(x: float) -> str:
    v = int(round(x))
    return f"+{v}" if v > 0 else str(v)


def line_text(moves: Iterable[Move]) -> str:
    return " ".join(move_text(m) for m in moves)


def score_text(score: float) -> str:
    """A search score: the material-and-position sum, or a win or loss in so many plies."""
    if score >= WIN - MATE_ZONE:
        n = int(WIN - score)
        return f"wins in {n} pl{'y' if n == 1 else 'ies'}"
    if score <= -WIN + MATE_ZONE:
        n = int(WIN + score)
        return f"loses in {n} pl{'y' if n == 1 else 'ies'}"
    if by_tables(score):
        return f"{'wins' if score > 0 else 'loses'} by the endgame tables"
    return f"score {signed(score)}"


def by_tables(score: float) -> bool:
    """Whether a search score is an ending the endgame tables judged won or lost (the search
    reads them at its nodes: TABLE_WIN less the plies to the conversion there)."""
    return TABLE_WIN - TABLE_ZONE <= abs(score) < WIN - MATE_ZONE


def men_text(score: float, digits: int = 1) -> str:
    """A material-and-position score in men, signed: ``+1.5 men``, ``-1 man``, ``even``."""
    men = round(score / MAN_VALUE, digits)
    if men == 0:
        return "even"
    return f"{men:+g} {'man' if abs(men) == 1 else 'men'}"


def moves_to_end(score: float) -> int:
    """The winner's own moves to the end of a won score (``WIN - plies``)."""
    return (int(WIN - abs(score)) + 1) // 2


def outcome_text(score: float) -> str:
    """A search score for the side that judges: ``wins in 3 moves``, ``loses in 2 moves``,
    else the score in men."""
    if abs(score) >= WIN - MATE_ZONE:
        n = moves_to_end(score)
        verb = "wins" if score > 0 else "loses"
        return f"{verb} in {n} move{'s' if n != 1 else ''}"
    if by_tables(score):
        return f"{'wins' if score > 0 else 'loses'} by the endgame tables"
    return men_text(score)


def judgement_text(score: float) -> str:
    """The draw judgement in words: ``it judges the position +0.3 men for itself``."""
    if abs(score) >= WIN - MATE_ZONE:
        return ("it sees a win" if score > 0 else "it sees a loss") + \
            f" in {moves_to_end(score)} move{'s' if moves_to_end(score) != 1 else ''}"
    if by_tables(score):
        return f"it sees a {'won' if score > 0 else 'lost'} ending (endgame tables)"
    men = men_text(score)
    return "it judges the position even" if men == "even" else \
        f"it judges the position {men} for itself"


def with_notes(reason: str, notes: Sequence[str]) -> str:
    """``reason`` followed by the notes of earlier layers (the rules a check skipped)."""
    return "; ".join([reason, *notes])


# -- the knowledge base's rules ------------------------------------------------------------


def rule_place(rule: FiringRule) -> str:
    """``file:line`` of a rule: ``combos/motifs.txt:12`` for the shipped knowledge base, the
    path as loaded for the user's own files."""
    path = Path(str(rule.path))
    try:
        rel = path.resolve().relative_to(combos_dir().resolve())
    except (ValueError, OSError):
        return printable(f"{path}:{rule.line}")
    return printable(f"combos/{rel.as_posix()}:{rule.line}")


def rule_reason(layer: str, match: RuleMatch, pos: Position | None = None) -> tuple[str, str]:
    """(reason, short) of a rule's move played by ``layer``. A motif's reason names it, its
    file:line and the line it expects in ``pos``: ``shot "give one, take two"
    (combos/motifs.txt:40): d4-c5 b6:d4 e3:c5:e7``."""
    rule = match.rule
    name = f" \"{printable(rule.name)}\"" if rule.name else ""  # text from a file: no escapes
    rule_id = printable(rule.id)
    if match.layer == RuleLayer.MOTIF:
        line = motif_line(match, pos)
        return f"{rule_id}{name} ({rule_place(rule)}): {line}", short(f"motif {rule_id}")
    mirrored = ", mirrored" if match.mirrored else ""
    sac = f", sacrifices {rule.sacrifice}" if rule.sacrifice else ""
    reason = f"{layer} {rule_id}{name} at {rule_place(rule)}{mirrored}{sac}"
    return reason, short(f"rule {rule_id}")


def rule_words(layer: str, match: RuleMatch, pos: Position | None = None) -> str:
    """A rule's move in a player's words: its id and name, no file (``rules show ID`` has it);
    an exact rule (the opening book) by its name alone, which names the opening as players know
    it («Кол» (Kol)); a motif by its idea, as the coach names it, with what it claims and the
    line it expects."""
    rule = match.rule
    name = "".join(ch for ch in rule.name if ch.isprintable()) if rule.name else ""
    named = f"{layer} {rule.id}" + (f" \"{name}\"" if name else "")
    if name and rule.exact:  # the opening book's lines: their names say more than ids
        named = f"{layer}: {name}"
    if match.layer == RuleLayer.MOTIF:  # by its name, as the coach's notes say it
        assert match.move is not None  # a firing rule's move
        claim = claim_of(rule)
        said = f" {claim.words()}" if claim is not None and claim.kind != DANGER else ""
        return f"{idea_words(rule, match.move)}{said}: {motif_line(match, pos)}"
    return named + (", mirrored" if match.mirrored else "")



def idea_of(rule: Any) -> tuple[str, str]:
    """A rule's idea as its name gives it: the head before a colon, without its article
    (``shot``, ``king fork``), and the rest (``give one, take two``, or empty); a long name
    without a colon is the rest, its id the head (``king threat``: ``a king attacks ...``)."""
    name = printable(str(getattr(rule, "name", "") or rule.id))
    head, colon, tail = name.partition(": ")
    if not colon and len(name.split()) > 3:
        head, tail = printable(str(rule.id)).replace("-", " "), name
    for article in ("a ", "an ", "the "):
        if head.lower().startswith(article):
            head = head[len(article):]
    return head, tail


def idea_words(rule: Any | None, move: Move) -> str:
    """A rule's idea with its move: ``the shot e3-d4 (give one, take two)``, ``the king
    fork g1-d4``."""
    if rule is None:
        return move_text(move)
    head, tail = idea_of(rule)
    return f"the {head} {move_text(move)}" + (f" ({tail})" if tail else "")


def motif_line(match: RuleMatch, pos: Position | None) -> str:
    """The motif's move and the captures the capture tree expects after it in ``pos`` (the
    forced reply, ours); the move alone without a position."""
    move = match.move
    if move is None:
        return "no move"
    if pos is None:
        return move_text(move)
    return line_text((move,) + exchange(play(pos, move), pos.side).moves)


def skipped_rule(match: RuleMatch, lost: float, loses_game: bool, plies: int | None) -> str:
    """Why a rule's move was not played: what the check found it loses (``lost`` in material
    beyond the position before it, within ``plies``; None: to the captures after it)."""
    rule = match.rule
    assert match.move is not None  # a firing rule's move
    if loses_game:
        what = "loses the game"
    else:
        men = lost / MAN_VALUE
        within = "to the captures after it" if plies is None else f"in {plies} plies"
        what = f"loses {men:g} {'man' if men == 1 else 'men'} {within}"
    declares = f", declares {rule.sacrifice}" if rule.sacrifice else ""
    return (f"skipped rule {printable(rule.id)} ({rule_place(rule)}): "
            f"{move_text(match.move)} {what}{declares}")


# -- the capture tree, the weighted move, the search -----------------------------------------


def capture_rule_values() -> str:
    """How the capture tree counts, in ``values``'s numbers."""
    return f"{signed(MAN_TAKEN)} a man taken, {signed(-MAN_LOST)} a man lost"


def capture_reason(line: Line, n: int) -> str:
    """The capture tree's best line among ``n`` captures."""
    return (f"capture tree {signed(line.score)}: {line_text(line.moves)} "
            f"(best of {n} capture{'s' if n != 1 else ''}; {capture_rule_values()})")


def capture_short(line: Line) -> str:
    return short(f"capture tree {signed(line.score)}")


def capture_words(line: Line) -> str:
    """The capture tree's line in a player's words: what it wins, in whole men."""
    won = men_text(line.score, 0)
    return f"capture tree: {won}" + ("" if won == "even" else f" {FOR_ITSELF}")


def weighted_reason(weight: float, parts: Sequence[tuple[str, float]], n: int
                    ) -> tuple[str, str, str]:
    """(reason, short, words) of the weighted quiet move: its weight, its terms in words
    (``crowns +200, the centre +8``), among ``n`` moves (in words: the terms that count for it,
    without their weights)."""
    terms = ", ".join(f"{move_term_words(name)} {signed(v)}" for name, v in parts) \
        or "no term applies"
    reason = f"weighted move {signed(weight)}: {terms} (best of {plural(n, 'move')})"
    liked = ", ".join(move_term_words(name) for name, v in parts if v > 0)
    words = f"weighted move: {liked}" if liked else "weighted move"
    return reason, short(f"weighted move {signed(weight)}"), words


def search_reason(res: SearchResult, move: Move) -> tuple[str, str, str]:
    """(reason, short, words) of the search's move: depth (``+`` when cut short), score,
    line; in words only the score, for the side that moved."""
    score = score_text(res.score)
    depth = f"depth {res.depth}" + ("" if res.complete else "+")
    core = "" if res.native else f"; {pure_search_note()}"
    reason = (f"search {depth}: {score}, line {line_text(res.line) or move_text(move)} "
              f"({plural(res.nodes, 'node')}, {res.seconds:.2f} s{core})")
    return reason, short(f"search {depth} {score}"), f"search: {search_words(res.score)}"


def exchange_words(pos: Position, move: Move) -> str:
    """``gives a man and wins it back: c3-d4 e5:c3 b2:d4`` where ``move`` gives men that the
    captures the capture tree expects after it take back, as many, no king taken or crowned
    (a search's "even" says nothing of it); else empty.

    >>> from kbdraughts.notation import parse_fen, parse_move
    >>> pos = parse_fen("W:Wa1,b2,c3:Be5")
    >>> exchange_words(pos, parse_move(pos, "c3-d4"))
    'gives a man and wins it back: c3-d4 e5:c3 b2:d4'
    """
    after = play(pos, move)
    if move.captured or not captures(after):
        return ""
    line = (move,) + exchange(after, pos.side).moves
    counts, at = [0, 0], pos  # pieces taken by the mover, by the other side
    for m in line:
        if m.crowned or m.captured & at.kings:
            return ""
        counts[at.side != pos.side] += m.captured.bit_count()
        at = play(at, m)
    taken, given = counts
    if not given or taken != given:
        return ""
    what = "a man and wins it back" if given == 1 else \
        f"{_NUMBERS[given] if given < len(_NUMBERS) else given} men and wins them back"
    return f"gives {what}: {line_text(line)}"


_NUMBERS = ("no", "a", "two", "three", "four", "five", "six")


def pure_search_note() -> str:
    """Why a search ran on the pure-Python path: no native core, or an evaluation it does not
    hold (more features in `when`s than its rows hold, which the heuristic's loader warned of
    at the line, or an evaluation function of the caller's own)."""
    if native.core is None:  # (in a reason's parentheses: describe()'s would nest)
        return f"pure-Python search: {native.why_pure}"
    return "pure-Python search: the native core does not know this evaluation"


def search_words(score: float) -> str:
    """``wins in 3 moves``, ``+1.5 men for itself``, ``even``."""
    said = outcome_text(score)
    return said if said == "even" or abs(score) >= WIN - MATE_ZONE or by_tables(score) \
        else f"{said} {FOR_ITSELF}"


_OWN_OUTCOME = re.compile(r"(?<=: )(wins|loses) (in|by) ")


def said_for(words: str, side: str) -> str:
    """A reason's words (said by the side that chose: ``for itself``) as a reader is told them:
    ``side`` is ``you`` (a hint: the move is the person's) or the side's name.

    >>> said_for("search: -0.1 men for itself", "you"), said_for("search: wins in 3 moves", "you")
    ('search: -0.1 men for you', 'search: you win in 3 moves')
    >>> said_for("search: wins by the endgame tables", "you")
    'search: you win by the endgame tables'
    >>> said_for("capture tree: +2 men for itself", "Black")
    'capture tree: +2 men for Black'
    >>> said_for("search: loses in 2 moves", "White")
    'search: White loses in 2 moves'
    """
    words = words.replace(FOR_ITSELF, f"for {side}")
    if side == "you":
        return _OWN_OUTCOME.sub(lambda m: f"you {m[1][:-1]} {m[2]} ", words)
    return _OWN_OUTCOME.sub(lambda m: f"{side} {m[1]} {m[2]} ", words)


def only_move_reason(move: Move) -> tuple[str, str, str]:
    return f"only move {move_text(move)}", "only move", "only move"


def endgame_reason(move: Move, said: str, draw: bool) -> tuple[str, str, str]:
    """The endgame database's move: ``said`` is the position's verdict in words."""
    what = f"{move_text(move)} holds the draw" if draw else move_text(move)
    words = f"endgame database: {said}" + ("; it holds the draw" if draw else "")
    return f"endgame database: {said}; {what}", short(f"egdb {said}"), words
