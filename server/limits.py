"""How much a session may send and for how long it may sit idle.

Input beyond a rate waits (and further input in the client's SSH window); a player who
presses nothing for a while is warned, then let go.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sixtui.server.settings import Settings
from sixtui.tui.app import SixtuiApp

log = logging.getLogger("sixtui.server")


class InputAllowance:
    """Bytes of input a session may hand its app, refilled at ``rate`` a second up to one
    second's worth.

    >>> allowance = InputAllowance(rate=100, now=0.0)
    >>> allowance.take(150, now=0.0), allowance.take(150, now=0.5), allowance.take(10, now=9)
    (100, 50, 10)
    """

    def __init__(self, rate: int, now: float) -> None:
        self._rate = rate
        self._left = float(rate)
        self._refilled = now

    def take(self, wanted: int, now: float) -> int:
        """How many of ``wanted`` bytes may go now: at most what is left."""
        self._left = min(self._rate, self._left + (now - self._refilled) * self._rate)
        self._refilled = now
        count = min(wanted, int(self._left))
        self._left -= count
        return count


async def watch_idle(
    app: SixtuiApp,
    settings: Settings,
    last_input: Callable[[], float],
    drop: Callable[[float], None],
) -> None:
    """Warns a player who has pressed nothing for a while (``last_input`` says when they
    last did, in the loop's time), then calls ``drop`` with the seconds they were idle."""
    loop = asyncio.get_running_loop()
    warned = False
    while True:
        await asyncio.sleep(min(1.0, settings.idle_warning / 4))
        quiet = loop.time() - last_input()
        if quiet < settings.idle_timeout - settings.idle_warning:
            warned = False
        elif not warned:
            warned = True
            app.notify(
                f"Press a key within {settings.idle_warning:g} s to stay connected.",
                title="Still there?",
                severity="warning",
                timeout=settings.idle_warning,
            )
        elif quiet >= settings.idle_timeout:
            drop(quiet)
            return
