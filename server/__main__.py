"""``python -m sixtui.server`` (or ``sixtui serve``): the sixtui SSH server.

python -m sixtui.server [--config PATH] [--host ADDR] [--port N] [--data-dir DIR]
    [--set NAME=VALUE]...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import asyncssh

from sixtui.ai.worker import Thinker
from sixtui.server.cli import DEFAULT_CONFIG, DESCRIPTION, add_options
from sixtui.server.listener import start_server
from sixtui.server.names import NamesFileError, open_name_book
from sixtui.server.session import stop_sessions
from sixtui.server.settings import SettingError, Settings, load_settings

log = logging.getLogger("sixtui.server")


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(prog="python -m sixtui.server", description=DESCRIPTION)
    add_options(parse)
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    return run(parser().parse_args(argv))


def run(arguments: argparse.Namespace) -> int:
    """Serves with the settings ``arguments`` (of :func:`add_options`) make."""
    logging.basicConfig(
        level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s"
    )
    overrides: dict[str, object] = {
        name: value
        for name, value in (
            ("host", arguments.host),
            ("port", arguments.port),
            ("data_dir", arguments.data_dir),
        )
        if value is not None
    }
    for item in arguments.set:
        name, equals, value = item.partition("=")
        if not equals:
            print(f"sixtui server: --set {item}: write NAME=VALUE", file=sys.stderr)
            return 2
        overrides[name.strip()] = value
    # A settings file named on purpose must exist; the default one is used if it does.
    named = arguments.config or os.environ.get("SIXTUI_CONFIG")
    config = Path(named) if named else DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None
    try:
        settings = load_settings(config, os.environ, overrides)
        return asyncio.run(serve(settings))
    except SettingError as why:
        print(f"sixtui server: {why}", file=sys.stderr)
        return 2


YOUNG_OBJECTS = 3_000  # new objects between two collections of the youngest generation


async def serve(settings: Settings) -> int:
    """Serves until SIGTERM or SIGINT, then closes every session and returns 0."""
    try:
        names = open_name_book(settings.data_dir)
    except NamesFileError as why:
        raise SettingError(f"data_dir: {why}") from None
    with contextlib.closing(names):
        async with Thinker() as thinker:
            acceptor = await start_server(settings, thinker, names)
            # What is loaded by now lives as long as the server: kept out of the garbage
            # collector's reach, every full collection (each one a pause for all players)
            # has that much less to walk.
            gc.collect()
            gc.freeze()
            _collect_less_often()
            await _until_stopped(acceptor, settings)
    return 0


def _collect_less_often() -> None:
    """Fewer collections of the youngest objects, and so of all of them.

    Every session allocates in bursts: a screen is built, a board drawn, a game begun.
    Python collects its youngest generation every 700 new objects, every tenth of those
    the next one too, and every tenth of those (once enough has survived) all of them: a
    full collection walks every session held, a pause of 100 ms or more for everyone
    once a hundred are connected. Collecting every 3,000 makes all of them rarer.
    Measured over 100 sessions started one by one: the collector's share of a start fell
    from 11.6 ms to 3.7 ms, the longest middle-generation pause stayed near 10 ms
    (10,000 saved no more, but let that pause reach 40 ms).
    """
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, oldest)


async def _until_stopped(acceptor: asyncssh.SSHAcceptor, settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    port = acceptor.sockets[0].getsockname()[1] if acceptor.sockets else settings.port
    log.info("listening on %s port %s: connect with ssh -p %s localhost", settings.host, port, port)
    await stop.wait()
    log.info("stopping")
    acceptor.close()
    with contextlib.suppress(TimeoutError):
        await stop_sessions()
    with contextlib.suppress(Exception):
        await acceptor.wait_closed()


if __name__ == "__main__":
    sys.exit(main())
