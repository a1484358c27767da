"""Typing: text entry keeps every key in the order it came, even when keys arrive in a
burst, and a whole turn typed on one line is played whole or not at all."""

import asyncio
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.widgets import Input

from sixtui.rules import GAMES, Game, IllegalMove, new_game
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.screens.game import typed_turn, typing_prompt
from sixtui.tui.widgets.typing import TypedInput
from support.six_games import OPTIONS as SIX_OPTIONS
from support.six_games import SETTINGS, running_game, seeds
from support.tui_helpers import (
    CONNECT6_WIN,
    SIZE,
    TIED_SPLIT,
    burst,
    game_screen,
    glyph_at,
    history,
    hot_seat,
    panel,
    play_all,
    type_move,
)


class Entry(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield TypedInput()

    def on_input_submitted(self, submitted: TypedInput.Submitted) -> None:
        self.submitted.append(submitted.value)


async def typed_in_a_burst(*keys: str) -> Entry:
    """An entry that took ``keys`` all at once."""
    app = Entry()
    async with app.run_test() as pilot:
        await burst(pilot, *keys)
    return app


async def test_a_backspace_in_a_burst_removes_the_character_before_it() -> None:
    app = await typed_in_a_burst("b", "a", "backspace", "c", "enter")
    assert app.submitted == ["bc"]


async def test_cursor_keys_in_a_burst_move_before_the_next_character() -> None:
    app = await typed_in_a_burst("b", "c", "left", "a", "home", "x", "enter")
    assert app.submitted == ["xbac"]


# -- a whole turn typed on one line ------------------------------------------------------------


def prompt(app) -> str:
    return game_screen(app).move_input.placeholder


async def test_a_whole_connect6_turn_typed_on_one_line_places_both_stones():
    app = hot_seat("connect6")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        assert prompt(app) == "type a move, like J10; Enter plays it, Esc goes back"
        await pilot.press(*"J10", "enter")
        await pilot.press("slash")
        assert prompt(app) == "type a move, like I10 K10; Enter plays it, Esc goes back"
        await pilot.press(*"K10 L10", "enter")
        await pilot.pause()
        assert history(app) == ["J10", "K10", "L10"]
        for typed in ("k11,l11", "/M12, N12", "o13;p13", "Q14R14"):  # "/" typed twice: fine
            await type_move(pilot, typed)
        assert history(app)[3:] == ["K11", "L11", "M12", "N12", "O13", "P13", "Q14", "R14"]
        assert panel(app, "message") == ""
        session = game_screen(app).session
        await session.play("A1")  # one stone of the turn with the cursor, the other typed
        await pilot.press("slash")
        assert prompt(app) == "type a move, like I10; Enter plays it, Esc goes back"
        await pilot.press(*"A2", "enter")
        assert history(app)[-2:] == ["A1", "A2"]


TWICE = (
    "is typed twice, but the two stones of a turn go on two different points: nothing was played"
)
TURNS_REFUSED = [
    ("K12 J10", "J10 is taken: nothing was played"),
    ("J10 K12", "J10 is taken: nothing was played"),
    ("K12 K12", f"K12 {TWICE}"),
    ("K12 k12", f"K12 {TWICE}"),
    ("K12 Z99", "Z99 is off the board (columns A–S, rows 1–19): nothing was played"),
    ("K12 L12 M12", "this turn is two stones, not 3: nothing was played"),
    ("K12 hello", "'K12 hello' is not a point: write a column letter and a row, like J10"),
]


async def test_a_turn_with_a_stone_that_cannot_be_played_places_neither():
    app = hot_seat("connect6")
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "J10 K10")
        assert panel(app, "message") == "this turn is one stone, not 2: nothing was played"
        assert history(app) == []
        await type_move(pilot, "J10")
        for typed, message in TURNS_REFUSED:
            await type_move(pilot, typed)
            assert panel(app, "message") == message
            assert history(app) == ["J10"]
            assert glyph_at(app, "K12")[0] == "·"
            game = game_screen(app).session.game
            assert (game.to_move, game.stones_left) == (1, 2)
        await type_move(pilot, "K12 L12")
        assert history(app) == ["J10", "K12", "L12"]


async def test_a_game_of_6_turn_typed_whole_counts_dots():
    app = hot_seat("gameof6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "E5")
        await pilot.press("slash")
        assert prompt(app) == "type a move, like D5 F5; Enter plays it, Esc goes back"
        await pilot.press(*"a1 a2 a3", "enter")
        await pilot.pause()
        assert panel(app, "message") == "this turn is two dots, not 3: nothing was played"
        await type_move(pilot, "a1 a2")
        assert history(app) == ["E5", "A1", "A2"]


async def test_a_turn_whose_first_stone_wins_ends_there():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        session = game_screen(app).session
        for move in CONNECT6_WIN[:-1]:
            await session.play(move)
        await type_move(pilot, "H5 I9")  # Black's H5 makes six in a row
        game = session.game
        assert game.result.winner == 0 and game.result.reason == "six-in-a-row"
        assert history(app)[-1] == "H5" and game.at("I9") is None
        assert "the game ended before I9: it was not played" in panel(app, "message")


async def test_the_session_plays_a_typed_turn_as_one():
    session = GameSetup("connect6", seats=(None, None)).session(None)
    updates = []
    session.subscribe(updates.append)
    await session.play("J10")
    await session.play_turn(["K10", "L10"])
    assert [str(move) for move in updates[-1].moves] == ["K10", "L10"]
    assert len(updates) == 2  # one piece of news for the whole turn
    with pytest.raises(IllegalMove, match=f"^K11 {TWICE}$"):
        await session.play_turn(["K11", "K11"])
    assert len(session.game.history) == 3 and len(updates) == 2


async def test_keys_in_a_burst_after_escape_from_the_move_input_move_the_cursor():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await burst(pilot, "slash", "escape", "right", "enter")
        assert screen.focused is screen.board and not screen.move_input.display
        assert history(app) == ["F5"]


async def test_a_game_of_6_turn_with_one_cell_twice_says_so():
    session = GameSetup("gameof6", size=9, seats=(None, None)).session(None)
    await session.play("E5")
    twice = "E6 is typed twice, but the two dots of a turn go on two different cells"
    with pytest.raises(IllegalMove, match=f"^{twice}: nothing was played$"):
        await session.play_turn(["E6", "e6"])
    assert [str(move) for move in session.game.history] == ["E5"]


async def test_six_prompts_for_a_move_that_fits_its_round():
    app = hot_seat("six")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        assert prompt(app) == "type a move, like 0,0; Enter plays it, Esc goes back"
        await pilot.press("escape")
        await play_all(app, TIED_SPLIT)
        await pilot.press("slash")
        assert prompt(app) == "type a move, like -5,6>1,0; Enter plays it, Esc goes back"
        await pilot.press(*"0,0>1,0 1,1", "enter")
        await pilot.pause()
        assert panel(app, "message").endswith(
            "write a cell like 2,-1, a move like 0,0>1,1, or declare"
        )
        assert len(history(app)) == 38


# -- the example in the prompt is a turn that may be played ----------------------------------


def played_example(game: Game) -> Game:
    """The game after the whole turn that the prompt gives as its example, typed as shown."""
    example = typing_prompt(game).removeprefix("type a move, like ").split(";")[0]
    trial, seat = game.copy(), game.to_move
    for move in typed_turn(trial, example):
        assert trial.to_move == seat and not trial.is_over, f"{example!r} is more than a turn"
        trial.play(move)
    assert trial.is_over or trial.to_move != seat, f"{example!r} is not the whole turn"
    return trial


def test_six_prompts_with_the_first_moves_the_rules_allow():
    for ruleset, first in (("steffen", "0,0"), ("romanian", "-1,0")):
        assert f"like {first};" in typing_prompt(new_game("six", ruleset=ruleset))


@SETTINGS
@given(option=st.sampled_from(SIX_OPTIONS), seed=seeds)
def test_the_example_is_a_legal_turn_in_any_game_of_six(option, seed):
    game = running_game(option, random.Random(seed))
    played_example(game)


@SETTINGS
@given(name=st.sampled_from(["connect6", "gameof6"]), seed=seeds, size=st.integers(6, 10))
def test_the_example_is_a_legal_turn_on_any_square_board(name, seed, size):
    rng = random.Random(seed)
    game = new_game(name, size=max(size, GAMES[name].MIN_SIZE))
    for _ in range(rng.randrange(size * size)):
        played_example(game)
        game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            break


async def test_a_move_typed_in_one_burst_is_played_and_the_keys_after_it_reach_the_board():
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(app)
        await burst(pilot, "slash", *"e5", "enter")
        assert history(app) == ["E5"]
        await burst(pilot, "slash", *"d4 f6", "enter", "slash", *"a1")
        assert history(app) == ["E5", "D4", "F6"]
        assert screen.focused is screen.move_input and screen.move_input.value == "a1"
        await burst(pilot, "escape", "right", "enter")
        assert screen.focused is screen.board and len(history(app)) == 4
        await burst(pilot, "slash", *"b2", "escape", "slash", *"c3")  # b2 given up
        assert screen.move_input.value == "c3"


async def test_an_open_move_line_is_not_drawn_again_while_nothing_is_typed():
    app = hot_seat("connect6", size=19)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", "J")
        line = game_screen(app).query_one("#move-input", TypedInput)
        await pilot.pause()
        drawn = []
        line.refresh = lambda *regions, **options: drawn.append(regions)  # type: ignore[method-assign]
        await asyncio.sleep(1.2)  # a blinking cursor would have been drawn twice
        assert drawn == []
        assert line.has_focus and line.value == "J"


class Styled(App[None]):
    CSS = "TypedInput.loud > .input--cursor { background: red; }"

    def compose(self) -> ComposeResult:
        yield TypedInput()


async def test_a_line_works_out_its_cursor_style_once_and_again_when_the_stylesheet_changes_it():
    app = Styled()
    async with app.run_test() as pilot:
        line = app.query_one(TypedInput)
        worked_out = []
        own = Input.get_component_rich_style

        def counted(widget, *names, **options):
            worked_out.append(names)
            return own(widget, *names, **options)

        Input.get_component_rich_style = counted  # type: ignore[method-assign]
        try:
            before = line.get_component_rich_style("input--cursor")
            for letter in "abc":  # each key a refresh, which Textual's cache does not outlive
                await pilot.press(letter)
                assert line.get_component_rich_style("input--cursor") == before
            assert worked_out == [("input--cursor",)]
            line.add_class("loud")
            await pilot.pause()
            loud = line.get_component_rich_style("input--cursor")
            assert loud != before and loud.bgcolor is not None
            assert loud.bgcolor.triplet == (255, 0, 0)
            line.remove_class("loud")
            await pilot.pause()
            assert line.get_component_rich_style("input--cursor") == before
        finally:
            Input.get_component_rich_style = own  # type: ignore[method-assign]
