"""``python -m kbdraughts.cli``: the ``kbdraughts`` command."""

import sys

from kbdraughts.cli import main

sys.exit(main())
