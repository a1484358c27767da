"""One game in play at a time for every person, kept by the hub: a table opens only if
everyone at it is free, all of them or none, however many tables try at once; the next
game of a match, or a rematch, begins only with everyone free and at the table."""

import asyncio
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.server.rooms import (
    LIVE_TABLES,
    Applied,
    Refused,
    open_table,
    player_tables,
    table_key,
)
from sixtui.server.seated import AlreadySeated, Hold, hold_key, table_of
from support.hubs import Interleaved
from support.tables import ANN, BOB, CAT, DAN, both_ask_next, play_turns, send, state_of


async def connect6(hub, first=ANN, second=BOB) -> str:
    return await open_table(hub, "connect6", {"size": 9}, [[first], [second]], opener=0)


async def test_a_person_whose_game_is_in_play_is_seated_nowhere_else(hub):
    first = await connect6(hub)
    with pytest.raises(AlreadySeated, match=r"^Ann has just sat down at another game$"):
        await connect6(hub, CAT, ANN)
    assert await table_of(hub, CAT.identity) is None  # all of them or none
    assert await hub.get(table_key("2")) is None
    assert set(await hub.map_all(LIVE_TABLES)) == {first}
    assert await hub.map_all(player_tables(CAT.identity)) == {}
    assert await table_of(hub, ANN.identity) == first


async def test_a_game_over_sets_its_players_free_and_the_next_begins_only_if_they_are(hub):
    first = await connect6(hub)
    await send(hub, first, ANN, "resign")  # game 1 of the series is over: both are free
    assert await table_of(hub, ANN.identity) is None and await table_of(hub, BOB.identity) is None
    second = await connect6(hub, CAT, ANN)
    await send(hub, first, BOB, "next-game")
    refused = await send(hub, first, ANN, "next-game")
    assert refused.message == "Ann has just sat down at another game: the next game cannot begin"
    assert (await state_of(hub, first)).status == "game-over"
    assert await table_of(hub, BOB.identity) is None  # nothing was taken for Bob
    await send(hub, second, CAT, "resign")
    assert isinstance(await send(hub, first, ANN, "next-game"), Applied)
    assert await table_of(hub, ANN.identity) == await table_of(hub, BOB.identity) == first


async def test_the_next_game_is_not_asked_for_while_someone_has_left_the_table(hub):
    table = await connect6(hub)
    await send(hub, table, ANN, "resign")
    await send(hub, table, ANN, "away")
    refused = await send(hub, table, BOB, "next-game")  # it would wait for nobody
    assert isinstance(refused, Refused)
    assert refused.message == "Ann left the table: no new game begins without them"
    assert (await state_of(hub, table)).asked == ()  # Ann is not drawn into it
    assert isinstance(await send(hub, table, ANN, "next-game"), Applied)  # back, and asking
    assert (await state_of(hub, table)).status == "game-over"
    assert isinstance(await send(hub, table, BOB, "next-game"), Applied)
    assert (await state_of(hub, table)).status == "playing"


async def a_match_played_out(hub) -> str:
    """A table of Game of 6 between Ann and Bob whose six games were resigned in turn."""
    table = await open_table(hub, "gameof6", {"size": 9}, [[ANN], [BOB]], opener=0)
    for _ in range(6):
        state = await state_of(hub, table)
        await send(hub, table, state.holder_at(state.load().to_move), "resign")
        if (await state_of(hub, table)).status == "game-over":
            await both_ask_next(hub, table)
    return table


async def test_a_rematch_is_not_asked_for_while_someone_has_left_the_table(hub):
    table = await a_match_played_out(hub)
    await send(hub, table, BOB, "away")
    refused = await send(hub, table, ANN, "rematch")
    assert isinstance(refused, Refused)
    assert refused.message == "Bob left the table: no new game begins without them"
    assert (await state_of(hub, table)).asked == ()


async def test_a_rematch_seats_everyone_again_and_the_end_of_a_match_frees_them(hub):
    table = await a_match_played_out(hub)
    assert (await state_of(hub, table)).status == "match-over"
    assert await table_of(hub, ANN.identity) is None
    await send(hub, table, ANN, "rematch")
    assert isinstance(await send(hub, table, BOB, "rematch"), Applied)
    assert await table_of(hub, ANN.identity) == await table_of(hub, BOB.identity) == table


async def test_a_seat_left_behind_at_a_table_that_is_gone_is_taken_over(hub):
    # As a server process leaves them if it stops half way.
    await hub.compare_and_set(hold_key(ANN.identity), 0, Hold("404", 1, whole=True).to_bytes())
    await hub.compare_and_set(hold_key(BOB.identity), 0, b"\xc1 not a hold")
    assert await table_of(hub, ANN.identity) is None and await table_of(hub, BOB.identity) is None
    table = await connect6(hub)
    await play_turns(hub, table, ["E5"])
    assert await table_of(hub, ANN.identity) == await table_of(hub, BOB.identity) == table


# -- tables opening at once ----------------------------------------------------------------

TABLES = [(ANN, BOB), (BOB, CAT), (CAT, ANN), (DAN, ANN), (CAT, DAN)]


@settings(max_examples=150, deadline=None)
@given(pauses=st.lists(st.integers(0, 3), max_size=10), order=st.permutations(TABLES))
async def test_tables_opening_at_once_seat_everyone_once_at_most_and_open_one_at_least(
    pauses, order
):
    hub = Interleaved(pauses)
    opened = await asyncio.gather(
        *(connect6(hub, first, second) for first, second in order), return_exceptions=True
    )
    assert all(isinstance(table, str | AlreadySeated) for table in opened), opened
    tables = [table for table in opened if isinstance(table, str)]
    assert tables, "every table gave up"
    people = {table: (await state_of(hub, table)).people for table in tables}
    seated = Counter(holder.identity for held in people.values() for holder in held)
    assert set(seated.values()) == {1}, "someone sits at two games"
    for holder in (ANN, BOB, CAT, DAN):
        theirs = next((table for table, held in people.items() if holder in held), None)
        assert await table_of(hub, holder.identity) == theirs
    assert set(await hub.map_all(LIVE_TABLES)) == set(tables)
