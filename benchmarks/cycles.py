"""Players come, pair, play and go, a thousand times over: the server is left as it was.

The server runs in this process (as the tests run it: the clients' work is counted in the
same RSS, not in its CPU), with the default settings but for the connection limits. A
cycle is two guests over SSH (asyncssh clients, ``xterm-256color`` terminals read through
``pyte``): both type ``/pair connect6 --size N`` in the lobby (each pair of a batch its own
board size, so that its two meet), each plays a turn at the table, and both go: by closing
their connection, or by dropping it without a word (every third cycle). :data:`AT_ONCE`
cycles run together.

After each hundred cycles, once the server has let go of them: how many apps and drivers
of sessions are still alive (none), the tables the hub still holds once the sweeper has
looked over them (none), and the process's RSS; the figure is its growth from the first
hundred to the last (a leak of a kilobyte a cycle would show as a megabyte).
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh
import pyte

from benchmarks.measure import Figure
from sixtui.ai.worker import Thinker
from sixtui.server.driver import ChannelDriver
from sixtui.server.listener import start_server
from sixtui.server.names import open_name_book
from sixtui.server.rooms import ENDED_TABLES, LIVE_TABLES
from sixtui.server.settings import Settings
from sixtui.server.shared import Shared
from sixtui.tui.app import SixtuiApp

CYCLES = 1000
AT_ONCE = 10  # cycles under way together, each pair on a board size of its own
EVERY = 100  # cycles between two looks at what is left
TIMEOUT = 60.0  # seconds a step of a batch may take, every session of it on one loop
SIZE = (100, 30)
LOBBY = "sixtui lobby · you are"
MIB = 1 << 20


@dataclass
class Looks:
    """What was left after each :data:`EVERY` cycles: live apps and drivers of sessions,
    tables in the hub, and the process's RSS (bytes)."""

    apps: list[int] = field(default_factory=list)
    tables: list[int] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)


class Player:
    """A guest's terminal, read through a terminal emulator."""

    def __init__(self, connection: asyncssh.SSHClientConnection, process) -> None:
        self.connection = connection
        self.process = process
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.Stream(self.screen)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def shows(self, text: str) -> None:
        async with asyncio.timeout(TIMEOUT):
            while text not in self.text:
                chunk = await self.process.stdout.read(65536)
                if not chunk:
                    raise ConnectionError(f"the session ended before showing {text!r}")
                self.stream.feed(chunk)

    def types(self, keys: str) -> None:
        self.process.stdin.write(keys)


class Keyless(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):  # type: ignore[no-untyped-def]
        return ["" for _ in prompts]


async def guest(port: int) -> Player:
    connection = await asyncssh.connect(
        "127.0.0.1", port, username="guest", known_hosts=None, client_keys=None,
        client_factory=Keyless,
    )  # fmt: skip
    process = await connection.create_process(
        term_type="xterm-256color", term_size=SIZE, encoding="utf-8"
    )
    player = Player(connection, process)
    await player.shows(LOBBY)
    return player


async def one_cycle(port: int, number: int) -> None:
    """Two guests pair on a board of their own, play a turn each, and go."""
    size = 9 + number % AT_ONCE
    players = [await guest(port), await guest(port)]
    try:
        for player in players:
            player.types(f"/pair connect6 --size {size}\r")
        for player in players:
            await player.shows("Game 1 · wins")
        first, second = players if ": place a stone" in players[0].text else players[::-1]
        await first.shows(": place a stone")
        first.types("/E5\r")
        await second.shows("1. E5")
        second.types("/A1 A2\r")
        await first.shows("2. A1 A2")
    finally:
        for player in players:
            if number % 3 == 2:
                player.connection.abort()  # dropped: no goodbye
            else:
                player.connection.close()
            await player.connection.wait_closed()


def alive(kind: type) -> int:
    return sum(1 for thing in gc.get_objects() if isinstance(thing, kind))


def rss() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def look(shared: Shared, apps_before: int, looks: Looks) -> None:
    """Once the sessions have gone and the sweeper has looked twice (a seat no screen
    follows is marked at the second look), what is left."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while True:
        gc.collect()
        apps = alive(SixtuiApp) + alive(ChannelDriver) - apps_before
        if apps == 0 or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.1)
    for _ in range(2):
        await shared.sweeper.sweep()
    tables = len(await shared.hub.map_all(LIVE_TABLES))
    tables += len(await shared.hub.map_all(ENDED_TABLES))
    gc.collect()
    looks.apps.append(apps)
    looks.tables.append(tables)
    looks.rss.append(rss())


async def cycles(count: int = CYCLES, every: int = EVERY) -> Looks:
    """Runs ``count`` cycles against a new server in this process, looking at what is left
    after each ``every``."""
    looks = Looks()
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(
            host="127.0.0.1", port=0, data_dir=Path(data),
            max_connections=1000, max_per_ip=1000, connect_rate=1_000_000,
        )  # fmt: skip
        async with Thinker(workers=1) as thinker:
            shared = Shared(settings, thinker, open_name_book(settings.data_dir))
            acceptor = await start_server(shared)
            port = acceptor.sockets[0].getsockname()[1]
            gc.collect()
            apps_before = alive(SixtuiApp) + alive(ChannelDriver)
            try:
                for first in range(0, count, AT_ONCE):
                    batch = range(first, min(count, first + AT_ONCE))
                    await asyncio.gather(*(one_cycle(port, number) for number in batch))
                    if (first + AT_ONCE) % every == 0:
                        await look(shared, apps_before, looks)
            finally:
                acceptor.close()
                await acceptor.wait_closed()
                await shared.close()
                shared.names.close()
    return looks


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    done = [asyncio.run(cycles()) for _ in range(runs)]
    yield Figure(
        f"cycles: apps alive after {CYCLES:,} pair, play and go cycles",
        [float(max(looks.apps)) for looks in done],
        "",
        "0",
        digits=0,
    )
    yield Figure(
        f"cycles: tables left in the hub after {CYCLES:,} cycles",
        [float(max(looks.tables)) for looks in done],
        "",
        "0",
        digits=0,
    )
    yield Figure(
        f"cycles: RSS growth from cycle {EVERY} to cycle {CYCLES:,}",
        [(looks.rss[-1] - looks.rss[0]) / MIB for looks in done],
        "MiB",
        digits=1,
    )
