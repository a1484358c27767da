"""A table's life through the hub, without screens: who follows it (the same key at two
screens is one player, away only once both have closed), the end of a table everyone
left, and nothing of a finished table left in the hub once nobody is at it."""

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.server.archive import Archive
from sixtui.server.archiving import Archivist
from sixtui.server.computer_seats import ComputerSeats
from sixtui.server.rooms import open_table
from sixtui.server.seated import table_of
from sixtui.server.table_life import FINISHED_KEPT, Sweeper
from sixtui.server.table_session import TableSession
from support.hubs import Interleaved, names_held_once_archived
from support.tables import (
    ANN,
    BOB,
    CAT,
    Clock,
    FirstMoves,
    against_the_computer,
    play_turns,
    send,
    state_of,
)

WINDOW = 30.0


async def connect6(hub, **options) -> str:
    return await open_table(
        hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0, reconnect_window=WINDOW, **options
    )


async def join(hub, table, *identities, clock=None) -> list[TableSession]:
    extra = {"clock": clock} if clock else {}
    return [await TableSession.join(hub, table, who, **extra) for who in identities]


async def until(holds, what: str) -> None:
    """Waits until ``holds()``, turn by turn of the event loop."""
    for _ in range(10_000):
        if holds():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"never: {what}")


async def heard(session: TableSession, moves: int) -> None:
    """Waits until ``session`` has been sent a game of ``moves`` moves."""
    await until(lambda: len(session.game.history) == moves, f"a game of {moves} moves")


async def swept(hub) -> tuple[Clock, Sweeper, str]:
    """A clock the test moves, a sweeper timed by it, and a table of Ann and Bob."""
    clock = Clock()
    return clock, Sweeper(hub, clock), await connect6(hub)


async def away(hub, table) -> set[str]:
    return set((await state_of(hub, table)).away)


# -- the same key at two screens -------------------------------------------------------------


async def test_one_key_at_two_screens_plays_from_either_and_is_away_once_both_close(hub):
    table = await connect6(hub)
    ann, twin, bob = await join(hub, table, ANN.identity, ANN.identity, BOB.identity)
    await twin.play("E5")
    await heard(ann, 1)
    await heard(bob, 1)
    await ann.close()
    assert await away(hub, table) == set()  # her other screen still plays
    await bob.play("A1")
    await bob.play("A2")
    await heard(twin, 3)
    await twin.close()
    assert await away(hub, table) == {ANN.identity}
    await bob.close()


@settings(max_examples=100, deadline=None)
@given(pauses=st.lists(st.integers(0, 4), max_size=10))
async def test_a_screen_closing_as_another_of_the_same_key_opens_leaves_them_here(pauses):
    hub = Interleaved(pauses)
    table = await connect6(hub)
    (first,) = await join(hub, table, ANN.identity)
    _, (second,) = await asyncio.gather(first.close(), join(hub, table, ANN.identity))
    assert await away(hub, table) == set(), "away while a screen of theirs follows the table"
    await second.close()
    assert await away(hub, table) == {ANN.identity}


# -- a finished table leaves the hub ---------------------------------------------------------


async def test_a_series_everyone_left_ends_and_goes_once_its_last_spectator_leaves(hub):
    table = await connect6(hub)
    ann, bob, watcher = await join(hub, table, ANN.identity, BOB.identity, None)
    await ann.resign()
    await ann.close()  # between games: the table waits for her
    assert (await state_of(hub, table)).status == "game-over"
    assert await hub.map_all("tables:live")
    await bob.close()  # everyone gone between games: the series ends where it stands
    ended = await state_of(hub, table)
    assert ended.status == "match-over" and ended.match.wins == (0, 1)
    assert await hub.map_all("tables:live") == {}  # gone from the lobby's list at once
    await until(lambda: watcher.state.status == "match-over", "the spectator reads the result")
    await watcher.close()
    assert await names_held_once_archived(hub) == set()


async def test_a_game_everyone_left_ends_after_the_window_and_leaves_nothing(hub):
    clock, sweeper, table = await swept(hub)
    sessions = await join(hub, table, ANN.identity, BOB.identity, clock=clock)
    await play_turns(hub, table, ["E5", "A1 A2"])
    for session in sessions:
        await session.close()
    assert await away(hub, table) == {ANN.identity, BOB.identity}
    clock.now += WINDOW - 1
    await sweeper.sweep()
    assert (await state_of(hub, table)).status == "playing"  # they may still come back
    assert await table_of(hub, ANN.identity) == table
    clock.now += 1
    await sweeper.sweep()
    assert await names_held_once_archived(hub) == set()
    assert await table_of(hub, ANN.identity) is None
    with pytest.raises(ValueError, match=f"^game {table} is over and gone$"):
        await TableSession.join(hub, table, ANN.identity)  # coming back too late
    assert await names_held_once_archived(hub) == set()


async def test_a_clock_that_runs_out_with_everyone_gone_ends_the_game_on_time(hub):
    clock = Clock()
    sweeper = Sweeper(hub, clock)
    sides = [[ANN], [BOB]]
    table = await open_table(
        hub, "connect6", {"size": 9}, sides, opener=0, reconnect_window=600, clock="1+0"
    )
    sessions = await join(hub, table, ANN.identity, BOB.identity, clock=clock)
    await play_turns(hub, table, ["E5"], clock)  # Bob's clock runs: 60 s
    for session in sessions:
        await session.close()
    clock.now += 59
    await sweeper.sweep()
    assert (await state_of(hub, table)).status == "playing"
    clock.now += 2  # past Bob's time, long before his window of 600 s to come back ends
    await sweeper.sweep()
    archive = Archive(":memory:")
    (archived,) = await Archivist(hub, archive).archive_waiting()
    record = archive.record(archived.id) or ""
    assert '[Reason "time"]' in record and '[Result "1-0"]' in record


async def test_seats_no_screen_follows_are_marked_away_at_the_second_sweep(hub):
    clock, sweeper, table = await swept(hub)  # Ann is seated, and never arrives
    (bob,) = await join(hub, table, BOB.identity, clock=clock)
    await sweeper.sweep()
    assert await away(hub, table) == set()  # a screen may be on its way
    await sweeper.sweep()
    assert await away(hub, table) == {ANN.identity}
    clock.now += WINDOW
    assert (await send(hub, table, BOB, "abort", clock=clock)).state.status == "aborted"
    await bob.close()
    assert await names_held_once_archived(hub) == set()


async def test_a_finished_table_a_screen_never_leaves_goes_after_a_long_while(hub):
    clock, sweeper, table = await swept(hub)
    ann, bob = await join(hub, table, ANN.identity, BOB.identity, clock=clock)
    await ann.close()
    clock.now += WINDOW
    await bob.abort()
    assert (await state_of(hub, table)).status == "aborted"
    clock.now += FINISHED_KEPT
    await sweeper.sweep()
    assert await state_of(hub, table)  # bob still reads it
    clock.now += 1
    await sweeper.sweep()
    assert await hub.get(f"table:{table}") is None
    await bob.close()
    assert await names_held_once_archived(hub) == set()


async def test_the_computer_stops_playing_a_table_that_is_gone(hub):
    computers = ComputerSeats(hub, FirstMoves(), pause=0)
    table = await against_the_computer(hub, computers)
    (ann,) = await join(hub, table, ANN.identity)
    await ann.resign()
    await ann.close()
    await until(lambda: not computers.tables, "the computer stops")
    assert await names_held_once_archived(hub) == set()


async def test_the_sweeper_sweeps_until_closed(hub):
    clock = Clock()
    sweeper = Sweeper(hub, clock, every=0.001)
    table = await open_table(hub, "connect6", {}, [[CAT], [BOB]], opener=0, reconnect_window=0)
    sweeper.start()
    sweeper.start()  # once started, started
    for _ in range(200):
        if await hub.get(f"table:{table}") is None:
            break
        await asyncio.sleep(0.002)
    await sweeper.close()
    assert await names_held_once_archived(hub) == set()
