"""The ``sixtui`` command with the server in it: ``sixtui serve`` runs the SSH server,
and every other command is the interface's own (:mod:`sixtui.cli`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from sixtui.cli import Command
from sixtui.cli import main as sixtui_main

DEFAULT_CONFIG = Path("config/server.toml")
DESCRIPTION = "The sixtui SSH server: players connect with ssh -p PORT HOST."


def add_options(parse: argparse.ArgumentParser) -> None:
    parse.add_argument(
        "--config",
        type=Path,
        help=f"settings file (default: $SIXTUI_CONFIG, else {DEFAULT_CONFIG} if there is one)",
    )
    parse.add_argument("--host", help="address to listen on")
    parse.add_argument("--port", help="TCP port")
    parse.add_argument("--data-dir", help="where the host key and names are kept")
    parse.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="any other setting"
    )


def _serve(arguments: argparse.Namespace) -> int:
    from sixtui.server.__main__ import run  # the server's libraries load only to serve

    return run(arguments)


SERVE = Command(
    help="run the SSH server", description=DESCRIPTION, add_arguments=add_options, run=_serve
)


def main(argv: Sequence[str] | None = None) -> int:
    return sixtui_main(argv, {"serve": SERVE})
