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


class Allowance:
    """What a session may hand its app, refilled at ``per_second`` up to ``burst`` at
    once: bytes of input (one second's worth at once), or key presses (a script's command
    line written in one go, a held key's first repeats).

    >>> typed = Allowance(per_second=100, burst=100)
    >>> typed.take(150, now=0.0), typed.take(150, now=0.5), typed.take(10, now=9)
    (100, 50, 10)
    >>> keys = Allowance(per_second=10, burst=3)
    >>> [keys.allow(now=0.0) for _ in range(4)], keys.allow(now=0.1)
    ([True, True, True, False], True)
    """

    def __init__(self, per_second: float, burst: float) -> None:
        self._per_second = per_second
        self._burst = burst
        self._left = burst
        self._refilled = 0.0

    def take(self, wanted: int, now: float) -> int:
        """How many of ``wanted`` may go now: at most what is left."""
        self._left = min(self._burst, self._left + (now - self._refilled) * self._per_second)
        self._refilled = now
        count = wanted if self._left >= wanted else int(self._left)  # no int() of infinity
        self._left -= count
        return count

    def allow(self, now: float) -> bool:
        """Whether one more may go now, taking it if so."""
        return self.take(1, now) == 1


class ConnectionRate:
    """New connections allowed from each address: ``per_minute`` a minute, and up to
    ``burst`` at once (a household or a club behind one address arriving together).

    Counted as a connection is accepted, before asyncssh builds anything for it (the SSH
    key exchange would cost a few milliseconds of CPU): over the rate, a connection is
    closed at once, so that one address connecting in a loop cannot take the server's
    time from everyone else.

    >>> rate = ConnectionRate(per_minute=60, burst=2)
    >>> [rate.allow("10.0.0.1", now=0.0) for _ in range(3)], rate.allow("10.0.0.2", now=0.0)
    ([True, True, False], True)
    >>> rate.allow("10.0.0.1", now=1.0)
    True
    """

    def __init__(self, per_minute: int, burst: int) -> None:
        self._per_second = per_minute / 60.0
        self._burst = float(burst)
        self._left: dict[str, tuple[float, float]] = {}  # address: (allowance, when)
        self._forgotten = 0.0

    def allow(self, peer: str, now: float) -> bool:
        """Whether a new connection from ``peer`` may go on, taking one if so."""
        self._forget_full(now)
        left, then = self._left.get(peer, (self._burst, now))
        left = min(self._burst, left + (now - then) * self._per_second)
        allowed = left >= 1.0
        self._left[peer] = (left - 1.0 if allowed else left, now)
        return allowed

    def _forget_full(self, now: float) -> None:
        """Now and then, lets go of the addresses whose allowance has grown back whole:
        they are as if never seen, and the table holds no more than the recent ones."""
        if now - self._forgotten < 60.0:
            return
        self._forgotten = now
        whole = self._burst / self._per_second if self._per_second else float("inf")
        self._left = {
            peer: (left, then) for peer, (left, then) in self._left.items() if now - then < whole
        }


class Refusals:
    """Connections closed for coming too fast, said in the log once an address begins and
    once a minute while it goes on, with how many: a loop of connections must not flood
    the log as it would the server."""

    def __init__(self, clock: Callable[[], float] = lambda: asyncio.get_running_loop().time()):
        self._clock = clock
        self._since: dict[str, tuple[float, int]] = {}  # address: (last said, refused since)

    def refused(self, peer: str) -> None:
        now = self._clock()
        said, count = self._since.get(peer, (float("-inf"), 0))
        if now - said < 60.0:
            self._since[peer] = (said, count + 1)
            return
        more = f" ({count} more in the last minute)" if count else ""
        log.info("refused peer=%s why=too many new connections from %s%s", peer, peer, more)
        self._since = {p: (t, c) for p, (t, c) in self._since.items() if now - t < 60.0}
        self._since[peer] = (now, 0)


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
