"""The ``sixtui`` command: what ``sixtui play ...`` sets up, and how it refuses bad options.

The app itself never starts here: ``SixtuiApp.run`` is replaced by a recorder."""

import subprocess
import sys

import pytest

from sixtui import cli
from sixtui.server.cli import main
from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup


def setup_for(*argv: str) -> GameSetup:
    return cli.setup_from(cli.parser().parse_args(list(argv)))


@pytest.fixture
def started(monkeypatch):
    """The setups the app would have been run with, in a terminal."""
    runs: list[GameSetup | None] = []
    monkeypatch.setattr(SixtuiApp, "run", lambda app, *args, **kw: runs.append(app.setup))
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    return runs


def refused(capsys, *argv: str) -> str:
    """Runs ``sixtui ARGV``, which must stop with status 2; returns what it wrote to stderr."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


def test_no_command_means_the_home_screen(started):
    assert cli.parser().parse_args([]).command is None
    assert main([]) == 0
    assert started == [None]


def test_play_alone_is_hot_seat_connect6_on_19x19(started):
    arguments = cli.parser().parse_args(["play"])
    assert arguments.command == "play"
    assert (arguments.game, arguments.players, arguments.size, arguments.vs) == (
        None,  # connect6, unless a record names the game
        2,
        None,
        [],
    )
    assert cli.setup_from(arguments) == GameSetup("connect6", size=19, seats=(None, None))
    assert setup_for("play", "--vs", "normal") == GameSetup("connect6", seats=(None, "normal"))
    assert main(["play"]) == 0
    assert started == [GameSetup("connect6", seats=(None, None))]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["play", "six", "--players", "4", "--vs", "hard"], GameSetup.against("six", ["hard"], 4)),
        (
            ["play", "six", "--players", "4", "--vs", "easy", "--vs", "normal"],
            GameSetup("six", players=4, seats=(None, "easy", "normal", None)),
        ),
        (
            ["play", "gameof6", "--size", "10", "--vs", "easy"],
            GameSetup.against("gameof6", ["easy"], size=10),
        ),
        (["play", "connect6", "--size", "6"], GameSetup("connect6", size=6, seats=(None, None))),
        (
            ["play", "six", "--ruleset", "romanian", "--declare"],
            GameSetup("six", ruleset="romanian", declare=True, seats=(None, None)),
        ),
        (
            ["play", "six", "--ruleset", "romanian-advanced", "--players", "4"],
            GameSetup("six", ruleset="romanian-advanced", players=4, seats=(None,) * 4),
        ),
    ],
)
def test_play_options_make_the_table(argv, expected, started):
    assert setup_for(*argv) == expected
    assert main(argv) == 0
    assert started == [expected]


def test_several_levels_fill_the_seats_after_yours():
    setup = setup_for("play", "six", "--players", "4", "--vs", "easy", "--vs", "hard")
    assert setup.seats == (None, "easy", "hard", None)
    # Seats 0 and 2 are partners: you and the second computer, against the first and a person.
    sides = setup.sides()
    assert [p.name for p in sides[0]] == ["Player 1", "Hard computer"]
    assert [p.name for p in sides[1]] == ["Easy computer", "Player 2"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "connect6", "--players", "4"], "--players, --ruleset and --declare are options"),
        (["play", "six", "--size", "9"], "--size is an option of connect6 and gameof6, not six"),
        (["play", "gameof6", "--ruleset", "romanian"], "options of six, not gameof6"),
        (["play", "connect6", "--size", "30"], "a Connect6 board is 6 to 19 wide, not 30"),
        (["play", "gameof6", "--size", "7"], "a Game of 6 board is 8 to 26 wide, not 7"),
        (["play", "--size", "ten"], "invalid int value: 'ten'"),
        (["play", "--vs", "easy", "--vs", "normal"], "2 players leave 1"),
        (["play", "six", "--declare"], "declaring is part of the romanian rulesets only"),
        (["play", "six", "--players", "3"], "invalid choice: 3"),
        (["play", "chess"], "invalid choice: 'chess'"),
        (["play", "--vs", "expert"], "invalid choice: 'expert'"),
        (["replay"], "the following arguments are required: FILE"),
    ],
)
def test_bad_options_stop_with_a_message_before_the_app_starts(capsys, started, argv, message):
    err = refused(capsys, *argv)
    assert message in err
    assert "sixtui" in err and "error:" in err
    assert started == []


def test_help_names_the_games_and_the_levels(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    for word in ("connect6", "gameof6", "six", "easy", "normal", "hard", "--vs", "--size"):
        assert word in out
    # Seats are numbered from 1, as on the home screen.
    assert "it plays seats 2, 3, 4 in turn and the seats left are people. You are seat 1." in (
        " ".join(out.split())
    )


def test_without_a_terminal_the_app_does_not_start(capsys, started, monkeypatch):
    monkeypatch.setattr(cli, "has_terminal", lambda: False)
    assert main([]) == 1
    assert main(["play", "six"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"{cli.NO_TERMINAL}\n" * 2
    assert started == []


def sixtui_without_a_terminal(*argv: str) -> subprocess.CompletedProcess[str]:
    """Runs the command with its input from /dev/null and its output to a pipe; the
    timeout only keeps a command that waits for keys from holding up the suite."""
    command = [sys.executable, "-m", "sixtui", *argv]
    return subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120
    )


def test_the_command_refuses_at_once_without_a_terminal():
    stopped = sixtui_without_a_terminal()
    assert stopped.returncode == 1
    assert (stopped.stdout, stopped.stderr) == ("", f"{cli.NO_TERMINAL}\n")
    assert "sixtui needs a terminal" in cli.NO_TERMINAL


def test_help_and_version_need_no_terminal():
    helped = sixtui_without_a_terminal("--help")
    assert helped.returncode == 0 and "serve" in helped.stdout
    shown = sixtui_without_a_terminal("--version")
    assert shown.returncode == 0 and shown.stdout.startswith("sixtui ")
