"""The Redis hub beyond the contract (tests/test_hub_contract.py runs that against it too):
two hubs on one Redis under one prefix stand for two server processes, and share their
news, queues and counts, and end a game that is due once between them; a process that
falls silent stops being counted; a Redis that cannot be reached is said plainly."""

import asyncio
import logging
import signal
import time
import uuid

import pytest

from sixtui.server import redis_hub
from sixtui.server.archiving import ENDED_GAMES
from sixtui.server.hub import BACK, LOST, STATUS, HubOutOfReach, Lagged, Versioned
from sixtui.server.redis_hub import RedisHub
from sixtui.server.rooms import GONE, open_table, table_topic
from sixtui.server.table_life import Sweeper
from sixtui.server.table_session import TableSession
from sixtui.server.table_state import TableState
from support.redis_server import own_redis, shared_redis
from support.tables import ANN, BOB, CAT, DAN, Clock, play_turns


@pytest.fixture
def quick_heartbeats(monkeypatch):
    monkeypatch.setattr(redis_hub, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(redis_hub, "PROCESS_TTL_MS", 2_000)


@pytest.fixture
async def processes(quick_heartbeats):
    """Two hubs on the shared redis-server under one prefix of their own: two processes
    (the second sees the first alive as it starts)."""
    prefix = f"test-{uuid.uuid4().hex}:"
    first = await RedisHub.connect(shared_redis().url, prefix=prefix)
    second = await RedisHub.connect(shared_redis().url, prefix=prefix)
    yield first, second
    await first.close()
    await second.close()


async def until(condition, seconds: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, "not within the time"
        await asyncio.sleep(0.02)


async def test_news_published_by_one_process_reaches_the_other_in_the_same_order(processes):
    first, second = processes
    here, there = first.subscribe("table:1"), second.subscribe("table:1")

    async def both_counted():  # each process has heard of the other's subscription
        return all([await hub.publish("table:1", b"count") == 2 for hub in (first, second)])

    await until(both_counted)
    for message in (b"one", b"two", b"three"):
        assert await (first if message != b"two" else second).publish("table:1", message) == 2
    for subscription in (here, there):
        read = []
        while not read or read[-1] != b"three":
            read.append(await asyncio.wait_for(anext(subscription), 2))
        assert [message for message in read if message != b"count"] == [b"one", b"two", b"three"]


async def test_a_subscription_closed_in_one_process_is_counted_off_in_the_other(processes):
    first, second = processes
    subscription = second.subscribe("lobby")

    async def counted(expected):
        return await first.publish("lobby", b"") == expected

    await until(lambda: counted(1))
    await subscription.close()
    await until(lambda: counted(0))


async def test_two_processes_pairing_at_once_never_take_the_same_player(processes):
    first, second = processes
    for n in range(40):
        await (first, second)[n % 2].queue_join("pool", f"p{n}", b"")
    taken = await asyncio.gather(
        *(hub.queue_take("pool", 2) for hub in (first, second) for _ in range(12))
    )
    members = [entry.member for pair in taken for entry in pair]
    assert len(members) == len(set(members)) == 40
    assert all(len(pair) in (0, 2) for pair in taken)
    assert await second.queue_list("pool") == []


async def test_a_wait_is_counted_on_redis_clock_whichever_process_reads_it(processes):
    first, second = processes
    await first.queue_join("pool", "ann", b"a", waited=30.0)
    await asyncio.sleep(0.1)
    (entry,) = await second.queue_list("pool")
    assert (entry.member, entry.value) == ("ann", b"a")
    assert 30.1 <= entry.waited < 32.0


async def test_a_process_that_falls_silent_is_no_longer_counted(processes, monkeypatch):
    first, second = processes
    second.subscribe("table:7")

    async def counted(expected):
        return await first.publish("table:7", b"") == expected

    await until(lambda: counted(1))
    assert await first.processes() == await second.processes() == {first.process, second.process}
    # The second process dies without a word: its heartbeat stops and its key expires.
    for task in second._tasks:
        task.cancel()
    await first._client.delete(f"{second._prefix}process:{second._id}")
    assert await first.publish("table:7", b"") == 0
    assert second._id.encode() not in await first._client.smembers(f"{first._prefix}processes")
    assert await first.processes() == {first.process}


async def test_a_redis_that_cannot_be_reached_is_named_in_one_plain_error():
    with pytest.raises(ConnectionError, match=r"cannot reach Redis at redis://127\.0\.0\.1:1/0"):
        await RedisHub.connect("redis://127.0.0.1:1/0")


async def test_a_prefix_that_redis_would_read_as_a_pattern_is_refused():
    with pytest.raises(ValueError, match="letters, digits"):
        RedisHub(None, prefix="six*")  # type: ignore[arg-type]


def test_a_process_is_counted_for_longer_than_between_two_heartbeats():
    assert redis_hub.PROCESS_TTL_MS / 1000 >= 3 * redis_hub.HEARTBEAT_SECONDS


async def test_a_process_starting_beside_a_live_one_takes_up_nothing(quick_heartbeats):
    prefix = f"test-{uuid.uuid4().hex}:"
    first = await RedisHub.connect(shared_redis().url, prefix=prefix)
    assert first.taken_over_at is None  # nothing was ever heard under this prefix
    second = await RedisHub.connect(shared_redis().url, prefix=prefix)
    assert second.taken_over_at is None  # the first is alive: its games are its own
    await second.close()
    await first.close()


async def test_a_process_started_after_the_last_one_was_killed_takes_up_its_games(
    quick_heartbeats,
):
    prefix = f"test-{uuid.uuid4().hex}:"
    killed = await RedisHub.connect(shared_redis().url, prefix=prefix)
    await asyncio.sleep(0.3)
    for task in killed._tasks:  # killed: no heartbeat more, its key not yet expired
        task.cancel()
    await asyncio.sleep(0.05)
    last_heard = float(await killed._client.get(f"{prefix}heard-at"))
    assert await killed._client.pttl(f"{prefix}process:{killed._id}") > 0
    taker = await RedisHub.connect(shared_redis().url, prefix=prefix)
    # It went within a heartbeat of its last: the latest moment, not to credit clocks.
    assert taker.taken_over_at == last_heard + redis_hub.HEARTBEAT_SECONDS
    await taker.close()
    await killed._pubsub.aclose()
    await killed._client.aclose()


async def test_a_process_started_after_the_last_one_stopped_takes_up_from_its_stop():
    prefix = f"test-{uuid.uuid4().hex}:"
    stopped = await RedisHub.connect(shared_redis().url, prefix=prefix)
    await stopped.close()
    started = time.time()
    taker = await RedisHub.connect(shared_redis().url, prefix=prefix)
    assert taker.taken_over_at is not None and 0 <= started - taker.taken_over_at < 0.5
    assert time.time() - started < redis_hub.HEARTBEAT_SECONDS  # nobody to watch for
    await taker.close()


async def test_calls_wait_for_a_redis_that_went_away_and_the_process_is_told(
    quick_heartbeats, caplog
):
    caplog.set_level(logging.INFO, logger=redis_hub.__name__)
    with own_redis(keep=True) as server:
        hub = await RedisHub.connect(server.url, prefix="outage:")
        status, subscription = hub.subscribe(STATUS), hub.subscribe("table:1")
        await hub.compare_and_set("table:1", 0, b"before")
        server.stop()
        waiting = asyncio.create_task(hub.compare_and_set("table:1", 1, b"during"))
        assert await asyncio.wait_for(anext(status), 5) == LOST
        await asyncio.sleep(0.5)
        assert not waiting.done()  # it waits; it does not fail
        server.start()
        assert await asyncio.wait_for(waiting, 10) == 2
        assert await asyncio.wait_for(anext(status), 5) == BACK
        assert await hub.get("table:1") == Versioned(2, b"during")

        async def heard_again():
            return await hub.publish("table:1", b"again") == 1

        await until(heard_again)
        with pytest.raises(Lagged, match="may have been lost"):  # read the state again
            await asyncio.wait_for(anext(subscription), 2)
        assert await asyncio.wait_for(anext(subscription), 2) == b"again"
        assert await hub.get("table:1") == Versioned(2, b"during")
        await hub.close()
    said = [record.message for record in caplog.records]
    assert sum("news lost" in line for line in said) == 1 and "Redis: news back" in said


async def test_a_call_fails_once_redis_has_been_out_of_reach_too_long(monkeypatch):
    monkeypatch.setattr(redis_hub, "OUTAGE_SECONDS", 0.5)
    with own_redis() as server:
        hub = await RedisHub.connect(server.url, prefix="gone:")
        server.stop()
        with pytest.raises(HubOutOfReach):
            await hub.get("table:1")
        await hub.close()


async def test_a_redis_that_stops_answering_is_told_as_out_of_reach_and_waited_for(monkeypatch):
    monkeypatch.setattr(redis_hub, "ANSWER_SECONDS", 0.5)
    with own_redis() as server:
        hub = await RedisHub.connect(server.url, prefix="hung:")
        status = hub.subscribe(STATUS)
        await hub.compare_and_set("table:1", 0, b"before")
        assert server.process is not None
        server.process.send_signal(signal.SIGSTOP)  # hung: its connections stay open
        try:
            waiting = asyncio.create_task(hub.compare_and_set("table:1", 1, b"during"))
            assert await asyncio.wait_for(anext(status), 5) == LOST
            assert not waiting.done()
        finally:
            server.process.send_signal(signal.SIGCONT)
        await asyncio.wait_for(waiting, 10)  # made once, whichever try it was
        assert await asyncio.wait_for(anext(status), 5) == BACK
        assert await hub.get("table:1") == Versioned(2, b"during")
        await hub.close()


async def test_a_stopping_process_waits_for_redis_no_longer():
    with own_redis() as server:
        hub = await RedisHub.connect(server.url, prefix="stopping:")
        server.stop()
        waiting = asyncio.create_task(hub.get("table:1"))
        await asyncio.sleep(1.0)
        assert not waiting.done()  # waits for Redis to come back
        hub.stop_waiting()
        with pytest.raises(HubOutOfReach):
            await asyncio.wait_for(waiting, 2)  # given up at its next try
        with pytest.raises(HubOutOfReach):
            await asyncio.wait_for(hub.compare_and_set("table:1", 0, b"late"), 2)
        await asyncio.wait_for(hub.close(), 5)


async def test_of_two_processes_starting_at_once_one_alone_takes_up_the_games(quick_heartbeats):
    prefix = f"test-{uuid.uuid4().hex}:"
    stopped = await RedisHub.connect(shared_redis().url, prefix=prefix)
    await stopped.close()
    first, second = await asyncio.gather(
        *(RedisHub.connect(shared_redis().url, prefix=prefix) for _ in range(2))
    )
    assert sorted(hub.taken_over_at is None for hub in (first, second)) == [False, True]
    await first.close()
    await second.close()


PROBE = b"probe"


async def heard_of_one(hub: RedisHub, topic: str) -> bool:
    """Whether ``hub`` counts one subscription to ``topic`` (publishing a probe to it)."""
    return await hub.publish(topic, PROBE) == 1


async def drained(subscription, quiet: float = 0.5) -> list[bytes]:
    """The messages of ``subscription`` until none has come for ``quiet`` seconds."""
    read = []
    while True:
        try:
            read.append(await asyncio.wait_for(anext(subscription), quiet))
        except TimeoutError:
            return read


async def test_a_window_and_a_clock_that_run_out_end_their_games_once_for_two_processes(
    processes,
):
    first, second = processes
    clock = Clock()
    timed = await open_table(first, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0, clock="1+0")
    left = await open_table(
        first, "connect6", {"size": 9}, [[CAT], [DAN]], opener=0, reconnect_window=30
    )
    for table, people in ((timed, (ANN, BOB)), (left, (CAT, DAN))):
        sessions = [
            await TableSession.join(first, table, who.identity, clock=clock) for who in people
        ]
        await play_turns(first, table, ["E5"], clock)  # Bob's clock runs: 60 s
        for session in sessions:
            await session.close()
    endings = {table: second.subscribe(table_topic(table)) for table in (timed, left)}
    for table in endings:  # counted by the first process before its publishing counts
        await until(lambda table=table: heard_of_one(first, table_topic(table)))
    sweepers = [Sweeper(hub, clock) for hub in (first, second)]
    clock.now += 61  # past Bob's time and past the window of 30 s: due for both
    for _ in range(3):
        await asyncio.gather(*(sweeper.sweep() for sweeper in sweepers))
    ended = await first.queue_list(ENDED_GAMES)
    assert sorted(entry.member.split("/")[0] for entry in ended) == sorted([timed, left])
    for table in (timed, left):  # the news: each change once, in order, none undone
        told = [
            TableState.from_bytes(message)
            for message in await drained(endings[table])
            if message not in (PROBE, GONE)
        ]
        versions = [state.version for state in told]
        assert versions == sorted(set(versions)) and told, versions
        assert all(state.status != "playing" for state in told)
