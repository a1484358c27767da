"""Watching the event loop and what a driver hands its app, for the tests of the server
and of the computer players' workers."""

import asyncio
import time

from textual import events


async def largest_gap_while(awaitable, step=0.01):
    """Awaits ``awaitable`` while a ticker sleeps ``step`` at a time: its result, and the
    longest the ticker waited for its turn."""
    largest, done = 0.0, False

    async def ticker():
        nonlocal largest
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(step)
            now = time.perf_counter()
            largest, last = max(largest, now - last), now

    ticking = asyncio.create_task(ticker())
    try:
        return await awaitable, largest
    finally:
        done = True
        await ticking


class Posted:
    """An app as far as a driver sees one: it posts messages to it."""

    def __init__(self) -> None:
        self.messages = []

    def post_message(self, message) -> bool:
        self.messages.append(message)
        return True

    @property
    def keys(self) -> list[str]:
        return [m.key for m in self.messages if isinstance(m, events.Key)]
