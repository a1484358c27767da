"""The ``sixtui`` command's interface: ``sixtui`` opens the home screen; ``sixtui play
[GAME] [options]`` opens a game at once.

The command itself, ``serve`` included, is :func:`sixtui.server.cli.main`: it adds the
server's command to this parser.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtui import __version__
from sixtui.ai import LEVELS
from sixtui.rules.six import RULESETS
from sixtui.tui.game_setup import DEFAULT_SIZE, TITLES, GameSetup

NO_TERMINAL = (
    "sixtui needs a terminal: run it in one, with neither its input nor its output redirected"
)

if TYPE_CHECKING:
    # What add_subparsers returns, a type argparse names only privately.
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]


def parser(add_more: Callable[[Commands], None] | None = None) -> argparse.ArgumentParser:
    """The command's arguments; ``add_more`` adds commands to those of the interface."""
    top = argparse.ArgumentParser(
        prog="sixtui",
        description="Connect6, Game of 6 and Six in the terminal; no command: the home screen.",
    )
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    play = commands.add_parser(
        "play",
        help="open a game at once",
        description="Open a game at once: hot-seat, or against the computer with --vs.",
    )
    play.add_argument(
        "game", nargs="?", default="connect6", choices=list(TITLES), help="default: connect6"
    )
    play.add_argument(
        "--ruleset", default="steffen", choices=list(RULESETS), help="Six only (default: steffen)"
    )
    play.add_argument(
        "--players", type=int, default=2, choices=(2, 4), help="Six only: 2, or 4 as two teams"
    )
    play.add_argument(
        "--size",
        type=int,
        help=f"Connect6 and Game of 6: the board's width (default {DEFAULT_SIZE})",
    )
    play.add_argument(
        "--declare",
        action="store_true",
        help="Six, romanian rulesets: shapes win only when declared",
    )
    play.add_argument(
        "--vs",
        action="append",
        default=[],
        choices=LEVELS,
        metavar="LEVEL",
        help=f"the computer ({', '.join(LEVELS)}) plays the other side; given several times, "
        "it plays seats 2, 3, 4 in turn and the seats left are people. You are seat 1.",
    )
    play.set_defaults(error=play.error)
    if add_more is not None:
        add_more(commands)
    return top


def setup_from(arguments: argparse.Namespace) -> GameSetup:
    """The table the ``play`` arguments ask for; raises ValueError saying what is wrong."""
    six = arguments.game == "six"
    if six and arguments.size is not None:
        raise ValueError("--size is an option of connect6 and gameof6, not six")
    if not six and (arguments.players != 2 or arguments.ruleset != "steffen" or arguments.declare):
        raise ValueError(
            f"--players, --ruleset and --declare are options of six, not {arguments.game}"
        )
    options: dict[str, object] = (
        {"ruleset": arguments.ruleset, "declare": arguments.declare}
        if six
        else {"size": arguments.size or DEFAULT_SIZE}
    )
    if arguments.vs:
        return GameSetup.against(arguments.game, arguments.vs, arguments.players, **options)
    return GameSetup(
        arguments.game, players=arguments.players, seats=(None,) * arguments.players, **options
    )


def has_terminal() -> bool:
    """Whether both standard input and output are a terminal, as the screens need."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def run(arguments: argparse.Namespace) -> int:
    """Opens the home screen, or with ``play`` the table its options ask for; refuses at
    once without a terminal, where the screens would wait for keys that never come."""
    setup = None
    if arguments.command == "play":
        try:
            setup = setup_from(arguments)
        except ValueError as why:
            arguments.error(str(why))  # the usage of "play", then exit status 2
    if not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 1
    from sixtui.tui.app import SixtuiApp  # Textual loads only when a screen is wanted

    SixtuiApp(setup).run()
    return 0
