"""Faults made during a load test's window (``make loadtest ARGS="--fault KIND"``), so that
what they cost everyone else is measured while they happen.

Each fault is one offender from an address of its own (:data:`OFFENDER`, where the bots
have theirs), as a guest, doing one thing for the whole window:

- ``keys``: printable keys (all but q, which would leave) typed in the lobby as fast as
  the connection takes them;
- ``bytes``: random characters of the first 256 code points, control characters and
  broken escape sequences included;
- ``paste``: a bracketed paste of 100,000 characters every second;
- ``connections``: new TCP connections, opened and closed again in a loop;
- ``slow``: a session in the lobby that never reads what the server sends it.

What the server logs of the offender (refused, dropped, cut) is expected, and counted
apart from the run's errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random

from benchmarks.server import Session, guest_terminal

FAULTS = ("keys", "bytes", "paste", "connections", "slow")
OFFENDER = "127.6.6.6"
PASTE = 100_000  # characters in each paste
WRITE = 4_096  # bytes written at a time


async def make_fault(kind: str, port: int, stop: float) -> int:
    """Makes the fault ``kind`` against the server on ``port`` until the loop's time
    ``stop``; returns how many writes or connections it made."""
    if kind == "connections":
        return await _connections(port, stop)
    if kind == "slow":
        return await _slow_reader(port, stop)
    session = await Session.open(port, OFFENDER)
    made = 0
    try:
        while asyncio.get_running_loop().time() < stop:
            session.process.stdin.write(_chunk(kind, made))
            made += 1
            await session.process.stdin.drain()
            if kind == "paste":
                await asyncio.sleep(1.0)
    except (OSError, asyncio.CancelledError, Exception):  # dropped, as it may well be
        pass
    finally:
        await session.close()
    return made


def _chunk(kind: str, number: int) -> str:
    rng = random.Random(number)
    if kind == "keys":
        return "".join(rng.choice("abcdefghijklmnoprstuvwxyz0123456789 /") for _ in range(WRITE))
    if kind == "paste":
        return f"\x1b[200~{'x' * PASTE}\x1b[201~"
    return os.urandom(WRITE).decode("latin-1")  # every byte, as text the channel encodes


async def _connections(port: int, stop: float) -> int:
    made = 0
    while asyncio.get_running_loop().time() < stop:
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(OFFENDER, 0))
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        made += 1
    return made


async def _slow_reader(port: int, stop: float) -> int:
    connection, process = await guest_terminal(port, (100, 30), "utf-8", OFFENDER)
    try:
        # Never read: what the server sends piles up until the channel's window is full.
        await asyncio.sleep(max(0.0, stop - asyncio.get_running_loop().time()))
    finally:
        connection.close()
    del process
    return 1
