"""A real ``sixtui serve`` in a process of its own for the tests, its log read as it is
written, and players with keys of their own."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import asyncssh

from support.ssh_client import LOBBY, TIMEOUT, Screen

KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob", "cy", "dee")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


SIXTUI = str(Path(sys.executable).with_name("sixtui"))


class Server:
    """``sixtui serve`` on a free port of 127.0.0.1 with ``data`` as its data folder and
    the ``settings`` given, its log read on as it is written (so that it never blocks)."""

    def __init__(self, data: Path, settings: dict[str, str] | None = None) -> None:
        self.data = data
        self.settings = settings or {}
        self.port = free_port()
        self.log: list[str] = []
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task | None = None

    async def __aenter__(self) -> Server:
        argv = ["serve", "--host", "127.0.0.1", "--port", str(self.port)]
        for name, value in self.settings.items():
            argv += ["--set", f"{name}={value}"]
        self.process = await asyncio.create_subprocess_exec(
            SIXTUI,
            *argv,
            "--data-dir",
            str(self.data),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "SIXTUI_CONFIG": ""},
        )
        ready = asyncio.Event()
        self._reader = asyncio.create_task(self._read(ready))
        async with asyncio.timeout(TIMEOUT):
            await ready.wait()
        return self

    async def _read(self, ready: asyncio.Event) -> None:
        assert self.process is not None and self.process.stderr is not None
        async for line in self.process.stderr:
            self.log.append(line.decode())
            if "connect with ssh" in self.log[-1]:
                ready.set()

    def stop(self, signum: int = signal.SIGTERM) -> None:
        assert self.process is not None
        self.process.send_signal(signum)

    async def stopped(self) -> int:
        """The server's exit status once it has stopped (killed if it takes too long)."""
        assert self.process is not None and self._reader is not None
        try:
            async with asyncio.timeout(TIMEOUT):
                status = await self.process.wait()
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
        await self._reader
        return status

    async def __aexit__(self, *exc_info) -> None:
        if self.process is not None and self.process.returncode is None:
            self.stop()
            await self.stopped()

    @property
    def said(self) -> str:
        return "".join(self.log)


async def session(connection) -> Screen:
    """The screen of a new session on ``connection``, once something is drawn on it."""
    process = await connection.create_process(
        term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
    )
    return Screen(process)


async def in_lobby(connection) -> Screen:
    """The screen of a new session on ``connection``, once the lobby shows on it."""
    screen = await session(connection)
    await screen.shows(LOBBY)
    return screen


async def ann_challenges_bob(ann: Screen, bob: Screen, options: str = "") -> tuple[Screen, Screen]:
    """Ann challenges Bob to Connect6 on 9×9 (with ``options``: a clock, say) from the lobby
    and he accepts; once both see the table, their screens as Black and White."""
    await ann.shows("bob")
    ann.process.stdin.write(f"/challenge bob connect6 --size 9 {options}\r")
    await bob.shows("challenges you")
    bob.process.stdin.write("/accept ann\r")
    for screen in (ann, bob):
        await screen.shows("Game 1 · wins")
    return (ann, bob) if "● ann" in ann.text else (bob, ann)
