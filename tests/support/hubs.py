"""Memory hubs for tests of what many sessions or processes do at once, and a look at
everything a memory hub holds."""

import asyncio

from sixtui.server.archive import Archive
from sixtui.server.archiving import Archivist
from sixtui.server.hub import MemoryHub
from sixtui.server.missed_games import MISSED

STEPS = (
    "get",
    "compare_and_set",
    "delete",
    "publish",
    "map_set",
    "map_delete",
    "map_all",
    "queue_join",
    "queue_leave",
    "queue_list",
    "queue_take",
    "queue_take_members",
    "next_number",
)


class Interleaved(MemoryHub):
    """A memory hub that lets other tasks run before each call, as many turns as
    ``pauses`` says in turn: tasks using it at once take their steps in every order.
    Each call is still one step, as the contract asks."""

    def __init__(self, pauses: list[int]) -> None:
        super().__init__()
        self._pauses = pauses or [0]
        self._calls = 0
        for name in STEPS:
            setattr(self, name, self._paused(getattr(self, name)))

    def _paused(self, step):
        async def paused(*args):
            self._calls += 1
            for _ in range(self._pauses[self._calls % len(self._pauses)]):
                await asyncio.sleep(0)
            return await step(*args)

        return paused


def names_held(hub: MemoryHub) -> set[str]:
    """Every name a memory hub holds something under now: its keys, maps and queues, and
    the topics someone subscribes to (counters left out: one number each, however long
    the server runs; and the lines kept for players away as their game ended, which go
    after a while of their own, tested apart). Read from its insides, for tests alone:
    the contract needs no such call."""
    held = set(hub._values) | set(hub._maps) | set(hub._queues) | set(hub._subscribers.topics())
    return held - {MISSED}


async def names_held_once_archived(hub: MemoryHub) -> set[str]:
    """:func:`names_held`, once the games that ended are taken into an archive, as a
    server's archivist takes them as they end."""
    await Archivist(hub, Archive(":memory:")).archive_waiting()
    return names_held(hub)
