"""Driving sixtui's screens in tests: opening a table, moving the cursor, reading what is drawn."""

import asyncio
import contextlib
import re

from textual import events

from sixtui.ai.worker import Thinker
from sixtui.rules import Result, Square, new_game
from sixtui.rules.hexes import Hex
from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.replay import ReplayScreen
from sixtui.tui.widgets.hex_board import HexBoard
from sixtui.tui.widgets.keys import KeyBar

SIZE = (80, 24)
DEADLINE = 10.0  # seconds a computer turn may take before a test gives up on it

# A steffen game of Six after all 38 pieces are placed (found by random play). Black is to
# move, and lifting -2,2 splits the layout into two groups of 17 pieces that tie for
# largest (the one holding -5,6 and the one holding -1,-2) and a group of 3; moved to
# -1,2 the piece touches both large groups.
# fmt: off
TIED_SPLIT = [
    "0,0", "-1,1", "-2,2", "-2,3", "0,-1", "-2,4", "-2,5", "-1,5", "0,1", "-2,6",
    "1,-1", "0,-2", "-3,7", "1,-3", "-1,4", "-1,-2", "0,5", "1,4", "0,-3", "-3,5",
    "2,3", "2,4", "2,-2", "-4,6", "3,-3", "3,4", "0,2", "-1,6", "4,-4", "-1,0",
    "-3,2", "-4,3", "-5,6", "3,3", "1,2", "5,-4", "-3,1", "5,-3",
]
# fmt: on
# Black makes six in a row on 9×9, H5 last.
CONNECT6_WIN = ["E5", "A1", "A2", "F5", "G5", "B1", "B2", "C5", "D5", "C1", "C2", "H5"]


def hot_seat(game: str, players: int = 2, **options) -> SixtuiApp:
    """An app opened on a table where people play every seat."""
    setup = GameSetup(game, players=players, seats=(None,) * players, **options)
    return SixtuiApp(setup, computer_pause=0)


@contextlib.asynccontextmanager
async def started_thinker():
    """A Thinker whose worker process is already running.

    It is started before any app runs: a worker started inside a running app fails
    (see ``test_the_computer_moves_in_a_freshly_started_app``).
    """
    async with Thinker() as thinker:
        await thinker.think(new_game("six"), "easy")
        yield thinker


async def resign_the_last_game(pilot) -> None:
    """In a hot-seat Game of 6, as if five games had been won by the side that opened the
    first: White resigns the sixth, which ends the match, and its summary is shown."""
    session = game_screen(pilot.app).session
    for _ in range(5):
        session.match.record(Result(0, "resign", (6, 0)))
    await pilot.press("r", "y")
    await pilot.pause()
    assert session.match.is_over


def game_screen(app: SixtuiApp) -> GameScreen | ReplayScreen:
    """The game screen (or a replay's), even under a dialog or the help."""
    return next(
        screen
        for screen in reversed(app.screen_stack)
        if isinstance(screen, GameScreen | ReplayScreen)
    )


async def play_all(app: SixtuiApp, moves) -> None:
    """Plays ``moves`` through the session, as set-up for what a test does with keys."""
    for move in moves:
        await game_screen(app).session.play(move)


def screen_names(app: SixtuiApp) -> list[str]:
    return [type(screen).__name__ for screen in app.screen_stack]


def drawn_lines(app: SixtuiApp) -> list[str]:
    """The board as the player sees it, one string a line."""
    return ["".join(text for text, _ in line) for line in game_screen(app).board._drawn]


def run_at(app: SixtuiApp, x: int, y: int) -> tuple[str, str]:
    """The drawn run (text, style names) that covers board offset ``x, y``."""
    start = 0
    for text, names in game_screen(app).board._drawn[y]:
        if start <= x < start + len(text):
            return text, names
        start += len(text)
    raise AssertionError(f"nothing is drawn at {x},{y}")


def offset_of(app: SixtuiApp, cell: Square | Hex | str) -> tuple[int, int]:
    """Where ``cell`` is drawn on the board (it must be in view)."""
    board = game_screen(app).board
    if isinstance(board, HexBoard):
        cell = Hex.parse(cell) if isinstance(cell, str) else cell
        view_x, view_y = board._view
        x, y = 2 * cell.q + cell.r - view_x, cell.r - view_y
    else:
        cell = Square.parse(cell) if isinstance(cell, str) else cell
        left, top = board._origin
        rows = board._shown[1]
        x = left + 2 * (cell.col - board._first_col)
        y = top + rows - 1 - (cell.row - board._first_row)
    assert board.cell_at(x, y) == cell, f"{cell} is not drawn at {x},{y}"
    return x, y


def glyph_at(app: SixtuiApp, cell: Square | Hex | str) -> tuple[str, str]:
    """The glyph drawn for ``cell`` and its style names."""
    return run_at(app, *offset_of(app, cell))


def panel(app: SixtuiApp, name: str) -> str:
    """The text the side panel draws as its title, terms (rated or not, the clock, whether
    one watches), seats, teams (Six: pieces in hand and on the table), status, score,
    moves, chat or message, told apart by the styles it draws them in."""
    side = game_screen(app).panel
    kinds = ("seats", "teams", "title", "terms", "status", "score", "moves", "chat", "message")
    texts = {kind: [] for kind in kinds}
    for number, line in enumerate(side._drawn):
        text = "".join(run for run, _ in line).rstrip()
        names = [names for _, names in line]
        if number == 1:  # under the title: how the games count, and whether one watches
            texts["terms"].append(text)
        elif names[0].startswith("chat-"):  # its heading, then each line said
            texts["chat"].append(text)
        elif "status" in names:  # after the piece of the seat to move, while the game runs
            texts["status"].append(line[-1][0].strip())
        elif names[0].startswith("look:"):  # a seat, or a team's pieces
            texts["seats" if names[1] == "plain" else "teams"].append(text)
        elif text and names[0] == "muted":
            texts["score"].append(text)
        elif text and names[0] == "plain" and re.match(r"\d+\. ", text):
            texts["moves"].append(text.rstrip("↑↓ "))
        elif text and names[0] in texts:
            texts[names[0]].append(text)
    if name in ("status", "message"):  # the status keeps blank lines to keep its height
        return " ".join(text for text in texts[name] if text)
    return "\n".join(texts[name])


def history(app: SixtuiApp) -> list[str]:
    return [str(move) for move in game_screen(app).session.game.history]


async def wait_until(pilot, condition, what: str = "the condition") -> None:
    """Lets the app run until ``condition()`` holds; fails after :data:`DEADLINE` seconds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + DEADLINE
    while not condition():
        assert loop.time() < give_up, f"gave up waiting for {what}"
        await pilot.pause(0.05)
    await pilot.pause()  # the screens handle the session's news before the test reads them


async def burst(pilot, *keys: str) -> None:
    """Sends ``keys`` all at once, as a key held down or a packet of several keys over SSH
    brings them, then lets them settle (``pilot.press`` waits after every key)."""
    for key in keys:
        pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
    await pilot.pause()
    await pilot.pause()


async def cursor_to(pilot, cell: Square | Hex | str, vi: bool = False) -> None:
    """Moves the board cursor to ``cell`` with the arrow keys, or with h j k l."""
    left, right, up, down = ("h", "l", "k", "j") if vi else ("left", "right", "up", "down")
    app = pilot.app
    board = game_screen(app).board
    if isinstance(board, HexBoard):
        cell = Hex.parse(cell) if isinstance(cell, str) else cell
        rows = cell.r - board.cursor.r
        await pilot.press(*([down] * rows if rows > 0 else [up] * -rows))
        cols = cell.q - board.cursor.q
    else:
        cell = Square.parse(cell) if isinstance(cell, str) else cell
        rows = cell.row - board.cursor.row
        await pilot.press(*([up] * rows if rows > 0 else [down] * -rows))
        cols = cell.col - board.cursor.col
    await pilot.press(*([right] * cols if cols > 0 else [left] * -cols))
    assert board.cursor == cell


async def place(pilot, cell: Square | Hex | str, key: str = "enter", vi: bool = False) -> None:
    """Moves the cursor to ``cell`` and chooses it."""
    await cursor_to(pilot, cell, vi)
    await pilot.press(key)


async def click(pilot, cell: Square | Hex | str) -> None:
    """Clicks ``cell`` on the board."""
    assert await pilot.click("#board", offset=offset_of(pilot.app, cell))
    await pilot.pause()


async def type_move(pilot, text: str) -> None:
    """Opens the move input with /, types ``text`` and presses Enter."""
    await pilot.press("slash", *text, "enter")
    await pilot.pause()


def key_bar(app: SixtuiApp) -> str:
    """The keys the game screen's footer shows, as drawn (under a dialog too)."""
    footer = game_screen(app).query_one(KeyBar)
    return " ".join("".join(text for text, _ in footer._drawn[0]).split())
