"""Playing through the Textual interface: keys, mouse and typed moves, undo, resign, help,
the computer's turns, four-player Six, small terminals, tied splits and matches."""

import subprocess
import sys
from pathlib import Path

from textual.widgets import Button, Input, Static

from sixtui.rules import Square
from sixtui.rules.hexes import Hex
from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.screens.dialogs import ConfirmScreen, SummaryScreen, TooSmallScreen
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.help import HelpScreen, RulesText, laid_out
from sixtui.tui.screens.home import HomeScreen
from sixtui.tui.widgets.panel import SPINNER
from support.tui_helpers import (
    SIZE,
    TIED_SPLIT,
    click,
    drawn_lines,
    game_screen,
    glyph_at,
    history,
    hot_seat,
    offset_of,
    panel,
    place,
    resign_the_last_game,
    run_at,
    screen_names,
    started_thinker,
    type_move,
    wait_until,
)

RULES = Path(__file__).parent.parent / "docs" / "rules.md"


def summary_text(app: SixtuiApp) -> str:
    assert isinstance(app.screen, SummaryScreen)
    return str(app.screen.query_one(".question", Static).render())


def buttons(app: SixtuiApp) -> list[str]:
    """The buttons shown on the screen."""
    return [button.name for button in app.screen.query(Button) if button.display]


def says_won(text: str, winner: str, why: str) -> bool:
    """Whether ``text`` (one line) says that ``winner`` won for ``why``."""
    return text.startswith(f"{winner} win") and text.rstrip().endswith(why)


async def play_all(app: SixtuiApp, moves) -> None:
    """Plays ``moves`` through the session, as set-up for what a test does with keys."""
    for move in moves:
        await game_screen(app).session.play(move)


# -- every game, played with keys ------------------------------------------------------------

# Black makes six in a row on row 5 while White plays beside it; every point near the last.
ROW_5 = ["E5", "E6", "F6", "F5", "D5", "D4", "E4", "G5", "C5", "F4", "F3", "H5"]


async def play_with_keys(pilot, moves) -> None:
    """Black moves with the arrows and Enter, White with h j k l and space."""
    game = game_screen(pilot.app).session.game
    for move in moves:
        black = game.to_move == 0
        await place(pilot, move, "enter" if black else "space", vi=not black)


async def test_connect6_played_with_keys_to_six_in_a_row():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert screen.board.cursor == Square.parse("E5")  # the cursor starts in the middle
        assert panel(app, "status") == "Player 1: place a stone"
        await pilot.press("enter")  # Black opens on E5
        assert history(app) == ["E5"]
        assert glyph_at(app, "E5") == ("◉", "team0+last+cursor")
        assert panel(app, "status") == "Player 2: place two stones"
        await play_with_keys(pilot, ["E6"])
        assert screen.board.cursor == Square.parse("E6")
        assert panel(app, "status") == "Player 2: place a stone"
        await play_with_keys(pilot, ROW_5[2:-1])
        assert screen.session.game.result is None
        assert panel(app, "moves").splitlines()[-1] == "6. F4 F3"
        await play_with_keys(pilot, ROW_5[-1:])

        game = screen.session.game
        assert history(app) == ROW_5
        assert game.result.winner == 0
        assert game.result.reason == "six-in-a-row"
        lines = [line.strip() for line in drawn_lines(app)]
        assert "5 · · ● ● ● ● ● ◉ · 5" in lines
        assert "6 · · · · ○ ○ · · · 6" in lines
        for point in ["C5", "D5", "E5", "F5", "G5", "H5"]:
            assert "+win" in glyph_at(app, point)[1]
        assert "+win" not in glyph_at(app, "B5")[1]
        assert panel(app, "status") == "Player 1 wins as Black: six in a row"
        await pilot.pause()
        assert summary_text(app).splitlines()[0] == "Player 1 wins as Black: six in a row"


async def test_game_of_6_played_with_keys_to_six_in_a_row():
    app = hot_seat("gameof6", size=8)
    async with app.run_test(size=SIZE) as pilot:
        assert game_screen(app).board.cursor == Square.parse("E5")
        await play_with_keys(pilot, ROW_5)
        game = game_screen(app).session.game
        assert history(app) == ROW_5
        assert game.result == (0, "six-in-a-row", (6, 0))
        assert "5 · · ● ● ● ● ● ◉ 5" in [line.strip() for line in drawn_lines(app)]
        assert panel(app, "status") == "Player 1 wins: six in a row"  # no colors named
        assert "points ● 6 – 0 ○" in panel(app, "score")


async def test_game_of_6_enclosure_colors_the_cell_inside():
    app = hot_seat("gameof6", size=8)
    async with app.run_test(size=SIZE) as pilot:
        await play_with_keys(pilot, ["E6", "F7", "G7", "F5", "E4", "G6", "G5"])
        game = game_screen(app).session.game
        assert game.colored("E5") is None
        assert glyph_at(app, "E5")[1].startswith("grid")
        await play_with_keys(pilot, ["D5"])  # the fourth side of E5

        assert game.colored("E5") == 0
        assert game.colored_count(0) == 1
        assert game.result is None
        assert game.to_move == 0 and game.stones_left == 1
        assert "filled0" in glyph_at(app, "E5")[1]
        seats = panel(app, "seats").splitlines()
        assert seats[0].endswith("Player 1  1 colored")
        assert seats[1].endswith("Player 2  0 colored")
        # The colored cell is out of play: choosing it changes nothing.
        await place(pilot, "E5")
        assert panel(app, "message") == "E5 is colored and out of play"
        assert len(game.history) == 8


async def test_six_played_with_keys_to_a_row():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        assert screen.board.cursor == Hex(0, 0)
        assert glyph_at(app, "0,0")[0] == "+"  # the first piece's only place
        await pilot.press("enter")
        for q in range(1, 6):
            await play_with_keys(pilot, [f"{q - 1},-1", f"{q},0"])
            if q == 3:
                assert panel(app, "seats").splitlines() == ["● Player 1", "○ Player 2"]
                assert panel(app, "teams").splitlines() == [
                    "● 15 in hand · 4 on the table",
                    "○ 16 in hand · 3 on the table",
                ]
                assert drawn_lines(app)[-1].strip() == "3,0"  # the cursor's cell

        game = screen.session.game
        assert history(app)[:4] == ["0,0", "0,-1", "1,0", "1,-1"]
        assert len(history(app)) == 11
        assert game.result.winner == 0
        assert game.result.reason == "row"
        assert game.layout() == {
            **{Hex(q, 0): 0 for q in range(6)},
            **{Hex(q, -1): 1 for q in range(5)},
        }
        assert glyph_at(app, "5,0") == ("◉", "team0+last+win+cursor")
        assert glyph_at(app, "0,0") == ("●", "team0+win")
        assert glyph_at(app, "0,-1") == ("○", "team1")
        assert panel(app, "status") == "Player 1 wins: a row of six"  # Steffen names no colors
        await pilot.pause()
        assert summary_text(app).splitlines()[0] == "Player 1 wins: a row of six"


async def test_six_up_and_down_keep_to_the_column_they_started_in():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, ["0,0", "0,-1", "1,0", "1,-1"])
        await pilot.press("c")
        board = game_screen(app).board
        start = board.cursor
        column = 2 * start.q + start.r  # where the cell is drawn across the screen
        for _ in range(3):
            await pilot.press("down", "down", "up", "up")
            assert board.cursor == start
        for key in ["j", "j", "j", "k", "k", "k", "k", "k"]:
            await pilot.press(key)
            assert 2 * board.cursor.q + board.cursor.r in (column - 1, column)
        above = board.cursor
        await pilot.press("right", "down", "up")  # a step sideways starts a new column
        assert board.cursor == Hex(above.q + 1, above.r)
        await click(pilot, "1,0")
        await pilot.press("up", "down")
        assert board.cursor == Hex(1, 0)


# -- the mouse, and typed moves ----------------------------------------------------------------


async def test_connect6_played_with_the_mouse():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        moves = ["A9", "I1", "I2", "A8", "A7", "I3", "I4", "A6", "A5", "H1", "H2", "A4"]
        for point in moves:
            await click(pilot, point)
            assert game_screen(app).board.cursor == Square.parse(point)
        game = game_screen(app).session.game
        assert history(app) == moves
        assert game.result.winner == 0
        assert game.result.reason == "six-in-a-row"
        assert game.winning_cells() == [Square(0, row) for row in range(3, 9)]
        assert glyph_at(app, "A4") == ("◉", "team0+last+win+cursor")
        assert glyph_at(app, "A9") == ("●", "team0+win")
        assert glyph_at(app, "I1")[0] == "○"


async def test_a_click_beside_the_board_chooses_nothing():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        assert await pilot.click("#board", offset=(1, 1))
        await pilot.pause()
        assert history(app) == []


async def test_six_played_with_the_mouse():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        for cell in ["0,0", "1,0", "0,1", "-1,0"]:
            await click(pilot, cell)
        assert history(app) == ["0,0", "1,0", "0,1", "-1,0"]
        await click(pilot, "5,5")  # does not touch the layout
        assert panel(app, "message") == "5,5 does not touch the layout"
        assert len(history(app)) == 4


async def test_connect6_played_with_typed_moves():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        for number, move in enumerate(ROW_5):
            await type_move(pilot, move.lower() if number % 2 else move)
            if number == 0:  # typing hands the keys back to the board
                assert app.focused is game_screen(app).board
                assert glyph_at(app, "E5")[0] == "◉"
        game = game_screen(app).session.game
        assert history(app) == ROW_5
        assert game.result.winner == 0
        assert game.result.reason == "six-in-a-row"


BAD_TYPED_MOVES = [
    ("Z99", "Z99 is off the board (columns A–S, rows 1–19)"),
    ("hello", "'hello' is not a point: write a column letter and a row, like J10"),
    ("J10", "J10 is taken"),
]


async def test_a_bad_typed_move_is_explained_and_changes_nothing():
    app = hot_seat("connect6")
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "J10")
        for typed, message in BAD_TYPED_MOVES:
            await type_move(pilot, typed)
            assert panel(app, "message") == message
            assert history(app) == ["J10"]
            game = game_screen(app).session.game
            assert (game.to_move, game.stones_left) == (1, 2)
        # The next good move clears the message.
        await type_move(pilot, "K11")
        assert history(app) == ["J10", "K11"]
        assert panel(app, "message") == ""


async def test_an_empty_typed_move_is_ignored_and_escape_leaves_the_input():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", "enter")
        assert history(app) == []
        assert panel(app, "message") == ""
        await pilot.press("colon")
        assert isinstance(app.focused, Input)
        await pilot.press("escape")
        assert app.focused is game_screen(app).board
        await pilot.press("enter")
        assert history(app) == ["E5"]


async def test_six_second_round_moves_typed():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, TIED_SPLIT)
        game = game_screen(app).session.game
        await type_move(pilot, "-2,2>-1,2")
        assert panel(app, "message") == (
            "lifting -2,2 splits the layout into 2 groups of equal size: "
            "add the cell of the one that stays, like -2,2>-1,2:-5,6"
        )
        assert len(game.history) == 38
        await type_move(pilot, "-2,2>-1,2:-1,-2")
        assert history(app)[-1] == "-2,2>-1,2:-1,-2"
        assert game.at("-1,-2") is not None and game.at("-5,6") is None
        assert game.at("-1,2") == 0 and game.at("-2,2") is None
        assert len(game.layout()) == 17 + 1  # the group kept and the piece moved


# -- undo ------------------------------------------------------------------------------------


async def test_hot_seat_undo_takes_back_one_move():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "left", "enter")
        assert history(app) == ["E5", "D5"]
        await pilot.press("u")
        game = game_screen(app).session.game
        assert history(app) == ["E5"]
        assert (game.to_move, game.stones_left) == (1, 2)
        assert glyph_at(app, "D5")[0] == "·"
        await pilot.press("u")
        assert history(app) == []
        assert game.to_move == 0
        assert glyph_at(app, "E5")[0] == "·"
        await pilot.press("u")
        assert panel(app, "message") == "there is no move of yours to take back"
        assert history(app) == []


async def test_undo_against_the_computer_takes_back_its_reply_and_your_move():
    async with started_thinker() as thinker:
        app = SixtuiApp(GameSetup.against("connect6", ["easy"], size=9), thinker, computer_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            session = game_screen(app).session
            await pilot.press("u")
            assert panel(app, "message") == "there is no move of yours to take back"
            await pilot.press("enter")
            await wait_until(pilot, lambda: len(session.game.history) == 3, "the reply")
            for move in session.game.legal_moves()[:2]:
                await place(pilot, move.to)
            await wait_until(pilot, lambda: len(session.game.history) == 7, "the reply")
            mine = history(app)[:5]
            await pilot.press("u")
            # The computer's two stones and your last stone go; your turn again.
            assert history(app) == mine[:4]
            assert (session.game.to_move, session.game.stones_left) == (0, 1)
            assert session.may_move and not session.thinking
            await pilot.press("u")
            assert history(app) == mine[:3]
            await pilot.press("u")
            assert history(app) == []
            assert session.may_move


async def test_undo_when_the_computer_opened_keeps_its_opening():
    async with started_thinker() as thinker:
        setup = GameSetup("connect6", size=9, seats=("easy", None))
        app = SixtuiApp(setup, thinker, computer_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            session = game_screen(app).session
            await wait_until(pilot, lambda: len(session.game.history) == 1, "the opening")
            assert session.game.to_move == 1
            await pilot.press("u")
            assert panel(app, "message") == "there is no move of yours to take back"
            assert len(session.game.history) == 1


# -- resigning -------------------------------------------------------------------------------


async def test_resigning_asks_first_and_n_keeps_the_game():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "r")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, GameScreen)
        game = game_screen(app).session.game
        assert game.result is None
        assert history(app) == ["E5"]
        await pilot.press("left", "enter")  # the game goes on
        assert history(app) == ["E5", "D5"]


async def test_resigning_ends_the_game_for_the_other_team():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "r", "y")
        await pilot.pause()
        game = game_screen(app).session.game
        assert game.result.reason == "resign"
        assert game.result.winner == 0  # White was to move and resigned
        assert isinstance(app.screen, SummaryScreen)
        text = summary_text(app)
        assert text.splitlines()[0] == "Player 1 wins as Black: Player 2 resigned"
        assert "Game 1   opened, won                lost" in text.splitlines()
        await pilot.press("b")
        assert isinstance(app.screen, GameScreen)
        assert says_won(panel(app, "status"), "Player 1", "Player 2 resigned")
        await pilot.press("r")
        assert panel(app, "message") == "the game is over: n starts the next one"
        await pilot.press("left", "enter")
        assert panel(app, "message") == "the game is over: n starts the next one"
        assert history(app) == ["E5"]


async def test_leaving_a_game_goes_back_to_the_home_screen():
    app = SixtuiApp(computer_pause=0)  # the home screen
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("enter")  # Play
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_leaving_a_game_opened_directly_ends_the_app():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        await pilot.press("enter", "q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
    assert not app.is_running
    assert len(session.game.history) == 1


# -- help ------------------------------------------------------------------------------------


async def test_help_shows_the_rules_and_escape_returns_to_the_game():
    app = hot_seat("gameof6", size=8)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        view = app.screen.query_one(RulesText)
        _, starts = laid_out(view._text_width())

        def shown() -> str:
            return "\n".join(view.render_line(y).text for y in range(view.size.height))

        # Opened from Game of 6, it opens at that game's rules.
        assert view.scroll_offset.y == starts["Game of 6"]
        assert shown().lstrip().startswith("Game of 6")
        await pilot.press("2")
        assert view.scroll_offset.y == starts["Connect6"]
        sentence = "Two players, Black (seat 1) and White (seat 2), place stones"
        assert sentence in shown()
        rules = RULES.read_text(encoding="utf-8")
        assert sentence.replace("Black", "**Black**").replace("White", "**White**") in rules
        await pilot.press("4")
        assert view.scroll_offset.y == starts["Six"]
        await pilot.press("1")
        assert view.scroll_offset.y == 0
        assert "take back your last move" in shown()
        assert "over to the list of moves: ↑ ↓" in shown()
        await pilot.press("3")
        assert view.scroll_offset.y == starts["Game of 6"]
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        assert history(app) == ["E5"]
        assert game_screen(app).session.game.to_move == 1


# -- the computer ----------------------------------------------------------------------------


async def test_connect6_against_the_computer_shows_it_thinking_and_the_cursor_moves():
    async with started_thinker() as thinker:
        app = SixtuiApp(GameSetup.against("connect6", ["easy"], size=9), thinker, computer_pause=4)
        async with app.run_test(size=SIZE) as pilot:
            screen = game_screen(app)
            session = screen.session
            assert panel(app, "seats").splitlines()[0].endswith("You")
            await pilot.press("enter")
            assert session.thinking
            status = panel(app, "status")
            assert status.startswith("Easy computer is thinking ")
            spinning = status[-1]
            assert spinning in SPINNER
            await wait_until(pilot, lambda: panel(app, "status")[-1] != spinning, "a spin")
            await pilot.press("right")
            assert screen.board.cursor == Square.parse("F5")
            assert session.thinking  # the cursor moved while the computer thought
            await pilot.press("enter")  # not your turn: nothing is placed
            assert panel(app, "message") == "wait: it is Easy computer's turn"
            await wait_until(pilot, lambda: not session.thinking, "the computer's turn")
            game = session.game
            assert len(game.history) == 3
            assert game.to_move == 0 and game.stones_left == 2
            assert panel(app, "status") == "You: place two stones"
            reply = " ".join(str(move) for move in game.history[1:])
            assert panel(app, "moves").splitlines() == ["1. E5", f"2. {reply}"]
            for move in game.history[1:]:
                assert glyph_at(app, move.to)[0] == "◎"  # White's newest stones


async def test_a_game_of_computers_plays_itself_to_the_end():
    async with started_thinker() as thinker:
        setup = GameSetup("connect6", size=6, seats=("easy", "easy"))
        app = SixtuiApp(setup, thinker, computer_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            session = game_screen(app).session
            await wait_until(pilot, lambda: session.game.is_over, "the end of the game")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            game = session.game
            assert game.result.reason in ("six-in-a-row", "board-full")
            assert not session.may_move and not session.may_undo and not session.may_resign


FRESH_APP = """
import sys
from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup

async def auto_pilot(pilot):
    session = pilot.app.screen.session
    await pilot.press("enter")
    for _ in range(200):
        if len(session.game.history) > 1 or not session.thinking:
            break
        await pilot.pause(0.05)
    message = pilot.app.screen.panel.message
    print(len(session.game.history), message, file=sys.__stdout__)
    pilot.app.exit()

if __name__ == "__main__":
    app = SixtuiApp(GameSetup.against("connect6", ["easy"], size=9), computer_pause=0)
    app.run(headless=True, size=(80, 24), auto_pilot=auto_pilot)
"""


def test_the_computer_moves_in_a_freshly_started_app(tmp_path):
    # A fresh interpreter, as `sixtui play --vs easy` starts: here other tests may
    # already have started multiprocessing's helper processes.
    script = tmp_path / "fresh_app.py"
    script.write_text(FRESH_APP, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=True
    )
    moves, _, message = done.stdout.strip().partition(" ")
    assert message == ""
    assert moves == "3"


# -- four-player Six -------------------------------------------------------------------------


async def test_four_player_six_hot_seat_turns_round_the_table():
    app = hot_seat("six", players=4)
    async with app.run_test(size=SIZE) as pilot:
        game = game_screen(app).session.game
        seats = panel(app, "seats").splitlines()
        assert [line[2:].split("  ")[0] for line in seats] == [
            "Player 1",
            "Player 2",
            "Player 3",
            "Player 4",
        ]
        assert panel(app, "teams").splitlines() == [
            "● 18 in hand · 0 on the table",
            "○ 18 in hand · 0 on the table",
        ]
        cells = ["0,0", "1,0", "0,1", "-1,0", "1,1", "2,0"]
        for number, cell in enumerate(cells):
            assert game.to_move == number % 4
            assert panel(app, "status").startswith(f"Player {number % 4 + 1}:")
            await place(pilot, cell)
        assert game.to_move == 2
        # Partners share their team's 18 pieces: the supply shows once, on the team's line.
        assert panel(app, "seats").splitlines() == [
            f"{'●○'[n % 2]} Player {n + 1}" for n in range(4)
        ]
        assert panel(app, "teams").splitlines() == [
            "● 15 in hand · 3 on the table",
            "○ 15 in hand · 3 on the table",
        ]
        assert game.layout()[Hex(1, 1)] == 0 and game.layout()[Hex(-1, 0)] == 1


async def test_four_player_six_against_the_computer():
    async with started_thinker() as thinker:
        setup = GameSetup.against("six", ["easy"], players=4)
        assert setup.seats == (None, "easy", None, "easy")
        app = SixtuiApp(setup, thinker, computer_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            session = game_screen(app).session
            seats = panel(app, "seats").splitlines()
            assert seats == ["● Player 1", "○ Easy computer 1", "● Player 2", "○ Easy computer 2"]
            await pilot.press("enter")
            await wait_until(pilot, lambda: session.game.to_move == 2, "seat 1's move")
            assert session.may_move
            cell = next(str(m.to) for m in session.game.legal_moves())
            await place(pilot, cell)
            await wait_until(pilot, lambda: session.game.to_move == 0, "seat 3's move")
            assert len(session.game.history) == 4
            assert panel(app, "status").startswith("Player 1:")
            assert panel(app, "teams").splitlines()[0] == "● 16 in hand · 2 on the table"


# -- too small a terminal --------------------------------------------------------------------


async def test_a_terminal_that_shrinks_covers_the_game_until_it_grows():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        for small in [(79, 30), (80, 23)]:  # one too narrow, one too low
            await pilot.resize_terminal(*small)
            await pilot.pause()
            assert isinstance(app.screen, TooSmallScreen)
            text = str(app.screen.query_one("#too-small", Static).render())
            assert "80×24" in text and "{}×{}".format(*small) in text
            await pilot.press("left", "enter", "u")
            assert isinstance(app.screen, TooSmallScreen)
            assert history(app) == ["E5"]
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert screen_names(app) == ["Screen", "GameScreen"]
        assert history(app) == ["E5"]
        assert glyph_at(app, "E5")[0] == "◉"
        await pilot.press("left", "enter")
        assert history(app) == ["E5", "D5"]


async def test_a_game_started_in_a_small_terminal_waits_under_the_cover():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = str(app.screen.query_one("#too-small", Static).render())
        assert "80×24" in text and "60×20" in text
        await pilot.press("enter", "left", "enter")
        assert history(app) == []
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("enter")
        assert history(app) == ["E5"]


async def test_a_game_that_ends_while_the_terminal_is_too_small_shows_its_summary_after():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, ["A1", "A9", "B9", "B1", "C1", "I9", "I8", "D1", "E1", "I7", "I6"])
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        # The winning stone arrives while covered (as the computer's or a remote move would).
        await game_screen(app).session.play("F1")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "TooSmallScreen" not in screen_names(app)
        assert isinstance(app.screen, SummaryScreen)


# -- Six: a lift that splits the layout into tied groups -------------------------------------


async def test_six_tied_split_chosen_with_keys():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, TIED_SPLIT)
        await pilot.pause()
        screen = game_screen(app)
        game = screen.session.game
        assert game.in_hand(0) == game.in_hand(1) == 0
        assert panel(app, "status") == "Player 1: lift a piece"

        await place(pilot, "-2,2")
        assert screen.chooser.picked == Hex(-2, 2)
        assert panel(app, "status") == "Player 1: where does it go?"
        assert "+pick" in glyph_at(app, "-2,2")[1]
        await place(pilot, "-1,2")
        groups = screen.chooser.groups
        assert len(groups) == 2
        assert [len(group) for group in groups] == [17, 17]
        assert Hex(-5, 6) in groups[0] and Hex(-1, -2) in groups[1]
        assert panel(app, "status") == "Player 1: which group stays?"
        assert len(game.history) == 38
        board = "".join(drawn_lines(app)[:-1])  # the last line shows the cursor's cell
        assert "1" in board and "2" in board
        # Each group's cells are marked, and followed by the group's number.
        for number, group in enumerate(groups, 1):
            for cell in group:
                x, y = offset_of(app, cell)
                assert "+group" in run_at(app, x, y)[1]
                assert run_at(app, x + 1, y)[0] == str(number)
        assert "+group" not in glyph_at(app, "-3,1")[1]  # in the small group left over

        await place(pilot, "0,0")  # a cell of the group holding -1,-2
        move = game.history[-1]
        assert (move.origin, move.to) == (Hex(-2, 2), Hex(-1, 2))
        assert move.keep in groups[1]
        # That group stays; the other and the small group are captured.
        assert set(game.layout()) == groups[1] | {Hex(-1, 2)}
        assert game.at("-1,2") == 0
        assert screen.chooser.groups == [] and screen.chooser.picked is None
        assert not any(digit in "".join(drawn_lines(app)[:-1]) for digit in "12")


async def test_six_second_round_pick_again_put_back_and_cancel_with_keys():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, TIED_SPLIT)
        screen = game_screen(app)
        await place(pilot, "1,-1")
        assert screen.chooser.picked == Hex(1, -1)
        await place(pilot, "0,-1")  # another of Black's pieces: picked instead
        assert screen.chooser.picked == Hex(0, -1)
        await pilot.press("enter")  # the picked piece again: put back
        assert screen.chooser.picked is None
        await place(pilot, "0,-2")  # White's piece
        assert panel(app, "message") == "pick one of your own pieces to move, then where it goes"
        assert screen.chooser.picked is None
        await place(pilot, "-2,2")
        await place(pilot, "-1,2")
        assert len(screen.chooser.groups) == 2
        await place(pilot, "-1,3")  # in no group
        assert panel(app, "message") == (
            "choose the group that stays: move to one of the numbered groups"
        )
        assert len(screen.chooser.groups) == 2
        await pilot.press("escape")
        assert screen.chooser.groups == [] and screen.chooser.picked is None
        assert panel(app, "status") == "Player 1: lift a piece"
        assert len(screen.session.game.history) == 38
        # A plain second-round move.
        await place(pilot, "0,0")
        await place(pilot, "1,0")
        assert history(app)[-1] == "0,0>1,0"
        assert screen.session.game.to_move == 1


async def test_six_a_destination_out_of_reach_keeps_the_piece_picked():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, TIED_SPLIT)
        screen = game_screen(app)
        await place(pilot, "1,2")
        await place(pilot, "2,1")  # it touches the layout through 1,2 alone
        assert len(screen.session.game.history) == 38
        assert panel(app, "message") != ""  # why not
        assert screen.chooser.picked == Hex(1, 2)


# -- matches ---------------------------------------------------------------------------------


async def test_game_of_6_match_alternates_openers_over_six_games():
    app = hot_seat("gameof6", size=8)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        assert panel(app, "score").startswith("Game 1 of 6")
        for number in range(1, 7):
            assert session.opener == (number - 1) % 2
            assert session.player_at(0).name == ("Player 1" if number % 2 else "Player 2")
            if number <= 2:
                await pilot.press("r", "y")  # Black resigns at once
            else:  # the same, quicker
                await session.resign()
            await pilot.pause()
            assert len(session.match.results) == number
            assert session.match.results[-1] == (1, "resign", (0, 6))
            text = summary_text(app)
            if number < 6:
                assert "next" in buttons(app)
                await pilot.press("n")
                await pilot.pause()
                assert isinstance(app.screen, GameScreen)
                assert session.game.result is None
                assert panel(app, "score").startswith(f"Game {number + 1} of 6")
        assert session.match.is_over
        assert session.match.wins == (3, 3)
        assert session.match.points == (18, 18)
        assert "The match is drawn." in text
        games = [line.split() for line in text.splitlines() if line.startswith("Game")]
        assert games[4] == ["Game", "5", "opened,", "lost", "won"]
        assert games[5] == ["Game", "6", "won", "opened,", "lost"]
        assert "next" not in buttons(app)
        await pilot.press("n")  # no next game
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("b", "n")
        assert panel(app, "message") == "the match is over: q leaves"


async def test_a_six_series_is_opened_by_the_loser():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        # Game 1: side 0 opens; White (side 1) resigns: side 1 lost and opens game 2.
        await pilot.press("enter", "r", "y")
        await pilot.pause()
        assert session.match.results == [(0, "resign", ())]
        await pilot.press("n")
        await pilot.pause()
        assert session.opener == 1
        assert session.player_at(0).name == "Player 2"
        assert panel(app, "seats").splitlines() == ["● Player 2", "○ Player 1"]
        assert panel(app, "teams").splitlines()[0] == "● 19 in hand · 0 on the table"
        assert panel(app, "score").startswith("Game 2")
        # Game 2: Black (side 1) resigns at once: side 1 lost again and opens game 3.
        await pilot.press("r", "y")
        await pilot.pause()
        assert session.match.results[-1] == (1, "resign", ())
        assert session.match.wins == (2, 0)
        await pilot.press("n")
        await pilot.pause()
        assert session.opener == 1
        assert session.match.openers == [0, 1]
        # Game 3: side 0 (White) resigns: side 0 opens game 4.
        await pilot.press("enter", "r", "y")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert session.opener == 0
        assert session.match.wins == (2, 1)


async def test_after_the_match_choosing_a_cell_offers_no_next_game():
    app = hot_seat("gameof6", size=8)
    async with app.run_test(size=SIZE) as pilot:
        await resign_the_last_game(pilot)
        await pilot.press("b", "enter")
        assert panel(app, "message") != ""
        assert "n starts the next one" not in panel(app, "message")


async def test_hints_are_offered_only_where_they_are_drawn():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        message = panel(app, "message")
        assert "+" not in message or "+" in "".join(drawn_lines(app))


async def test_moving_the_focus_redraws_the_widgets_it_moves_between_not_the_whole_screen():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        whole_screen = []
        refresh = screen.refresh

        def spied(*regions, **how):
            if not regions and how.get("repaint"):  # asked for as the whole screen's repaint
                whole_screen.append(how)
            return refresh(*regions, **how)

        screen.refresh = spied
        await pilot.press("slash", "e", "5", "enter")  # to the move line and back to the board
        assert screen.focused is screen.board and history(app) == ["E5"]
        assert whole_screen == []
