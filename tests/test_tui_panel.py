"""The side panel and what is said around a game: names, results, the summary after a
game, each team's pieces in Six, the cells a capture emptied, the move list scrolling, and
the chat at an online table."""

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.events import MouseScrollDown, MouseScrollUp
from textual.widgets import Static

from sixtui.rules import Result, new_game
from sixtui.rules.hexes import Hex
from sixtui.server.names import LONGEST
from sixtui.tui.app import SixtuiApp
from sixtui.tui.chat import ChatLine
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.player_text import cells, printable
from sixtui.tui.screens.dialogs import (
    SUMMARY_LINES,
    TEXT_WIDTH,
    ConfirmScreen,
    SummaryScreen,
    headline,
)
from sixtui.tui.session import Player
from sixtui.tui.widgets.lines import wrap
from sixtui.tui.widgets.panel import DRAWN_BY, STATUS_LINES, WON_BY, chat_lines, result_line
from support.tui_helpers import (
    SIZE,
    TIED_SPLIT,
    burst,
    game_screen,
    glyph_at,
    hot_seat,
    panel,
)

LEVELS = [None, "easy", "normal", "hard"]
# Every game and ruleset, with the names its rules give the two teams' colors.
GAMES = [
    ("connect6", {}, ("Black", "White")),
    ("gameof6", {}, None),
    ("six", {"ruleset": "steffen"}, None),
    ("six", {"ruleset": "romanian"}, ("Black", "Red")),
    ("six", {"ruleset": "romanian-advanced"}, ("Black", "Red")),
]
COLOR_WORDS = ("Black", "White", "Red")


def table(game: str, seats, **options) -> SixtuiApp:
    """An app on a table whose seats are people (``None``) or computer levels; people move
    first in these tests, so no computer thinks."""
    setup = GameSetup(game, players=len(seats), seats=tuple(seats), **options)
    return SixtuiApp(setup, computer_pause=0)


def summary(app: SixtuiApp) -> str:
    assert isinstance(app.screen, SummaryScreen)
    return str(app.screen.query_one(".question", Static).render())


# -- the title ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "title"),
    [
        ("connect6", {}, "Connect6"),
        ("gameof6", {}, "Game of 6"),
        ("six", {}, "Six · Steffen"),
        ("six", {"ruleset": "romanian"}, "Six · Romanian"),
        ("six", {"ruleset": "romanian", "declare": True}, "Six · Romanian · declaring"),
        ("six", {"ruleset": "romanian-advanced", "players": 4}, "Six · Romanian advanced"),
        (
            "six",
            {"ruleset": "romanian-advanced", "declare": True},
            "Six · Romanian adv. · declaring",
        ),
    ],
)
async def test_the_title_names_the_game_and_for_six_its_ruleset_and_declaring(game, options, title):
    app = hot_seat(game, **options)
    async with app.run_test(size=SIZE):
        assert panel(app, "title") == title
        assert len(title) <= game_screen(app).panel.size.width


# -- names and results -----------------------------------------------------------------------


@given(
    st.sampled_from([2, 4]).flatmap(
        lambda n: st.lists(st.sampled_from(LEVELS), min_size=n, max_size=n)
    )
)
def test_every_seat_has_a_name_of_its_own_without_parentheses(seats):
    game = "six" if len(seats) == 4 else "connect6"
    sides = GameSetup(game, players=len(seats), seats=tuple(seats)).sides()
    names = [player.name for side in sides for player in side]
    assert len(set(names)) == len(names)  # two computers at one level are told apart
    assert not any(mark in name for name in names for mark in "()&")
    assert all(len(name) <= 17 for name in names)  # fits a seat line with its pieces


@pytest.mark.parametrize(("game", "options", "colors"), GAMES)
async def test_results_name_colors_exactly_where_the_rules_do(game, options, colors):
    players = 4 if game == "six" else 2
    app = table(game, ["normal"] * players, **options)
    async with app.run_test(size=SIZE):
        session = game_screen(app).session
        reasons = [(winner, reason) for winner in (0, 1) for reason in WON_BY]
        reasons += [(None, reason) for reason in DRAWN_BY]
        for winner, reason in reasons:
            text = result_line(session, Result(winner, reason))
            assert "(" not in text
            named = [word for word in COLOR_WORDS if word in text]
            if winner is None or colors is None:
                assert named == []
            else:
                assert named == [colors[winner]]


async def test_the_longest_results_fit_the_panel_at_80_by_24():
    app = table("six", ["normal"] * 4, ruleset="romanian-advanced")
    async with app.run_test(size=SIZE):
        screen = game_screen(app)
        width = screen.panel.size.width
        for winner, reason in itertools.product((0, 1, None), WON_BY | DRAWN_BY):
            if (reason in WON_BY) == (winner is not None):
                text = result_line(screen.session, Result(winner, reason))
                assert len(wrap(text, width)) <= STATUS_LINES, text


def long_names(players: int):
    """Sides whose players have names as long as a server allows, each its own."""
    names = [Player(f"{seat}{'n' * (LONGEST - 1)}") for seat in range(players)]
    return tuple(names[0::2]), tuple(names[1::2])


TABLES = [
    (game, options, players)
    for game, options, _ in GAMES
    for players in ((2, 4) if game == "six" else (2,))
]


@pytest.mark.parametrize(("game", "options", "players"), TABLES)
def test_every_result_heads_the_summary_on_lines_that_fit_its_box(game, options, players):
    session = GameSetup(game, players=players, seats=(None,) * players, **options).session(None)
    computers = GameSetup(game, players=players, seats=("normal",) * players, **options).sides()
    results = [Result(winner, reason) for winner in (0, 1) for reason in WON_BY]
    results += [Result(None, reason) for reason in DRAWN_BY]
    for sides in (computers, long_names(players)):  # "Normal computer 1", the longest else
        session.sides = sides
        for result in results:
            text = result_line(session, result)
            lines = headline(text).splitlines()
            assert all(len(line) <= TEXT_WIDTH for line in lines), text
            if len(text) <= TEXT_WIDTH:
                assert lines == [text]
            else:  # who won, then why
                assert lines == [text[: text.rindex(": ") + 1], text[text.rindex(": ") + 2 :]]


async def test_a_result_too_long_for_one_line_of_the_box_is_broken_after_its_colon():
    app = table("six", [None] * 4, ruleset="romanian")
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        session.sides = long_names(4)
        for _ in range(20):
            session.match.record(Result(None, "repetition"))
        await session.resign()  # the first seat's: Red wins
        await pilot.pause()
        winners = " and ".join(player.name for player in session.sides[1])
        lines = summary(app).splitlines()
        assert lines[:2] == [f"{winners} win as Red:", "the other side resigned"]
        assert len(lines) == SUMMARY_LINES  # fewer earlier games make room for the second line
        box = app.screen.query_one(".question", Static).content_region
        assert box.width == TEXT_WIDTH
        assert box.height == len(lines)  # none of them wraps
        assert app.screen.query_one(".dialog").region.bottom <= SIZE[1]


async def test_four_player_names_and_score_fit_their_lines_at_80_by_24():
    app = table("six", [None, "easy", None, "easy"])
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        seats = panel(app, "seats").splitlines()
        assert seats == ["● Player 1", "○ Easy computer 1", "● Player 2", "○ Easy computer 2"]
        assert panel(app, "score") == "Game 1 · wins ● 0 – 0 ○"
        await screen.session.resign()
        await pilot.pause()
        assert panel(app, "score") == "Game 1 · wins ● 0 – 1 ○"
        status = panel(app, "status")
        assert status == "Easy computer 1 and Easy computer 2 win: the other side resigned"


async def test_the_summary_names_each_player_once_and_says_how_each_side_did():
    app = table("connect6", ["normal", None], size=9)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        session.match.record(Result(0, "six-in-a-row"))  # the computer opened and won game 1
        session.match.record(Result(None, "board-full"))  # you opened game 2: a draw
        await session.resign()  # game 3, which the computer opens
        await pilot.pause()
        lines = summary(app).splitlines()
        assert lines[0] == "Normal computer wins as Black: you resigned"
        assert lines[2].split() == ["Normal", "computer", "You"]
        assert [line.split() for line in lines[3:]] == [
            ["Game", "1", "opened,", "won", "lost"],
            ["Game", "2", "drew", "opened,", "drew"],
            ["Game", "3", "opened,", "won", "lost"],
            ["Wins", "2", "0"],
        ]
        for line in lines:
            for name in ("Normal computer", "You"):
                assert line.count(name) <= 1


async def test_the_summary_of_a_won_match_names_its_winner_with_the_right_verb():
    app = table("gameof6", [None, None], size=8)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        for _ in range(5):
            session.match.record(Result(0, "six-in-a-row", (6, 0)))  # the opener wins each
        await session.resign()  # game 6, opened by Player 2, who resigns
        await pilot.pause()
        lines = summary(app).splitlines()
        assert [line.split() for line in lines[-4:-2]] == [
            ["Wins", "4", "2"],
            ["Points", "24", "12"],
        ]
        assert lines[-1] == "Player 1 wins the match."


async def test_a_long_series_keeps_the_result_and_the_latest_games_in_the_box():
    app = table("six", [None, "easy", None, "easy"])
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        for _ in range(20):
            session.match.record(Result(None, "repetition"))
        await session.resign()
        await pilot.pause()
        lines = summary(app).splitlines()
        assert len(lines) <= SUMMARY_LINES
        assert lines[0].endswith("win: the other side resigned")
        assert lines[4] == "⋯ 13 earlier games"
        assert lines[-2].startswith("Game 21")
        box = app.screen.query_one(".question")
        assert box.region.height >= len(lines)  # none cut off


async def test_player_names_are_shown_as_written_not_as_markup():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        session.sides = ((Player("[b]Ann[/b]"),), (Player("Bo"),))
        await pilot.press("enter", "r")
        assert isinstance(app.screen, ConfirmScreen)
        assert "[b]Ann[/b]" not in str(app.screen.query_one(".question", Static).render())
        assert "Bo" in str(app.screen.query_one(".question", Static).render())
        await pilot.press("y")
        await pilot.pause()
        assert summary(app).startswith("[b]Ann[/b] wins as Black")


async def test_resigning_asks_in_the_resigning_side_s_words():
    app = table("six", [None, "easy", None, "easy"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmScreen)
        question = str(app.screen.query_one(".question", Static).render())
        assert question == "Resign this game? Player 1 and Player 2 lose it."
    app = table("connect6", [None, "easy"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert str(app.screen.query_one(".question", Static).render()) == (
            "Resign this game? You lose it."
        )


# -- Six: each team's pieces, and the cells a capture emptied -------------------------------


async def test_partners_sharing_a_supply_see_it_once_on_their_team_s_line():
    app = hot_seat("six", players=4)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        for move in ["0,0", "1,0", "0,1"]:
            await session.play(move)
        await pilot.pause()
        assert all("in hand" not in line for line in panel(app, "seats").splitlines())
        assert panel(app, "teams").splitlines() == [
            "● 16 in hand · 2 on the table",
            "○ 17 in hand · 1 on the table",
        ]


async def test_partners_with_hands_of_their_own_see_each_and_their_team_s_total():
    app = hot_seat("six", players=4, ruleset="romanian")
    async with app.run_test(size=SIZE) as pilot:
        await game_screen(app).session.play("-1,0")
        await pilot.pause()
        assert [line.split("  ")[-1] for line in panel(app, "seats").splitlines()] == [
            "9 in hand",
            "10 in hand",
            "10 in hand",
            "10 in hand",
        ]
        assert panel(app, "teams").splitlines() == [
            "● 19 in hand · 2 on the table",
            "○ 20 in hand · 1 on the table",
        ]


def after_tied_split():
    """The tied split of TIED_SPLIT played, keeping the group that holds 0,0: the cells
    it emptied, and a move for White after it that captures nothing."""
    game = new_game("six")
    for move in TIED_SPLIT:
        game.play(move)
    before = game.layout()
    game.play("-2,2>-1,2:0,0")
    emptied = set(before) - set(game.layout()) - {Hex(-2, 2)}
    quiet = next(
        str(move)
        for move in game.legal_moves()
        if move.origin is not None and move.keep is None and move.origin not in emptied
    )
    return emptied, quiet


@pytest.mark.parametrize("no_color", [False, True])
async def test_a_capture_marks_the_cells_it_emptied_until_the_next_move(monkeypatch, no_color):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    emptied, quiet = after_tied_split()
    assert len(emptied) == 20
    app = hot_seat("six")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        session = screen.session
        for move in TIED_SPLIT:
            await session.play(move)
        await pilot.pause()
        await session.play("-2,2>-1,2:0,0")
        await pilot.pause()
        screen.board.action_centre()
        marks = {cell: glyph_at(app, cell) for cell in emptied}
        assert set(marks.values()) == {("×", "board+captured")}
        look = screen.board.look
        assert look.style("board+captured") != look.style("board")  # bold, even in NO_COLOR
        assert glyph_at(app, "-2,2")[0] not in ("×", "●", "○")  # lifted, not captured
        # The pieces each team has left, on the table and in hand, count the capture.
        layout = session.game.layout()
        counts = [sum(1 for team in layout.values() if team == t) for t in (0, 1)]
        assert panel(app, "teams").splitlines() == [
            f"{'●○'[t]} 0 in hand · {counts[t]} on the table" for t in (0, 1)
        ]
        await session.play(quiet)
        await pilot.pause()
        assert "×" not in "".join(text for line in screen.board._drawn for text, _ in line)


async def test_a_capture_is_marked_on_a_board_opened_after_it():
    emptied, _ = after_tied_split()
    app = hot_seat("six")
    session = app.setup.session(None)
    for move in TIED_SPLIT:
        await session.play(move)
    await session.play("-2,2>-1,2:0,0")
    app.setup = None  # opened on the home screen; the table is pushed as it stands
    async with app.run_test(size=(120, 40)) as pilot:
        from sixtui.tui.screens.game import GameScreen

        await app.push_screen(GameScreen(session))
        await pilot.pause()
        game_screen(app).board.action_centre()
        assert {glyph_at(app, cell)[0] for cell in emptied} == {"×"}


# -- the move list ---------------------------------------------------------------------------


async def long_game(pilot, moves: int = 60):
    """Plays random legal moves of Six (fixed seed) through the session up to ``moves``."""
    import random

    chooser = random.Random(7)
    session = game_screen(pilot.app).session
    while len(session.game.history) < moves and not session.game.is_over:
        await session.play(chooser.choice(session.game.legal_moves()))
    await pilot.pause()


async def play_any(pilot) -> None:
    session = game_screen(pilot.app).session
    await session.play(session.game.legal_moves()[0])
    await pilot.pause()


def move_numbers(app) -> list[int]:
    return [int(line.split(".")[0]) for line in panel(app, "moves").splitlines()]


def move_marks(app) -> str:
    """The arrows at the end of the move lines: more moves above, or below."""
    lines = ["".join(text for text, _ in line) for line in game_screen(app).panel._drawn]
    return "".join(line[-1] for line in lines if re.match(r"\d+\. ", line)).replace(" ", "")


async def wheel(pilot, event, times: int = 1) -> None:
    """Turns the mouse wheel over the move list, as the terminal reports it."""
    for _ in range(times):
        await pilot._post_mouse_events([event], "#side", offset=(10, 20))


async def test_the_move_list_follows_the_game_and_the_wheel_scrolls_it_back():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await long_game(pilot)
        shown = move_numbers(app)
        assert shown[-1] == 60 and shown[0] > 1  # the newest, and no room for all
        assert move_marks(app) == "↑"
        room = len(shown)
        await wheel(pilot, MouseScrollUp)
        assert move_numbers(app)[-1] < 60
        assert move_marks(app) == "↑↓"
        await wheel(pilot, MouseScrollUp, 60)
        top = move_numbers(app)
        assert top == list(range(1, len(top) + 1)) and len(top) >= room  # a full page
        assert move_marks(app) == "↓"
        await play_any(pilot)
        assert move_numbers(app)[0] == 1  # a move played meanwhile leaves the view alone
        await wheel(pilot, MouseScrollDown, 60)
        assert move_numbers(app)[-1] == 61  # down to the newest: following again
        await play_any(pilot)
        assert move_numbers(app)[-1] == 62


async def test_the_move_list_scrolls_with_keys_once_it_has_focus():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await long_game(pilot)
        screen = game_screen(app)
        await pilot.click("#side")
        assert screen.focused is screen.panel
        await pilot.press("home")
        assert move_numbers(app)[0] == 1
        room = len(move_numbers(app))
        await pilot.press("down")
        assert move_numbers(app)[0] == 2
        await pilot.press("pagedown")
        assert move_numbers(app)[0] == 2 + room
        await pilot.press("up", "k")
        assert move_numbers(app)[0] == room
        await pilot.press("end")
        assert move_numbers(app)[-1] == 60
        await pilot.press("escape")  # back to the board, whose keys move the cursor again
        assert screen.focused is screen.board


async def test_keys_in_a_burst_follow_the_focus_between_the_move_list_and_the_board():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await long_game(pilot)
        screen = game_screen(app)
        start = screen.board.cursor
        await burst(pilot, "tab", "home", "escape", "down", "tab", "down")
        assert screen.focused is screen.panel
        assert move_numbers(app)[0] == 2  # Home, then down once: the board took the other
        assert screen.board.cursor.r == start.r + 1


async def test_a_move_redraws_few_lines_of_a_long_move_list():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await long_game(pilot, 41)
        side = game_screen(app).panel
        before = list(side._drawn)
        await play_any(pilot)
        changed = [
            y for y, (old, new) in enumerate(zip(before, side._drawn, strict=True)) if old != new
        ]
        assert len(changed) <= 5  # the status, the teams' pieces and the new move


async def test_a_shorter_status_keeps_the_lines_the_longest_took_so_nothing_below_moves():
    app = hot_seat("connect6")
    async with app.run_test(size=SIZE) as pilot:
        await play_any(pilot)
        side = game_screen(app).panel
        long = "Annabelle: place two stones, and the rest of a status too long for one line"
        side.show(long)
        assert panel(app, "status") == long  # on three lines
        before = list(side._drawn)
        side.show("Bob to move")
        changed = [
            y for y, (old, new) in enumerate(zip(before, side._drawn, strict=True)) if old != new
        ]
        assert panel(app, "status").rstrip() == "Bob to move"
        assert len(changed) == 3  # the status's lines, the second and third now blank


# -- the boxes over the game -----------------------------------------------------------------


@pytest.mark.parametrize("size", [SIZE, (120, 30)])
async def test_nothing_of_the_side_panel_shows_beside_the_result_box(size):
    app = table("six", [None, "easy", None, "easy"])
    async with app.run_test(size=size) as pilot:
        screen = game_screen(app)
        await screen.session.resign()
        await pilot.pause()
        summary_screen = app.screen
        assert isinstance(summary_screen, SummaryScreen)
        box = summary_screen.query_one(".dialog").region
        side = screen.panel.region
        for y in range(box.y, box.bottom):
            for x in range(side.x, side.right):
                widget, _ = summary_screen.get_widget_at(x, y)
                assert widget is not summary_screen, f"the panel shows at {x},{y}"


async def test_taking_back_a_capture_takes_its_marks_back_too():
    app = hot_seat("six")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = game_screen(app)
        for move in TIED_SPLIT:
            await screen.session.play(move)
        await screen.session.play("-2,2>-1,2:0,0")
        await pilot.pause()

        def marked() -> bool:
            return "×" in "".join(text for line in screen.board._drawn for text, _ in line)

        assert marked()
        await screen.session.undo()
        await pilot.pause()
        assert not marked()
        await screen.session.play("-2,2>-1,2:-5,6")  # the other group stays this time
        await pilot.pause()
        screen.board.action_centre()
        assert glyph_at(app, "0,0")[0] == "×"


# -- the chat ---------------------------------------------------------------------------------


def test_the_chat_shows_the_newest_lines_under_a_heading_spectators_marked():
    said = [
        ChatLine("ann", "an old line"),
        ChatLine("bob", "日本語のテキストです"),
        ChatLine("cy", "e\u0301 [b]psst[/b]", spectators=True),
    ]
    lines = chat_lines(said, 6, 16)  # the heading and five lines: ann's has no room
    drawn = ["".join(text for text, _ in line).rstrip() for line in lines]
    assert drawn == [
        "Chat",
        "bob:",
        "日本語のテキスト",
        "です",
        "cy (watching): e\u0301",
        "[b]psst[/b]",
    ]
    assert [names for _, names in lines[4]] == ["chat-name", "chat-aside"]
    assert chat_lines(said, 1, 16) == [] and chat_lines([], 10, 16) == []


SAID = st.builds(
    ChatLine,
    st.text(min_size=1, max_size=24).map(printable).filter(str.strip),
    st.text(min_size=1, max_size=300).map(printable).filter(str.strip),
    st.booleans(),
)


@given(said=st.lists(SAID, max_size=6), room=st.integers(0, 12), width=st.integers(2, 40))
def test_every_line_of_chat_fills_its_width_in_cells_and_the_room_at_most(said, room, width):
    lines = chat_lines(said, room, width)
    assert len(lines) <= room
    assert all(sum(cells(text) for text, _ in line) == width for line in lines)
