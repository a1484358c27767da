"""Clocks kept by the server: time taken off the side to move, the increment added, a
flag when time is up (a loss, or a draw where the other side could not win), the clock
running on while a player is away, and a fresh clock for each game; no real time passes."""

from __future__ import annotations

import re

import pytest
from test_time_out import black_blocks_every_line

from sixtui.server.hub import MemoryHub
from sixtui.server.rooms import Applied, Refused, open_table
from sixtui.server.table_clock import Clock
from sixtui.server.table_state import TableState
from support.tables import ANN, BOB, ROW_WIN, both_ask_next, play_turns, send, state_of
from support.tables import Clock as WallClock


async def clocked(hub, control: str = "1+2", size: int = 9) -> str:
    """Ann opens against Bob at Connect6 with the time control ``control``."""
    sides = [[ANN], [BOB]]
    return await open_table(hub, "connect6", {"size": size}, sides, opener=0, clock=control)


async def test_the_first_turn_is_untimed_then_each_turn_costs_its_time_plus_the_increment():
    hub, wall = MemoryHub(), WallClock()
    table = await clocked(hub)
    wall.now += 40  # the opener thinks over the first turn: not timed
    await play_turns(hub, table, ["E5"], wall)
    clock = (await state_of(hub, table)).clock
    assert clock.left == (60.0, 60.0) and clock.running == 1
    wall.now += 30
    await play_turns(hub, table, ["A1 A2"], wall)
    clock = (await state_of(hub, table)).clock
    assert clock.left == (60.0, 32.0) and clock.running == 0
    wall.now += 10
    await play_turns(hub, table, ["F5 G5"], wall)
    assert (await state_of(hub, table)).clock.left == (52.0, 32.0)


async def test_a_flag_when_time_is_up_wins_and_not_a_moment_before():
    hub, wall = MemoryHub(), WallClock()
    table = await clocked(hub)
    await play_turns(hub, table, ["E5"], wall)
    wall.now += 59.5
    refused = await send(hub, table, ANN, "flag", clock=wall)
    assert isinstance(refused, Refused) and refused.message == "1 seconds are left on the clock"
    wall.now += 1
    ended = await send(hub, table, ANN, "flag", clock=wall)
    assert isinstance(ended, Applied)
    state = ended.state
    assert state.status == "game-over" and state.load().result.reason == "time"
    assert state.load().result.winner == 0 and state.clock.running is None
    assert state.clock.left[1] <= 0


async def test_a_turn_sent_after_time_is_up_loses_on_time_instead():
    hub, wall = MemoryHub(), WallClock()
    table = await clocked(hub)
    await play_turns(hub, table, ["E5"], wall)
    wall.now += 61
    outcome = await send(hub, table, BOB, "turn", "A1", "A2", clock=wall)
    assert isinstance(outcome, Applied) and outcome.state.load().history[-1:] != ["A2"]
    assert outcome.state.load().result.reason == "time" and outcome.state.load().result.winner == 0


async def test_time_runs_on_while_the_player_to_move_is_away_past_any_window():
    hub, wall = MemoryHub(), WallClock()
    table = await open_table(
        hub,
        "connect6",
        {"size": 9},
        [[ANN], [BOB]],
        opener=0,
        clock="1+0",
        reconnect_window=600.0,
    )
    await play_turns(hub, table, ["E5"], wall)
    await send(hub, table, BOB, "away", clock=wall)
    wall.now += 60.5  # long before Bob's window of 600 s is over
    outcome = await send(hub, table, ANN, "flag", clock=wall)
    assert isinstance(outcome, Applied) and outcome.state.load().result.reason == "time"


async def test_time_up_against_a_side_that_could_no_longer_win_is_a_draw():
    hub, wall = MemoryHub(), WallClock()
    table = await clocked(hub, "1+0", size=6)
    game = black_blocks_every_line()  # Black to play the second stone of its turn
    empty = [str(move) for move in game.legal_moves()]
    moves = [str(move) for move in game.history] + empty[:3]  # and White a turn more
    turns = [moves[0], *(" ".join(moves[i : i + 2]) for i in range(1, len(moves), 2))]
    await play_turns(hub, table, turns, wall)
    state = await state_of(hub, table)
    assert state.load().to_move == 0 and state.clock.running == 0  # Black to move
    wall.now += 61
    outcome = await send(hub, table, BOB, "flag", clock=wall)
    result = outcome.state.load().result
    assert result.winner is None and result.reason == "time"


async def test_every_game_of_the_match_begins_with_a_fresh_clock():
    hub, wall = MemoryHub(), WallClock()
    table = await clocked(hub)
    await play_turns(hub, table, ROW_WIN, wall)
    assert (await state_of(hub, table)).clock.running is None
    await both_ask_next(hub, table)
    clock = (await state_of(hub, table)).clock
    assert clock.left == (60.0, 60.0) and clock.running is None


async def test_flagging_a_table_without_a_clock_or_before_it_runs_is_refused():
    hub, wall = MemoryHub(), WallClock()
    table = await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0)
    refused = await send(hub, table, ANN, "flag", clock=wall)
    assert refused.message == "this table plays without a clock"
    hub = MemoryHub()
    table = await clocked(hub)
    assert (await send(hub, table, ANN, "flag", clock=wall)).message == "no clock runs yet"


async def test_a_running_clock_is_stored_and_read_back_with_the_table():
    hub, wall = MemoryHub(), WallClock()
    table = await clocked(hub)
    await play_turns(hub, table, ["E5"], wall)
    state = await state_of(hub, table)
    assert TableState.from_bytes(state.to_bytes()).clock == state.clock
    assert state.clock == Clock(60.0, 2.0, (60.0, 60.0), running=1, since=wall.now)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5", "a clock is written MINUTES+SECONDS"),
        ("0+5", "1 to 180 minutes"),
        ("10+999", "1 to 180 minutes"),
        ("ten+five", "a clock is written MINUTES+SECONDS"),
    ],
)
def test_a_time_control_is_read_or_refused_plainly(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Clock.parse(text)
