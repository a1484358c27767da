"""Who is here: the roster counts each name once, and its listeners hear of changes,
at most once in each quiet period when it has one."""

import asyncio
from collections import Counter
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Static

from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.presence import Roster, Visitor
from sixtui.tui.screens.naming import NameScreen
from sixtui.tui.widgets.who_is_here import WhoIsHereLine
from support.tui_helpers import panel

QUIET = 0.05


def listen(roster: Roster) -> list[list[str]]:
    """What the roster's names were each time a listener was told."""
    heard: list[list[str]] = []
    roster.subscribe(lambda: heard.append(roster.names))
    return heard


@given(st.lists(st.tuples(st.booleans(), st.sampled_from("abc"))))
def test_without_a_quiet_period_every_change_is_told_at_once(steps):
    roster, sessions = Roster(), {name: 0 for name in "abc"}
    heard = listen(roster)
    told = 0
    for arriving, name in steps:
        before = roster.names
        if arriving:
            roster.arrive(name)
            sessions[name] += 1
        else:
            roster.leave(name)
            sessions[name] = max(0, sessions[name] - 1)
        assert sorted(roster.names) == sorted(n for n, count in sessions.items() if count)
        told += roster.names != before
        assert len(heard) == told
        assert not heard or heard[-1] == roster.names


async def test_a_crowd_arriving_is_told_once_at_once_and_once_after_the_quiet():
    roster = Roster(quiet=QUIET)
    heard = listen(roster)
    for number in range(20):
        roster.arrive(f"p{number}")
        await asyncio.sleep(0)
    assert heard == [["p0"]]
    await asyncio.sleep(QUIET * 2)
    assert heard == [["p0"], [f"p{number}" for number in range(20)]]
    await asyncio.sleep(QUIET * 2)
    assert len(heard) == 2  # nothing more to tell


async def test_after_a_quiet_period_the_next_change_is_told_at_once():
    roster = Roster(quiet=QUIET)
    heard = listen(roster)
    roster.arrive("ann")
    await asyncio.sleep(QUIET * 2)
    roster.leave("ann")
    assert heard == [["ann"], []]


async def test_a_second_session_under_a_name_changes_nothing_to_tell():
    roster = Roster(quiet=QUIET)
    roster.arrive("ann")
    heard = listen(roster)
    await asyncio.sleep(QUIET * 2)
    roster.arrive("ann")
    roster.leave("ann")
    await asyncio.sleep(QUIET * 2)
    assert heard == []
    assert roster.names == ["ann"]


async def test_listeners_are_told_one_after_another_not_all_in_one_turn():
    roster = Roster(quiet=QUIET)
    told: list[tuple[str, float]] = []
    loop = asyncio.get_running_loop()
    stops = {
        name: roster.subscribe(lambda name=name: told.append((name, loop.time())))
        for name in ("ann", "bob", "cy", "dee")
    }
    roster.arrive("eve")
    assert [name for name, _ in told] == ["ann"]  # the first at once
    stops["cy"]()  # gone before its turn: not told
    await asyncio.sleep(QUIET)
    assert [name for name, _ in told] == ["ann", "bob", "dee"]
    times = [at for _, at in told]
    assert all(later > earlier for earlier, later in pairwise(times))


async def test_every_listener_ends_with_the_news_and_hears_at_most_once_a_quiet():
    roster = Roster(quiet=QUIET)
    heard: list[tuple[int, list[str]]] = []
    for number in range(30):
        roster.subscribe(lambda number=number: heard.append((number, roster.names)))
    arrivals = [f"p{number}" for number in range(10)]
    for name in arrivals:  # over two quiet periods
        roster.arrive(name)
        await asyncio.sleep(QUIET / 5)
    await asyncio.sleep(QUIET * 3)
    last = {number: names for number, names in heard}
    assert len(last) == 30 and all(names == arrivals for names in last.values())
    times = Counter(number for number, _ in heard)
    assert max(times.values()) <= 3  # at once, then at the end of each quiet period


async def test_the_who_is_here_line_keeps_no_strips_of_old_news():
    roster = Roster()
    app = SixtuiApp(player=Visitor("ann", roster))
    async with app.run_test(size=(80, 24)) as pilot:
        roster.arrive("ann")
        line = app.screen.query_one(WhoIsHereLine)
        for number in range(40):
            roster.arrive(f"p{number}")
            await pilot.pause()
        assert "p0" in "".join(text for text, _ in line._drawn[0])
        assert len(line._strips) <= 2  # not one for each of the 40 lines it drew


async def test_a_listener_that_fails_keeps_no_one_else_from_the_news():
    roster = Roster(quiet=QUIET)
    heard: list[str] = []
    loop = asyncio.get_running_loop()
    failures: list[object] = []
    loop.set_exception_handler(lambda loop, context: failures.append(context["exception"]))
    try:
        roster.subscribe(lambda: heard.append("ann"))

        def broken() -> None:
            raise RuntimeError("a screen that is gone")

        roster.subscribe(broken)
        roster.subscribe(lambda: heard.append("cy"))
        roster.arrive("dee")
        await asyncio.sleep(QUIET)
    finally:
        loop.set_exception_handler(None)
    assert heard == ["ann", "cy"]
    assert len(failures) == 1


def refused_visitor(roster: Roster, taken: set[str]) -> Visitor:
    """A player whose name 'alice' was refused, as a server makes them: a name not in
    ``taken`` becomes theirs, and they arrive under it."""

    def rename(name: str) -> str | None:
        if name in taken:
            return f"the name {name} belongs to another player"
        roster.arrive(name)
        return None

    return Visitor("alice", roster, name_refused="taken", rename=rename)


async def pick_name(app: SixtuiApp, pilot, name: str) -> None:
    await pilot.press(*name, "enter")
    await pilot.pause()


def first_line(line: WhoIsHereLine) -> str:
    return line.render_line(0).text


async def test_the_who_is_here_line_shows_a_name_picked_however_quiet_the_news():
    roster = Roster(quiet=60.0)  # news of others held back for a minute
    roster.arrive("bob")
    app = SixtuiApp(player=refused_visitor(roster, taken={"bob"}))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, NameScreen)
        await pick_name(app, pilot, "carol")
        assert not isinstance(app.screen, NameScreen)
        assert first_line(app.screen.query_one(WhoIsHereLine)).startswith("You are carol.")


async def test_a_name_already_here_in_another_session_is_shown_once_picked():
    roster = Roster()
    roster.arrive("carol")  # the same key, at another terminal: the roster does not change
    app = SixtuiApp(player=refused_visitor(roster, taken=set()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pick_name(app, pilot, "carol")
        line = app.screen.query_one(WhoIsHereLine)
        assert first_line(line).startswith("You are carol. Nobody else is here.")


async def test_a_name_refused_again_changes_nothing_and_tells_no_one():
    roster = Roster()
    player = refused_visitor(roster, taken={"bob"})
    told: list[str] = []
    player.subscribe(lambda: told.append(player.name))
    assert player.take_name("bob") == "the name bob belongs to another player"
    assert (player.name, player.name_refused, told) == ("alice", "taken", [])
    assert player.take_name("dora") is None
    assert (player.name, player.name_refused, told) == ("dora", None, ["dora"])


async def test_the_visitors_own_seat_takes_their_name_shown_as_written():
    """Hot-seat over SSH: the seat at this terminal is the visitor's, the others are numbered
    as before; a name is shown as it is written, never read as markup."""
    player = Visitor("[b]ann", Roster())
    app = SixtuiApp(computer_pause=0, player=player)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.start_game(GameSetup("connect6", seats=(None, None)))
        await pilot.pause()
        assert panel(app, "seats").splitlines() == ["● [b]ann", "○ Player 2"]
        assert panel(app, "status") == "[b]ann: place a stone"
        await pilot.press("r")
        question = str(app.screen.query_one(".question", Static).render())
        assert question == "Resign this game? [b]ann loses it."
        await pilot.press("y")
        await pilot.pause()
        summary = str(app.screen.query_one(".question", Static).render())
        assert summary.splitlines()[0] == "Player 2 wins as White: the other side resigned"
        assert summary.splitlines()[2].split() == ["[b]ann", "Player", "2"]
