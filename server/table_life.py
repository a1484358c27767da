"""Who is at a table, and how a table ends and leaves the hub, so that a server running
for weeks holds no more than the tables people are at.

Hub names (with the rooms', :mod:`sixtui.server.rooms`):

* ``table:ID:followers`` (map): the screens following the table now, one field each
  (numbered by the ``tables:followers`` counter), valued with the identity of the player
  it shows the table to, or empty for a spectator.

**Away.** A person is marked away from a table whose match goes on when the last of
their screens there closes, not before: the same key logged in twice plays from either
screen, and closing one leaves the other playing.

**Out of time.** A game whose side to move has no time left on its clock is ended on
time at the next sweep, if no screen at the table has flagged it first (everyone gone).

**Deserted.** When everyone who holds a seat has gone (away from a game in play for
longer than the table's window, or away at all between games), the table ends: the game
in play is aborted, a match between games ends where it stands. A seat that no screen has
followed at two sweeps in a row is marked away, so that a table whose players never
arrived ends too.

**Removed.** A table whose match has ended leaves the lobby's list at once (the rooms do
that) and stays while anyone follows it, to read the result or ask for a rematch. It is
removed from the hub, with every name of it, as the last follower leaves, or
:data:`FINISHED_KEPT` seconds after it ended if some screen never does. Its topic then
carries :data:`~sixtui.server.rooms.GONE`.

A :class:`Sweeper` in each server process looks over the tables every
:data:`SWEEP_EVERY` seconds, for what happens with no one doing anything: a window running
out, a screen that never closed. Every change it makes goes through the hub's atomic
operations, so any number of processes may sweep at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from sixtui.server import seated
from sixtui.server.background import BackgroundTask
from sixtui.server.hub import Hub, of_this_process
from sixtui.server.missed_games import forget_old
from sixtui.server.rooms import (
    ENDED_TABLES,
    GONE,
    LIVE_TABLES,
    end_deserted,
    flag_if_due,
    list_live,
    mark_away,
    mark_back,
    player_tables,
    read_table,
    table_topic,
)
from sixtui.server.table_state import TableState, table_key

log = logging.getLogger(__name__)

FOLLOWER_NUMBERS = "tables:followers"
SWEEP_EVERY = 15.0  # seconds between two looks over the tables
FINISHED_KEPT = 3 * 3600.0  # seconds a finished table stays for screens that never left it


def followers_key(table_id: str) -> str:
    return f"table:{table_id}:followers"


async def follow(hub: Hub, table_id: str, identity: str | None) -> str:
    """Counts a screen at the table, for the player ``identity`` (``None``: a spectator),
    and returns its field, for :func:`leave`. Counted before the screen reads the table,
    so that a screen of theirs leaving in the same instant sees it (see :func:`leave`)."""
    follower = of_this_process(hub, f"f{await hub.next_number(FOLLOWER_NUMBERS)}")
    await hub.map_set(followers_key(table_id), follower, (identity or "").encode())
    return follower


async def leave(
    hub: Hub,
    table_id: str,
    follower: str,
    identity: str | None,
    clock: Callable[[], float] = time.time,
) -> None:
    """The screen ``follower`` left the table: its player is marked away if no other screen
    of theirs follows it while the match goes on; a deserted table ends; a finished table
    that no one follows any more is removed."""
    await hub.map_delete(followers_key(table_id), follower)
    if identity is not None and not await _followed_by(hub, table_id, identity):
        await _mark_gone(hub, table_id, identity, clock)
    await end_deserted(hub, table_id, clock())
    await remove_if_done(hub, table_id, clock())


async def _mark_gone(hub: Hub, table_id: str, identity: str, clock: Callable[[], float]) -> None:
    """Marks ``identity`` away from the table, if they hold a seat there and the match goes
    on. A screen of theirs may join in the same instant: it counts itself, then reads the
    table; this marks, then counts again. One of the two sees the other, so whichever
    comes second marks them back."""
    state = await read_table(hub, table_id)
    if state is None or not state.in_progress or state.side_of(identity) is None:
        return
    await mark_away(hub, table_id, identity, clock)
    if await _followed_by(hub, table_id, identity):
        await mark_back(hub, table_id, identity, clock)


async def _followed_by(hub: Hub, table_id: str, identity: str) -> bool:
    followers = await hub.map_all(followers_key(table_id))
    return identity.encode() in followers.values()


async def remove_if_done(
    hub: Hub, table_id: str, now: float, ended_at: float | None = None
) -> bool:
    """Removes the table if its match has ended and no one follows it (or, given when it
    ended, :data:`FINISHED_KEPT` seconds have passed since); true if it is gone now."""
    while True:
        stored = await hub.get(table_key(table_id))
        if stored is None:
            await _forget(hub, table_id, None)
            return True
        state = TableState.from_bytes(stored.value)
        if state.in_progress:
            return False
        kept_long = ended_at is not None and now - ended_at > FINISHED_KEPT
        if not kept_long and (
            await hub.map_all(followers_key(table_id)) or await _seats_held(hub, table_id, state)
        ):
            return False
        if await hub.delete(table_key(table_id), stored.version):
            await _forget(hub, table_id, state)
            return True


async def _seats_held(hub: Hub, table_id: str, state: TableState) -> bool:
    """Whether a seat at the table is still held: its last game has just ended, and the
    seats are being given back (a table is removed only after, so that a seat is never
    taken over while its table may still give it back)."""
    return any([await seated.holds_at(hub, table_id, str(h.identity)) for h in state.people])


async def _forget(hub: Hub, table_id: str, state: TableState | None) -> None:
    """Clears every other name of a removed table, and tells whoever still follows it. A
    seat still held there (by a server process that stopped before giving it back) is
    left to be taken over (:mod:`sixtui.server.seated`)."""
    await hub.publish(table_topic(table_id), GONE)
    await list_live(hub, table_id, None)
    await hub.map_delete(ENDED_TABLES, table_id)
    for follower in await hub.map_all(followers_key(table_id)):
        await hub.map_delete(followers_key(table_id), follower)
    people = [] if state is None else [str(holder.identity) for holder in state.people]
    for identity in people:
        await hub.map_delete(player_tables(identity), table_id)


class Sweeper:
    """Looks over every table now and then (see the module's docstring); ``clock`` is the
    wall clock the rooms time away players by."""

    def __init__(
        self, hub: Hub, clock: Callable[[], float] = time.time, every: float = SWEEP_EVERY
    ) -> None:
        self._hub = hub
        self._clock = clock
        self._every = every
        self._unfollowed: dict[str, frozenset[str]] = {}  # seats no screen followed, by table
        self._background = BackgroundTask("table sweeper", self._keep_sweeping)

    def start(self) -> None:
        """Sweeps from now on, until :meth:`close` (once started, started)."""
        self._background.start()

    async def close(self) -> None:
        """Stops sweeping, once the look under way (if any) has been cut short."""
        await self._background.close()

    async def _keep_sweeping(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping the tables failed; trying again later")

    async def sweep(self) -> None:
        """One look over every table: the live ones may be deserted, the ended ones may
        be removed."""
        hub, now = self._hub, self._clock()
        live = await hub.map_all(LIVE_TABLES)
        for table_id in live:
            await self._sweep_live(table_id, now)
        self._unfollowed = {
            table_id: seats for table_id, seats in self._unfollowed.items() if table_id in live
        }
        for table_id, ended in (await hub.map_all(ENDED_TABLES)).items():
            await remove_if_done(hub, table_id, now, _seconds(ended))
        await forget_old(hub, now)

    async def _sweep_live(self, table_id: str, now: float) -> None:
        state = await read_table(self._hub, table_id)
        if state is None:
            await _forget(self._hub, table_id, None)
            return
        await self._mark_unfollowed(table_id, state)
        await flag_if_due(self._hub, table_id, now)  # before a deserted game is aborted
        await end_deserted(self._hub, table_id, now)
        await remove_if_done(self._hub, table_id, now)

    async def _mark_unfollowed(self, table_id: str, state: TableState) -> None:
        """Marks away the seats that no screen followed, neither now nor at the last sweep."""
        following = set((await self._hub.map_all(followers_key(table_id))).values())
        unfollowed = frozenset(
            str(holder.identity)
            for holder in state.people
            if holder.identity not in state.away and str(holder.identity).encode() not in following
        )
        for identity in unfollowed & self._unfollowed.get(table_id, frozenset()):
            await mark_away(self._hub, table_id, identity, self._clock)
        self._unfollowed[table_id] = unfollowed


def _seconds(data: bytes) -> float | None:
    try:
        return float(data)
    except ValueError:
        return None
