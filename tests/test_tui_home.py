"""The home screen: a line per choice, changed with the arrow keys or a click; Enter
opens the table chosen."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.home import HomeScreen
from sixtui.tui.widgets.choice import Choice, ChoiceList, _window
from sixtui.tui.widgets.keys import KeyBar
from support.tui_helpers import SIZE, burst


def choices(app: SixtuiApp) -> ChoiceList:
    return app.screen.query_one(ChoiceList)


def shown(app: SixtuiApp) -> list[str]:
    return [choice.name for choice in choices(app).shown]


async def test_the_keys_choose_four_player_six_with_a_computer_team_and_enter_opens_it():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        assert shown(app) == ["game", "size", "seat0", "seat1"]
        await pilot.press("left")  # Connect6 wraps round to Six
        assert shown(app) == ["game", "ruleset", "players", "seat0", "seat1"]
        await pilot.press("down", "right")  # romanian: declaring can be chosen
        assert choices(app).value("ruleset") == "romanian"
        await pilot.press("down", "l")  # four players, as two teams
        assert shown(app) == [
            "game", "ruleset", "players", "declare", "seat0", "seat1", "seat2", "seat3"
        ]  # fmt: skip
        await pilot.press("j", "right")  # declaring on
        assert choices(app).value("seat1") == "normal"  # the computer, unless changed
        await pilot.press("down", "down", "down", "down", "right")  # seat 4: the easy computer
        setup = app.screen.setup()
        assert setup == GameSetup(
            "six", ruleset="romanian", players=4, declare=True, seats=(None, "normal", None, "easy")
        )
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.game.options()["ruleset"] == "romanian"


def drawn_line(app: SixtuiApp, name: str) -> str:
    listed = choices(app)
    line = listed._drawn[[choice.name for choice in listed.shown].index(name)]
    return "".join(text for text, _ in line).strip()


async def test_declaring_is_offered_with_what_it_does_for_the_rulesets_that_have_it():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("left", "down")  # Six, steffen rules: no declaring
        assert "declare" not in shown(app)
        await pilot.press("right")  # romanian
        line = " ".join(drawn_line(app, "declare").split())
        assert line == "Declaring off on on: a shape wins only when its team declares it"
        await pilot.press("right")  # romanian-advanced
        assert "declare" in shown(app)
        await pilot.press("down", "down", "right", "enter")  # declaring on, then play
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.game.options() == {
            "ruleset": "romanian-advanced", "players": 2, "declare": True
        }  # fmt: skip


async def test_keys_in_a_burst_find_the_lines_the_keys_before_them_showed():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, "left", "down", "right")  # Six, Rules, romanian
        assert choices(app).current == "ruleset"
        assert choices(app).value("ruleset") == "romanian"
        assert "declare" in shown(app)


async def test_a_click_chooses_an_option_and_the_board_sizes_follow_the_game():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        listed = choices(app)
        span = next(span for span in listed["game"].spans if span[2] == 1)  # Game of 6
        await pilot.click(listed, offset=(span[0] + 1, 0))
        assert listed.value("game") == "gameof6" and listed.has_focus
        await pilot.press("down", "right")
        assert listed.value("size") == 20  # Game of 6 goes beyond Connect6's 19
        await pilot.press("up", "right")  # Six
        await pilot.press("left")  # back to Game of 6: its size is kept
        assert listed.value("size") == 20
        await pilot.press("left")  # Connect6 has no 20×20: its largest instead
        assert listed.value("size") == 19
        line = shown(app).index("seat1")
        span = next(span for span in listed["seat1"].spans if span[2] == 3)  # Hard computer
        await pilot.click(listed, offset=(span[0] + 1, line))
        assert listed.current == "seat1" and listed.value("seat1") == "hard"


def footer(app: SixtuiApp) -> str:
    return " ".join("".join(text for text, _ in app.screen.query_one(KeyBar)._drawn[0]).split())


def drawn_current(app: SixtuiApp) -> list[str]:
    """The captions of the lines drawn as the current one."""
    return [line[0][0].strip() for line in choices(app)._drawn if line[0][1].endswith("current")]


async def test_the_lines_and_play_are_one_list_for_the_arrows():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        listed = choices(app)
        play = app.screen.query_one("#play")
        await pilot.press("down", "down", "down")
        assert listed.current == "seat1" and drawn_current(app) == ["Seat 2 ○"]
        assert footer(app) == "←→ Change ↑↓ Line ⏎ Play ? Rules q Quit"
        await pilot.press("down")
        assert app.focused is play
        assert drawn_current(app) == []  # the focus is on Play alone
        assert footer(app) == "⏎ Play ↑↓ Line ? Rules q Quit"
        await pilot.press("up")
        assert listed.has_focus and listed.current == "seat1"
        assert drawn_current(app) == ["Seat 2 ○"]
        await pilot.press("k", "k", "k")
        assert listed.current == "game"
        await pilot.press("k")  # round to Play, as shift+Tab goes
        assert app.focused is play and drawn_current(app) == []
        await pilot.press("j")  # and on round to the first line
        assert listed.has_focus and listed.current == "game"


async def test_arrows_in_a_burst_go_on_through_play_and_the_lines_as_one_by_one():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        listed = choices(app)
        await burst(pilot, "down", "down", "down", "down")
        assert app.focused is app.screen.query_one("#play")
        await burst(pilot, "up", "up")
        assert listed.has_focus and listed.current == "seat0"
        assert drawn_current(app) == ["Seat 1 ●"]
        await burst(pilot, "up", "up", "up", "up", "up")  # from Board round through Play
        assert listed.has_focus and listed.current == "seat0"
        await burst(pilot, "down", "down", "down")  # from Seat 2 round through Play
        assert listed.has_focus and listed.current == "game"


async def test_back_from_a_game_the_focus_shows_where_it_is_and_the_arrows_work():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        listed = choices(app)
        await pilot.press("down", "right", "down", "down", "down")  # 13×13, then Play
        play = app.screen.query_one("#play")
        assert app.focused is play
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q", "y")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.focused is play and drawn_current(app) == []
        await pilot.press("up")
        assert listed.has_focus and drawn_current(app) == ["Seat 2 ○"]
        await pilot.press("up", "up", "enter")  # from a line, Enter plays too
        assert isinstance(app.screen, GameScreen)
        await pilot.press("q", "y")
        await pilot.pause()
        assert listed.has_focus and drawn_current(app) == ["Board"]
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HomeScreen)
        await pilot.press("escape")
        assert listed.has_focus and drawn_current(app) == ["Board"]
        await pilot.press("down")
        assert drawn_current(app) == ["Seat 1 ●"]


async def test_the_cursor_leaves_a_line_that_is_hidden():
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        listed = choices(app)
        await pilot.press("left", "down", "right", "down", "right")  # romanian, 4 players
        await pilot.press("down", "down", "down", "down", "down")
        assert listed.current == "seat3"
        listed.show("seat3", False)
        assert listed.current == "seat2"
        listed.show("game", False)
        listed.show("game", True)
        assert listed.current == "seat2"
        await pilot.pause()
        assert listed.size.height == len(listed.shown) == 7


async def test_home_starts_with_the_table_it_is_given():
    setup = GameSetup("gameof6", size=13, seats=(None, "hard"))
    app = SixtuiApp(computer_pause=0)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(HomeScreen(setup))
        await pilot.pause()
        assert app.screen.setup() == setup


async def test_a_choice_that_is_not_offered_is_refused():
    listed = ChoiceList([Choice("players", "Players", [("2", 2), ("4", 4)], 2)])
    with pytest.raises(ValueError, match="3 is not one of the choices for Players"):
        listed.choose("players", 3)
    assert listed.value("players") == 2
    with pytest.raises(ValueError, match="5 is not one of the choices for Players"):
        listed.set_options("players", [("2", 2), ("3", 3)], 5)
    assert listed["players"].options == [("2", 2), ("4", 4)]  # nothing changed
    with pytest.raises(ValueError, match="Seats has nothing to choose from"):
        Choice("seats", "Seats", [], None)


@given(st.lists(st.integers(1, 30), min_size=1, max_size=20), st.data())
def test_the_window_of_options_holds_the_choice_and_as_many_as_fit(widths, data):
    around = data.draw(st.integers(0, len(widths) - 1))
    room = data.draw(st.integers(0, 120))
    first, last = _window(widths, around, room)
    assert first <= around <= last
    used = sum(widths[first : last + 1])
    assert used <= room or first == last == around  # one too wide is still shown
    if first == last == around and widths[around] > room:
        return
    assert last == len(widths) - 1 or used + widths[last + 1] > room
    assert first == 0 or used + widths[first - 1] > room
