"""A server process dies while its players wait in the lobby or sit at a table; another
process on the same Redis lets go of what they held: they leave "who is here", their
pool and their challenges, and their seats enter the reconnection window."""

import asyncio
import uuid

import pytest

from sixtui.server import redis_hub
from sixtui.server.departures import Departures
from sixtui.server.hub import MemoryHub
from sixtui.server.lobby_copy import PEOPLE
from sixtui.server.pairing import pool_queue
from sixtui.server.redis_hub import RedisHub
from sixtui.server.table_life import follow, followers_key
from support.lobby_helpers import TablesOpened, players, settle
from support.redis_server import shared_redis
from support.tables import ANN, BOB, connect6, state_of


@pytest.fixture
async def two_processes(monkeypatch):
    monkeypatch.setattr(redis_hub, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(redis_hub, "PROCESS_TTL_MS", 2_000)
    prefix = f"test-{uuid.uuid4().hex}:"
    alive = await RedisHub.connect(shared_redis().url, prefix=prefix)
    dying = await RedisHub.connect(shared_redis().url, prefix=prefix)
    yield alive, dying
    await alive.close()
    await kill(dying)


async def kill(hub: RedisHub) -> None:
    """The process of ``hub`` dies without a word: no heartbeat more, its key gone."""
    for task in hub._tasks:
        task.cancel()
    await asyncio.sleep(0)
    await hub._client.delete(f"{hub._prefix}process:{hub._id}")
    await hub._pubsub.aclose()
    await hub._client.aclose()


async def test_the_lobby_sessions_of_a_process_that_died_leave_the_lobby_and_their_pool(
    two_processes,
):
    alive, dying = two_processes
    tables = TablesOpened()
    (ann,) = await players(alive, tables, "ann")
    bob, cat = await players(dying, tables, "bob", "cat")
    await bob.command("pair connect6 --size 9")
    await cat.command("challenge ann connect6")
    await asyncio.sleep(0.2)
    await settle()
    assert {person.name for person in ann.view.people} == {"ann", "bob", "cat"}
    assert ann.view.challenges and len(await alive.queue_list(pool_queue("connect6:9"))) == 1

    departures = Departures(alive, tables)
    assert await departures.look() == await departures.look() == 0  # everyone alive
    await kill(dying)
    assert await departures.look() == 0  # missing once: perhaps only late
    assert await departures.look() == 2
    await asyncio.sleep(0.2)
    await settle()
    assert [person.name for person in ann.view.people] == ["ann"]
    assert ann.view.challenges == ()
    assert await alive.queue_list(pool_queue("connect6:9")) == []
    assert list(await alive.map_all(PEOPLE)) == [ann.lobby._me.sid]
    assert await departures.look() == 0  # nothing more
    await ann.lobby.close()


async def test_a_process_whose_heartbeat_came_late_is_not_let_go_of(two_processes):
    alive, dying = two_processes
    tables = TablesOpened()
    (bob,) = await players(dying, tables, "bob")
    departures = Departures(alive, tables)
    await departures.look()
    await alive._client.delete(f"{dying._prefix}process:{dying._id}")  # expired, late
    assert await departures.look() == 0
    await asyncio.sleep(0.3)  # its next heartbeats come
    assert await departures.look() == await departures.look() == 0
    assert bob.lobby._me.sid in await alive.map_all(PEOPLE)
    await bob.lobby.close()


async def test_a_seat_followed_from_a_process_that_died_enters_the_reconnection_window(
    two_processes,
):
    alive, dying = two_processes
    table = await connect6(alive)
    await follow(alive, table, ANN.identity)
    await follow(dying, table, BOB.identity)
    departures = Departures(alive, TablesOpened())
    assert await departures.look() == await departures.look() == 0
    assert (await state_of(alive, table)).away == {}
    await kill(dying)
    assert await departures.look() == 0
    assert await departures.look() == 1
    state = await state_of(alive, table)
    assert set(state.away) == {BOB.identity}  # marked away now: the window runs from here
    assert state.status == "playing"
    followers = await alive.map_all(followers_key(table))
    assert list(followers.values()) == [ANN.identity.encode()]


async def test_a_process_that_started_after_the_first_looks_is_let_go_of_when_it_dies(
    monkeypatch,
):
    monkeypatch.setattr(redis_hub, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(redis_hub, "PROCESS_TTL_MS", 2_000)
    prefix = f"test-{uuid.uuid4().hex}:"
    alive = await RedisHub.connect(shared_redis().url, prefix=prefix)
    tables = TablesOpened()
    departures = Departures(alive, tables)
    assert await departures.look() == await departures.look() == 0  # alone
    late = await RedisHub.connect(shared_redis().url, prefix=prefix)
    await players(late, tables, "bob")
    assert await departures.look() == await departures.look() == 0  # both alive
    await kill(late)
    assert [await departures.look() for _ in range(3)] == [0, 1, 0]
    assert await alive.map_all(PEOPLE) == {}
    await alive.close()


async def test_with_one_process_in_memory_nobody_is_ever_let_go_of():
    hub = MemoryHub()
    tables = TablesOpened()
    (ann,) = await players(hub, tables, "ann")
    departures = Departures(hub, tables)
    assert [await departures.look() for _ in range(3)] == [0, 0, 0]
    assert list(await hub.map_all(PEOPLE)) == [ann.lobby._me.sid]
    await ann.lobby.close()
