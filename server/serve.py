"""``sixtui serve``: the settings read, then the SSH server until SIGTERM, SIGINT or
SIGHUP."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import Mapping
from contextvars import Context
from pathlib import Path
from typing import cast

import asyncssh

from sixtui.ai.worker import Thinker
from sixtui.server.archive import ArchiveFileError
from sixtui.server.cli import DEFAULT_CONFIG
from sixtui.server.collector import Collector
from sixtui.server.durable import open_durable
from sixtui.server.hub import Hub
from sixtui.server.hub_files import JournalError, Restored, Sync, open_hub
from sixtui.server.listener import start_server
from sixtui.server.log_text import log_to_stderr
from sixtui.server.names import NamesFileError
from sixtui.server.redis_hub import RedisHub, shown_url
from sixtui.server.resume import resume
from sixtui.server.session import stop_sessions
from sixtui.server.settings import ENV_PREFIX, SettingError, Settings, load_settings
from sixtui.server.shared import Shared
from sixtui.server.workers import check_workers, supervise

log = logging.getLogger("sixtui.server")


def run(arguments: argparse.Namespace) -> int:
    """Serves with the settings ``arguments`` (of ``sixtui serve``) make: this process, or
    the ``workers`` it starts (:mod:`sixtui.server.workers`)."""
    log_to_stderr(arguments.worker)
    overrides: dict[str, object] = {
        name: value
        for name, value in (
            ("host", arguments.host),
            ("port", arguments.port),
            ("data_dir", arguments.data_dir),
            ("workers", arguments.workers),
        )
        if value is not None
    }
    for item in arguments.set:
        name, equals, value = item.partition("=")
        if not equals:
            print(f"sixtui server: --set {item}: write NAME=VALUE", file=sys.stderr)
            return 2
        overrides[name.strip()] = value
    config = settings_file(arguments.config, os.environ)
    try:
        settings = load_settings(config, os.environ, overrides)
        check_workers(settings)
        if arguments.worker is None:
            log.info("settings: %s", describe_settings_file(config))
            log.info(
                "data: %s (player names, game archive); host key: %s",
                settings.data_dir.absolute(),
                settings.host_key_path.absolute(),
            )
            if settings.workers > 1:
                return asyncio.run(supervise(settings, config, overrides))
        return asyncio.run(serve(settings))
    except SettingError as why:
        print(f"sixtui server: {why}", file=sys.stderr)
        return 2


def settings_file(named: Path | None, environ: Mapping[str, str]) -> Path | None:
    """The settings file: ``named`` (--config), else the one ``SIXTUI_CONFIG`` names; both
    must exist. Without either, config/server.toml in the working folder if it exists."""
    if named is None and environ.get(f"{ENV_PREFIX}CONFIG"):
        named = Path(environ[f"{ENV_PREFIX}CONFIG"])
    if named is not None:
        return named
    return DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None


def describe_settings_file(config: Path | None) -> str:
    """Where the settings come from, for the log: a file started elsewhere is not found."""
    if config is not None:
        return f"from {config.absolute()}"
    return (
        f"built-in defaults (no --config, no {ENV_PREFIX}CONFIG, "
        f"no {DEFAULT_CONFIG} in {Path.cwd()})"
    )


async def serve(settings: Settings) -> int:
    """Serves until SIGTERM, SIGINT or SIGHUP, then closes every session and returns 0."""
    try:
        names, archive = open_durable(settings.data_dir)
        hub, restored = await _open_hub(settings)
    except (NamesFileError, ArchiveFileError, JournalError) as why:
        raise SettingError(f"data_dir: {why}") from None
    with contextlib.closing(names), contextlib.closing(archive):
        async with Thinker(workers=settings.thinking_processes) as thinker:
            shared = Shared(settings, thinker, names, hub=hub, archive=archive)
            try:
                await _take_up(shared, restored)
                shared.departures.start()
                acceptor = await start_server(shared)
                collector = Collector(shared.counts)
                collector.start()
                # In a context of its own, as every task that outlives the session it
                # might be started from.
                collecting = asyncio.create_task(collector.run(), context=Context())
                try:
                    await _until_stopped(acceptor, shared)
                finally:
                    collecting.cancel()
            finally:
                await shared.close()
    return 0


async def _open_hub(settings: Settings) -> tuple[Hub, Restored]:
    """The hub the ``hub`` setting names, and what it held when the server stopped."""
    if settings.hub == "memory":
        return open_hub(settings.data_dir, cast(Sync, settings.journal))
    try:
        hub = await RedisHub.connect(settings.hub)
    except ConnectionError as why:
        raise SettingError(f"hub: {why}") from None
    log.info("hub: Redis at %s", shown_url(settings.hub))
    return hub, Restored(stopped_at=hub.taken_over_at)


async def _take_up(shared: Shared, restored: Restored) -> None:
    """Takes up what the hub held when the server stopped: its games in progress wait for
    their players, the games that ended are archived."""
    if restored.stopped_at is None:
        return
    tables = await resume(shared.hub, restored.stopped_at, time.time(), shared.computers)
    shared.sweeper.start()
    shared.archivist.start()
    read = (
        "kept in Redis"
        if shared.settings.hub != "memory"
        else f"{restored.replayed} changes since its last snapshot"
    )
    log.info(
        "the hub is back as it was %.0f s ago (%s); games in progress, waiting for their "
        "players: %d",
        time.time() - restored.stopped_at,
        read,
        len(tables),
    )


async def _until_stopped(acceptor: asyncssh.SSHAcceptor, shared: Shared) -> None:
    settings = shared.settings
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # SIGHUP (the terminal it was started from closed) stops it as gently: left to kill
    # the process, it left players in the alternate screen with mouse reports on.
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(signum, stop.set)
    port = acceptor.sockets[0].getsockname()[1] if acceptor.sockets else settings.port
    log.info(
        "listening on %s port %s: %s", settings.host, port, how_to_connect(settings.host, port)
    )
    await stop.wait()
    log.info("stopping")
    acceptor.close()
    kept = await shared.keep_hub()
    with contextlib.suppress(TimeoutError):
        await stop_sessions(games_kept=kept)
    with contextlib.suppress(Exception):
        await acceptor.wait_closed()


def how_to_connect(host: str, port: int) -> str:
    """What players type, for the log.

    >>> how_to_connect("0.0.0.0", 2222)
    "connect with ssh -p 2222 HOST (this machine's name or address; localhost on it)"
    >>> how_to_connect("127.0.0.1", 22)
    'connect with ssh localhost (from this machine only)'
    """
    command = "ssh" if port == 22 else f"ssh -p {port}"
    if host in ("127.0.0.1", "::1", "localhost"):
        return f"connect with {command} localhost (from this machine only)"
    return f"connect with {command} HOST (this machine's name or address; localhost on it)"
