"""The ``sixtui`` command, also ``python -m sixtui``: the interface's own commands
(:mod:`sixtui.cli`) and ``serve``, which runs the SSH server."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from sixtui import cli
from sixtui.server.settings import ENV_PREFIX, Settings

DEFAULT_CONFIG = Path("config/server.toml")
DESCRIPTION = (
    "The sixtui SSH server: players connect with ssh -p PORT HOST. Each setting comes from "
    f"the settings file, then {ENV_PREFIX}NAME variables, then these options; the defaults "
    "shown are those used when none of them sets it."
)


def add_serve(commands: cli.Commands) -> None:
    """Adds ``serve`` to the command's ``commands``."""
    defaults = Settings()
    serve = commands.add_parser("serve", help="run the SSH server", description=DESCRIPTION)
    serve.add_argument(
        "--config",
        type=Path,
        metavar="PATH",
        help=f"settings file (default: ${ENV_PREFIX}CONFIG, else {DEFAULT_CONFIG} in the "
        "current folder if there is one, else none)",
    )
    serve.add_argument(
        "--host", metavar="ADDR", help=f"address to listen on (default: {defaults.host})"
    )
    serve.add_argument("--port", metavar="N", help=f"TCP port (default: {defaults.port})")
    serve.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where the host key and player names are kept "
        f"(default: {defaults.data_dir}, in the current folder)",
    )
    serve.add_argument(
        "--workers",
        metavar="N",
        help=f"server processes sharing the port (default: {defaults.workers}; more than 1 "
        "needs hub set to a Redis URL)",
    )
    serve.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="any other setting"
    )
    # The number of one of those processes, given by the server that starts them.
    serve.add_argument("--worker", type=int, help=argparse.SUPPRESS)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command ``argv`` asks for."""
    arguments = cli.parser(add_serve).parse_args(argv)
    if arguments.command == "serve":
        from sixtui.server.serve import run  # the server's libraries load only to serve

        return run(arguments)
    return cli.run(arguments)
