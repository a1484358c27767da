"""The collector freezes what survives, and reclaims what froze and died when enough
players have left or enough time has passed."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from sixtui.server.collector import RECLAIM_EVERY, RECLAIM_LEAST, Collector
from sixtui.server.shared import Counts


class Knot:
    """An object in a cycle with itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def frozen_garbage(collector: Collector) -> weakref.ref[Knot]:
    """A knot alive when ``collector`` froze, and garbage since."""
    knot = Knot()
    assert collector.tick() == "froze"
    found = weakref.ref(knot)
    del knot
    gc.collect()
    return found


def held_more(blocks: int) -> list[Knot]:
    """Knots enough that the allocator holds ``blocks`` more blocks than before."""
    kept: list[Knot] = []
    start = sys.getallocatedblocks()
    while (grown := sys.getallocatedblocks() - start) < blocks:
        kept.extend(Knot() for _ in range(max(1_000, (blocks - grown) // 4)))
    return kept


def players(connected: int, gone: int) -> Counts:
    counts = Counts()
    arrive(counts, connected + gone)
    leave(counts, gone)
    return counts


def arrive(counts: Counts, sessions: int) -> None:
    """``sessions`` players connect, a session each."""
    counts.change("127.0.0.1", None, sessions)
    counts.sessions_opened += sessions


def leave(counts: Counts, sessions: int) -> None:
    counts.change("127.0.0.1", None, -sessions)
    counts.sessions_ended += sessions


def test_what_froze_is_out_of_the_collectors_reach_until_a_reclaim():
    counts, clock = players(10, 0), Clock()
    collector = Collector(counts, clock)
    collector.start()
    knot = frozen_garbage(collector)
    assert knot() is not None  # frozen: full collections no longer walk it
    assert gc.get_freeze_count() > 0
    leave(counts, RECLAIM_LEAST - 1)
    assert collector.tick() == "froze" and knot() is not None  # too few gone yet
    leave(counts, 1)
    assert collector.tick() == "reclaimed"
    assert knot() is None


def test_many_connected_call_a_reclaim_for_a_quarter_of_them_gone():
    counts, clock = players(400, 0), Clock()
    collector = Collector(counts, clock)
    collector.start()
    leave(counts, 60)  # 60 of 400 gone: more than 20, not a quarter
    knot = frozen_garbage(collector)
    assert knot() is not None
    leave(counts, 60)  # 120 gone of 340 left: over a quarter
    assert collector.tick() == "reclaimed" and knot() is None


def test_a_reclaim_comes_in_time_whoever_left():
    counts, clock = players(10, 0), Clock()
    collector = Collector(counts, clock)
    collector.start()
    knot = frozen_garbage(collector)
    clock.now += RECLAIM_EVERY - 1
    assert collector.tick() == "froze" and knot() is not None
    clock.now += 1
    assert collector.tick() == "reclaimed" and knot() is None
    assert collector.tick() == "froze"  # and the next one in as long again


def test_connections_without_a_session_call_no_reclaim():
    """A scanner or a loop of connections opens no session and builds no interface: its
    connections coming and going must not pause every player with a reclaim."""
    counts, clock = players(10, 0), Clock()
    collector = Collector(counts, clock)
    collector.start()
    for _ in range(10 * RECLAIM_LEAST):
        counts.change("10.0.0.9", None, 1)
        counts.change("10.0.0.9", None, -1)
    knot = frozen_garbage(collector)
    assert collector.tick() == "froze" and knot() is not None
    leave(counts, RECLAIM_LEAST)  # players who leave still call one
    assert collector.tick() == "reclaimed" and knot() is None


def test_memory_grown_by_half_calls_a_reclaim():
    counts, clock = players(10, 0), Clock()
    collector = Collector(counts, clock)
    collector.start()
    knot = frozen_garbage(collector)
    assert collector.tick() == "froze" and knot() is not None
    kept = held_more(sys.getallocatedblocks() // 2 + 1)
    assert collector.tick() == "reclaimed" and knot() is None
    assert collector.tick() == "froze"  # the kept ones counted in from now on
    del kept


def test_players_arriving_call_no_reclaim_but_growth_beyond_them_does():
    counts, clock = players(10, 0), Clock()
    arriving = 1_000
    each = sys.getallocatedblocks() // arriving + 1  # together more than all held
    collector = Collector(counts, clock, session_blocks=each)
    collector.start()
    knot = frozen_garbage(collector)
    arrive(counts, arriving)
    their_interfaces = held_more(arriving * each)
    assert collector.tick() == "froze"  # they froze...
    assert collector.tick() == "froze" and knot() is not None  # ...and are no garbage
    beyond_them = held_more(sys.getallocatedblocks())  # as much again
    assert collector.tick() == "reclaimed" and knot() is None
    del their_interfaces, beyond_them


def test_a_reclaim_learns_what_a_session_holds():
    counts, clock = players(0, 0), Clock()
    collector = Collector(counts, clock, session_blocks=1)
    collector.start()
    sessions = RECLAIM_LEAST
    arrive(counts, sessions)
    each = sys.getallocatedblocks() // sessions + 1
    interfaces = held_more(sessions * each)
    assert collector.tick() == "reclaimed"  # more than one block a session: grown
    arrive(counts, sessions)  # as many again, holding as much
    interfaces += held_more(sessions * each)
    assert collector.tick() == "froze"  # counted at the reclaim: no garbage
    assert collector.tick() == "froze"
    del interfaces


def test_a_tick_never_walks_what_is_frozen(monkeypatch):
    """Counting the frozen objects walks every one of them: at 200 players a pause of
    230 ms every tick. A tick, a reclaim included, counts the allocator's blocks."""
    counts, clock = players(10, 0), Clock()
    collector = Collector(counts, clock)
    collector.start()

    def walk_everything() -> int:
        raise AssertionError("the frozen objects were counted one by one")

    monkeypatch.setattr(gc, "get_freeze_count", walk_everything)
    assert collector.tick() == "froze"
    clock.now += RECLAIM_EVERY
    assert collector.tick() == "reclaimed"
