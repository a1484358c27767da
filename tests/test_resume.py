"""The hub taken up again as the server starts: the connections of the stopped server are
forgotten, every game in progress waits for its players with the whole reconnection window,
and its clock takes up where it stood, the outage not counted; no real time passes."""

from __future__ import annotations

from sixtui.server.archiving import ENDED_GAMES
from sixtui.server.challenges import CHALLENGES
from sixtui.server.hub import MemoryHub
from sixtui.server.lobby_copy import PEOPLE
from sixtui.server.pairing import POOLS, pool_queue
from sixtui.server.resume import resume
from sixtui.server.rooms import LIVE_TABLES, Applied, Refused, open_table
from sixtui.server.table_life import followers_key
from support.tables import ANN, BOB, CAT, Clock, against_the_computer, play_turns, send, state_of

HOUR = 3600.0


class Keeper:
    """Computer seats as the rooms see them: the tables it was asked to keep."""

    def __init__(self) -> None:
        self.kept: list[str] = []

    def keep(self, table_id: str) -> None:
        self.kept.append(table_id)


async def test_a_clock_takes_up_where_it_stood_and_every_player_has_the_whole_window():
    hub, wall = MemoryHub(), Clock()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0, clock="1+2")
    await play_turns(hub, table, ["E5"], wall)
    wall.now += 30
    await play_turns(hub, table, ["A1 A2"], wall)
    wall.now += 10  # Ann has thought 10 s when the server stops
    stopped_at = wall.now
    before = await state_of(hub, table)
    wall.now += HOUR
    assert await resume(hub, stopped_at, wall.now, Keeper()) == [table]
    state = await state_of(hub, table)
    assert state.clock.left_now(0, wall.now) == 50.0 == before.clock.left_now(0, stopped_at)
    assert state.away == {ANN.identity: wall.now, BOB.identity: wall.now}
    assert state.version == before.version + 1 and state.load().history == before.load().history
    refused = await send(hub, table, ANN, "flag", clock=wall)
    assert isinstance(refused, Refused)  # Bob's clock is not running, Ann's has 50 s
    await send(hub, table, ANN, "back", clock=wall)
    wall.now += 5
    await play_turns(hub, table, ["F5 G5"], wall)
    assert (await state_of(hub, table)).clock.left == (47.0, 32.0)


async def test_the_connections_of_the_stopped_server_are_forgotten_and_its_news_kept():
    hub, wall = MemoryHub(), Clock()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0)
    await hub.map_set(PEOPLE, "s1", b"ann in the lobby")
    await hub.map_set(POOLS, "connect6", b"")
    await hub.queue_join(pool_queue("connect6"), "s2", b"bob waits")
    await hub.queue_join(CHALLENGES, "1", b"ann challenges cat")
    await hub.map_set(followers_key(table), "f1", ANN.identity.encode())
    await hub.queue_join(ENDED_GAMES, "9/1/12", b"a game to archive")
    await resume(hub, wall.now, wall.now + 5, Keeper())
    assert await hub.map_all(PEOPLE) == {} and await hub.map_all(POOLS) == {}
    assert await hub.queue_list(pool_queue("connect6")) == []
    assert await hub.queue_list(CHALLENGES) == []
    assert await hub.map_all(followers_key(table)) == {}
    assert [entry.member for entry in await hub.queue_list(ENDED_GAMES)] == ["9/1/12"]
    assert table in await hub.map_all(LIVE_TABLES)


async def test_computer_seats_play_on_and_a_table_between_games_waits_to_be_swept():
    hub, wall, keeper = MemoryHub(), Clock(), Keeper()
    computer_table = await against_the_computer(hub, Keeper())
    finished = await open_table(hub, "connect6", {"size": 9}, [[BOB], [CAT]], opener=0)
    outcome = await send(hub, finished, BOB, "resign", clock=wall)
    assert isinstance(outcome, Applied)
    before_game = (await state_of(hub, finished)).load()
    resumed = await resume(hub, wall.now, wall.now + HOUR, keeper)
    assert keeper.kept == [computer_table] and computer_table in resumed
    assert (await state_of(hub, computer_table)).away == {ANN.identity: wall.now + HOUR}
    assert finished in resumed  # between two games: a rematch could still be agreed
    state = await state_of(hub, finished)
    assert state.status == "game-over" and state.load().history == before_game.history
    assert state.deserted(wall.now + HOUR)  # everyone away between games: the sweeper ends it
