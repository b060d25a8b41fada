"""``python -m kbdraughts``: the ``kbdraughts`` command (the command line's floor, as
``kbdraughts.cli``: nothing imports it)."""

import sys

from kbdraughts.cli import main

sys.exit(main())
