"""``sixtui serve`` with ``workers`` above 1: several server processes on one port.

The process started by the operator listens on nothing itself: it starts ``workers``
server processes (``sixtui serve --worker K``, with the same settings file and settings),
which all listen on the port with ``SO_REUSEPORT`` (the kernel hands each new connection
to one of them) and share the lobby and the tables through the hub on Redis. It starts
again a worker that dies (a second later, longer if it keeps dying at once), and on
SIGTERM, SIGINT or SIGHUP passes SIGTERM to every worker and waits for them to stop
gracefully, as a single server does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import time
from pathlib import Path

from sixtui.server.host_key import load_or_create_host_key
from sixtui.server.settings import SettingError, Settings

log = logging.getLogger("sixtui.server")

SETTING_REFUSED = 2  # a worker's exit status for a setting it cannot use: not started again
QUICK_DEATH = 5.0  # seconds: a worker that dies sooner than this is started again later
LONGEST_PAUSE = 30.0  # seconds, at most, before a worker that keeps dying starts again
STOP_SECONDS = 15.0  # how long the workers have to stop before they are killed


def worker_argv(config: Path | None, overrides: dict[str, object], worker: int) -> list[str]:
    """The command that starts worker ``worker`` with the settings of this server.

    >>> worker_argv(None, {"port": 2222}, 1)[-4:]
    ['--set', 'port=2222', '--worker', '1']
    """
    argv = [sys.executable, "-m", "sixtui", "serve"]
    if config is not None:
        argv += ["--config", str(config)]
    for name, value in overrides.items():
        argv += ["--set", f"{name}={value}"]
    return [*argv, "--worker", str(worker)]


def check_workers(settings: Settings) -> None:
    """Refuses several workers without a hub they can share."""
    if settings.workers > 1 and settings.hub == "memory":
        raise SettingError(
            f"workers: {settings.workers} server processes need the hub in Redis "
            "(set hub to a Redis URL): the memory hub lives in one process"
        )


async def supervise(settings: Settings, config: Path | None, overrides: dict[str, object]) -> int:
    """Runs the workers until a signal stops them all; 0 then, or 2 if a worker refused a
    setting (the others are stopped too)."""
    load_or_create_host_key(settings.host_key_path)  # once, before any worker reads it
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    workers = [
        _Worker(k, worker_argv(config, overrides, k)) for k in range(1, settings.workers + 1)
    ]
    for worker in workers:
        await worker.start()
    watching = [asyncio.create_task(worker.keep_running(stop)) for worker in workers]
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait([stopping, *watching], return_when=asyncio.FIRST_COMPLETED)
    refused = any(task.done() for task in watching)
    stop.set()
    log.info("stopping %d workers", len(workers))
    await asyncio.gather(*(worker.stop() for worker in workers))
    for task in watching:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    statuses = ", ".join(f"worker {worker.number} {worker.status()}" for worker in workers)
    log.info("stopped: %s", statuses)
    return SETTING_REFUSED if refused else 0


class _Worker:
    def __init__(self, number: int, argv: list[str]) -> None:
        self.number = number
        self.argv = argv
        self.process: asyncio.subprocess.Process | None = None
        self.started_at = 0.0

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(*self.argv)
        self.started_at = time.monotonic()
        log.info("worker %d started: pid %d", self.number, self.process.pid)

    async def keep_running(self, stop: asyncio.Event) -> None:
        """Starts the worker again each time it dies; returns if it refused a setting."""
        pause = 1.0
        while True:
            assert self.process is not None
            status = await self.process.wait()
            if stop.is_set():
                return
            if status == SETTING_REFUSED:
                log.error("worker %d refused a setting: stopping the server", self.number)
                return
            lived = time.monotonic() - self.started_at
            pause = 1.0 if lived > QUICK_DEATH else min(LONGEST_PAUSE, pause * 2)
            log.warning(
                "worker %d stopped (status %s): starting it again in %.0f s",
                self.number,
                status,
                pause,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)
            if stop.is_set():
                return
            await self.start()

    def status(self) -> str:
        """How the worker ended, for the log: ``status 0``, ``status -9``..."""
        code = None if self.process is None else self.process.returncode
        return "not started" if self.process is None else f"status {code}"

    async def stop(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except TimeoutError:
            log.warning("worker %d did not stop within %.0f s: killed", self.number, STOP_SECONDS)
            process.kill()
            await process.wait()
