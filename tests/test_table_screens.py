"""The game screen at a shared table: two players' apps in one process, each with a table
session on one hub, playing with keys and seeing each other's turns."""

import contextlib
import time

from textual.widget import Widget
from textual.widgets import Static

from sixtui.rules import Square
from sixtui.server.archive import Archive
from sixtui.server.archiving import Archivist
from sixtui.server.hub import MemoryHub
from sixtui.server.rooms import open_table
from sixtui.server.table_session import TableSession
from sixtui.tui.app import SixtuiApp
from sixtui.tui.screens.dialogs import SummaryScreen
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.replay import ReplayScreen
from support.tables import ANN, BOB, send
from support.tables import Clock as WallClock
from support.tui_helpers import SIZE, game_screen, glyph_at, history, panel, place, wait_until


@contextlib.asynccontextmanager
async def two_screens(
    game: str, options: dict, clock: str | None = None, wall=time.time, archive=None
):
    """Ann's and Bob's apps at one new table, each on its game screen, and their pilots;
    the table has the time control ``clock``, kept by the wall clock ``wall``, and its
    games go to ``archive``, if given, as a server's do.

    Each app makes its session and screen in its own context, as a server's session does:
    code of one app must not build another's widgets."""
    hub = MemoryHub()
    archivist = None if archive is None else Archivist(hub, archive)
    if archivist is not None:
        archivist.start()
    table = await open_table(hub, game, options, [[ANN], [BOB]], opener=0, clock=clock)
    apps = [SixtuiApp(), SixtuiApp()]
    async with apps[0].run_test(size=SIZE) as ann, apps[1].run_test(size=SIZE) as bob:
        for pilot, who in ((ann, ANN), (bob, BOB)):

            async def sit_down(app=pilot.app, identity=who.identity) -> None:
                session = await TableSession.join(hub, table, identity, wall, archive=archive)
                await app.push_screen(GameScreen(session))

            pilot.app.call_later(sit_down)
            await pilot.pause()
        yield ann, bob
        for app in apps:
            await game_screen(app).session.close()
    if archivist is not None:
        await archivist.close()
    await hub.close()


async def test_a_turn_played_on_one_screen_shows_on_the_other():
    async with two_screens("connect6", {"size": 9}) as (ann, bob):
        assert panel(bob.app, "seats").splitlines() == ["● Ann", "○ Bob  you"]
        assert panel(bob.app, "status") == "Ann to move"
        await ann.press("enter", "enter")  # Ann opens on E5, where her cursor starts; sent
        await wait_until(bob, lambda: history(bob.app) == ["E5"], "Ann's stone on Bob's board")
        assert glyph_at(bob.app, "E5")[1].startswith("team0+last")
        assert panel(bob.app, "status") == "Bob: place two stones"
        await ann.pause()
        assert panel(ann.app, "status") == "Bob to move"

        await place(bob, "E6", "enter")  # staged: Ann does not see it yet
        assert history(bob.app) == ["E5", "E6"] and history(ann.app) == ["E5"]
        await place(bob, "F6", "enter")
        assert history(ann.app) == ["E5"]  # the turn is whole, not yet sent
        await bob.press("enter")
        await wait_until(ann, lambda: history(ann.app) == ["E5", "E6", "F6"], "Bob's turn")
        assert glyph_at(ann.app, Square.parse("F6"))[1].startswith("team1+last")
        assert panel(ann.app, "status") == "Ann: place two stones"
        assert panel(ann.app, "moves").splitlines()[-1] == "2. E6 F6"


async def test_an_offer_and_a_resignation_reach_the_other_screen():
    async with two_screens("six", {}) as (ann, bob):
        await bob.press("enter")
        assert panel(bob.app, "message") == "wait: it is Ann's turn"
        await game_screen(ann.app).session.offer_draw()
        await wait_until(bob, lambda: panel(bob.app, "message") == "Ann offers a draw", "the offer")
        await bob.press("r", "y")  # Bob resigns instead
        await wait_until(ann, lambda: isinstance(ann.app.screen, SummaryScreen), "the summary")
        assert panel(ann.app, "status") == "Ann wins: Bob resigned"


def clocks(app) -> list[tuple[str, str]]:
    """Each seat's clock as the panel draws it, and its style."""
    return [line[-1] for line in game_screen(app).panel._drawn[2:4]]


async def test_clocks_count_down_on_both_screens_and_time_up_ends_the_game():
    wall = WallClock()
    async with two_screens("connect6", {"size": 9}, "1+0", wall) as (ann, bob):
        assert panel(bob.app, "terms") == "1+0"  # no archive here: nothing is rated
        assert clocks(ann.app) == [("1:00", "clock-own"), ("1:00", "clock")]
        await ann.press("enter", "enter")  # the first turn, untimed: Bob's clock runs
        await wait_until(bob, lambda: history(bob.app) == ["E5"], "Ann's stone")
        assert game_screen(bob.app)._clock_ticking is not None
        wall.now += 35.2
        game_screen(bob.app).panel.sync()  # as the screen's tick does every second
        assert clocks(bob.app) == [("1:00", "clock"), ("0:25", "clock-low")]
        wall.now += 25
        assert await game_screen(ann.app).session.flag()
        await wait_until(bob, lambda: "ran out of time" in panel(bob.app, "status"), "the flag")
        assert panel(bob.app, "status") == "Ann wins as Black: Bob ran out of time"
        assert game_screen(bob.app)._clock_ticking is None
        assert clocks(bob.app)[1][0] == "0:00"


async def test_a_clock_s_second_redraws_its_own_line_alone_and_never_the_board():
    wall = WallClock()
    async with two_screens("connect6", {"size": 9}, "5+0", wall) as (ann, bob):
        await ann.press("enter", "enter")  # Bob's clock runs
        await wait_until(bob, lambda: history(bob.app) == ["E5"], "Ann's stone")
        screen = game_screen(bob.app)
        refreshed: dict[str, list] = {"panel": [], "board": []}
        for name, widget in (("panel", screen.panel), ("board", screen.board)):
            widget.refresh = lambda *regions, name=name, **_: refreshed[name].append(regions)
        for _ in range(3):
            wall.now += 1
            screen.panel.sync()  # as the screen's tick does every second
        assert refreshed["board"] == []
        assert [[(r.y, r.height, r.width) for r in regions] for regions in refreshed["panel"]] == [
            [(3, 1, len("4:59"))]
        ] * 3  # the clock at the end of Bob's seat line, alone
        assert clocks(bob.app)[1] == ("4:57", "clock-own")


async def test_a_turn_typed_on_the_move_line_redraws_the_boards_changed_lines_alone():
    async with two_screens("connect6", {"size": 9}) as (ann, bob):
        screen = game_screen(ann.app)
        refreshed: list[tuple] = []
        drawn_before = screen.board.refresh

        def refresh(*regions, **options):
            refreshed.append(regions)
            return drawn_before(*regions, **options)

        screen.board.refresh = refresh
        await ann.press("slash")  # the board loses the focus to the move line...
        assert screen.focused is screen.move_input and not screen.board.has_focus
        await ann.press(*"E5", "enter")  # ...and takes it back
        await wait_until(bob, lambda: history(bob.app) == ["E5"], "Ann's stone")
        await wait_until(ann, lambda: history(ann.app) == ["E5"], "her own stone")
        assert screen.focused is screen.board and screen.board.has_focus
        assert refreshed, "the stone was drawn"
        assert all(regions for regions in refreshed)  # never the whole board
        rows = {region.y for regions in refreshed for region in regions}
        assert len(rows) <= 3  # the stone's row, and what the cursor and the status moved


async def test_the_board_and_the_lines_look_alike_focused_or_not_and_are_not_restyled():
    async with two_screens("connect6", {"size": 9}) as (ann, _):
        screen = game_screen(ann.app)
        board = screen.board
        for widget in (board, screen.move_input, screen.chat_input):
            looks = []
            for focused in (True, False):  # as Textual's own handlers restyle it
                widget.set_reactive(Widget.has_focus, focused)
                ann.app.update_styles(widget)
                looks.append(widget.styles.css)
            assert looks[0] == looks[1], f"{widget!r} is styled when focused: restyle it"
        restyled = []
        applying = ann.app.update_styles
        await ann.press("slash", "x", "escape")  # (Input marks its first value valid)
        ann.app.update_styles = lambda node, **options: (
            restyled.append(node),
            applying(node, **options),
        )
        await ann.press("slash", *"E5", "enter")
        await wait_until(ann, lambda: history(ann.app) == ["E5"], "her own stone")
        assert screen.focused is board and board.has_focus
        assert board not in restyled and screen.move_input not in restyled


async def test_a_key_typed_on_the_move_line_lays_nothing_out_again():
    async with two_screens("connect6", {"size": 9}) as (ann, _):
        screen = game_screen(ann.app)
        await ann.press("slash")
        line = screen.move_input
        laid_out = []
        refreshing = line.refresh
        line.refresh = lambda *regions, layout=False, **options: (
            laid_out.append(layout),
            refreshing(*regions, layout=layout, **options),
        )
        await ann.press(*"E5", "backspace", "6")
        await ann.pause()
        assert line.value == "E6"
        assert laid_out and not any(laid_out)  # repainted, never laid out again


async def test_a_widget_styled_when_focused_is_still_restyled_and_redrawn():
    async with two_screens("connect6", {"size": 9}) as (ann, _):
        screen = game_screen(ann.app)
        before = screen.panel.styles.border_left
        await ann.press("tab")  # to the list of moves, whose edge the stylesheet lights up
        assert screen.focused is screen.panel and screen.panel.has_focus
        assert screen.panel.styles.border_left != before
        await ann.press("escape")
        assert screen.focused is screen.board and not screen.panel.has_focus
        assert screen.panel.styles.border_left == before


async def test_the_summary_shows_the_ratings_the_game_moved():
    async with two_screens("connect6", {"size": 9}, archive=Archive(":memory:")) as (ann, bob):
        assert panel(bob.app, "seats").splitlines() == ["● Ann  1500?", "○ Bob  1500? · you"]
        assert panel(bob.app, "terms") == "rated"
        await game_screen(ann.app).session.play_turn(["E5"])
        await wait_until(bob, lambda: history(bob.app) == ["E5"], "Ann's stone")
        await game_screen(bob.app).session.play_turn(["A1", "A2"])
        await wait_until(ann, lambda: len(history(ann.app)) == 3, "Bob's turn")
        await ann.press("r", "y")  # Ann resigns
        await wait_until(bob, lambda: isinstance(bob.app.screen, SummaryScreen), "the summary")
        text = lambda: str(bob.app.screen.query_one("#summary", Static).render())  # noqa: E731
        await wait_until(bob, lambda: "1611?" in text(), "the ratings moved")
        assert "Rating   1389?" in text() and "1611?" in text()
        assert "Archived as game 1: replay 1 in the lobby." in text()


async def test_the_moves_are_reviewed_on_a_replay_over_the_table_once_the_game_is_over():
    async with two_screens("connect6", {"size": 9}) as (ann, bob):
        await ann.press("enter", "enter")
        await wait_until(bob, lambda: history(bob.app) == ["E5"], "Ann's stone")
        await bob.press("v")  # while the game goes on, not for a player
        assert not isinstance(bob.app.screen, ReplayScreen)
        assert "once the game is over" in panel(bob.app, "message")
        await ann.press("r", "y")
        await wait_until(bob, lambda: isinstance(bob.app.screen, SummaryScreen), "the summary")
        await bob.press("b", "v")  # at the newest move, as the board shows it
        assert isinstance(bob.app.screen, ReplayScreen) and bob.app.screen.session.ply == 1
        await bob.press("left")
        assert bob.app.screen.session.ply == 0
        await bob.press("q")
        assert isinstance(bob.app.screen, GameScreen)


async def test_a_spectator_who_tries_to_move_is_told_they_are_watching():
    hub = MemoryHub()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0)
    app = SixtuiApp()
    async with app.run_test(size=SIZE) as pilot:

        async def watch() -> None:
            await app.push_screen(GameScreen(await TableSession.join(hub, table)))

        app.call_later(watch)
        await pilot.pause()
        await pilot.press("enter")
        assert panel(app, "message").startswith("you are watching: the players play here")
        await game_screen(app).session.close()
    await hub.close()


async def test_a_spectator_s_review_follows_the_moves_while_it_is_at_the_newest():
    hub = MemoryHub()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0)
    app = SixtuiApp()
    async with app.run_test(size=SIZE) as pilot:

        async def watch() -> None:
            await app.push_screen(GameScreen(await TableSession.join(hub, table)))

        app.call_later(watch)
        await pilot.pause()
        await send(hub, table, ANN, "turn", "E5")
        await wait_until(pilot, lambda: history(app) == ["E5"], "Ann's stone")
        await pilot.press("v")
        review = app.screen
        assert isinstance(review, ReplayScreen) and review.session.ply == 1
        await send(hub, table, BOB, "turn", "A1", "A2")
        await wait_until(pilot, lambda: review.session.ply == 3, "Bob's turn, followed")
        await pilot.press("home")  # stepped back, it stays where it is
        await send(hub, table, ANN, "turn", "B5", "C5")
        await wait_until(pilot, lambda: review.session.moves == 5, "Ann's turn, known")
        assert review.session.ply == 0
        await pilot.press("end")
        assert review.session.ply == 5 and "move 5 of 5" in panel(app, "message")
        await pilot.press("q")
        assert isinstance(app.screen, GameScreen)
        await game_screen(app).session.close()
    await hub.close()
