"""`python -m games.engine`: score boards, simulate games, replay a recorded game."""

import signal
import sys

from .cli import main

if __name__ == "__main__":
    # Piped into `head`, stop quietly like any other command-line tool.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
