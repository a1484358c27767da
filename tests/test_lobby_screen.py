"""The lobby screen, with players simulated on one hub: the lists, the pools and who waits
there, pairings seen on every screen, the keys, the command line, the chat."""

from textual import events

from sixtui.server.hub import MemoryHub
from sixtui.tui.field_lengths import CHAT_LINE, COMMAND_LINE
from sixtui.tui.lobby_session import LobbyView, Person, TableView
from sixtui.tui.screens.dialogs import ConfirmScreen
from sixtui.tui.screens.home import HomeScreen
from sixtui.tui.screens.lobby import (
    LobbyHelpScreen,
    LobbyScreen,
    LocalPlayScreen,
    leaving_costs,
)
from sixtui.tui.screens.page import PageScreen
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.lobby_lists import (
    NAME_WIDTH,
    ChatLog,
    PickList,
    fit_runs,
    person_runs,
    table_runs,
)
from support.lobby_helpers import LobbyApp, TablesOpened, close_all, players, settle
from support.tui_helpers import SIZE, burst


def drawn(widget) -> list[str]:
    return ["".join(text for text, _ in line).rstrip() for line in widget._drawn]


def lobby(app: LobbyApp) -> LobbyScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, LobbyScreen))


def message(app: LobbyApp) -> str:
    return drawn(lobby(app).query_one("#lobby-message"))[0]


def keys(app: LobbyApp) -> str:
    return " ".join(drawn(lobby(app).query_one(KeyBar))[0].split())


def pool_line(app: LobbyApp, label: str) -> str:
    return next(line for line in drawn(lobby(app).pools) if line.strip().startswith(label))


async def pause(*pilots) -> None:
    await settle()
    for pilot in pilots:
        await pilot.pause()


async def test_two_players_see_each_other_and_a_pairing_on_both_screens():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    first, second = LobbyApp(ann.lobby), LobbyApp(bob.lobby)
    async with first.run_test(size=SIZE) as one, second.run_test(size=SIZE) as two:
        screen = lobby(first)
        assert drawn(screen.query_one("#lobby-title"))[0] == "sixtui lobby · you are ann · 2 here"
        assert drawn(screen.here)[1:3] == ["ann          in the lobby", "bob          in the lobby"]
        assert keys(first).startswith("↑↓ Pick ⏎ Pair")
        await two.press("enter")  # bob waits for Connect6, the first pool
        await pause(one, two)
        assert pool_line(first, "Connect6").split() == ["Connect6", "19×19", "1", "0s"]
        assert "bob          waits: Connect6 19×19" in drawn(screen.here)
        assert pool_line(second, "●").split()[:3] == ["●", "Connect6", "19×19"]  # bob's own
        assert keys(second).startswith("↑↓ Pick ⏎ Unpair")
        await one.press("enter")
        await pause(one, two)
        assert first.chosen == second.chosen == [("1", False)]
        opener = tables.names()[0][0]
        for app, other in ((first, "bob"), (second, "ann")):
            opens = "you open" if opener == app.session.name else f"{opener} opens"
            assert message(app) == f"Connect6 19×19 against {other}: {opens}"
        assert "[1] " in " ".join(drawn(screen.here))  # the game, to watch
        assert any(line.startswith("● [1] ann – bob") for line in drawn(screen.here))  # theirs
        await one.press("right")  # the list comes to their own game first
        assert keys(first).startswith("↑↓ Pick ⏎ Back to game")
    await close_all(ann, bob)


async def test_a_game_too_long_for_the_list_goes_on_to_a_second_line_picked_as_one():
    """At 80 columns a game's players and its name do not fit one line of the list: the
    name goes on to a second line, indented, and that line picks the game too."""
    hub, tables = MemoryHub(), TablesOpened()
    annabelle, bartholomew, cy = await players(hub, tables, "annabelle", "bartholomew", "cy")
    for player in (annabelle, bartholomew):
        await player.command("pair connect6")
    await settle()
    app = LobbyApp(cy.lobby)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        lines = drawn(screen.here)
        game = next(n for n, line in enumerate(lines) if line.startswith("[1] "))
        assert sorted(lines[game][4:].split(" – ")) == ["annabelle", "bartholomew"], lines
        assert lines[game + 1] == f"{' ' * 4}Connect6 19×19", lines
        await pilot.press("right", "down")  # from the game to cy
        assert screen.here.current == "person:cy"
        await pilot.click(screen.here, offset=(8, game + 1))
        assert screen.here.current == "table:1"
    await close_all(annabelle, bartholomew, cy)


async def test_four_players_make_partner_six_seen_on_their_screens():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy, dee = await players(hub, tables, "ann", "bob", "cy", "dee")
    await cy.command("partner dee")
    await dee.command("partner cy")
    first, third = LobbyApp(ann.lobby), LobbyApp(cy.lobby)
    async with first.run_test(size=SIZE) as one, third.run_test(size=SIZE) as three:
        assert "cy           with dee, in the lobby" in drawn(lobby(first).here)
        assert "partner dee" in drawn(lobby(third).query_one("#lobby-title"))[0]
        await three.press(*["down"] * 11, "enter")  # Six partners, steffen
        await pause(one, three)
        steffen = [line for line in drawn(lobby(first).pools) if "steffen" in line]
        assert steffen[-1].split() == ["steffen", "2", "0s"]  # a pair: two players wait
        await bob.command("pair six --players 4")
        await one.press(*["down"] * 11, "enter")
        await pause(one, three)
        assert first.chosen == third.chosen == [("1", False)]
        assert message(first).startswith("Six steffen, partners, with bob against cy and dee")
        assert message(third).startswith("Six steffen, partners, with dee against ann and bob")
    await close_all(ann, bob, cy, dee)


async def test_a_line_typed_in_one_burst_runs_as_typed():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, "slash", *"chalenge bob", "enter")
        assert message(app) == (
            "no command 'chalenge': did you mean challenge? help lists every command"
        )
        await burst(pilot, "slash", *"say hi", "enter", "slash", *"/pair six", "enter", "down")
        await pause(pilot)
        assert [line.text for line in bob.view.chat] == ["hi"]
        assert ann.view.pool is not None and ann.view.pool.title == "Six steffen"
        assert lobby(app).focused is lobby(app).pools and not lobby(app).command_line.display
        await burst(pilot, "slash", *"watch " + "x" * (COMMAND_LINE + 10))
        assert len(lobby(app).command_line.value) == COMMAND_LINE  # a command stops there
    await close_all(ann, bob)


async def test_keys_on_a_player_challenge_partner_and_watch():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        await pilot.press("right", "down")  # from ann (the first) to bob
        assert screen.here.current == "person:bob"
        assert "⏎ Challenge" in keys(app) and "p Partner" in keys(app)
        await pilot.press("enter")
        assert screen.command_line.display and screen.command_line.value == "challenge bob "
        await pilot.press(*"connect6", "enter")
        await pause(pilot)
        assert message(app) == "you challenged bob to Connect6 19×19: withdraw bob takes it back"
        await pilot.press("p")
        await pause(pilot)
        assert bob.told()[-1] == "ann asks you to be partners: partner ann to answer"
        await pilot.press("w")
        assert message(app) == "bob is not playing now"
    await close_all(ann, bob)


async def test_the_only_challenge_made_to_the_player_is_answered_with_a_or_d_from_anywhere():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        assert "a Accept" not in keys(app)
        await pilot.press("a")
        assert message(app) == "no one challenges you now"
        await bob.command("challenge ann connect6")
        await cy.command("challenge ann six")
        await pause(pilot)
        assert lobby(app).focused is lobby(app).pools  # where Enter would pair
        assert "a Accept" not in keys(app)  # two: which one?
        await pilot.press("d")
        assert message(app) == (
            "several challenges are made to you: pick one in the list on the right"
        )
        await cy.command("withdraw ann")
        await pause(pilot)
        assert "a Accept" in keys(app) and "d Decline" in keys(app)
        await pilot.press("a")  # on the pools: the challenge, not a pool
        await pause(pilot)
        assert app.chosen == [("1", False)] and bob.told("seated")
        assert ann.view.pool is None
    await close_all(ann, bob, cy)


async def test_a_challenge_picked_is_accepted_with_enter_or_declined_with_d():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    await bob.command("challenge ann connect6")
    await cy.command("challenge ann six")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        await pilot.press("right")
        assert drawn(screen.here)[:3] == [
            "Challenges",
            "bob → you: Connect6 19×19",
            "cy → you: Six steffen",
        ]
        assert "a Accept" in keys(app) and "d Decline" in keys(app)  # and Enter accepts
        await pilot.press("down", "d")
        await pause(pilot)
        assert cy.told()[-1] == "ann declined your challenge to Six steffen"
        await pilot.press("up", "enter")
        await pause(pilot)
        assert app.chosen == [("1", False)]
        assert bob.told("seated")
    await close_all(ann, bob, cy)


async def test_chat_and_names_are_drawn_as_written():
    hub, tables = MemoryHub(), TablesOpened()
    ann, mallory = await players(hub, tables, "ann", "[b]mal\x1b[31m")
    await mallory.command("say [i]hello[/i] \x1b[2J日本語")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        assert drawn(screen.query_one("#chat"))[-1] == "[b]mal[31m: [i]hello[/i] [2J日本語"
        assert "[b]mal[31m   in the lobby" in drawn(screen.here)
        told = []
        app.notify = lambda message, **options: told.append(message)
        await burst(pilot, "c", *"x" * (CHAT_LINE + 20), "enter")  # longer than a command
        await pause(pilot)
        assert mallory.view.chat[-1].text == "x" * CHAT_LINE  # the line stopped there
        assert told == [  # once, not for each key beyond
            f"This line holds {CHAT_LINE + 4} characters at most: what did not fit was left out."
        ]
    await close_all(ann, mallory)


async def test_a_paste_on_the_command_line_is_cut_to_fit_for_chat_and_left_out_for_a_command():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        told = []
        app.notify = lambda message, **options: told.append(message)
        line = lobby(app).command_line
        await burst(pilot, "slash")
        line.post_message(events.Paste("challenge bob connect6 " * 50))
        await pause(pilot)
        assert line.value == ""  # a command cut short may be another
        assert told == [
            f"This line holds {COMMAND_LINE} characters at most: the paste was left out."
        ]
        line.post_message(events.Paste("say " + "y" * 1_000))
        await pause(pilot)
        assert line.value == "say " + "y" * CHAT_LINE
        await burst(pilot, "enter")
        await pause(pilot)
        assert bob.view.chat[-1].text == "y" * CHAT_LINE  # said as far as it fitted
        assert told[-1] == (
            f"This line holds {CHAT_LINE + 4} characters at most: what did not fit was left out."
        )
    await close_all(ann, bob)


async def test_a_challenge_made_while_the_player_is_in_local_play_is_told_there():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        told = []
        app.notify = lambda message, **options: told.append((message, options.get("title")))
        await pilot.press("l")
        assert isinstance(app.screen, LocalPlayScreen)
        await bob.command("challenge ann connect6")
        await pause(pilot)
        assert told == [
            ("bob challenges you to Connect6 19×19: accept bob or decline bob", "Lobby")
        ]
        await pilot.press("q")  # back in the lobby, where it is said as before
        assert message(app).startswith("bob challenges you to Connect6 19×19")
    await close_all(ann, bob)


async def test_the_command_line_closes_with_escape_and_help_and_local_play_come_back():
    hub, tables = MemoryHub(), TablesOpened()
    (ann,) = await players(hub, tables, "ann")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        await pilot.press("slash", *"pair", "escape")
        assert not screen.command_line.display and screen.focused is screen.pools
        assert ann.view.pool is None
        await pilot.press("slash", *"help", "enter")
        assert isinstance(app.screen, LobbyHelpScreen)
        await pilot.press("escape")
        await pilot.press("question_mark")
        assert isinstance(app.screen, LobbyHelpScreen)
        await pilot.press("q")
        await pilot.press("l")
        assert isinstance(app.screen, LocalPlayScreen) and isinstance(app.screen, HomeScreen)
        await pilot.press("q")
        assert app.screen is screen
        await pilot.press("slash", *"help watch", "enter")
        assert message(app) == "watch NAME: watch the game NAME plays, or a game by its number"
        await pilot.press("slash", *"help pair", "enter")  # options explained, on a page
        assert isinstance(app.screen, PageScreen) and app.screen.page.title == "help pair"
        clock = next(line for line in app.screen.page.lines if line.startswith("  --clock"))
        assert "M minutes for each side" in clock
        assert all(len(line) <= 78 for line in app.screen.page.lines)
        await pilot.press("q")
        assert app.screen is screen
    await close_all(ann)


async def test_coming_back_from_a_table_puts_the_player_in_the_lobby_again():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"play connect6 --vs easy", "enter")
        await pause(pilot)
        assert app.chosen == [("1", False)]
        assert bob.view.people[1].doing == "playing"
        await app.push_screen(LobbyHelpScreen())  # stands for the table
        app.pop_screen()
        await pause(pilot)
        assert bob.view.people[1].doing == "lobby"
    await close_all(ann, bob)


def count_frames(screen) -> list[int]:
    """Counts the times ``screen`` is drawn (a frame each, on a terminal)."""
    frames = [0]
    drawn_before = screen._compositor_refresh

    def drawing() -> None:
        frames[0] += 1
        drawn_before()

    screen._compositor_refresh = drawing
    return frames


async def test_a_lobby_out_of_sight_draws_its_news_once_the_player_comes_back():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        lists = (screen.pools, screen.here, screen.query_one(ChatLog))
        assert len(screen.here.rows) == 4 and all(shown._drawn for shown in lists)
        await app.push_screen(LobbyHelpScreen())  # stands for a table over the lobby
        await pause(pilot)
        # Out of sight, it keeps nothing of what it showed.
        assert screen.view.people == () and screen.here.rows == []
        assert all(shown._drawn == [] and not shown._strips for shown in lists)
        shown, frames = screen.view, count_frames(app.screen)
        await bob.command("pair connect6")
        await cy.command("say hello")
        await pause(pilot)
        await pilot.pause(0.1)
        # Not drawn underneath, nor the screen over it drawn again for it: Textual
        # refreshes the screen below the top as if it showed through.
        assert screen.view is shown and frames == [0]
        app.pop_screen()
        await pause(pilot)
        assert "1" in pool_line(app, "Connect6").split()
        assert "cy: hello" in " ".join(drawn(screen.query_one(ChatLog)))
        assert len(screen.here.rows) == 4 and "ann" in " ".join(drawn(screen.here))
    await close_all(ann, bob, cy)


async def test_news_waiting_for_the_quiet_time_waits_for_the_player_once_a_table_opens():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby, quiet=1.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)
        await bob.command("pair connect6")
        await pause(pilot)
        assert screen._drawing is not None  # the lobby was just drawn: the news waits
        await app.push_screen(LobbyHelpScreen())
        await pilot.pause(0.1)  # drawn, well within the quiet time
        shown, frames = screen.view, count_frames(app.screen)
        await pilot.pause(1.5)  # past it
        assert screen.view is shown and frames == [0]
        app.pop_screen()
        await pause(pilot)
        assert "1" in pool_line(app, "Connect6").split()
    await close_all(ann, bob)


async def test_a_dialog_over_the_lobby_leaves_it_in_sight_and_drawing_its_news():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob = await players(hub, tables, "ann", "bob")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(ConfirmScreen("Leave?", "Leave"))
        await pause(pilot)
        await bob.command("pair connect6")
        await pause(pilot)
        await pilot.pause(0.1)
        assert "1" in pool_line(app, "Connect6").split()  # drawn behind the dialog
    await close_all(ann, bob)


async def test_news_in_the_quiet_time_is_drawn_together_at_its_end():
    hub, tables = MemoryHub(), TablesOpened()
    ann, bob, cy = await players(hub, tables, "ann", "bob", "cy")
    app = LobbyApp(ann.lobby, quiet=60.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = lobby(app)  # drawn as it opened: the quiet time begins
        await bob.command("pair connect6")
        await cy.command("pair gameof6")
        await pause(pilot)
        assert pool_line(app, "Connect6").split() == ["Connect6", "19×19"]  # held back
        assert screen._drawing is not None  # to be drawn at the end of the quiet time
        screen._draw()  # which is now: both at once
        assert "1" in pool_line(app, "Connect6").split()
        assert "1" in pool_line(app, "Game of 6").split()
    await close_all(ann, bob, cy)


def test_a_line_whose_characters_are_not_one_cell_each_is_refreshed_from_its_start():
    name = "Jose\u0301"  # five characters in four cells
    waits = person_runs(Person(name, "waiting", "Six steffen"), "ann")  # "waits: Six steffen"
    plays = person_runs(Person(name, "playing", "Six steffen1"), "ann")  # as long: "plays Six…"
    before, after = fit_runs(waits, 40), fit_runs(plays, 40)
    start, end = PickList()._changed_cells(before, after, 40)
    assert start <= NAME_WIDTH + 1 and end == 40  # where "waits" begins on the screen


def test_a_game_in_progress_is_listed_with_its_number_ratings_score_clock_and_terms():
    table = TableView(
        "3",
        "Connect6 9×9",
        (("ann",), ("bob", "guest-1")),
        (1, 0),
        clock="5+3",
        casual=True,
        ratings=(("1611?",), ("1389", "")),
    )
    text = "".join(run for run, _ in table_runs(table, "bob"))
    assert text == "● [3] ann 1611? – bob 1389 & guest-1 1–0 · Connect6 9×9 · 5+3 · casual"
    untimed = TableView("4", "Six · Steffen", (("cy",), ("dan",)))
    assert "".join(run for run, _ in table_runs(untimed, "ann")) == "[4] cy – dan · Six · Steffen"


async def test_q_asks_before_leaving_a_pool_and_leaves_at_once_when_nothing_is_lost():
    hub, tables = MemoryHub(), TablesOpened()
    (ann,) = await players(hub, tables, "ann")
    app = LobbyApp(ann.lobby)
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, "slash", *"pair connect6", "enter")
        await pause(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        assert "You stop waiting to be paired." in app.screen.question
        await pilot.press("n")
        assert isinstance(app.screen, LobbyScreen) and ann.view.pool is not None
        await burst(pilot, "slash", *"unpair", "enter")
        await pause(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    await close_all(ann)


def test_what_leaving_costs_is_said_of_a_game_in_progress_or_a_match_between_games():
    timed = TableView("1", "Connect6 19×19", (("ann",), ("bob",)), clock="5+5")
    untimed = TableView("2", "Connect6 19×19", (("cy",), ("ann",)))
    said = leaving_costs(LobbyView(me="ann", tables=(timed,)))
    assert said == ["Your game goes on: your seat waits for you a while and your clock runs."]
    assert leaving_costs(LobbyView(me="ann", tables=(untimed,)))[0].endswith("a while.")
    assert leaving_costs(LobbyView(me="dan", tables=(timed, untimed))) == []
    between = TableView("3", "Connect6 19×19", (("ann",), ("bob",)), between_games=True)
    said = leaving_costs(LobbyView(me="ann", tables=(between,)))
    assert said == ["Your match is not over: its next game waits for you."]
    assert leaving_costs(LobbyView(me="cy", tables=(between,))) == []
