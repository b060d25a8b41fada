"""The argument types every command shares: one message per mistake, the same in every command."""

from __future__ import annotations

import argparse

import pytest

from kbdraughts.ai.spec import PlayerSpec
from kbdraughts.cli import args
from kbdraughts.cli.args import USAGE_ERROR, ArgumentParser


def message(parse, text: str) -> str:
    with pytest.raises(argparse.ArgumentTypeError) as e:
        parse(text)
    return str(e.value)


def test_usage_error_is_2():
    assert USAGE_ERROR == 2


def test_whole_numbers():
    assert args.whole_number("depth")("0") == 0
    assert message(args.whole_number("depth"), "x") == "depth must be a whole number, got 'x'"
    assert message(args.positive("games"), "0") == "games must be 1 or more, got 0"
    assert args.integer("-3") == -3
    assert message(args.integer, "1.5") == "expected a whole number, got '1.5'"


@pytest.mark.parametrize("text, said", [("7", "level must be from 1 to 4, got 7"),
                                        ("0", "level must be 1 or more, got 0"),
                                        ("x", "level must be a whole number, got 'x'")])
def test_level(text: str, said: str):
    assert message(args.level, text) == said
    assert [args.level(str(n)) for n in range(1, 5)] == [1, 2, 3, 4]


def test_seconds():
    assert args.seconds("0") == 0.0 and args.seconds("1.5") == 1.5
    assert message(args.seconds, "-1") == "expected seconds >= 0, got '-1'"
    assert message(args.seconds, "soon") == "expected seconds, got 'soon'"


def test_player_is_a_player_spec_with_its_messages():
    assert args.player(" KB:2:nokb ") == PlayerSpec("kb", level=2, use_kb=False)
    assert args.player("me").is_human
    assert message(args.player, "kb:7") == "level must be from 1 to 4, got 7"
    assert message(args.player, "wizard").startswith("unknown player 'wizard': use human, ")


def test_rules_once_per_path_leaves_the_fens_alone():
    p = ArgumentParser(prog="t")
    args.add_fens(p)
    args.add_rules(p, "rules")
    got = p.parse_args(["--rules", "a.txt", "W:Wc3:Bd4", "B:Wa1:Bh8"])
    assert (got.rules, got.fens) == (["a.txt"], ["W:Wc3:Bd4", "B:Wa1:Bh8"])
    got = p.parse_args(["W:Wc3:Bd4", "B:Wa1:Bh8", "--rules", "a.txt", "--rules", "dir"])
    assert (got.rules, got.fens) == (["a.txt", "dir"], ["W:Wc3:Bd4", "B:Wa1:Bh8"])
    assert p.parse_args([]).rules is None


def test_a_usage_error_is_one_line_and_status_2(capsys):
    p = ArgumentParser(prog="kbdraughts t")
    p.add_argument("--n", type=args.positive("n"))
    with pytest.raises(SystemExit) as e:
        p.parse_args(["--n", "0"])
    assert e.value.code == USAGE_ERROR
    assert capsys.readouterr().err == \
        "kbdraughts t: error: argument --n: n must be 1 or more, got 0 (see --help)\n"


def test_fail_says_which_command(capsys):
    assert args.fail("match", "cannot write x") == USAGE_ERROR
    assert capsys.readouterr().err == "kbdraughts match: cannot write x\n"


@pytest.mark.parametrize("argv", [["perft", "1", "--fen", ""], ["perft", "1", "--fen", " \t"],
                                  ["play", "--fen", ""]])
def test_an_empty_fen_is_refused_not_taken_for_the_start(argv, capsys):
    from kbdraughts.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == USAGE_ERROR
    out = capsys.readouterr()
    assert out.out == "" and "argument --fen: empty FEN" in out.err


def test_a_message_quoting_a_huge_input_is_cut_short(capsys):
    import io

    from kbdraughts.cli.answer import answer_each
    from kbdraughts.notation import parse_fen

    huge = "W:W" + "zz" * 100_000
    assert answer_each([huge], lambda text: str(parse_fen(text)), stdin=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("kbdraughts: bad FEN: argument 1: ") and len(err) < 1200
    assert err.rstrip().endswith("characters)")
