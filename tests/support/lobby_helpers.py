"""Players in the lobby without SSH: lobby sessions on one hub, tables opened by a
recorder in place of the rooms, and an app that shows the lobby screen."""

import asyncio
import random
from importlib.resources import files

import msgpack

from sixtui.server.hub import Hub, MemoryHub
from sixtui.server.lobby import HubLobby
from sixtui.server.rooms import list_live
from sixtui.server.seating import SeatHolder
from sixtui.tui.app import SixtuiApp
from sixtui.tui.lobby_session import LobbySession, LobbyUpdate
from sixtui.tui.screens.lobby import LobbyScreen


class TablesOpened:
    """Stands in for the rooms' open_table: records what it was asked, lists each table
    among the live ones as the rooms do, and answers its number; refuses while
    ``refusing`` holds a reason."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict, list[list[SeatHolder]], int]] = []
        self.clocks: list[str | None] = []  # the time control of each table asked for
        self.refusing: str | None = None

    async def __call__(
        self,
        hub: Hub,
        game: str,
        options: dict,
        sides: list[list[SeatHolder]],
        *,
        opener: int,
        clock: str | None = None,
        casual: bool = False,
    ) -> str:
        if self.refusing is not None:
            raise ValueError(self.refusing)
        self.asked.append((game, options, sides, opener))
        self.clocks.append(clock)
        table = str(len(self.asked))
        summary = {
            "game": game,
            "options": options,
            "sides": [[holder.name for holder in side] for side in sides],
            "status": "playing",
            "wins": [0, 0],
            "number": 1,
        }
        await list_live(hub, table, msgpack.packb(summary))
        return table

    def names(self, table: int = -1) -> list[list[str]]:
        """The names on each side of a table asked for (the last, unless told)."""
        return [[holder.name for holder in side] for side in self.asked[table][2]]


class Player:
    """A player in the lobby, and every update their session told them."""

    def __init__(self, lobby: HubLobby) -> None:
        self.lobby = lobby
        self.heard: list[LobbyUpdate] = []
        lobby.subscribe(self.heard.append)

    @property
    def view(self):
        return self.lobby.view()

    def told(self, kind: str = "notice") -> list[str]:
        return [update.text for update in self.heard if update.kind == kind]

    async def command(self, text: str) -> str:
        """Types ``text`` on the command line; what the lobby answered."""
        outcome = await self.lobby.command(text)
        await settle()
        return outcome.text


async def settle() -> None:
    """Lets every session take in the news published so far (each step a turn of the
    event loop: nothing here waits for time to pass)."""
    for _ in range(30):
        await asyncio.sleep(0)


async def players(
    hub: Hub, tables: TablesOpened, *names: str, seed: int = 1, clock=lambda: 0.0
) -> list[Player]:
    """The players ``names`` in the lobby, each known by the identity ``key-NAME``; the
    wall clock stands still at ``clock()``, unless a test moves it."""
    joined = []
    for name in names:
        rng = random.Random(seed)
        lobby = await HubLobby.open(hub, name, f"key-{name}", tables, rng=rng, clock=clock)
        joined.append(Player(lobby))
    await settle()
    return joined


async def close_all(*joined: Player) -> None:
    for player in joined:
        await player.lobby.close()


class LobbyApp(SixtuiApp):
    """The app opened on the lobby screen of ``session``; the tables it is asked to open
    are noted in ``chosen``."""

    CSS_PATH = str(files("sixtui.tui") / "sixtui.tcss")  # found from wherever it is subclassed

    def __init__(self, session: LobbySession, quiet: float = 0.0) -> None:
        super().__init__(computer_pause=0)
        self.session = session
        self.quiet = quiet
        self.chosen: list[tuple[str, bool]] = []

    def get_default_screen(self) -> LobbyScreen:
        return LobbyScreen(self.session, quiet=self.quiet)

    def on_lobby_screen_table_chosen(self, message: LobbyScreen.TableChosen) -> None:
        message.prevent_default()  # noted here, not opened: there are no tables
        self.chosen.append((message.table, message.watching))


class CountingHub(MemoryHub):
    """A memory hub that counts the calls that change what it holds (news is not held)."""

    WRITES = (
        "compare_and_set",
        "delete",
        "map_set",
        "map_delete",
        "queue_join",
        "queue_leave",
        "queue_take",
        "queue_take_members",
        "next_number",
    )

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []
        for name in self.WRITES:
            setattr(self, name, self._counted(name, getattr(self, name)))

    def _counted(self, name, write):
        async def counted(*args):
            self.writes.append(name)
            return await write(*args)

        return counted
