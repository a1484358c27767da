"""The ``sixtui`` command.

``sixtui`` opens the home screen; ``sixtui play [GAME] [options]`` opens a game at once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sixtui.ai import LEVELS
from sixtui.rules.six import RULESETS
from sixtui.tui.game_setup import DEFAULT_SIZE, TITLES, GameSetup


@dataclass(frozen=True)
class Command:
    """A command that another package adds to ``sixtui``, as the server adds ``serve``."""

    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def parser(more: Mapping[str, Command] | None = None) -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="sixtui",
        description="Connect6, Game of 6 and Six in the terminal; no command: the home screen.",
    )
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
        "it plays seats 1, 2, 3 in turn and the seats left are people. You are seat 0.",
    )
    play.set_defaults(error=play.error)
    for name, command in (more or {}).items():
        added = commands.add_parser(name, help=command.help, description=command.description)
        command.add_arguments(added)
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


def main(argv: Sequence[str] | None = None, more: Mapping[str, Command] | None = None) -> int:
    """Runs the command ``argv`` asks for; ``more`` are commands other packages add."""
    more = more or {}
    arguments = parser(more).parse_args(argv)
    if arguments.command in more:
        return more[arguments.command].run(arguments)
    setup = None
    if arguments.command == "play":
        try:
            setup = setup_from(arguments)
        except ValueError as why:
            arguments.error(str(why))  # the usage of "play", then exit status 2
    from sixtui.tui.app import SixtuiApp  # Textual loads only when a screen is wanted

    SixtuiApp(setup).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
