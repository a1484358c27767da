"""Listening for SSH connections: the host key, the loop's executor threads, and the
asyncssh options that leave the game as the only thing offered."""

from __future__ import annotations

import asyncio
import os
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import asyncssh

from sixtui.server.asyncssh_internals import GatedListener
from sixtui.server.host_key import load_or_create_host_key
from sixtui.server.login import Login
from sixtui.server.session import INPUT_WINDOW
from sixtui.server.settings import SettingError
from sixtui.server.shared import Shared


async def start_server(shared: Shared) -> asyncssh.SSHAcceptor:
    """Listens as ``shared.settings`` say; every terminal session opens the lobby."""
    settings = shared.settings
    host_key = load_or_create_host_key(settings.host_key_path)
    _start_executor_threads(asyncio.get_running_loop())
    try:
        return await _listen(shared, host_key)
    except OSError as why:
        reason = os.strerror(why.errno).lower() if why.errno else str(why)
        raise SettingError(
            f"port: cannot listen on {settings.host} port {settings.port}: {reason}"
        ) from None


_READY_LOOPS: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def _start_executor_threads(loop: asyncio.AbstractEventLoop) -> None:
    """Gives ``loop`` a default executor whose threads all start now, before any session.

    asyncssh runs part of every login there, and the executor starts a thread whenever
    none is free. A thread keeps the ``sys.stderr`` of the moment it starts (for its
    exception hook): one started while a session's app runs keeps that app's capture, and
    through it the whole app, for as long as the thread lives.
    """
    if loop in _READY_LOOPS:
        return
    workers = min(32, (os.cpu_count() or 1) + 4)  # as many as asyncio's own default
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sixtui-blocking")
    everyone_started = threading.Barrier(workers)
    for started in [executor.submit(everyone_started.wait) for _ in range(workers)]:
        started.result()
    loop.set_default_executor(executor)
    _READY_LOOPS.add(loop)


async def _listen(shared: Shared, host_key: asyncssh.SSHKey) -> asyncssh.SSHAcceptor:
    settings = shared.settings
    return await asyncssh.create_server(
        partial(Login, shared),
        settings.host,
        settings.port,
        tunnel=GatedListener(partial(_admit, shared), reuse_port=settings.workers > 1),
        server_host_keys=[host_key],
        line_editor=False,
        encoding=None,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        login_timeout=settings.login_timeout,
        keepalive_interval=settings.keepalive_interval,
        window=INPUT_WINDOW,
    )


def _admit(shared: Shared, peer: str) -> bool:
    """Whether a new connection from ``peer`` is within the rate of new connections:
    over it, a connection is closed before asyncssh builds anything for it, so that one
    address connecting in a loop cannot take the server's time from everyone else. No
    word reaches the client."""
    if shared.connection_rate.allow(peer, time.monotonic()):
        return True
    shared.refusals.refused(peer)
    return False
