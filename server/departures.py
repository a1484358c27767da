"""Letting go of what the sessions of a server process that died held, when several
processes share one hub (on Redis).

Each lobby session and each screen following a table is named for its process
(:func:`~sixtui.server.hub.of_this_process`). A process that stops closes its sessions,
which take their own entries out; one killed leaves them behind. Every process looks at
the processes alive (:meth:`~sixtui.server.hub.Hub.processes`) every
:data:`LOOK_EVERY` seconds, and when one has been missing at two looks in a row (and at
its second look, for those gone before it started), lets go of what the gone held: each
lobby session ends as it would have ended itself (out of its pool, its challenges
withdrawn, everyone sees it leave), and each screen leaves its table, so that its player
is marked away there and has the reconnection window to log in again, to any process.
Several processes may do it at once: every step goes through the hub's atomic operations,
and an entry already taken out is not taken out twice.
"""

from __future__ import annotations

import asyncio
import logging

from sixtui.server.background import BackgroundTask
from sixtui.server.hub import Hub, process_of
from sixtui.server.lobby import HubLobby
from sixtui.server.lobby_copy import PEOPLE, Presence
from sixtui.server.lobby_news import BadNews, unpack
from sixtui.server.rooms import ENDED_TABLES, LIVE_TABLES
from sixtui.server.seating import OpenTable
from sixtui.server.table_life import followers_key, leave

log = logging.getLogger(__name__)

LOOK_EVERY = 2.0  # seconds between two looks at the processes alive


class Departures:
    """Lets go of the sessions of the processes that died (see the module's docstring)."""

    def __init__(self, hub: Hub, open_table: OpenTable, every: float = LOOK_EVERY) -> None:
        self._hub = hub
        self._open_table = open_table
        self._every = every
        self._alive: set[str] | None = None  # at the last look
        self._trusted: set[str] | None = None  # the processes taken as alive at the last look
        self._background = BackgroundTask("departures", self._keep_looking)

    def start(self) -> None:
        self._background.start()

    async def close(self) -> None:
        await self._background.close()

    async def _keep_looking(self) -> None:
        while True:
            try:
                await self.look()
            except Exception:
                log.exception("letting go of the sessions of processes gone failed; trying again")
            await asyncio.sleep(self._every)

    async def look(self) -> int:
        """One look; how many entries of processes gone it let go of.

        A process is taken as gone once it is missing at two looks in a row: one alive
        whose heartbeat came late (Redis out of reach a few seconds, say) is back by the
        second."""
        alive = await self._hub.processes()
        last, self._alive = self._alive, alive
        if last is None:
            return 0
        trusted = alive | last
        before, self._trusted = self._trusted, trusted
        if before is not None and before <= trusted:
            return 0
        return await self._let_go_of_people(trusted) + await self._let_go_of_followers(trusted)

    async def _let_go_of_people(self, alive: set[str]) -> int:
        gone = 0
        for sid, data in (await self._hub.map_all(PEOPLE)).items():
            if _gone(sid, alive):
                try:
                    presence = Presence.from_map(unpack(data))
                except (BadNews, KeyError, TypeError, ValueError):
                    await self._hub.map_delete(PEOPLE, sid)
                    continue
                log.info("let go of lobby session %s of %s, a process gone", sid, presence.name)
                await HubLobby.let_go(self._hub, sid, presence, self._open_table)
                gone += 1
        return gone

    async def _let_go_of_followers(self, alive: set[str]) -> int:
        gone = 0
        tables = set(await self._hub.map_all(LIVE_TABLES))
        tables |= set(await self._hub.map_all(ENDED_TABLES))
        for table_id in tables:
            followers = await self._hub.map_all(followers_key(table_id))
            for follower, identity in followers.items():
                if _gone(follower, alive):
                    await leave(
                        self._hub, table_id, follower, identity.decode("utf-8", "replace") or None
                    )
                    gone += 1
        return gone


def _gone(name: str, alive: set[str]) -> bool:
    process = process_of(name)
    return process is not None and process not in alive
