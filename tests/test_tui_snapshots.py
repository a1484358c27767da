"""Snapshots of every board at a few positions, in color and with NO_COLOR.

Run ``pytest tests/test_tui_snapshots.py --snapshot-update`` after a deliberate
change to how sixtui looks, then look at the new SVG files before committing.
"""

import pytest

from sixtui.rules.hexes import Hex
from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from support.prompt_thinker import PromptThinker
from support.tui_helpers import TIED_SPLIT
from support.turns import random_position

HOT_SEAT = (None, None)
# Game of 6 on 9×9: Black's diamond around D4 colors it, killing White's dot there.
ENCLOSURE = ["D5", "D4", "A1", "C4", "E4", "A3", "A5", "D3"]
# Black makes six in a row on 9×9.
CONNECT6_WIN = ["E5", "A1", "A2", "F5", "G5", "B1", "B2", "C5", "D5", "C1", "C2", "H5"]


TERMINALS = {
    "truecolor": {"TERM": "xterm-256color", "COLORTERM": "truecolor"},
    "16-colors": {"TERM": "xterm", "COLORTERM": None},
    "no-color": {"TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"},
}


@pytest.fixture(params=list(TERMINALS))
def look(request, monkeypatch):
    """The terminal the app starts in (apps read the environment when made)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name, value in TERMINALS[request.param].items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    return request.param


def playing(moves, then=()):
    """A run_before that plays ``moves`` through the session, then presses ``then``."""

    async def run_before(pilot):
        session = pilot.app.screen.session
        for move in moves:
            await session.play(move)
        await pilot.pause()
        if then:
            await pilot.press(*then)
        await pilot.pause()

    return run_before


def moving_cursor(cell, then=()):
    async def run_before(pilot):
        pilot.app.screen.board.move_cursor(cell)
        await pilot.press(*then)
        await pilot.pause()

    return run_before


def test_connect6_midgame(snap_compare, look):
    game = random_position("connect6", {}, 3, 30)
    app = SixtuiApp(GameSetup("connect6", seats=HOT_SEAT))
    assert snap_compare(app, run_before=playing(game.history))


def test_connect6_won_summary(snap_compare, look):
    app = SixtuiApp(GameSetup("connect6", size=9, seats=HOT_SEAT))
    assert snap_compare(app, run_before=playing(CONNECT6_WIN))


def test_connect6_won_board(snap_compare, look):
    app = SixtuiApp(GameSetup("connect6", size=9, seats=HOT_SEAT))
    assert snap_compare(app, run_before=playing(CONNECT6_WIN, then=["b"]))


def test_gameof6_colored_and_dead(snap_compare, look):
    app = SixtuiApp(GameSetup("gameof6", size=9, seats=HOT_SEAT))
    assert snap_compare(app, run_before=playing(ENCLOSURE))


def test_gameof6_midgame(snap_compare, look):
    game = random_position("gameof6", {}, 5, 60)
    app = SixtuiApp(GameSetup("gameof6", seats=HOT_SEAT))
    assert snap_compare(app, run_before=playing(game.history))


def test_six_placing_with_hints(snap_compare, look):
    game = random_position("six", {}, 3, 12)
    app = SixtuiApp(GameSetup("six", seats=HOT_SEAT))
    assert snap_compare(app, run_before=playing(game.history, then=["m"]))


def test_six_second_round_piece_picked(snap_compare, look):
    game = random_position("six", {}, 3, 45)
    app = SixtuiApp(GameSetup("six", seats=HOT_SEAT))
    mover = game.to_move % 2
    piece = min(cell for cell, team in game.layout().items() if team == mover)

    async def run_before(pilot):
        await playing(game.history)(pilot)
        await moving_cursor(piece, then=["enter"])(pilot)

    assert snap_compare(app, run_before=run_before)


def test_six_tied_groups(snap_compare, look):
    game = random_position("six", {}, 187, 40)
    app = SixtuiApp(GameSetup("six", seats=HOT_SEAT))

    async def run_before(pilot):
        await playing(game.history)(pilot)
        await moving_cursor(Hex(0, 0), then=["enter"])(pilot)
        await moving_cursor(Hex(0, -2), then=["enter"])(pilot)

    assert snap_compare(app, run_before=run_before)


def test_six_romanian_four_players(snap_compare, look):
    game = random_position("six", {"ruleset": "romanian", "players": 4}, 2, 9)
    app = SixtuiApp(GameSetup("six", ruleset="romanian", players=4, seats=(None,) * 4))
    assert snap_compare(app, run_before=playing(game.history))


def test_connect6_suggested_turn(snap_compare, look):
    game = random_position("connect6", {}, 3, 29)  # White to place two stones
    thinker = PromptThinker("E10 F10", wait=False)
    app = SixtuiApp(GameSetup("connect6", seats=HOT_SEAT), thinker)
    assert snap_compare(app, run_before=playing(game.history, then=["s"]))


def test_six_suggested_lift(snap_compare, look):
    thinker = PromptThinker("-2,2>-1,2:-5,6", wait=False)
    app = SixtuiApp(GameSetup("six", seats=HOT_SEAT), thinker)
    assert snap_compare(app, run_before=playing(TIED_SPLIT, then=["s", "c"]))


def test_home(snap_compare, look):
    assert snap_compare(SixtuiApp())


def test_too_small(snap_compare, look):
    app = SixtuiApp(GameSetup("connect6", seats=HOT_SEAT))
    assert snap_compare(app, terminal_size=(60, 20))


def test_six_capture_marks_the_emptied_cells(snap_compare, look):
    app = SixtuiApp(GameSetup("six", seats=HOT_SEAT))
    assert snap_compare(
        app, run_before=playing([*TIED_SPLIT, "-2,2>-1,2:0,0"], then=["c"]), terminal_size=(100, 30)
    )


def test_six_four_players_summary_covers_the_panel(snap_compare, look):
    app = SixtuiApp(GameSetup("six", players=4, seats=(None, "easy", None, "easy")))

    async def run_before(pilot):
        await pilot.app.screen.session.resign()
        await pilot.pause()

    assert snap_compare(app, run_before=run_before)
