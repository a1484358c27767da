"""Shared tables through the hub, without SSH: how long a turn takes to reach every screen.

:data:`TABLES` tables play at once on one :class:`~sixtui.server.hub.MemoryHub`, a third
each of Connect6, Game of 6 (both 19×19) and two-player Six, each with its two players'
:class:`~sixtui.server.table_session.TableSession`. Each table first plays
:data:`OPENING_TURNS` random turns untimed, so that the games are well under way; then each
player takes a random time to think (:data:`THINK` s on average) and sends a random whole
turn. A turn's time runs from just before its intent is sent to the moment the last
session at its table holds the new state; the figures are the median and the 99th
percentile of every turn of a run, median of the runs. Then again with the hub kept on
disk (:class:`~sixtui.server.hub_files.JournaledHub`), its journal written at each change
(``write``, the default) or flushed to the disk at each (``fsync``).
"""

from __future__ import annotations

import asyncio
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path

from benchmarks.measure import Figure
from sixtui.rules import Game, Move
from sixtui.server.hub import MemoryHub
from sixtui.server.hub_files import JournaledHub
from sixtui.server.rooms import open_table
from sixtui.server.table_session import TableSession
from sixtui.server.table_state import SeatHolder
from sixtui.tui.session import Update

TABLES = 100
GAMES = (("connect6", {}), ("gameof6", {}), ("six", {}))
OPENING_TURNS = 40
THINK = 0.2  # seconds a player thinks over a turn, on average (from none to twice this)
JOURNALS = ("write", "fsync")  # the hub kept on disk, measured beside the memory hub alone


def random_turn(game: Game, rng: random.Random) -> list[Move]:
    """Random moves that make up the whole turn of the seat to move."""
    trial, seat, moves = game.copy(), game.to_move, []
    while not trial.is_over and (not moves or trial.to_move == seat):
        moves.append(rng.choice(trial.legal_moves()))
        trial.play(moves[-1])
    return moves


class Table:
    """One table's two sessions, and the times its turns took to reach both."""

    def __init__(self, sessions: list[TableSession], times: list[float]) -> None:
        self.sessions = sessions
        self.times = times
        self.waiting_for = 0  # the version each session must reach
        self.arrived = asyncio.Event()
        for session in sessions:
            session.subscribe(self._heard)

    def _heard(self, update: Update) -> None:
        if self.waiting_for and all(s.state.version >= self.waiting_for for s in self.sessions):
            self.waiting_for = 0
            self.arrived.set()

    async def play(self, rng: random.Random, turns: int | None, think: float) -> None:
        """Plays ``turns`` turns (``None``: until cancelled), starting the next game when one
        ends, each after a random time to think."""
        played = 0
        while turns is None or played < turns:
            movers = [s for s in self.sessions if s.may_move]
            if not movers:
                if self.sessions[0].match.is_over:
                    return
                for session in self.sessions:  # the next game begins once both have asked
                    await self._everywhere(session.next_game())
                continue
            await asyncio.sleep(rng.uniform(0, 2 * think))
            sent_at = time.perf_counter()
            await self._everywhere(movers[0].play_turn(random_turn(movers[0].game, rng)))
            self.times.append(time.perf_counter() - sent_at)
            played += 1

    async def _everywhere(self, change: Awaitable[None]) -> None:
        """Makes ``change`` and waits until every session at the table holds it."""
        self.arrived.clear()
        self.waiting_for = self.sessions[0].state.version + 1
        await change
        await self.arrived.wait()


def make_hub(journal: str) -> MemoryHub:
    """The memory hub alone (``"off"``), or kept on disk with that ``journal`` setting, in a
    folder of its own under the system's temporary folder."""
    if journal == "off":
        return MemoryHub()
    hub = JournaledHub(Path(tempfile.mkdtemp(prefix="sixtui-bench-hub-")), journal)  # type: ignore[arg-type]
    hub.restore()
    return hub


async def one_run(seconds: float, journal: str = "off") -> list[float]:
    """The time of every turn of a run (seconds), once the tables are under way, on a hub
    with the ``journal`` setting."""
    hub = make_hub(journal)
    tables, times, warming = [], [], []
    for number in range(TABLES):
        game, options = GAMES[number % len(GAMES)]
        people = [SeatHolder(f"p{number}.{side}", f"key-{number}.{side}") for side in (0, 1)]
        table_id = await open_table(hub, game, options, [[people[0]], [people[1]]], opener=0)
        sessions = [await TableSession.join(hub, table_id, p.identity) for p in people]
        tables.append(Table(sessions, warming))
    await asyncio.gather(
        *(t.play(random.Random(n), OPENING_TURNS, 0) for n, t in enumerate(tables))
    )
    for table in tables:
        table.times = times
    playing = [
        asyncio.create_task(t.play(random.Random(-n), None, THINK)) for n, t in enumerate(tables)
    ]
    await asyncio.sleep(seconds)
    for task in playing:
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    for table in tables:
        for session in table.sessions:
            await session.close()
    await hub.close()
    if isinstance(hub, JournaledHub):
        shutil.rmtree(hub.folder, ignore_errors=True)
    return times


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    done = [asyncio.run(one_run(seconds)) for _ in range(runs)]
    yield from _figures(done, seconds)
    for journal in JOURNALS:
        kept = [asyncio.run(one_run(seconds, journal)) for _ in range(runs)]
        yield Figure(
            f"rooms, the hub journaled ({journal}): ms from a turn's intent to both screens, p50",
            [1000 * statistics.median(times) for times in kept],
            "ms",
            digits=2,
        )
        yield Figure(
            f"rooms, the hub journaled ({journal}): the same, p99",
            [1000 * percentile(times, 0.99) for times in kept],
            "ms",
            "≤ 5",
            digits=2,
        )


def _figures(done: list[list[float]], seconds: float) -> Iterator[Figure]:
    turns = [len(times) / seconds for times in done]
    yield Figure(f"rooms: turns per second over {TABLES} tables", turns, "turns/s", digits=0)
    yield Figure(
        f"rooms: ms from a turn's intent to both screens holding it, {TABLES} tables, p50",
        [1000 * statistics.median(times) for times in done],
        "ms",
        digits=2,
    )
    yield Figure(
        "rooms: the same, p99",
        [1000 * percentile(times, 0.99) for times in done],
        "ms",
        "≤ 5",
        digits=2,
    )
