"""Games that end while a player is away: each player with a key who was away is told,
once, in their next lobby, how it ended for them and where to see it; nobody else is."""

from sixtui.server.archive import Archive
from sixtui.server.archiving import Archivist
from sixtui.server.hub import MemoryHub
from sixtui.server.lobby import HubLobby
from sixtui.server.missed_games import KEPT, MISSED, take_missed
from sixtui.server.online import guest_identity
from sixtui.server.rooms import mark_away, open_table
from sixtui.server.table_life import Sweeper
from sixtui.server.table_state import SeatHolder
from support.lobby_helpers import TablesOpened
from support.tables import ANN, BOB, CAT, DAN, Clock, play_turns, send

GUEST = SeatHolder("guest-1a2b3c", guest_identity("guest-1a2b3c"))


async def claimed_from_ann(hub, clock) -> str:
    """A Connect6 table where Ann and Bob played a turn each, then Ann dropped out and Bob
    claimed the game once her time to come back was over."""
    sides = [[ANN], [BOB]]
    table = await open_table(hub, "connect6", {"size": 9}, sides, opener=0, reconnect_window=60)
    await play_turns(hub, table, ["E5", "A1 A2"], clock)
    await mark_away(hub, table, ANN.identity, clock)
    clock.now += 61
    assert (await send(hub, table, BOB, "claim", clock=clock)).state.status == "game-over"
    return table


async def test_only_the_player_who_was_away_is_told_and_only_once():
    hub, clock = MemoryHub(), Clock()
    table = await claimed_from_ann(hub, clock)
    told = await take_missed(hub, ANN.identity)
    assert told == [
        (f"{table}/1", "while you were away, your Connect6 game against Bob ended: you lost"
         " (left the game)")
    ]  # fmt: skip
    assert await take_missed(hub, ANN.identity) == []
    assert await take_missed(hub, BOB.identity) == []


async def test_a_guest_away_is_not_kept_a_line_for():
    hub, clock = MemoryHub(), Clock()
    table = await open_table(hub, "connect6", {"size": 9}, [[GUEST], [BOB]], opener=0)
    await play_turns(hub, table, ["E5", "A1 A2"], clock)
    await mark_away(hub, table, str(GUEST.identity), clock)
    clock.now += 61
    await send(hub, table, BOB, "claim", clock=clock)
    assert await hub.map_all(MISSED) == {}


async def test_partners_away_are_each_told_and_a_win_without_them_is_a_win():
    hub, clock = MemoryHub(), Clock()
    sides = [[ANN, CAT], [BOB, DAN]]
    table = await open_table(hub, "six", {"players": 4}, sides, opener=0)
    await mark_away(hub, table, CAT.identity, clock)
    await send(hub, table, BOB, "resign", clock=clock)  # Bob resigns for his team
    (cat_line,) = await take_missed(hub, CAT.identity)
    assert cat_line[1] == (
        "while you were away, your Six · Steffen game against Bob and Dan ended: you won"
        " (the other side resigned)"
    )
    assert await take_missed(hub, ANN.identity) == []


async def test_the_next_lobby_greets_the_player_with_the_game_s_number_in_the_archive():
    hub, clock, archive = MemoryHub(), Clock(), Archive(":memory:")
    await claimed_from_ann(hub, clock)
    (written,) = await Archivist(hub, archive).archive_waiting()
    lobby = await HubLobby.open(hub, "Ann", ANN.identity, TablesOpened(), archive=archive)
    assert lobby.greeting == (
        "while you were away, your Connect6 game against Bob ended: you lost (left the game);"
        f" replay {written.id} shows it"
    )
    again = await HubLobby.open(hub, "Ann", ANN.identity, TablesOpened(), archive=archive)
    assert again.greeting == ""
    await lobby.close()
    await again.close()


async def test_a_line_nobody_came_back_for_goes_with_the_sweep_after_a_week():
    hub, clock = MemoryHub(), Clock()
    await claimed_from_ann(hub, clock)
    sweeper = Sweeper(hub, clock=clock)
    clock.now += KEPT - 1
    await sweeper.sweep()
    assert len(await hub.map_all(MISSED)) == 1
    clock.now += 2
    await sweeper.sweep()
    assert await hub.map_all(MISSED) == {} and await take_missed(hub, ANN.identity) == []
