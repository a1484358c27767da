"""Suggested turns in local games: s thinks of the strongest computer player's turn for
the person to move, in the worker processes, then draws it on the board and names it;
p plays it, Esc hides it, and any change of position drops it. Never at an online table."""

from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.screens.dialogs import ConfirmScreen
from sixtui.tui.screens.help import HelpScreen, laid_out
from sixtui.tui.session import NO_SUGGESTION_ONLINE
from support.online_apps import at_table, at_terminals, command, in_lobby, online_app
from support.prompt_thinker import PromptThinker
from support.tui_helpers import (
    CONNECT6_WIN,
    SIZE,
    TIED_SPLIT,
    game_screen,
    glyph_at,
    history,
    key_bar,
    panel,
    place,
    play_all,
    started_thinker,
    wait_until,
)

THINKING = "thinking of a turn to suggest… (Esc stops)"


def table(thinker: PromptThinker, game: str = "connect6", seats=(None, None), **options):
    setup = GameSetup(game, players=len(seats), seats=seats, **options)
    return SixtuiApp(setup, thinker=thinker, computer_pause=0)


def suggesting(app) -> bool:
    return bool(game_screen(app).suggestion)


async def test_a_suggested_turn_is_thought_of_then_drawn_and_named():
    thinker = PromptThinker("C3 D4")
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await place(pilot, "E5")  # White, two stones to place
        assert "s Suggest" in key_bar(app)
        await pilot.press("s")
        assert panel(app, "message") == THINKING
        assert "s Thinking…" in key_bar(app)
        assert thinker.asked == [(1, "hard")]
        thinker.release.set()
        await wait_until(pilot, lambda: suggesting(app), "the suggestion")
        assert panel(app, "message") == "suggested: C3 D4 (p plays it, Esc hides it)"
        assert glyph_at(app, "C3") == ("◇", "grid+suggest")
        assert glyph_at(app, "D4") == ("◇", "grid+suggest")
        assert glyph_at(app, "E5")[0] == "◉"  # Black's stone as it was
        assert "p Play it" in key_bar(app) and "Suggest" not in key_bar(app)
        assert history(app) == ["E5"]  # drawn, not played


async def test_pressing_again_while_thinking_asks_once():
    thinker = PromptThinker("D4")
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "s", "s")
        assert thinker.asked == [(0, "hard")]
        assert panel(app, "message") == THINKING
        thinker.release.set()
        await wait_until(pilot, lambda: suggesting(app), "the suggestion")
        await pilot.press("s")  # shown: named again, not thought of again
        assert thinker.asked == [(0, "hard")]
        assert panel(app, "message") == "suggested: D4 (p plays it, Esc hides it)"


async def test_the_board_stays_in_play_while_a_turn_is_thought_of():
    thinker = PromptThinker("D4")
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await place(pilot, "F6")  # the think never answers until released
        assert history(app) == ["F6"]
        assert thinker.cancelled == 1  # its position is gone: the think is dropped
        assert "Thinking" not in key_bar(app) and panel(app, "message") == ""
        thinker.release.set()
        await pilot.pause(0.1)
        assert not suggesting(app) and glyph_at(app, "D4") == ("·", "grid")


async def test_a_move_an_undo_or_escape_clear_the_suggestion():
    thinker = PromptThinker("D4", "C3 C4", "G7 G6", wait=False)
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await wait_until(pilot, lambda: suggesting(app), "the first suggestion")
        await place(pilot, "F6")  # the player's own move rather than the one suggested
        assert not suggesting(app) and glyph_at(app, "D4") == ("·", "grid")
        assert "p Play it" not in key_bar(app)
        await pilot.press("s")
        await wait_until(pilot, lambda: suggesting(app), "the second suggestion")
        await pilot.press("u")
        assert history(app) == [] and glyph_at(app, "C3") == ("·", "grid")
        await pilot.press("s")
        await wait_until(pilot, lambda: suggesting(app), "the third suggestion")
        await pilot.press("escape")
        assert not suggesting(app) and glyph_at(app, "G7") == ("·", "grid")
        assert panel(app, "message") == ""


async def test_p_plays_the_suggested_turn():
    thinker = PromptThinker("C3 D4", wait=False)
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        assert panel(app, "message") == "there is no suggested turn to play: s asks for one"
        await place(pilot, "E5")
        await pilot.press("s")
        await wait_until(pilot, lambda: suggesting(app), "the suggestion")
        await pilot.press("p")
        assert history(app) == ["E5", "C3", "D4"]
        assert not suggesting(app) and glyph_at(app, "C3")[0] == "◎"


async def test_a_suggestion_that_comes_after_the_position_changed_is_dropped():
    thinker = PromptThinker("D4")
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        # The game changes without the screen hearing of it yet (as news still on its way).
        game_screen(app).session.game.play("F6")
        thinker.release.set()
        await pilot.pause(0.1)
        assert not suggesting(app) and "Thinking" not in key_bar(app)
        assert glyph_at(app, "D4") == ("·", "grid")


async def test_no_suggestion_while_the_computer_is_to_move_or_after_the_end():
    thinker = PromptThinker()
    app = table(thinker, size=9, seats=("easy", None))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: thinker.asked, "the computer to think")
        assert "Suggest" not in key_bar(app)
        await pilot.press("s")
        assert panel(app, "message") == "wait: it is Easy computer's turn"
        assert thinker.asked == [(0, "easy")]  # only the computer's own turn
    app = table(PromptThinker(), size=9)
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, CONNECT6_WIN)
        await pilot.press("b")  # from the summary back to the board
        assert "Suggest" not in key_bar(app)
        await pilot.press("s")
        assert panel(app, "message") == "the game is over: n starts the next one"


async def test_no_suggestion_at_an_online_table(hub):
    async with at_terminals(online_app(hub, "ann"), online_app(hub, "bob")) as pilots:
        for pilot in pilots:
            await in_lobby(pilot)
        for pilot in pilots:
            await command(pilot, "pair connect6")
        screens = [await at_table(pilot) for pilot in pilots]
        mover = next(
            p for p, screen in zip(pilots, screens, strict=True) if screen.session.may_move
        )
        assert "Suggest" not in key_bar(mover.app)
        await mover.press("s")
        assert panel(mover.app, "message") == NO_SUGGESTION_ONLINE
        assert not suggesting(mover.app)


async def test_leaving_the_game_drops_the_suggestion_being_thought_of():
    thinker = PromptThinker()
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await place(pilot, "E5")
        await pilot.press("s", "q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert thinker.cancelled == 1


async def test_resigning_drops_the_suggestion_being_thought_of():
    thinker = PromptThinker()
    app = table(thinker, size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "r", "y")
        await pilot.pause()
        assert thinker.cancelled == 1
        assert game_screen(app).session.game.is_over and not suggesting(app)


async def test_six_second_round_suggestion_marks_the_piece_lifted_and_where_it_goes():
    thinker = PromptThinker("-2,2>-1,2:-5,6", wait=False)
    app = table(thinker, game="six")
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, TIED_SPLIT)
        await pilot.press("s")
        await wait_until(pilot, lambda: suggesting(app), "the suggestion")
        assert panel(app, "message") == "suggested: -2,2>-1,2:-5,6 (p plays it, Esc hides it)"
        assert glyph_at(app, "-2,2") == ("●", "team0+lift")
        assert glyph_at(app, "-1,2") == ("◇", "board+suggest")


async def test_the_suggestion_comes_from_the_worker_processes():
    async with started_thinker() as thinker:
        app = SixtuiApp(GameSetup.against("connect6", ["easy"], size=9), thinker, computer_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            await place(pilot, "E5")
            await wait_until(pilot, lambda: len(history(app)) == 3, "the computer's turn")
            await pilot.press("s")
            await wait_until(pilot, lambda: suggesting(app), "the suggestion")
            turn = game_screen(app).suggestion
            assert len(turn) == 2
            named = " ".join(str(move) for move in turn)
            assert panel(app, "message") == f"suggested: {named} (p plays it, Esc hides it)"
            for move in turn:
                assert glyph_at(app, move.to) == ("◇", "grid+suggest")
            await pilot.press("p")
            assert history(app)[3:5] == [str(move) for move in turn]


async def test_the_keys_page_lists_the_suggestion_keys():
    app = table(PromptThinker(), size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        strips, starts = laid_out(80)
        keys = " ".join(strip.text for strip in strips[starts["Keys"] : starts["Connect6"]])
        words = " ".join(keys.split())  # the lines of a key's row joined
        assert "s local games: suggest a turn, the strongest computer player's" in words
        assert "p play the turn suggested" in words
