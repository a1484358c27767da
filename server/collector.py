"""The garbage collector, kept from pausing every player for long.

Python's collector now and then walks every object it tracks: with a hundred players
connected, each with a whole game interface, that full collection stopped the server
for over a second, and it came every twenty seconds or so under play, since what
sessions draw lives just long enough to count as old. What has lived a while mostly
lives on (players' screens, their widgets, the tables), so the :class:`Collector`
freezes it (``gc.freeze``) every :data:`FREEZE_EVERY` seconds: the collector's full
collections then walk only what came since, and stay short.

Frozen objects that become garbage in a cycle wait for the next reclaim: everything
thawed, collected and frozen again, one long pause. Some of what Textual draws ends in
cycles (its compositor's maps of the screen), as does the interface of a player who
left; so a reclaim comes once the memory Python's objects hold has grown by half since
the last one, beyond what the players who came since hold; once enough players have
left; or after :data:`RECLAIM_EVERY` seconds whatever happened. Under steady play that is
a pause every minute or two instead of three a minute, for up to half as much memory
again between reclaims; and players arriving in a crowd, whose interfaces are no garbage,
call none.

That memory is counted in the allocator's blocks (``sys.getallocatedblocks``), which
costs a walk over its pools, not over the objects: counting the frozen objects walks
every one of them, 230 ms at 200 players, a pause of its own every time it was asked.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable
from typing import Literal, Protocol

log = logging.getLogger(__name__)

FREEZE_EVERY = 10.0  # seconds between two freezes of what lived through them
RECLAIM_EVERY = 600.0  # seconds at most between two collections of everything
RECLAIM_GROWTH = 0.5  # memory grown by this share since the last one calls one
RECLAIM_SHARE = 0.25  # players gone, of those connected, that call a reclaim early...
RECLAIM_LEAST = 20  # ...though never for fewer than this many
YOUNG_OBJECTS = 3_000  # new objects between two collections of the youngest generation
# What a player's session holds, seated at a table, until a reclaim has counted it: 60
# players seated and playing held 13,000 of the allocator's blocks each beyond the
# server's own.
SESSION_BLOCKS = 14_000


class Sessions(Protocol):
    """How many sessions (a player's interface each) have ever been opened, and ended."""

    sessions_opened: int
    sessions_ended: int


class Collector:
    """Freezes what survives, and now and then reclaims what froze and died since.

    ``sessions`` counts them (a :class:`~sixtui.server.shared.Counts`): a connection
    that opens no session (a scanner, a loop of connections) builds no interface, and
    calls no reclaim.
    """

    def __init__(
        self,
        sessions: Sessions,
        clock: Callable[[], float] = time.monotonic,
        session_blocks: int = SESSION_BLOCKS,
    ) -> None:
        self._sessions = sessions
        self._clock = clock
        self._reclaimed_at = clock()
        self._ended = sessions.sessions_ended
        self._opened = sessions.sessions_opened
        self._held = sys.getallocatedblocks()  # right after the last reclaim
        self._own = self._held  # the server's, before any session
        self._session_blocks = session_blocks

    def start(self) -> None:
        """What is loaded by now lives as long as the server: collected once and frozen.
        The youngest generation is collected every :data:`YOUNG_OBJECTS` new objects
        rather than 700: every session allocates in bursts (a screen built, a board
        drawn), and over 100 sessions started one by one the collector's share of a start
        fell from 11.6 ms to 3.7 ms, the middle generation's pauses staying near 10 ms."""
        gc.collect()
        gc.freeze()
        self._held = self._own = sys.getallocatedblocks()
        log.info(
            "collector: %d objects of the server's own frozen, %d blocks held",
            gc.get_freeze_count(),
            self._own,
        )
        _, middle, oldest = gc.get_threshold()
        gc.set_threshold(YOUNG_OBJECTS, middle, oldest)

    def tick(self) -> Literal["froze", "reclaimed"]:
        """Freezes what survives a collection of the younger generations; or, when a
        reclaim is due, collects everything first."""
        sessions = self._sessions
        gone = sessions.sessions_ended - self._ended
        enough_gone = gone >= max(RECLAIM_LEAST, RECLAIM_SHARE * _open(sessions))
        arrived = sessions.sessions_opened - self._opened
        expected = self._held + arrived * self._session_blocks
        grown = sys.getallocatedblocks() > (1 + RECLAIM_GROWTH) * expected
        if enough_gone or grown or self._clock() - self._reclaimed_at >= RECLAIM_EVERY:
            self._reclaim(gone)
            return "reclaimed"
        gc.collect(1)
        gc.freeze()
        return "froze"

    def _reclaim(self, gone: int) -> None:
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        sessions = self._sessions
        self._reclaimed_at = self._clock()
        self._ended, self._opened = sessions.sessions_ended, sessions.sessions_opened
        self._held = sys.getallocatedblocks()
        open_now = _open(sessions)
        if open_now >= RECLAIM_LEAST:
            # Counted now, what sessions hold is known: those who come next hold as much.
            self._session_blocks = max(1, (self._held - self._own) // open_now)
        log.info(
            "collected %d objects, %d blocks held (%d a session), %d sessions gone since, "
            "in %.0f ms",
            found,
            self._held,
            self._session_blocks,
            gone,
            1000 * (time.perf_counter() - started),
        )

    async def run(self) -> None:
        """Ticks every :data:`FREEZE_EVERY` seconds until cancelled."""
        while True:
            await asyncio.sleep(FREEZE_EVERY)
            self.tick()


def _open(sessions: Sessions) -> int:
    return sessions.sessions_opened - sessions.sessions_ended
