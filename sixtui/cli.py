"""The ``sixtui`` command's interface: ``sixtui`` opens the home screen; ``sixtui play
[GAME] [options]`` opens a game at once, ``sixtui play --from FILE`` goes on from a recorded
one, and ``sixtui replay FILE`` steps through one.

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
from sixtui.rules import Game
from sixtui.rules.records import MAX_RECORD_CHARACTERS, GameRecord, RecordError
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
        "game", nargs="?", choices=list(TITLES), help="default: connect6, or the record's game"
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
    play.add_argument(
        "--from",
        dest="record",
        metavar="FILE",
        help="go on from the last position of the game recorded in FILE (docs/records.md)",
    )
    play.set_defaults(error=play.error)
    replay = commands.add_parser(
        "replay",
        help="step through a recorded game",
        description="Step through the game recorded in FILE (docs/records.md) move by move.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record")
    replay.set_defaults(error=replay.error)
    if add_more is not None:
        add_more(commands)
    return top


def setup_from(arguments: argparse.Namespace) -> GameSetup:
    """The table the ``play`` arguments ask for; raises ValueError saying what is wrong."""
    if arguments.record is not None:
        return _continued(arguments, read_record(arguments.record).game)
    arguments.game = arguments.game or "connect6"
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


def _continued(arguments: argparse.Namespace, game: Game) -> GameSetup:
    """The table going on from ``game``: its game and options are the record's, and
    ``--vs`` seats the computer as for a new game."""
    if game.result is not None:
        raise ValueError(
            f"the game in {arguments.record} is over: step through it with sixtui replay"
        )
    given = arguments.game is not None or arguments.size is not None or arguments.declare
    if given or arguments.players != 2 or arguments.ruleset != "steffen":
        raise ValueError("--from takes the game and its options from the record: give only --vs")
    options = game.options()
    seats: tuple[str | None, ...] = (None,) * game.players
    if arguments.vs:
        seats = GameSetup.against(game.name, arguments.vs, game.players, **options).seats
    return GameSetup(game.name, seats=seats, start_from=game, **options)


def read_record(path: str) -> GameRecord:
    """The game recorded in the file at ``path``; :class:`ValueError` saying what is wrong,
    with the file's name and, for a damaged record, the line."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(MAX_RECORD_CHARACTERS + 1)
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a game record: it is not UTF-8 text") from None
    try:
        return GameRecord.parse(text)
    except RecordError as error:
        raise ValueError(f"{path}, {error}") from None


def has_terminal() -> bool:
    """Whether both standard input and output are a terminal, as the screens need."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def run(arguments: argparse.Namespace) -> int:
    """Opens the home screen, or with ``play`` the table its options ask for; refuses at
    once without a terminal, where the screens would wait for keys that never come."""
    setup = replay = None
    try:
        if arguments.command == "play":
            setup = setup_from(arguments)
        elif arguments.command == "replay":
            replay = read_record(arguments.file)
    except ValueError as why:
        arguments.error(str(why))  # the command's usage, then exit status 2
    if not has_terminal():
        print(NO_TERMINAL, file=sys.stderr)
        return 1
    from sixtui.tui.app import SixtuiApp  # Textual loads only when a screen is wanted

    SixtuiApp(setup, replay=replay).run()
    return 0
