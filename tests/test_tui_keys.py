"""The game screen's footer names the keys that do something now, and a key that does
nothing now says why when pressed."""

from sixtui.tui.screens.dialogs import ConfirmScreen, SummaryScreen
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.widgets.keys import KeyBar
from support.tui_helpers import (
    CONNECT6_WIN,
    SIZE,
    TIED_SPLIT,
    game_screen,
    history,
    hot_seat,
    key_bar,
    panel,
    place,
    play_all,
    resign_the_last_game,
    type_move,
)


def shows_none_of(footer: str, descriptions) -> bool:
    return not any(description in footer for description in descriptions)


async def test_while_the_game_is_on_the_footer_shows_the_keys_that_play_it():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        assert (
            key_bar(app) == "⏎ Place r Resign s Suggest / Type ? Rules q Quit"
        )  # nothing to undo yet
        await pilot.press("enter")
        assert key_bar(app) == "⏎ Place u Undo r Resign s Suggest / Type ? Rules q Quit"
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmScreen)
        assert key_bar(app) == "y Yes n No"  # the question's keys, while it is asked
        await pilot.press("n")
        assert key_bar(app) == "⏎ Place u Undo r Resign s Suggest / Type ? Rules q Quit"
        await pilot.press("r")
        assert app.screen.focused is app.screen.query_one("#no")  # a stray Enter declines
        await pilot.press("enter")
        assert isinstance(app.screen, GameScreen) and not app.screen.session.game.is_over


async def test_after_the_end_the_footer_offers_the_next_game_and_the_board_not_moves():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, CONNECT6_WIN)
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert key_bar(app) == "n Next game b See the board e Save record q Leave"
        await pilot.press("b")
        assert isinstance(app.screen, GameScreen)
        assert key_bar(app) == "n Next game v Review e Save record ? Rules q Quit"
        for key in ("u", "r", "slash", "enter"):
            await pilot.press(key)
            assert panel(app, "message") == "the game is over: n starts the next one"
            assert isinstance(app.screen, GameScreen)  # no question asked
        assert history(app) == CONNECT6_WIN
        assert game_screen(app).session.game.result.reason == "six-in-a-row"
        await pilot.press("n")
        assert history(app) == []
        assert key_bar(app) == "⏎ Place r Resign s Suggest / Type ? Rules q Quit"


async def test_after_the_match_the_footer_offers_no_next_game():
    app = hot_seat("gameof6", size=8)
    async with app.run_test(size=SIZE) as pilot:
        await resign_the_last_game(pilot)
        assert isinstance(app.screen, SummaryScreen)
        assert key_bar(app) == "b See the board e Save record q Leave"
        await pilot.press("n")  # nothing to start
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("b")
        assert key_bar(app) == "v Review e Save record ? Rules q Quit"
        await pilot.press("u")
        assert panel(app, "message") == "the match is over: q leaves"


async def test_while_the_move_list_has_focus_the_footer_says_how_to_scroll_it():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("tab")
        assert key_bar(app) == "↑↓ Scroll moves r Resign s Suggest / Type ? Rules q Quit"
        await play_all(app, CONNECT6_WIN)
        await pilot.pause()
        await pilot.press("b")  # from the summary back to the move list
        assert key_bar(app) == "↑↓ Scroll moves n Next game v Review e Save record ? Rules q Quit"
        await pilot.press("escape")
        assert key_bar(app) == "n Next game v Review e Save record ? Rules q Quit"


async def test_hints_and_declaring_are_offered_in_the_games_that_have_them():
    app = hot_seat("gameof6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        assert shows_none_of(key_bar(app), ["Hints", "Declare"])
        await pilot.press("m")  # each still says why not
        assert panel(app, "message") == "every empty point is a legal place here: hints are for Six"
        await pilot.press("exclamation_mark")
        assert panel(app, "message") == "declaring is off in this game"
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        assert "m Hints" in key_bar(app) and "Declare" not in key_bar(app)
    app = hot_seat("six", ruleset="romanian", declare=True)
    async with app.run_test(size=SIZE) as pilot:
        footer = key_bar(app)
        assert (
            footer == "⏎ Place c Centre r Resign m Hints s Suggest ! Declare / Type ? Rules q Quit"
        )
        await pilot.press("exclamation_mark")  # the next move declares: Esc takes it back
        assert "esc Cancel" in key_bar(app)
        await pilot.press("escape")
        assert key_bar(app) == footer


async def test_in_six_second_round_the_footer_follows_the_steps_of_a_move():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, TIED_SPLIT)
        await pilot.pause()
        assert key_bar(app).startswith("⏎ Pick c Centre u Undo r Resign m Hints")
        await place(pilot, "-2,2")
        # The piece's destinations are marked anyway: no hints key meanwhile.
        assert key_bar(app) == (
            "⏎ Move here c Centre u Undo r Resign / Type esc Cancel ? Rules q Quit"
        )
        await place(pilot, "-1,2")
        assert key_bar(app).startswith("⏎ Keep group")
        await pilot.press("escape")
        assert key_bar(app).startswith("⏎ Pick") and "Cancel" not in key_bar(app)


async def test_while_a_move_is_typed_the_footer_shows_only_how_to_go_back():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        assert key_bar(app) == "esc Cancel"
        await pilot.press("escape")
        assert key_bar(app).startswith("⏎ Place")


async def test_a_declaring_move_with_nothing_to_declare_says_it_won_nothing():
    # Black's row came first, then Red's: Black's right to declare its row is lost.
    rows = ["0,-1", "0,1", "1,-1", "1,1", "2,-1", "2,1", "3,-1", "3,1", "4,-1", "4,1"]
    app = hot_seat("six", ruleset="romanian", declare=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, [*rows, "5,-1", "5,1"])
        await type_move(pilot, "-1,0!")
        game = game_screen(app).session.game
        assert not game.is_over and game.to_move == 1
        assert panel(app, "message") == (
            "nothing to declare: no shape your team may declare, so no win"
        )
        await type_move(pilot, "declare")  # Red's right stands
        assert game.result is not None and game.result.winner == 1


async def test_the_keys_are_worked_out_once_however_often_a_change_is_announced(monkeypatch):
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        bar = app.screen.query_one(KeyBar)
        worked_out = []
        entries = bar._entries
        monkeypatch.setattr(bar, "_entries", lambda: worked_out.append(1) or entries())
        for _ in range(3):  # as a screen and its lists each say so, drawing one change
            app.screen.refresh_bindings()
        await pilot.pause()
        assert len(worked_out) == 1
        await pilot.press("enter")  # and a change after that is shown
        assert key_bar(app) == "⏎ Place u Undo r Resign s Suggest / Type ? Rules q Quit"
