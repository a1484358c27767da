"""``python -m sixtui``: the same as the ``sixtui`` command."""

import sys

from sixtui.server.cli import main

if __name__ == "__main__":
    sys.exit(main())
