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
left; so a reclaim comes once what is frozen has grown by half since the
last one, once enough players have left, or after :data:`RECLAIM_EVERY` seconds
whatever happened. Under steady play that is a pause every minute or two instead of
three a minute, for up to half as much memory again between reclaims.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Literal, Protocol

log = logging.getLogger(__name__)

FREEZE_EVERY = 10.0  # seconds between two freezes of what lived through them
RECLAIM_EVERY = 600.0  # seconds at most between two collections of everything
RECLAIM_GROWTH = 0.5  # what is frozen grown by this share since the last one calls one
RECLAIM_SHARE = 0.25  # players gone, of those connected, that call a reclaim early...
RECLAIM_LEAST = 20  # ...though never for fewer than this many
YOUNG_OBJECTS = 3_000  # new objects between two collections of the youngest generation


class Places(Protocol):
    """How many sessions are connected now, and how many have ever ended."""

    total: int
    given_back: int


class Collector:
    """Freezes what survives, and now and then reclaims what froze and died since.

    ``places`` counts the sessions (a :class:`~sixtui.server.shared.Counts`).
    """

    def __init__(self, places: Places, clock: Callable[[], float] = time.monotonic) -> None:
        self._places = places
        self._clock = clock
        self._reclaimed_at = clock()
        self._given_back = places.given_back
        self._frozen = gc.get_freeze_count()  # right after the last reclaim

    def start(self) -> None:
        """What is loaded by now lives as long as the server: collected once and frozen.
        The youngest generation is collected every :data:`YOUNG_OBJECTS` new objects
        rather than 700: every session allocates in bursts (a screen built, a board
        drawn), and over 100 sessions started one by one the collector's share of a start
        fell from 11.6 ms to 3.7 ms, the middle generation's pauses staying near 10 ms."""
        gc.collect()
        gc.freeze()
        self._frozen = gc.get_freeze_count()
        _, middle, oldest = gc.get_threshold()
        gc.set_threshold(YOUNG_OBJECTS, middle, oldest)

    def tick(self) -> Literal["froze", "reclaimed"]:
        """Freezes what survives a collection of the younger generations; or, when a
        reclaim is due, collects everything first."""
        gone = self._places.given_back - self._given_back
        enough_gone = gone >= max(RECLAIM_LEAST, RECLAIM_SHARE * self._places.total)
        grown = gc.get_freeze_count() > (1 + RECLAIM_GROWTH) * self._frozen
        if enough_gone or grown or self._clock() - self._reclaimed_at >= RECLAIM_EVERY:
            started = time.perf_counter()
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
            self._reclaimed_at, self._given_back = self._clock(), self._places.given_back
            self._frozen = gc.get_freeze_count()
            log.info(
                "collected %d objects, %d kept, %d sessions gone since, in %.0f ms",
                found,
                self._frozen,
                gone,
                1000 * (time.perf_counter() - started),
            )
            return "reclaimed"
        gc.collect(1)
        gc.freeze()
        return "froze"

    async def run(self) -> None:
        """Ticks every :data:`FREEZE_EVERY` seconds until cancelled."""
        while True:
            await asyncio.sleep(FREEZE_EVERY)
            self.tick()
