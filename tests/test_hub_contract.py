"""The hub's contract (see sixtui.server.hub), as tests any implementation must pass.

A second implementation joins by adding a factory to ``IMPLEMENTATIONS``: an async
function that returns a fresh, empty hub. Nothing else here names an implementation.
"""

import asyncio
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.server.hub import BACKLOG, Hub, Lagged, MemoryHub, Versioned
from sixtui.server.hub_files import JournaledHub
from sixtui.server.redis_hub import RedisHub
from support.redis_server import shared_redis


async def memory_hub() -> Hub:
    return MemoryHub()


# Every journaled hub's folder, removed when the tests end.
JOURNALS = tempfile.TemporaryDirectory(prefix="sixtui-hubs-")


async def journaled_hub() -> Hub:
    """The memory hub kept on disk, in a folder of its own, read back from it: every
    answer is the memory hub's, journaled as it is given."""
    hub = JournaledHub(Path(tempfile.mkdtemp(dir=JOURNALS.name)), compact_at=4096)
    hub.restore()
    return hub


async def redis_hub() -> Hub:
    """A hub on a real redis-server, under a prefix of its own: it sees nothing of the
    hubs made before it."""
    return await RedisHub.connect(shared_redis().url, prefix=f"test-{uuid.uuid4().hex}:")


IMPLEMENTATIONS: dict[str, Callable[[], Awaitable[Hub]]] = {
    "memory": memory_hub,
    "journaled": journaled_hub,
    "redis": redis_hub,
}


@pytest.fixture(params=list(IMPLEMENTATIONS))
def new_hub(request) -> Callable[[], Awaitable[Hub]]:
    return IMPLEMENTATIONS[request.param]


@pytest.fixture
async def hub(new_hub):
    made = await new_hub()
    yield made
    await made.close()


EXAMPLES = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

# -- versioned values ------------------------------------------------------------------------


async def test_a_key_never_set_reads_as_none(hub):
    assert await hub.get("nothing") is None


async def test_values_are_set_only_at_the_version_seen(hub):
    assert await hub.compare_and_set("k", 0, b"one") == 1
    assert await hub.compare_and_set("k", 0, b"again") is None
    assert await hub.compare_and_set("k", 2, b"ahead") is None
    assert await hub.compare_and_set("k", 1, b"two") == 2
    assert await hub.get("k") == Versioned(2, b"two")


async def test_values_come_back_byte_for_byte(hub):
    every_byte = bytes(range(256)) * 3
    await hub.compare_and_set("bytes", 0, every_byte)
    assert (await hub.get("bytes")).value == every_byte
    await hub.compare_and_set("empty", 0, b"")
    assert await hub.get("empty") == Versioned(1, b"")


async def test_a_key_is_deleted_only_at_its_version_and_starts_over(hub):
    await hub.compare_and_set("k", 0, b"a")
    await hub.compare_and_set("k", 1, b"b")
    assert not await hub.delete("k", 1)
    assert not await hub.delete("missing", 0)
    assert await hub.get("k") == Versioned(2, b"b")
    assert await hub.delete("k", 2)
    assert await hub.get("k") is None
    assert await hub.compare_and_set("k", 0, b"new") == 1


async def test_of_writers_racing_from_one_version_exactly_one_wins(hub):
    await hub.compare_and_set("table", 0, b"start")
    results = await asyncio.gather(
        *(hub.compare_and_set("table", 1, f"writer {n}".encode()) for n in range(20))
    )
    winners = [n for n, version in enumerate(results) if version is not None]
    assert len(winners) == 1 and results[winners[0]] == 2
    assert await hub.get("table") == Versioned(2, f"writer {winners[0]}".encode())


operations = st.lists(
    st.tuples(
        st.sampled_from(["set", "delete"]),
        st.sampled_from(["a", "b"]),
        st.integers(0, 4),
        st.binary(max_size=8),
    ),
    max_size=30,
)


@EXAMPLES
@given(steps=operations)
async def test_values_behave_as_a_dictionary_of_versions(new_hub, steps):
    hub, model = await new_hub(), {}
    try:
        for kind, key, version, value in steps:
            current = model.get(key, (0, None))[0]
            if kind == "set":
                expected = version + 1 if version == current else None
                assert await hub.compare_and_set(key, version, value) == expected
                if expected:
                    model[key] = (expected, value)
            else:
                deleted = key in model and version == current
                assert await hub.delete(key, version) == deleted
                if deleted:
                    del model[key]
            for name in ("a", "b"):
                stored = model.get(name)
                assert await hub.get(name) == (Versioned(*stored) if stored else None)
    finally:
        await hub.close()


# -- news ------------------------------------------------------------------------------------


async def next_message(subscription) -> bytes:
    return await asyncio.wait_for(anext(subscription), 5)


async def test_subscribers_get_what_is_published_after_they_subscribe_in_order(hub):
    assert await hub.publish("t", b"before anyone") == 0
    first, second, elsewhere = hub.subscribe("t"), hub.subscribe("t"), hub.subscribe("u")
    assert await hub.publish("t", b"1") == 2
    assert await hub.publish("t", b"2\x00") == 2
    for subscription in (first, second):
        assert [await next_message(subscription) for _ in range(2)] == [b"1", b"2\x00"]
    await hub.publish("u", b"other topic")
    assert await next_message(elsewhere) == b"other topic"
    for subscription in (first, second, elsewhere):
        await subscription.close()


async def test_a_closed_subscription_ends_and_hears_nothing_more(hub):
    subscription = hub.subscribe("t")
    waiting = asyncio.ensure_future(anext(subscription))
    await asyncio.sleep(0.05)
    await subscription.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(waiting, 5)
    assert await hub.publish("t", b"late") == 0
    with pytest.raises(StopAsyncIteration):
        await anext(subscription)


async def test_a_reader_that_falls_too_far_behind_is_told_and_reads_on_from_the_newest(hub):
    subscription = hub.subscribe("busy")
    for n in range(BACKLOG + 5):
        await hub.publish("busy", str(n).encode())
    with pytest.raises(Lagged):
        await next_message(subscription)
    await hub.publish("busy", b"after")
    received = [await next_message(subscription)]
    while received[-1] != b"after":
        received.append(await next_message(subscription))
    assert len(received) <= BACKLOG + 1
    assert [int(m) for m in received[:-1]] == sorted(int(m) for m in received[:-1])
    await subscription.close()


async def test_a_message_waits_for_a_reader_that_is_not_reading_yet(hub):
    subscription = hub.subscribe("t")
    await hub.publish("t", b"kept")
    await asyncio.sleep(0.05)
    assert await next_message(subscription) == b"kept"
    await subscription.close()


# -- maps ------------------------------------------------------------------------------------


async def test_maps_hold_fields_until_deleted(hub):
    assert await hub.map_all("online") == {}
    await hub.map_set("online", "ann", b"lobby")
    await hub.map_set("online", "bob", b"playing")
    await hub.map_set("online", "ann", b"watching")
    assert await hub.map_all("online") == {"ann": b"watching", "bob": b"playing"}
    assert await hub.map_delete("online", "ann")
    assert not await hub.map_delete("online", "ann")
    assert await hub.map_all("online") == {"bob": b"playing"}
    assert await hub.map_delete("online", "bob")
    assert await hub.map_all("online") == {}
    assert await hub.map_all("other") == {}


# -- queues ----------------------------------------------------------------------------------


async def members(hub, queue) -> list[str]:
    return [entry.member for entry in await hub.queue_list(queue)]


async def test_a_queue_lists_its_members_longest_waiter_first(hub):
    for name in ("ann", "bob", "cy"):
        assert await hub.queue_join("q", name, name.upper().encode())
        await asyncio.sleep(0.01)
    assert not await hub.queue_join("q", "bob", b"again")
    entries = await hub.queue_list("q")
    assert [(e.member, e.value) for e in entries] == [
        ("ann", b"ANN"),
        ("bob", b"BOB"),
        ("cy", b"CY"),
    ]
    assert entries[0].waited >= entries[1].waited >= entries[2].waited >= 0
    assert await hub.queue_leave("q", "bob")
    assert not await hub.queue_leave("q", "bob")
    assert await members(hub, "q") == ["ann", "cy"]
    assert await hub.queue_list("empty") == []


async def test_a_member_put_back_keeps_the_place_it_had(hub):
    await hub.queue_join("q", "ann", b"")
    await asyncio.sleep(0.05)
    await hub.queue_join("q", "bob", b"")
    taken = await hub.queue_take("q", 1)
    await hub.queue_join("q", "cy", b"")
    assert await hub.queue_join("q", taken[0].member, b"", taken[0].waited)
    entries = await hub.queue_list("q")
    assert [entry.member for entry in entries] == ["ann", "bob", "cy"]
    assert entries[0].waited >= 0.05


async def test_taking_from_a_queue_takes_the_longest_waiters_or_nothing(hub):
    for name in ("ann", "bob", "cy"):
        await hub.queue_join("q", name, b"")
    assert await hub.queue_take("q", 4) == []
    assert await members(hub, "q") == ["ann", "bob", "cy"]
    taken = await hub.queue_take("q", 2)
    assert [entry.member for entry in taken] == ["ann", "bob"]
    assert await members(hub, "q") == ["cy"]
    assert await hub.queue_take("q", 0) == []


async def test_named_members_are_taken_all_together_or_not_at_all(hub):
    for name in ("ann", "bob", "cy", "di"):
        await hub.queue_join("q", name, name.encode())
    assert await hub.queue_take_members("q", ["ann", "zed"]) == []
    assert await hub.queue_take_members("q", ["ann", "ann"]) == []
    assert await hub.queue_take_members("q", []) == []
    assert await members(hub, "q") == ["ann", "bob", "cy", "di"]
    taken = await hub.queue_take_members("q", ["di", "bob"])
    assert sorted((e.member, e.value) for e in taken) == [("bob", b"bob"), ("di", b"di")]
    assert await members(hub, "q") == ["ann", "cy"]


async def test_two_pairings_never_take_the_same_member(hub):
    for name in ("ann", "bob", "cy"):
        await hub.queue_join("q", name, b"")
    takes = await asyncio.gather(
        hub.queue_take("q", 2),
        hub.queue_take("q", 2),
        hub.queue_take_members("q", ["ann", "cy"]),
        hub.queue_take_members("q", ["bob", "cy"]),
    )
    taken = [entry.member for take in takes for entry in take]
    assert len(taken) == len(set(taken))
    assert sorted(taken + await members(hub, "q")) == ["ann", "bob", "cy"]


async def test_closing_the_hub_ends_its_subscriptions(new_hub):
    hub = await new_hub()
    subscription = hub.subscribe("t")
    await hub.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(anext(subscription), 5)


# -- counters --------------------------------------------------------------------------------


async def test_counters_never_give_the_same_number_twice(hub):
    numbers = await asyncio.gather(*(hub.next_number("tables") for _ in range(50)))
    assert sorted(numbers) == list(range(1, 51))
    assert await hub.next_number("other") == 1


async def test_a_hub_counts_its_own_process_among_those_alive(hub):
    assert hub.process and hub.process in await hub.processes()
