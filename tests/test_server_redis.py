"""A real ``sixtui serve`` with its hub on Redis, and a Redis that goes away for a moment:
the players are told, what they do meanwhile waits, and the game goes on; a server
stopped meanwhile stops at once, and the next start finds the game as Redis kept it."""

import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

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
