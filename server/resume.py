"""The hub read back as the server starts again (:mod:`sixtui.server.hub_files`).

What belonged to the connections of the stopped server is forgotten: who was in the lobby,
who waited in a pool, the challenges open, the screens following each table. The games
in progress wait for their players as for anyone whose connection dropped: every person
seated is away from the moment the server is back, with the whole reconnection window to
log in again (their game brings them back to it), and the clocks that ran when the server
stopped take up again where they stood, the outage not counted.
"""

from __future__ import annotations

import dataclasses
import logging

from sixtui.server.challenges import CHALLENGES
from sixtui.server.hub import Hub
from sixtui.server.lobby_copy import PEOPLE
from sixtui.server.pairing import POOLS, pool_queue
from sixtui.server.rooms import LIVE_TABLES, Keeper
from sixtui.server.table_life import followers_key
from sixtui.server.table_state import TableState, table_key

log = logging.getLogger(__name__)


async def resume(hub: Hub, stopped_at: float, now: float, computers: Keeper) -> list[str]:
    """Makes the hub one that no connection is in yet, as the server starts at ``now``
    having stopped at ``stopped_at`` (wall clock), and keeps the computer seats of the
    games in progress playing; returns those games' tables."""
    await _clear_map(hub, PEOPLE)
    for pool in await hub.map_all(POOLS):
        await _clear_queue(hub, pool_queue(pool))
        await hub.map_delete(POOLS, pool)
    await _clear_queue(hub, CHALLENGES)
    resumed = []
    for table_id in await hub.map_all(LIVE_TABLES):
        await _clear_map(hub, followers_key(table_id))
        state = await _resume_table(hub, table_id, max(0.0, now - stopped_at), now)
        if state is None:
            continue
        resumed.append(table_id)
        if any(holder.is_computer for side in state.sides for holder in side):
            computers.keep(table_id)
    return resumed


async def _resume_table(hub: Hub, table_id: str, outage: float, now: float) -> TableState | None:
    """The table's game waits for its players, its clock paused over ``outage``; ``None``
    if there is no game in progress there."""
    while True:
        stored = await hub.get(table_key(table_id))
        if stored is None:
            return None
        try:
            state = TableState.from_bytes(stored.value)
        except ValueError as why:
            log.error("table %s cannot be taken up again: %s", table_id, why)
            return None
        if not state.in_progress:
            return None
        clock = state.clock
        if clock is not None and clock.running is not None:
            clock = dataclasses.replace(clock, since=clock.since + outage)
        after = state.but(
            version=stored.version + 1,
            away={str(holder.identity): now for holder in state.people},
            clock=clock,
            since=state.since + outage if state.status == "playing" else state.since,
        )
        if await hub.compare_and_set(table_key(table_id), stored.version, after.to_bytes()):
            return after


async def _clear_map(hub: Hub, name: str) -> None:
    for field_name in await hub.map_all(name):
        await hub.map_delete(name, field_name)


async def _clear_queue(hub: Hub, queue: str) -> None:
    for entry in await hub.queue_list(queue):
        await hub.queue_leave(queue, entry.member)
