"""Fuzzing the files a person writes for the knowledge base (issue 11): rule files through
`parse_rules` and `kbdraughts rules check`, weights files through the terms parser. Whatever
the file holds, the answer is diagnostics with `path:line:` (and nothing that would put a
control character on the terminal), never an exception. Seeded and bounded (a few seconds).
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest

from kbdraughts.files import control_character, editor_lines
from kbdraughts.kb.combos import parse_rules
from kbdraughts.eval.terms import MAX_WEIGHT, HeuristicFileError, parse_terms, read_terms
from kbdraughts.resources import combos_dir
from test_core_fuzz import junk, mutate

DATA = Path(__file__).parent / "data" / "rules"
#: Edits a hostile file makes beyond the core fuzz's: numbers Python's int() refuses, escape
#: sequences, every line break str.splitlines() knows, a carriage return too many.
NASTY = ["9" * 5000, "-" + "1" * 4400, "1" * 19, "\x1b[2J", "\x9b31m", "\r\r\n", "\f", "\v",
         "\x1c", "\x85", "\u2028", "\u2029", "\x00", "\x7f", "\ufeff", "\t", "#", ":", "..",
         "rule ", "  board:\n", "  play: ", "  pieces: white ", "symbols:\n  Z = . w\n"]


def _blocks(text: str, rng: random.Random, lines: int = 60) -> str:
    """A window of a large shipped file, starting at one of its rules."""
    starts = [m.start() for m in re.finditer(r"^rule ", text, re.M)]
    start = rng.choice(starts)
    return "\n".join(text[start:].split("\n")[:lines]) + "\n"


def hostile(rng: random.Random, text: str) -> str:
    """``text`` mutated as the core fuzz does, with a few of the NASTY edits besides."""
    if rng.random() < 0.3:  # a number field Python's int() would refuse
        text = re.sub(r"(priority: *|sacrifice: *|white |black |\.\.)\d+",
                      lambda m: m.group(1) + rng.choice(NASTY[:3]), text, count=rng.randint(1, 3))
    text = mutate(rng, text, steps=2)
    for _ in range(rng.randint(0, 3)):
        i = rng.randint(0, len(text))
        text = text[:i] + rng.choice(NASTY) + text[i:]
    return text


def _samples(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    sources = [(DATA / "good.txt").read_text(encoding="utf-8"),
               (DATA / "errors.txt").read_text(encoding="utf-8")]
    shipped = [(combos_dir() / name).read_text(encoding="utf-8")
               for name in ("openings.txt", "motifs.txt", "endgames.txt")]
    out = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.05:
            out.append(junk(rng, 200))
        else:
            base = rng.choice(sources) if roll < 0.6 else _blocks(rng.choice(shipped), rng)
            out.append(hostile(rng, base))
    return out


def _check_diagnostics(text: str, path: str) -> None:
    rules, warnings, errors = parse_rules(text, path)
    last = max(1, len(editor_lines(text)))
    for d in warnings + errors:
        shown = str(d)
        assert shown.startswith(f"{path}:{d.line}: {d.level}: "), shown
        assert 1 <= d.line <= last, (d, last)
        assert "\n" not in shown and control_character(shown) is None, shown
    for r in rules:
        assert control_character(r.name) is None and control_character(r.play) is None


def test_parse_rules_gives_only_diagnostics_on_hostile_files():
    for text in _samples(seed=11, count=1500):
        try:
            _check_diagnostics(text, "fuzz.txt")
        except AssertionError:
            raise
        except Exception as e:  # pragma: no cover - the failure message shows the file
            pytest.fail(f"parse_rules raised {e!r} on {text!r}")


def test_rules_check_on_hostile_files_and_random_bytes(tmp_path: Path, capsys):
    from kbdraughts.cli import main

    rng = random.Random(1111)
    files = [t.encode("utf-8") for t in _samples(seed=12, count=150)]
    files += [bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))) for _ in range(10)]
    files += [b"\xef\xbb\xbf" + f for f in files[:3]]
    for n, data in enumerate(files):
        f = tmp_path / f"r{n}.txt"
        f.write_bytes(data)
        try:
            status = main(["rules", "check", str(f)])
        except Exception as e:  # pragma: no cover
            pytest.fail(f"rules check raised {e!r} on {data!r}")
        out, err = capsys.readouterr()
        assert status in (0, 1) and err == "", (data, err)
        *findings, summary = out.splitlines()
        assert summary.startswith("1 file, ") and f"{status and 'error' or '0 errors'}" in summary
        last = max(1, data.count(b"\n") + (not data.endswith(b"\n")))
        for line in findings:
            m = re.match(rf"{re.escape(str(f))}:(\d+): (error|warning): ", line)
            assert m and 1 <= int(m.group(1)) <= last, (line, last)
            assert control_character(line) is None, line


def test_rules_match_on_hostile_files_reports_or_answers(tmp_path: Path, capsys):
    from kbdraughts.cli import main

    for n, text in enumerate(_samples(seed=13, count=40)):
        f = tmp_path / f"m{n}.txt"
        f.write_text(text, encoding="utf-8")
        status = main(["rules", "match", "--rules", str(f), "W:Wc3,e3:Bd4,f6"])
        out, err = capsys.readouterr()
        assert status in (0, 2)
        if status == 2:
            assert err.splitlines()[0].startswith(f"{f}:") and "Traceback" not in err


# --- the weights file ----------------------------------------------------------------------


def test_terms_parser_gives_only_heuristic_file_errors():
    base = (combos_dir() / "heuristic.txt").read_text(encoding="utf-8")
    rng = random.Random(14)
    texts = [hostile(rng, base) for _ in range(1000)]
    texts += [junk(rng, 200) for _ in range(30)]
    texts += [base + f"weight big {rng.choice(['9' * 400, '1' * 310 + '.5', '10000.5'])}\n"
              for _ in range(5)]
    for text in texts:
        try:
            terms = parse_terms(text, "h.txt")
        except HeuristicFileError as e:
            assert re.match(r"h\.txt:\d+: error: ", str(e)), str(e)
            line = int(str(e).split(":")[1])
            assert 1 <= line <= max(1, len(editor_lines(text))), (str(e), text)
            assert "\n" not in str(e) and control_character(str(e)) is None, str(e)
            continue
        except Exception as e:  # pragma: no cover
            pytest.fail(f"parse_terms raised {e!r} on {text!r}")
        assert all(math.isfinite(t.weight) and abs(t.weight) <= MAX_WEIGHT for t in terms)


def test_weights_files_of_random_bytes():
    rng = random.Random(15)
    base = (combos_dir() / "heuristic.txt").read_bytes()
    for _ in range(60):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            data.insert(rng.randint(0, len(data)), rng.randrange(256))
        if rng.random() < 0.2:
            data = bytearray(rng.randrange(256) for _ in range(rng.randint(0, 200)))
        try:
            read_terms(bytes(data), "h.txt")
        except HeuristicFileError as e:
            assert re.match(r"h\.txt:\d+: error: ", str(e)), str(e)



# --- motif blocks and defines (issue 19) ----------------------------------------------------

#: Terms a generated literal takes: variables (a few, so they meet), squares, light squares,
#: directions, words, numbers small and huge, and nothing at all.
TERMS = ["S", "T", "X", "D", "N", "K", "S", "T", "d4", "c3", "a1", "h8", "e4", "fl", "br", "up",
         "0", "1", "3", "99", "9" * 5000, "", "_", "Man"]


#: Conditions that fit the good body (S, T squares; D a direction; N, R numbers).
WELL_FORMED = ["not our_king(S)", "hanging(S, N)", "after(S-T, they_take(N))", "N >= 1",
               "after(S-T, threat(M))", "their_shot(d6, c5, N)", "king_attacks(S, N)",
               "after(S-T, crowns_within(2))", "after(S-T, catches_within(3))",
               "rank(T, R), R > 3", "our_men(N), N > 2", "after(S-T, safe(T))",
               "after(S-T, exchange(N)), N >= 0", "after(S-T, king_attacks(T, N))",
               "not their_piece(d4)", "D == fl", "S != T", "capture(S, X, N)"]


def _literal(rng: random.Random, names: list[str]) -> str:
    from kbdraughts.kb.motifs.motif import VOCABULARY

    roll = rng.random()
    if roll < 0.12:
        return f"{rng.choice(TERMS)} {rng.choice(['<', '<=', '>', '>=', '==', '=', '!='])} " \
               f"{rng.choice(TERMS)}"
    pred = rng.choice([*VOCABULARY, *names, "bogus"])
    arity = len(VOCABULARY[pred].types) if pred in VOCABULARY else rng.randint(0, 3)
    arity += rng.choice([0, 0, 0, 0, 1, -1]) if arity else 0
    args = [rng.choice(TERMS) for _ in range(max(arity, 0))]
    if pred.startswith("after_") and len(args) >= 2:
        rest = f"({', '.join(args[2:])})" if args[2:] else ""
        text = f"after({args[0]}-{args[1]}, {pred[6:]}{rest})"
    else:
        text = f"{pred}({', '.join(args)})" if args else pred
    return ("not " if rng.random() < 0.15 else "") + text


def motif_file(rng: random.Random) -> str:
    """A few defines and motifs built from the vocabulary at random, some well formed, most
    not: arities, kinds of terms, unbound variables, claims, lines that go on."""
    names = [f"p{i}" for i in range(rng.randint(0, 3))]
    out = []
    for name in names:
        for _ in range(rng.randint(1, 3)):
            params = rng.sample(["A", "B", "C"], rng.randint(1, 3))
            body = ", ".join(_literal(rng, [n for n in names if n != name])
                             for _ in range(rng.randint(1, 4)))
            out.append(f"define {name}({', '.join(params)}) :- {body}\n")
    for i in range(rng.randint(1, 4)):
        good = "our_man(S), next(S, T, D), forward(D), empty(T), step(S, T)"
        if rng.random() < 0.4:  # well formed: the answers are exercised, not just the parser
            when = ", ".join([good, *rng.sample(WELL_FORMED, rng.randint(0, 3))])
        else:
            when = ", ".join([good] * (rng.random() < 0.5) + [
                _literal(rng, names) for _ in range(rng.randint(0, 5))]) or good
        if rng.random() < 0.3:
            when = when.replace(", ", ",\n    ", 1)
        sep = rng.choice(["-", "-", ":", "--"])
        play = sep.join(rng.choice(["S", "T", "S", "T", "X", "D", "N", "", "5", "99", "d4",
                                    "e4"])
                        for _ in range(rng.choice([2, 2, 2, 1, 3])))
        claim = rng.choice(["gain: 1", "gain: 0", "promise: crowns", "warning: w", "gain: x",
                            "gain: " + "9" * 30, ""])
        fields = [f"  play: {play}" * (not claim.startswith("warning")), f"  when: {when}",
                  f"  {claim}" * bool(claim), "  example: W:Wc3,e3:Bd4,f6"]
        rng.shuffle(fields)
        out.append(f"motif f-{i}\n" + "\n".join(f for f in fields if f) + "\n")
    rng.shuffle(out)
    return "".join(out)


def test_motif_blocks_give_file_line_errors_and_total_motifs(tmp_path: Path):
    """Whatever the blocks hold: diagnostics at a line of the file, never an exception; and
    every motif that loads compiles and answers any position without one (king-heavy ones
    included)."""
    from kbdraughts.game import random_walk
    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.notation import parse_fen

    rng = random.Random(19)
    positions = [p for i, p in enumerate(random_walk(random.Random(3), 60)) if i % 15 == 7]
    positions.append(parse_fen("W:WKa1,Kc1,Ke1,Kg1,Kb2,Kd2:BKb8,Kd8,Kf8,Kh8,Ka7,Kc7"))
    loaded = 0
    for n in range(250):
        text = motif_file(rng)
        f = tmp_path / f"f{n}.txt"
        f.write_text(text, encoding="utf-8")
        try:
            kb = load_knowledge_base([f], skip_faulty=True)
            for pos in positions:
                kb.matches(pos)
                kb.motif_hits(pos)
        except Exception as e:  # pragma: no cover - the failure shows the file
            pytest.fail(f"{e!r} on {re.sub('999+', '9...9', text)!r}")
        last = max(1, len(editor_lines(text)))
        for d in kb.errors:
            assert str(d).startswith(f"{f}:{d.line}: error: ") and 1 <= d.line <= last, (d, text)
            assert len(str(d)) < 400 + len(str(f)), str(d)
        loaded += len(kb.motifs)
    assert loaded >= 20  # the generator makes good motifs too, so the answers are exercised


def king_heavy(rng: random.Random) -> str:
    """A position of many kings (and a few men) on random squares, either side to move."""
    from kbdraughts.notation import SQUARE_NAMES

    squares = rng.sample(sorted(SQUARE_NAMES), rng.randint(14, 24))
    half = len(squares) // 2

    def side(part: list[int], crowned: str) -> str:  # a man never stands on its crown rank
        return ",".join(("K" if rng.random() < 0.8 or SQUARE_NAMES[s][1] == crowned else "")
                        + SQUARE_NAMES[s] for s in part)

    return f"{rng.choice('WB')}:W{side(squares[:half], '8')}:B{side(squares[half:], '1')}"


def test_the_shipped_motifs_answer_king_heavy_positions_in_bounded_time():
    """The library conditions (hanging, their_shot, after ...) share a node budget per
    position: each answer comes within seconds however many kings can capture."""
    import time

    from kbdraughts.kb.knowledge import load_knowledge_base
    from kbdraughts.notation import parse_fen

    kb = load_knowledge_base([combos_dir() / "motifs.txt"])
    rng = random.Random(1919)
    for _ in range(6):
        text = king_heavy(rng)
        pos = parse_fen(text)
        started = time.monotonic()
        kb.matches(pos)
        kb.motif_hits(pos)
        assert time.monotonic() - started < 5, text
