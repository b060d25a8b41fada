"""``kbdraughts moves`` and ``kbdraughts perft``: the rules core for scripts.

Output formats are relied upon by other programs; keep them exactly.
"""

from __future__ import annotations

import argparse
import sys

from kbdraughts.cli.args import USAGE_ERROR, add_fens, fen_option, one_line, whole_number

#: The deepest perft asked for: the start position's tree at depth 12 already takes many
#: minutes in Python and grows some sevenfold per ply, so a deeper count would never finish.
MAX_PERFT_DEPTH = 20


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "moves", help="legal moves of each position",
        description="One line per position: its legal moves in full-path notation, separated by "
        "spaces (empty when there are none). With no FEN, reads FENs from stdin, one per line.",
    )
    add_fens(p)
    p.set_defaults(func=run_moves)
    p = sub.add_parser(
        "perft", help="count the leaf nodes of the move tree",
        description="Print the number of leaf nodes DEPTH plies deep (the last line); --divide "
        "first lists each root move with its count.",
    )
    p.add_argument("depth", type=whole_number("depth", 0, MAX_PERFT_DEPTH), metavar="DEPTH",
                   help=f"plies to look ahead, 0..{MAX_PERFT_DEPTH}")
    p.add_argument("--fen", type=fen_option,
                   help="start from this position (default: the initial position)")
    p.add_argument("--divide", action="store_true",
                   help="list each root move with its count (default: the total alone)")
    p.set_defaults(func=run_perft)


def run_moves(args: argparse.Namespace) -> int:
    from kbdraughts.board import legal_moves
    from kbdraughts.cli.answer import answer_each
    from kbdraughts.notation import moves_text, parse_fen

    return answer_each(args.fens, lambda text: " ".join(moves_text(legal_moves(parse_fen(text)))))


def run_perft(args: argparse.Namespace) -> int:
    from kbdraughts.board import divide, perft
    from kbdraughts.notation import START, FenError, move_text, moves_text, parse_fen

    try:
        pos = START if args.fen is None else parse_fen(args.fen)
    except FenError as e:
        print(f"kbdraughts perft: bad FEN: {one_line(str(e))}", file=sys.stderr)
        return USAGE_ERROR
    if args.divide and args.depth >= 1:
        rows = divide(pos, args.depth)
        for move, n in sorted(rows, key=lambda r: moves_text([r[0]])):
            print(f"{move_text(move)} {n}")
        print(sum(n for _, n in rows))
    else:
        print(perft(pos, args.depth))
    return 0
