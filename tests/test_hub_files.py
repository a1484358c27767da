"""The memory hub kept on disk: whatever calls were made, a hub read back from the folder
holds exactly what the hub that made them held; damaged files are set aside, named in the
log, and never stop a start."""

import asyncio
import logging
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.server.hub import Versioned
from sixtui.server.hub_files import BATCH_SECONDS, JOURNAL, SNAPSHOT, JournaledHub, open_hub

NAMES = st.sampled_from(["a", "b", "table:1", "lobby:people", "é"])
VALUES = st.binary(max_size=40)
CALLS = st.lists(
    st.one_of(
        st.tuples(st.just("cas"), NAMES, st.integers(0, 3), VALUES),
        st.tuples(st.just("delete"), NAMES, st.integers(0, 3)),
        st.tuples(st.just("map_set"), NAMES, NAMES, VALUES),
        st.tuples(st.just("map_delete"), NAMES, NAMES),
        st.tuples(st.just("queue_join"), NAMES, NAMES, VALUES),
        st.tuples(st.just("queue_leave"), NAMES, NAMES),
        st.tuples(st.just("queue_take"), NAMES, st.integers(0, 3)),
        st.tuples(st.just("number"), NAMES),
    ),
    max_size=60,
)


async def make(hub, calls) -> None:
    for name, *arguments in calls:
        if name == "cas":
            await hub.compare_and_set(*arguments)
        elif name == "delete":
            await hub.delete(*arguments)
        elif name == "map_set":
            await hub.map_set(*arguments)
        elif name == "map_delete":
            await hub.map_delete(*arguments)
        elif name == "queue_join":
            await hub.queue_join(*arguments)
        elif name == "queue_leave":
            await hub.queue_leave(*arguments)
        elif name == "queue_take":
            await hub.queue_take(*arguments)
        else:
            await hub.next_number(*arguments)


async def held(hub) -> dict:
    """Everything a hub answers for the names the calls use."""
    names = ["a", "b", "table:1", "lobby:people", "é"]
    return {
        "values": {name: await hub.get(name) for name in names},
        "maps": {name: await hub.map_all(name) for name in names},
        "queues": {
            name: [(e.member, e.value) for e in await hub.queue_list(name)] for name in names
        },
    }


async def numbers_next(hub) -> list[int]:
    return [await hub.next_number(name) for name in ["a", "b", "table:1", "lobby:people", "é"]]


def read_back(folder: Path) -> JournaledHub:
    hub = JournaledHub(folder)
    hub.restore()
    return hub


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CALLS, st.sampled_from([64, 1 << 20]), st.booleans())
def test_a_hub_read_back_holds_what_the_hub_held(calls, compact_at, closed):
    async def check(folder: Path):
        hub = JournaledHub(folder, compact_at=compact_at)  # 64: a snapshot every few calls
        hub.restore()
        await make(hub, calls)
        if closed:  # stopped: written whole; else killed, the journal alone
            await hub.close()
        again = read_back(folder)
        assert await held(again) == await held(hub)
        assert await numbers_next(again) == await numbers_next(hub)

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(check(Path(folder)))


async def test_a_waiter_read_back_keeps_its_place_and_how_long_it_has_waited(tmp_path):
    hub = JournaledHub(tmp_path)
    await hub.queue_join("pool", "ann", b"1", waited=30.0)
    await hub.queue_join("pool", "bob", b"2")
    again = read_back(tmp_path)
    ann, bob = await again.queue_list("pool")
    assert (ann.member, bob.member) == ("ann", "bob")
    assert 30.0 <= ann.waited < 31.0 and bob.waited < 1.0


async def journal_of(folder: Path, calls_made: int) -> Path:
    """The journal of a hub killed after setting ``k`` ``calls_made`` times."""
    hub = JournaledHub(folder)
    for number in range(calls_made):
        await hub.compare_and_set("k", number, f"value {number + 1}".encode())
    return folder / JOURNAL


@pytest.mark.parametrize("cut", [1, 5, 9, 20])
async def test_a_journal_cut_short_keeps_every_whole_change_and_sets_the_rest_aside(
    cut, tmp_path, caplog
):
    folder, journal = tmp_path, await journal_of(tmp_path, 5)
    data = journal.read_bytes()
    journal.write_bytes(data[:-cut])
    with caplog.at_level(logging.ERROR):
        hub, restored = open_hub(folder)
    assert await hub.get("k") == Versioned(4, b"value 4")  # the last change is cut, the others kept
    assert restored.replayed == 4
    (aside,) = restored.set_aside
    assert aside.name.startswith("hub.journal.damaged-") and aside.read_bytes() == data[-35:-cut]
    assert str(aside) in caplog.text
    assert await read_back(folder).get("k") == Versioned(4, b"value 4")


async def test_a_changed_byte_in_the_journal_stops_the_replay_there(tmp_path, caplog):
    folder, journal = tmp_path, await journal_of(tmp_path, 5)
    data = bytearray(journal.read_bytes())
    data[len(data) // 2] ^= 0xFF
    journal.write_bytes(bytes(data))
    with caplog.at_level(logging.ERROR):
        hub, restored = open_hub(folder)
    stored = await hub.get("k")
    assert stored is not None and stored.version < 5
    assert stored.value == f"value {stored.version}".encode()  # a state the calls made
    assert restored.set_aside and "damaged at byte" in caplog.text


async def test_a_snapshot_that_cannot_be_read_is_set_aside_and_the_journal_replayed(
    tmp_path, caplog
):
    hub = JournaledHub(tmp_path)
    await hub.compare_and_set("before", 0, b"in the snapshot")
    hub.write_snapshot()
    await hub.compare_and_set("after", 0, b"in the journal")
    snapshot = tmp_path / SNAPSHOT
    snapshot.write_bytes(snapshot.read_bytes()[:-3])
    with caplog.at_level(logging.ERROR):
        again, restored = open_hub(tmp_path)
    assert await again.get("before") is None  # lost with the snapshot
    assert await again.get("after") == Versioned(1, b"in the journal")
    (aside,) = restored.set_aside
    assert aside.name.startswith("hub.snapshot.damaged-") and str(aside) in caplog.text


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300))
def test_random_bytes_for_both_files_start_a_hub_all_the_same(snapshot, journal):
    with tempfile.TemporaryDirectory() as name:
        start_from_files(Path(name), snapshot, journal)


def start_from_files(folder: Path, snapshot: bytes, journal: bytes) -> None:
    (folder / SNAPSHOT).write_bytes(snapshot)
    (folder / JOURNAL).write_bytes(journal)
    _, restored = open_hub(folder)
    assert len(restored.set_aside) <= 2
    assert (folder / SNAPSHOT).exists() and not (folder / JOURNAL).exists()  # written anew


async def test_a_sealed_hub_keeps_nothing_that_changes_after(tmp_path):
    hub = JournaledHub(tmp_path)
    await hub.compare_and_set("table", 0, b"in play")
    hub.seal()
    await hub.compare_and_set("table", 1, b"ended by the stop")
    await hub.close()
    assert await read_back(tmp_path).get("table") == Versioned(1, b"in play")


async def test_batched_changes_reach_the_journal_within_their_time(tmp_path):
    hub = JournaledHub(tmp_path, sync="batch")
    await hub.compare_and_set("k", 0, b"one")
    assert not (tmp_path / JOURNAL).exists()  # held back
    await asyncio.sleep(BATCH_SECONDS + 0.1)
    assert await read_back(tmp_path).get("k") == Versioned(1, b"one")


async def test_a_hub_kept_off_reads_and_writes_nothing(tmp_path):
    (tmp_path / JOURNAL).write_bytes(b"anything")
    hub, restored = open_hub(tmp_path, sync="off")
    await hub.compare_and_set("k", 0, b"one")
    await hub.close()
    assert restored.stopped_at is None and await hub.get("k") == Versioned(1, b"one")
    assert sorted(path.name for path in tmp_path.iterdir()) == [JOURNAL]


async def test_files_are_readable_by_the_server_user_alone(tmp_path):
    hub = JournaledHub(tmp_path)
    await hub.compare_and_set("k", 0, b"one")
    hub.write_snapshot()
    await hub.compare_and_set("k", 1, b"two")
    for name in (SNAPSHOT, JOURNAL):
        assert (tmp_path / name).stat().st_mode & 0o077 == 0


async def test_fsync_waits_for_the_disk_and_changes_made_together_share_a_flush(
    tmp_path, monkeypatch
):
    flushes = []
    real_fsync = os.fsync

    def counted(descriptor):
        flushes.append(descriptor)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", counted)
    hub = JournaledHub(tmp_path, sync="fsync")
    await hub.map_set("first", "f", b"alone")
    assert len(flushes) == 1  # the call returned once the disk had it
    await asyncio.gather(*(hub.map_set("m", str(n), b"together") for n in range(50)))
    assert 2 <= len(flushes) <= 3  # fifty changes, a flush or two for all of them
    again = read_back(tmp_path)
    assert len(await again.map_all("m")) == 50 and await again.map_all("first") == {"f": b"alone"}
