"""The person at the terminal, as a server knows them: a name refused is picked again,
and in a local game their seat takes their name."""

from textual.widgets import Static

from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.presence import Visitor
from sixtui.tui.screens.home import HomeScreen
from sixtui.tui.screens.naming import NameScreen
from support.tui_helpers import panel


def refused_visitor(taken: set[str]) -> Visitor:
    """A player whose name 'alice' was refused, as a server makes them: a name not in
    ``taken`` becomes theirs."""

    def rename(name: str) -> str | None:
        return f"the name {name} belongs to another player" if name in taken else None

    return Visitor("alice", name_refused="taken", rename=rename)


def test_a_name_refused_again_changes_nothing_and_one_free_is_taken():
    player = refused_visitor(taken={"bob"})
    assert player.take_name("bob") == "the name bob belongs to another player"
    assert (player.name, player.name_refused) == ("alice", "taken")
    assert player.take_name("dora") is None
    assert (player.name, player.name_refused) == ("dora", None)


def test_a_server_that_renames_no_one_says_so():
    player = Visitor("alice", name_refused="taken")
    assert player.take_name("dora") == "this server lets nobody change names"
    assert player.name == "alice"


async def test_a_name_picked_leads_on_to_the_home_screen_when_not_online():
    app = SixtuiApp(player=refused_visitor(taken={"bob"}))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, NameScreen)
        await pilot.press(*"bob", "enter")
        assert isinstance(app.screen, NameScreen)  # taken: asked again
        await pilot.press(*["backspace"] * 3, *"carol", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.player.name == "carol"


async def test_the_visitors_own_seat_takes_their_name_shown_as_written():
    """Hot-seat over SSH: the seat at this terminal is the visitor's, the others are numbered
    as before; a name is shown as it is written, never read as markup."""
    player = Visitor("[b]ann")
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
        assert summary.splitlines()[0] == "Player 2 wins as White: [b]ann resigned"
        assert summary.splitlines()[2].split() == ["[b]ann", "Player", "2"]
