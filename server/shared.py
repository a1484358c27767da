"""What every connection to one server shares: its settings, the computer players, the
names book, the count of connections open, and the hub that holds the lobby and the
tables."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sixtui.ai.worker import Thinker
from sixtui.server.archive import Archive
from sixtui.server.archiving import Archivist
from sixtui.server.computer_seats import ComputerSeats
from sixtui.server.departures import Departures
from sixtui.server.durable import GameRecords, NameRecords
from sixtui.server.hub import Hub, MemoryHub
from sixtui.server.limits import ConnectionRate, Refusals
from sixtui.server.rooms import open_table
from sixtui.server.settings import Settings
from sixtui.server.table_life import Sweeper
from sixtui.server.table_state import SeatHolder

log = logging.getLogger(__name__)


class Counts:
    """Places taken now, in all, per IP address and per key: a connection takes one, and
    one more for each session it runs beyond its first, since every session runs a whole
    game interface."""

    def __init__(self) -> None:
        self.total = 0
        self.per_ip: Counter[str] = Counter()
        self.per_key: Counter[str] = Counter()
        # Sessions (a game interface each) ever opened and ended: what the collector
        # watches, since a connection that opens none (a scanner, a flood) builds none.
        self.sessions_opened = 0
        self.sessions_ended = 0

    def change(self, peer: str, key: str | None, by: int) -> None:
        """Takes ``by`` places (gives them back when negative) for ``peer`` and ``key``."""
        self.total += by
        _change(self.per_ip, peer, by)
        if key is not None:
            _change(self.per_key, key, by)

    def over(self, settings: Settings, peer: str, key: str | None, what: str) -> str | None:
        """Which limit the places taken now pass, as the player is told it (``what`` is
        "connections" or "sessions": what they asked for), if any."""
        if self.total > settings.max_connections:
            return "the server is full: try again later"
        if self.per_ip[peer] > settings.max_per_ip:
            return f"too many {what} from {peer}"
        if key is not None and self.per_key[key] > settings.max_per_key:
            return f"too many {what} with this key"
        return None


def _change(counter: Counter[str], name: str, by: int) -> None:
    counter[name] += by
    if counter[name] <= 0:
        del counter[name]


@dataclass
class Shared:
    """What all the connections to one server share. ``hub`` holds everything players
    share (this process's memory, kept on disk by a
    :class:`~sixtui.server.hub_files.JournaledHub`, or Redis); ``computers`` keeps the computer
    seats of the tables opened here playing, thinking in ``thinker``'s workers;
    ``sweeper`` ends the tables everyone left and removes the finished ones, and
    ``archivist`` writes the games that end to ``archive`` (by default one in memory),
    both from the first table opened on; ``departures`` lets go of the sessions of other
    processes that died, once started. :meth:`close` stops them all."""

    settings: Settings
    thinker: Thinker
    names: NameRecords
    counts: Counts = field(default_factory=Counts)
    refusals: Refusals = field(default_factory=Refusals)
    hub: Hub = field(default_factory=MemoryHub)
    archive: GameRecords = field(default_factory=lambda: Archive(":memory:"))
    computers: ComputerSeats = field(init=False)
    sweeper: Sweeper = field(init=False)
    archivist: Archivist = field(init=False)
    departures: Departures = field(init=False)
    _hub_kept: bool = field(default=False, init=False)  # kept for the server's next start

    connection_rate: ConnectionRate = field(init=False)

    def __post_init__(self) -> None:
        # Twice the connections one address may hold arrive at once before the rate
        # counts: one over that limit is told why, not merely closed.
        self.connection_rate = ConnectionRate(
            self.settings.connect_rate, burst=2 * self.settings.max_per_ip
        )
        self.computers = ComputerSeats(self.hub, self.thinker)
        self.sweeper = Sweeper(self.hub)
        self.archivist = Archivist(self.hub, self.archive)
        self.departures = Departures(self.hub, self.open_table)

    async def open_table(
        self,
        hub: Hub,
        game: str,
        options: dict[str, Any],
        sides: Sequence[Sequence[SeatHolder]],
        *,
        opener: int,
        clock: str | None = None,
        casual: bool = False,
    ) -> str:
        """The rooms' ``open_table`` with this server's window to come back and its
        computer seats: what the lobby opens tables with."""
        self.sweeper.start()
        self.archivist.start()
        return await open_table(
            hub,
            game,
            options,
            sides,
            opener=opener,
            reconnect_window=self.settings.reconnect_window,
            computers=self.computers,
            clock=clock,
            casual=casual,
        )

    async def keep_hub(self) -> bool:
        """As the server stops, before its sessions end: the games ended so far are
        archived and the hub is written whole, so that the server starts again from this
        moment, its games in progress with it. False (nothing done) for a hub that is not
        kept on disk or in Redis, whose sessions end their games as they stop. From now
        on, a hub out of reach is not waited for."""
        self.hub.stop_waiting()
        if not self.hub.keeps_state or self._hub_kept:
            return False
        try:
            await self.archivist.archive_waiting()
        except Exception as why:  # the hub out of reach: the games wait in it
            log.warning("any game that ended is left for the next start to archive: %s", why)
        await self.archivist.close()
        self.hub.seal()
        self._hub_kept = True
        return True

    async def close(self) -> None:
        """Stops the sweeper and the computer seats, then the archivist (once the games
        that ended are written, unless the hub was kept before: it keeps them) and the
        hub."""
        await self.departures.close()
        await self.sweeper.close()
        await self.computers.close()
        if not self._hub_kept:
            await self.archivist.archive_waiting()
        await self.archivist.close()
        await self.hub.close()
