"""``python -m sixtui``: the same as the ``sixtui`` command."""

import sys

from sixtui.cli import main

if __name__ == "__main__":
    sys.exit(main())
