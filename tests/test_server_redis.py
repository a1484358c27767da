"""A real ``sixtui serve`` with its hub on Redis, and a Redis that goes away for a moment:
the players are told, what they do meanwhile waits, and the game goes on; a server
stopped meanwhile stops at once, and the next start finds the game as Redis kept it."""

import asyncio
import logging
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sixtui.ai.worker import Thinker
from sixtui.server import redis_hub
from sixtui.server.listener import start_server
from sixtui.server.names import open_name_book
from sixtui.server.redis_hub import RedisHub
from sixtui.server.session import HUB_LOST
from sixtui.server.settings import Settings
from sixtui.server.shared import Shared
from support.real_server import KEYS, Server, ann_challenges_bob, in_lobby, session
from support.redis_server import RedisServer, own_redis
from support.ssh_client import Screen, connect


@asynccontextmanager
async def at_a_table(
    data: Path, redis: RedisServer
) -> AsyncIterator[tuple[Server, Screen, Screen]]:
    """A server on ``redis``, and Ann and Bob at a table of Connect6 there: the server,
    and the screens of Black and White; the log is checked for tracebacks at the end."""
    async with (
        Server(data, {"hub": redis.url}) as server,
        connect(server.port, username="ann", client_keys=[KEYS["ann"]]) as first,
        connect(server.port, username="bob", client_keys=[KEYS["bob"]]) as second,
    ):
        ann, bob = await in_lobby(first), await in_lobby(second)
        black, white = await ann_challenges_bob(ann, bob)
        yield server, black, white
    assert "Traceback" not in server.said, server.said


async def test_players_are_told_while_redis_is_out_of_reach_and_play_on_once_it_is_back(
    tmp_path,
):
    with own_redis(keep=True) as redis:
        async with at_a_table(tmp_path, redis) as (_, black, white):
            redis.stop()
            for screen in (black, white):
                await screen.shows("Reconnecting")
            black.process.stdin.write("/E5\r")  # waits for Redis
            redis.start()
            for screen in (black, white):
                await screen.shows("connected again")
                await screen.no_longer_shows("Reconnecting")  # gone with the outage
            await white.shows("1. E5")  # the turn typed meanwhile, kept
            white.process.stdin.write("/A1 A2\r")
            await black.shows("2. A1 A2")


async def test_a_server_stopped_while_redis_is_out_of_reach_stops_without_waiting_for_it(
    tmp_path,
):
    with own_redis(keep=True) as redis:
        async with at_a_table(tmp_path, redis) as (server, black, white):
            black.process.stdin.write("/E5\r")
            for screen in (black, white):
                await screen.shows("1. E5")
            redis.stop()
            for screen in (black, white):
                await screen.shows("Reconnecting")
            server.stop(signal.SIGTERM)
            assert await server.stopped() == 0  # within the tests' 20 s: no call waits 30
            for screen in (black, white):
                await screen.process.wait_closed()
        redis.start()
        async with (  # the game as Redis kept it, taken up by the next start
            Server(tmp_path, {"hub": redis.url}) as again,
            connect(again.port, username="ann", client_keys=[KEYS["ann"]]) as first,
        ):
            await (await session(first)).shows("1. E5")


async def test_a_session_whose_call_waited_too_long_for_redis_ends_in_one_plain_line(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.setattr(redis_hub, "OUTAGE_SECONDS", 1.0)
    caplog.set_level(logging.INFO)
    with own_redis() as redis:
        hub = await RedisHub.connect(redis.url, prefix="too-long:")
        settings = Settings(host="127.0.0.1", port=0, data_dir=tmp_path)
        async with Thinker() as thinker:
            shared = Shared(settings, thinker, open_name_book(tmp_path), hub=hub)
            acceptor = await start_server(shared)
            port = acceptor.sockets[0].getsockname()[1]
            async with (
                connect(port, username="ann", client_keys=[KEYS["ann"]]) as first,
                connect(port, username="bob", client_keys=[KEYS["bob"]]) as second,
            ):
                ann, bob = await in_lobby(first), await in_lobby(second)
                black, _ = await ann_challenges_bob(ann, bob)
                redis.stop()
                await black.shows("Reconnecting")
                black.process.stdin.write("/E5\r")  # waits 1 s, then fails
                async with asyncio.timeout(10):
                    rest = await black.process.stdout.read()
            acceptor.close()
            await shared.hub.close()
            shared.names.close()
    assert rest.endswith(HUB_LOST) and "Traceback" not in rest  # plain words, no trace
    ended = [r for r in caplog.records if r.getMessage().startswith("session ended:")]
    assert ended and ended[0].levelno == logging.WARNING and ended[0].exc_info is None
