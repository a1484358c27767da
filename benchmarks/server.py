"""Server sessions: what one SSH session costs the server's process.

The server runs in a process of its own (``multiprocessing``, spawn), as ``sixtui serve``
runs it (:func:`sixtui.server.serve.serve`: the name book, a :class:`~sixtui.ai.worker.Thinker`,
the asyncssh server, logging at INFO), on 127.0.0.1 with the default settings but for the
connection limits; beside it run a probe task that measures the event loop's lag and a pipe
on which the process answers questions (its CPU time, its RSS, what the probe heard). The SSH
clients are asyncssh clients in this process, so their work is not counted: guests (no key)
with an 80×24 ``xterm-256color`` terminal, as ``ssh`` asks for one.

A run starts a fresh server, logs :data:`WARM_UP` sessions in and out (the first sessions of
a process import and build what every later one shares), then:

- **starts** :data:`SESSIONS` sessions one after another, each measured from just before the
  client connects to its lobby drawn on the client (its first line shown, then :data:`QUIET`
  s without output): the server's user + system CPU time (``getrusage``) over that window,
  the other lobbies' hearing of the arrival included as far as it falls in it; the figure
  is the mean of the starts, as a server pays for them;
- **holds** them all in the lobby, idle: the server's RSS growth since the warm-up, per
  session (read after a ``gc.collect()`` in the server, both times);
- **listens** for :data:`LAG_SECONDS` s: how late a :data:`PERIOD` s ``asyncio.sleep`` in
  the server wakes up (max and 99th percentile) while all of them are idle, from just after
  the last arrival (while the others' lobbies may still be hearing of it), then while one
  of them presses ↓ and ↑, :data:`KEYS_PER_SECOND` a second (each picks another pool of
  the lobby, which is redrawn), then once more idle after :data:`SETTLE` s of quiet, when
  the news of the arrivals has reached every lobby; the lag heard while the sessions
  started is kept too, and every full (generation 2) garbage collection the server made,
  with how long it took.

Each figure is the median of the runs (``seconds`` is not used). A run takes about 40 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import resource
import socket
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import asyncssh

from benchmarks.measure import Figure
from sixtui.tui.screens.lobby import QUIET as LOBBY_QUIET
from sixtui.tui.screens.lobby import news_wait

SESSIONS = 100  # sessions started one by one, then held idle
WARM_UP = 3  # sessions in and out before anything is measured
LOBBY = "sixtui lobby · you are"  # the lobby's first line, where every session begins
QUIET = 0.1  # seconds without output that end a session's start
PERIOD = 0.01  # seconds the lag probe sleeps
LAG_SECONDS = 5.0  # how long the lag is listened to, idle and while typing
KEYS_PER_SECOND = 10
KEYS = ("\x1b[B", "\x1b[A")  # ↓ ↑: to the next pool of the lobby, and back
# Seconds for the news of the last arrival to reach every lobby: the longest a lobby of
# them all waits to draw news, and a second more.
SETTLE = news_wait(0.0, LOBBY_QUIET, SESSIONS, 1.0) + 1.0
TIMEOUT = 30.0  # seconds any one step may take before the run is abandoned
SIZE = (80, 24)
MIB = 1 << 20


# -- the server's process ------------------------------------------------------------------


def serve(
    pipe: Connection,
    port: int,
    data_dir: str,
    lag_probe: bool,
    log_path: str | None = None,
    changed: Mapping[str, str] | None = None,
) -> None:
    """The server's process: ``sixtui serve`` on ``port`` (its settings the defaults
    but for the address, the port, the data and the connection limits, raised for
    clients that all come from one address, and those ``changed``, written as on
    ``--set``: the limits too), which runs until
    SIGTERM; meanwhile ``pipe`` is answered and, if ``lag_probe``, the lag probe runs (it
    wakes a hundred times a second, which a figure of CPU per turn would count). The log
    goes to ``log_path``, or nowhere."""
    from sixtui.server.log_text import LOG_FORMAT, EscapingFormatter, log_with
    from sixtui.server.serve import serve as run_server
    from sixtui.server.settings import load_settings

    # Logged as sixtui serve logs, to a file (each record's logger named, for whoever
    # reads it for trouble) or not at all.
    handler = logging.FileHandler(log_path or os.devnull)
    handler.setFormatter(
        EscapingFormatter(LOG_FORMAT.replace("%(message)s", "%(name)s %(message)s"))
    )
    log_with(handler)
    settings = load_settings(
        None,
        {},
        {
            "max_connections": 10 * SESSIONS,
            "max_per_ip": 10 * SESSIONS,
            **(changed or {}),
            "host": "127.0.0.1",
            "port": port,
            "data_dir": data_dir,
        },
    )

    async def main() -> None:
        probe, collections = LagProbe(), FullCollections()
        loop = asyncio.get_running_loop()
        loop.add_reader(pipe.fileno(), lambda: pipe.send(answer(pipe.recv(), probe, collections)))
        probing = loop.create_task(probe.run()) if lag_probe else None
        await run_server(settings)
        if probing is not None:
            probing.cancel()

    asyncio.run(main())


def answer(request: tuple[Any, ...], probe: LagProbe, collections: FullCollections) -> Any:
    """What the server's process answers: ``("cpu",)`` its CPU seconds so far; ``("rss",)``
    its RSS in bytes, after a full collection; ``("gc",)`` the full collections' pauses
    since the last ask, ``("young",)`` those of the younger generations; ``("lag", on)``
    the lag heard since the last ask, and listens from now on if ``on``."""
    if request[0] == "cpu":
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    if request[0] == "rss":
        collections.collect()
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS in /proc/self/status")
    if request[0] == "gc":
        return collections.taken()
    if request[0] == "young":
        return collections.taken_young()
    if request[0] == "lag":
        heard, probe.late = probe.late, [] if request[1] else None
        return heard
    raise ValueError(f"no such question: {request!r}")


class LagProbe:
    """Sleeps :data:`PERIOD` s again and again, noting how late it wakes up while on."""

    def __init__(self) -> None:
        self.late: list[float] | None = None  # seconds; None while off

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asleep = loop.time()
            await asyncio.sleep(PERIOD)
            if self.late is not None:
                self.late.append(loop.time() - asleep - PERIOD)


class FullCollections:
    """Notes how long each full (generation 2) garbage collection takes, except those
    asked for with :meth:`collect`: a pause no session can run in; and apart, those of
    the younger generations, shorter and far more frequent."""

    def __init__(self) -> None:
        self.pauses: list[float] = []  # seconds
        self.young: list[float] = []  # seconds, generations 0 and 1
        self._began = 0.0
        self._asked = False
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if self._asked:
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            full = info["generation"] == 2
            (self.pauses if full else self.young).append(time.perf_counter() - self._began)

    def collect(self) -> None:
        self._asked = True
        try:
            gc.collect()
        finally:
            self._asked = False

    def taken(self) -> list[float]:
        pauses, self.pauses = self.pauses, []
        return pauses

    def taken_young(self) -> list[float]:
        pauses, self.young = self.young, []
        return pauses


class PipedProcess:
    """A process spawned to run ``target(pipe, *args)``, seen from here: what it sends
    down the pipe waits in :attr:`received` (an :class:`EOFError` naming ``what`` once
    it has ended)."""

    def __init__(self, target: Callable[..., None], args: tuple[Any, ...], what: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=target, args=(theirs, *args), daemon=True)
        self.process.start()
        theirs.close()
        self._what = what
        self.received: asyncio.Queue[Any] = asyncio.Queue()
        asyncio.get_running_loop().add_reader(self.pipe.fileno(), self._readable)

    def _readable(self) -> None:
        try:
            self.received.put_nowait(self.pipe.recv())
        except EOFError:
            asyncio.get_running_loop().remove_reader(self.pipe.fileno())
            self.received.put_nowait(EOFError(f"{self._what} ended"))


class Server(PipedProcess):
    """The server's process, seen from here: ``await ask(...)`` a question of it."""

    def __init__(
        self,
        data_dir: str,
        lag_probe: bool = True,
        log_path: str | None = None,
        changed: Mapping[str, str] | None = None,
    ) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        super().__init__(
            serve, (self.port, data_dir, lag_probe, log_path, changed), "the server's process"
        )

    async def listening(self) -> None:
        """Waits until the server takes connections."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                if not self.process.is_alive():
                    raise RuntimeError("the server's process ended")
                try:
                    _, writer = await asyncio.open_connection("127.0.0.1", self.port)
                except OSError:
                    await asyncio.sleep(0.05)
                    continue
                writer.close()
                await writer.wait_closed()
                return

    async def ask(self, *request: object) -> Any:
        self.pipe.send(request)
        async with asyncio.timeout(TIMEOUT):
            reply = await self.received.get()
        if isinstance(reply, EOFError):
            raise reply
        return reply

    async def stop(self) -> None:
        """Stops the server as an operator does (SIGTERM), and waits for it."""
        asyncio.get_running_loop().remove_reader(self.pipe.fileno())
        self.process.terminate()
        await asyncio.get_running_loop().run_in_executor(None, self.process.join, TIMEOUT)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.pipe.close()


# -- the clients ---------------------------------------------------------------------------


class Guest(asyncssh.SSHClient):
    """A client with no key: the server lets it in as a guest."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):  # type: ignore[no-untyped-def]
        return ["" for _ in prompts]


async def guest_terminal(
    port: int, size: tuple[int, int], encoding: str | None, address: str = "127.0.0.1"
) -> tuple[asyncssh.SSHClientConnection, Any]:
    """A guest's connection from ``address`` (any of 127.0.0.0/8 on Linux) to the server
    on ``port``, and its shell on an ``xterm-256color`` terminal of ``size`` (columns,
    rows), as ``ssh`` asks for one; the shell's output is text in ``encoding``, or bytes
    if it is None."""
    connection = await asyncssh.connect(
        "127.0.0.1",
        port,
        local_addr=(address, 0),
        username="player",
        known_hosts=None,
        client_keys=None,
        client_factory=Guest,
    )
    process = await connection.create_process(
        term_type="xterm-256color", term_size=size, encoding=encoding
    )
    return connection, process


class Session:
    """One player's session, its output read (and mostly dropped) as it comes."""

    def __init__(self, connection: asyncssh.SSHClientConnection, process: Any) -> None:
        self.connection = connection
        self.process = process
        self.lobby = asyncio.Event()  # the lobby's first line has been drawn
        self.last_output = asyncio.get_running_loop().time()
        self._tail = ""
        self._reading = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, address: str = "127.0.0.1") -> Session:
        """Connects from ``address`` and waits for the lobby, drawn and quiet."""
        session = cls(*await guest_terminal(port, SIZE, "utf-8", address))
        async with asyncio.timeout(TIMEOUT):
            await session.lobby.wait()
        await session.quiet()
        return session

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while chunk := await self.process.stdout.read(65536):
            self.last_output = loop.time()
            if not self.lobby.is_set():
                text = self._tail + chunk  # the line may come in two chunks
                if LOBBY in text:
                    self.lobby.set()
                self._tail = text[-len(LOBBY) :]

    async def quiet(self) -> None:
        """Waits until :data:`QUIET` seconds pass without output."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(TIMEOUT):
            while (since := loop.time() - self.last_output) < QUIET:
                await asyncio.sleep(QUIET - since)

    def press(self, keys: str) -> None:
        self.process.stdin.write(keys)

    async def close(self) -> None:
        self.connection.close()
        with contextlib.suppress(Exception):
            await self.connection.wait_closed()
        self._reading.cancel()


# -- one run -------------------------------------------------------------------------------


@dataclass
class Run:
    start_cpu_ms: list[float]  # server CPU per session start
    rss_base: int  # bytes, after the warm-up
    rss_held: int  # bytes, with SESSIONS sessions idle
    idle_cpu: float  # share of a core the server used while they were idle
    lag_starting: list[float]  # seconds late, while sessions started one by one
    lag_idle: list[float]  # ... while all were idle
    lag_typing: list[float]  # ... while one was typed in
    lag_settled: list[float]  # ... while all were idle again, the news of them settled
    full_collections: list[float]  # seconds each, from the first start to the end


async def one_run() -> Run:
    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(data_dir)
        sessions: list[Session] = []
        try:
            await server.listening()
            port = server.port
            for _ in range(WARM_UP):
                session = await Session.open(port)
                session.press("q")
                async with asyncio.timeout(TIMEOUT):
                    await session.process.wait_closed()
                await session.close()
            rss_base = await server.ask("rss")
            await server.ask("gc")
            await server.ask("lag", True)
            start_cpu_ms = []
            for _ in range(SESSIONS):
                before = await server.ask("cpu")
                sessions.append(await Session.open(port))
                start_cpu_ms.append((await server.ask("cpu") - before) * 1000)
            lag_starting = await server.ask("lag", False)
            full_collections = await server.ask("gc")
            rss_held = await server.ask("rss")

            loop = asyncio.get_running_loop()
            cpu, began = await server.ask("cpu"), loop.time()
            await server.ask("lag", True)
            await asyncio.sleep(LAG_SECONDS)
            lag_idle = await server.ask("lag", True)
            idle_cpu = (await server.ask("cpu") - cpu) / (loop.time() - began)

            typist = sessions[0]
            for number in range(round(LAG_SECONDS * KEYS_PER_SECOND)):
                typist.press(KEYS[number % len(KEYS)])
                await asyncio.sleep(1 / KEYS_PER_SECOND)
            await typist.quiet()
            lag_typing = await server.ask("lag", False)
            await asyncio.sleep(SETTLE)
            await server.ask("lag", True)
            await asyncio.sleep(LAG_SECONDS)
            lag_settled = await server.ask("lag", False)
            full_collections += await server.ask("gc")
        finally:
            await asyncio.gather(*(session.close() for session in sessions))
            await server.stop()
    return Run(
        start_cpu_ms,
        rss_base,
        rss_held,
        idle_cpu,
        lag_starting,
        lag_idle,
        lag_typing,
        lag_settled,
        full_collections,
    )


# -- figures -------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The value that ``share`` of ``values`` are at or below (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    """``runs`` runs of :func:`one_run`, each with a server process of its own."""
    del seconds
    done = [asyncio.run(one_run()) for _ in range(runs)]
    n = SESSIONS
    slowest = max(max(run.start_cpu_ms) for run in done)
    yield Figure(
        f"server: CPU ms to start a session, connection to lobby drawn "
        f"(mean of {n} starts; slowest {slowest:,.0f})",
        [statistics.mean(run.start_cpu_ms) for run in done],
        "ms",
        "≤ 80",
    )
    yield Figure(
        f"server: CPU ms to start a session, median of {n} starts",
        [statistics.median(run.start_cpu_ms) for run in done],
        "ms",
    )
    tenth = max(1, n // 10)
    yield Figure(
        f"server: CPU ms to start a session, median of the first {tenth} (0 to {tenth - 1} "
        "others connected)",
        [statistics.median(run.start_cpu_ms[:tenth]) for run in done],
        "ms",
    )
    yield Figure(
        f"server: CPU ms to start a session, median of the last {tenth} ({n - tenth} to "
        f"{n - 1} others connected)",
        [statistics.median(run.start_cpu_ms[-tenth:]) for run in done],
        "ms",
    )
    yield Figure(
        f"server: MiB of RSS per idle session ({n} in the lobby)",
        [(run.rss_held - run.rss_base) / n / MIB for run in done],
        "MiB",
        "≤ 2",
        digits=2,
    )
    yield Figure(
        "server: MiB of RSS after the warm-up, before the sessions",
        [run.rss_base / MIB for run in done],
        "MiB",
    )
    yield Figure(
        f"server: % of one core used while {n} sessions are idle",
        [run.idle_cpu * 100 for run in done],
        "%",
        digits=2,
    )
    window = f"over {LAG_SECONDS:g} s"
    for what, lags, target in (
        (f"{n} idle sessions, max {window}", "lag_idle", "< 10"),
        (f"{n} idle sessions, 99th percentile {window}", "lag_idle", ""),
        (f"{n} sessions, one typing ↓ ↑ {KEYS_PER_SECOND}/s, max {window}", "lag_typing", ""),
        (f"{n} sessions, one typing, 99th percentile {window}", "lag_typing", ""),
        (f"{n} idle sessions, news settled, max {window}", "lag_settled", ""),
        (f"while {n} sessions start one by one, max", "lag_starting", ""),
        ("while they start, 99th percentile", "lag_starting", ""),
    ):
        share = 0.99 if "percentile" in what else 1.0
        yield Figure(
            f"server: event loop lag, {what}",
            [percentile(getattr(run, lags), share) * 1000 for run in done],
            "ms",
            target,
            digits=2 if lags in ("lag_idle", "lag_settled") else 0,
        )
    counts = [len(run.full_collections) for run in done]
    yield Figure(
        f"server: longest full garbage collection, 0 to {n} sessions "
        f"({min(counts)} – {max(counts)} of them a run)",
        [max(run.full_collections, default=0.0) * 1000 for run in done],
        "ms",
        digits=0,
    )
