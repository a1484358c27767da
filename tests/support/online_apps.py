"""Apps online without SSH: each given a way online on one memory hub, as the server gives
every session, and driven with a pilot."""

import contextlib
from functools import partial

from sixtui.server.hub import Hub
from sixtui.server.online import HubOnline, guest_identity
from sixtui.server.rooms import open_table
from sixtui.tui.app import SixtuiApp
from sixtui.tui.presence import Visitor
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.lobby import LobbyScreen
from support.tui_helpers import SIZE, game_screen, wait_until


def online_app(
    hub: Hub,
    name: str,
    window: float = 60.0,
    guest: bool = False,
    refused: str | None = None,
) -> SixtuiApp:
    """The app of the player ``name`` (identity ``key-NAME``, or a guest's), the tables it
    opens giving ``window`` seconds to come back; ``refused``: why their name is not
    theirs, and any other they pick is."""
    identity = guest_identity(name) if guest else f"key-{name}"
    online = HubOnline(hub, identity, partial(open_table, reconnect_window=window))
    rename = None if refused is None else (lambda picked: None)
    player = Visitor(name, guest=guest, name_refused=refused, rename=rename)
    return SixtuiApp(computer_pause=0, player=player, online=online)


@contextlib.asynccontextmanager
async def at_terminals(*apps: SixtuiApp):
    """Runs ``apps`` side by side and yields their pilots; each app's way online is closed
    after it, as the server closes a session's."""
    async with contextlib.AsyncExitStack() as running:
        yield [await running.enter_async_context(app.run_test(size=SIZE)) for app in apps]
    for app in apps:
        assert app.online is not None
        await app.online.close()


def lobby_of(app: SixtuiApp) -> LobbyScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, LobbyScreen))


async def in_lobby(pilot) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen), "the lobby")


async def at_table(pilot) -> GameScreen:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameScreen), "a game screen")
    return game_screen(pilot.app)


async def command(pilot, text: str) -> None:
    """Types ``text`` on the lobby's command line."""
    await pilot.press("slash", *text, "enter")


def lobby_line(app: SixtuiApp, widget: str) -> str:
    """The first line the lobby's ``widget`` (an id: lobby-title, lobby-message) draws."""
    line = lobby_of(app).query_one(f"#{widget}")._drawn[0]
    return "".join(text for text, _ in line).rstrip()
