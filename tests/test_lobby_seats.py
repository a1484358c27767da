"""One game at a time for every player, through the lobby and the rooms on one hub: a
player whose game is in play waits in no pool, accepts no challenge and plays no other
game (watching is fine); a pool pairing and a challenge accepted in the same instant,
or two sessions of one key, never seat anyone twice nor leave anyone out of both a
pool and a table; and the tables of many games leave nothing in the hub."""

import asyncio
from collections import Counter
from functools import partial

from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.server import pairing
from sixtui.server.archive import Archive
from sixtui.server.archiving import Archivist
from sixtui.server.hub import MemoryHub
from sixtui.server.rooms import LIVE_TABLES, open_table, read_table
from sixtui.server.seated import table_of
from sixtui.server.table_life import Sweeper
from sixtui.server.table_session import TableSession
from sixtui.tui.lobby_commands import STANDARD_POOLS
from support.hubs import Interleaved, names_held
from support.lobby_helpers import close_all, players, settle
from support.tables import Clock, send


class Idle:
    """Keeps no computer seat playing: these tests never wait for the computer's turn."""

    def keep(self, table_id: str) -> None:
        pass


ROOMS = partial(open_table, computers=Idle(), reconnect_window=30.0)


def seated_at(player) -> list[str]:
    """The tables the player's session was told they sit at."""
    return [update.table for update in player.heard if update.kind == "seated"]


async def test_a_player_whose_game_is_in_play_starts_no_other_but_may_watch():
    hub = MemoryHub()
    ann, bob, cy, dee = await players(hub, ROOMS, "ann", "bob", "cy", "dee")
    await bob.command("challenge cy gameof6")
    await cy.command("challenge ann six")
    await ann.command("pair connect6")
    await bob.command("pair connect6")
    (table,) = seated_at(ann)
    for player in (ann, bob):  # both left the table for a moment: their game goes on
        await player.lobby.returned()
    busy = f"you are playing game {table}: finish it first (watch {table} takes you back)"
    assert await ann.command("pair six") == busy
    assert await ann.command("play connect6 --vs easy") == busy
    assert await ann.command("accept cy") == f"{busy}; the challenge stays open"
    assert await cy.command("accept bob") == "bob is playing now: accept once they are back"
    await cy.command("pair connect6")
    await dee.command("pair connect6")
    (other,) = seated_at(dee)
    assert (await ann.lobby.command(f"watch {other}")).table == other
    await send(hub, table, f"key-{ann.lobby.name}", "resign")  # her game is over: she is free
    assert await ann.command("pair six") == "you wait for Six steffen: unpair to stop"
    await close_all(ann, bob, cy, dee)


async def test_every_session_of_a_player_is_taken_to_their_table():
    hub = MemoryHub()
    ann, twin, bob = await players(hub, ROOMS, "ann", "ann", "bob")
    await twin.command("pair connect6")
    await bob.command("pair connect6")
    assert seated_at(ann) == seated_at(twin) == seated_at(bob) == ["1"]
    assert ann.told("seated") == twin.told("seated")
    await close_all(ann, twin, bob)


# -- at the same instant ---------------------------------------------------------------------


async def queued(hub) -> Counter[str]:
    """How many times each identity waits in a pool."""
    waiting: Counter[str] = Counter()
    for choice in STANDARD_POOLS:
        for entry in await hub.queue_list(pairing.pool_queue(choice.key)):
            waiting.update(
                person.identity for person in pairing.Waiter.from_bytes(entry.value).people
            )
    return waiting


async def assert_seated_once_or_waiting(hub, *everyone) -> None:
    """Nobody sits at two games in play; everyone sits at one or waits in one pool, never
    both, and their sessions show it."""
    in_play = Counter()
    for table in await hub.map_all(LIVE_TABLES):
        in_play.update(holder.identity for holder in (await read_table(hub, table)).people)
    waiting = await queued(hub)
    for player in everyone:
        identity = f"key-{player.lobby.name}"
        assert in_play[identity] <= 1, f"{identity} sits at two games"
        assert in_play[identity] + waiting[identity] == 1, f"{identity}: {in_play}, {waiting}"
        assert (await table_of(hub, identity) is not None) == (in_play[identity] == 1)
        assert (player.view.pool is not None) == (waiting[identity] == 1), identity


@settings(max_examples=120, deadline=None)
@given(pauses=st.lists(st.integers(0, 4), max_size=12), seed=st.integers(0, 3))
async def test_a_challenge_accepted_as_pools_pair_its_players_seats_everyone_once(pauses, seed):
    hub = Interleaved(pauses)
    ann, bob, cy, dee = await players(hub, ROOMS, "ann", "bob", "cy", "dee", seed=seed)
    await ann.command("pair connect6")
    await bob.command("pair gameof6")
    await bob.command("challenge ann six")
    await asyncio.gather(
        ann.lobby.command("accept bob"),
        cy.lobby.command("pair connect6"),
        dee.lobby.command("pair gameof6"),
    )
    await settle()
    await assert_seated_once_or_waiting(hub, ann, bob, cy, dee)
    await close_all(ann, bob, cy, dee)


@settings(max_examples=120, deadline=None)
@given(pauses=st.lists(st.integers(0, 4), max_size=12))
async def test_two_sessions_of_one_key_starting_games_at_once_sit_at_one(pauses):
    hub = Interleaved(pauses)
    ann, twin, bob = await players(hub, ROOMS, "ann", "ann", "bob")
    await bob.command("pair connect6")
    outcomes = await asyncio.gather(
        ann.lobby.command("pair connect6"), twin.lobby.command("play gameof6")
    )
    await settle()
    in_play = Counter()
    for table in await hub.map_all(LIVE_TABLES):
        in_play.update(holder.identity for holder in (await read_table(hub, table)).people)
    waiting = await queued(hub)
    assert in_play["key-ann"] == 1 and waiting["key-ann"] == 0
    assert in_play["key-bob"] + waiting["key-bob"] == 1
    assert ann.view.pool is None and twin.view.pool is None
    assert (bob.view.pool is None) == (in_play["key-bob"] == 1)
    assert not any("could not be opened" in outcome.text for outcome in outcomes)
    await close_all(ann, twin, bob)


# -- many games, nothing left ----------------------------------------------------------------


async def test_the_tables_of_many_games_leave_nothing_in_the_hub():
    hub, clock = MemoryHub(), Clock()
    sweeper = Sweeper(hub, clock)
    archivist = Archivist(hub, Archive(":memory:"))  # as a server's takes every game that ends
    rooms = partial(ROOMS, reconnect_window=5.0)
    ann, bob = await players(hub, rooms, "ann", "bob")
    await ann.command("pair connect6")  # the pool is named once, for good
    await ann.command("unpair")
    held = names_held(hub)
    for cycle in range(6):
        if cycle % 2:
            await bob.command("challenge ann gameof6 --size 9")
            await ann.command("accept bob")
        else:
            await ann.command("pair connect6")
            await bob.command("pair connect6")
        (table,) = set(seated_at(ann)[-1:])
        sessions = [
            await TableSession.join(hub, table, f"key-{name}", clock)
            for name in ("ann", "bob", "ann")
        ]
        if cycle % 3 == 0:
            await sessions[0].resign()  # the game over, everyone leaves
        for session in sessions:  # otherwise they leave mid-game, and never come back
            await session.close()
        clock.now += 5.0
        await sweeper.sweep()
        await archivist.archive_waiting()
        for player in (ann, bob):
            await player.lobby.returned()
        await settle()
        assert names_held(hub) == held, f"cycle {cycle}"
    assert await read_table(hub, "1") is None
    await close_all(ann, bob)
    assert names_held(hub) == {"lobby:pools"}


async def test_a_lobby_lists_a_game_as_it_begins_changes_and_ends():
    hub = MemoryHub()
    ann, bob, cy = await players(hub, ROOMS, "ann", "bob", "cy")
    await ann.command("pair connect6")
    await bob.command("pair connect6")
    await settle()
    (table,) = seated_at(ann)
    (listed,) = cy.view.tables  # told, not read again: cy did nothing meanwhile
    assert (listed.id, sorted(listed.sides[0] + listed.sides[1])) == (table, ["ann", "bob"])
    await send(hub, table, "key-ann", "resign")
    await settle()
    assert cy.view.tables[0].wins == (1, 0) or cy.view.tables[0].wins == (0, 1)
    for name in ("ann", "bob"):  # both gone between games: the match is over
        await send(hub, table, f"key-{name}", "away")
    await Sweeper(hub, Clock()).sweep()
    await settle()
    assert cy.view.tables == ()
    await close_all(ann, bob, cy)


async def test_a_game_that_ends_while_its_player_is_in_the_lobby_frees_them_and_says_so():
    hub = MemoryHub()
    ann, bob, cy = await players(hub, ROOMS, "ann", "bob", "cy")
    await ann.command("pair connect6")
    await bob.command("pair connect6")
    (table,) = seated_at(ann)
    await ann.lobby.returned()  # ann goes back to the lobby; her game goes on without her
    await settle()
    assert {p.name: p.doing for p in cy.view.people}["ann"] == "playing"
    bob_at_table = await TableSession.join(hub, table, "key-bob")
    await bob_at_table.resign()
    await settle()
    assert {p.name: p.doing for p in cy.view.people}["ann"] == "lobby"
    assert ann.told()[-1] == "your game 1 is over: profile ann shows how it ended"
    assert "is playing now" not in await cy.command("challenge ann gameof6")
    await bob_at_table.close()
    await close_all(ann, bob, cy)
