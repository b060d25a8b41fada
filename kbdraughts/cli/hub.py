"""``kbdraughts hub``: the engine on standard input and output, speaking Scan's Hub protocol.

Each parameter the engine declares may be given on the command line too, ``--NAME=VALUE``
(lidraughts-bot passes its ``engine_options`` so); ``set-param`` changes it later. The names
are listed here, not imported: building the parser stays light (``tests/test_match_hub.py``
holds them to the engine's).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from kbdraughts.cli.args import fail, report_skipped

if TYPE_CHECKING:
    from kbdraughts.ai.engine import Engine

#: The engine's parameters (``kbdraughts.match.hub_params.PARAMS``), by name, with a hint.
PARAM_HINTS = {
    "variant": "russian, the only one (default russian)",
    "level": "1..4 (default 4)",
    "kb": "true or false: the knowledge base's rules (default true)",
    "egdb-folder": "the endgame tables' folder (default $XDG_DATA_HOME/kbdraughts/egdb)",
    "egdb-pieces": "0..5: tables of up to so many pieces built at first need, 0 none "
                   "(default 4)",
    "tt-size": "14..24: the search table holds 2**N positions (default 19, 64 MB)",
    "contempt": "true or false: a draw is worth a little less to the side ahead (default true)",
    "numbering": "standard (lidraughts, pydraughts 0.5) or mirrored (pydraughts >= 0.6's "
                 "moves: 1 = a1) (default standard)",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hub", help="the engine for lidraughts-bot, pydraughts and Hub GUIs",
        description="The engine on standard input and output, speaking the Hub protocol "
        "(version 2, as Scan 3.1's protocol.txt defines it): 'hub', 'set-param', 'init', "
        "'pos pos=W... moves=\"22-18 11-15\"', 'level move-time=1' or 'level time=60 inc=1', "
        "'go think', 'done move=...'. Squares are lidraughts' Russian numbers (1 = b8, 32 = g1). "
        "A line it cannot read is answered 'error message=\"...\"' and it goes on. Every "
        "parameter may be set here too, as --NAME=VALUE. See docs/hub.md.",
    )
    for name, hint in PARAM_HINTS.items():
        p.add_argument(f"--{name}", metavar="VALUE", dest=f"param_{name}", help=hint)
    p.set_defaults(func=run_hub)


def run_hub(args: argparse.Namespace) -> int:
    from kbdraughts.cli.answer import stdin_lines
    from kbdraughts.match.hub import HubError
    from kbdraughts.match.hub_engine import HubEngine
    from kbdraughts.match.hub_params import Params

    from kbdraughts.egdb import probe as egdb_probe

    egdb_probe.tell(lambda text: print(f"kbdraughts hub: {text}", file=sys.stderr, flush=True))
    params = Params()
    for name in PARAM_HINTS:
        value = getattr(args, f"param_{name}")
        try:
            if value is not None:
                params.set(name, value)
        except HubError as e:
            return fail("hub", str(e))
    def made(engine: Engine) -> None:
        # The rules a faulty file held are skipped: named at init, as bestmove names them.
        report_skipped(engine.kb, "hub", strict=False)

    return HubEngine(sys.stdout, params, made).serve(stdin_lines(sys.stdin))
