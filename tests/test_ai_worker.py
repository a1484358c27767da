"""The computer player in worker processes: right answers, and the event loop never waits."""

import asyncio
import doctest
import multiprocessing
import os
import time
from multiprocessing import active_children

import pytest

import sixtui.ai.worker
from sixtui.ai.worker import Thinker
from sixtui.rules import new_game
from support.event_loop import largest_gap_while
from support.turns import play_whole_turn, random_position

BUDGET = 1.0


def slow_position():
    """A Game of 6 position where "hard" searches for most of a second."""
    game = random_position("gameof6", {}, seed=1, turns=60)
    assert game.result is None
    return game


@pytest.fixture
async def thinker():
    async with Thinker() as thinker:
        yield thinker
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize(
    ("name", "options", "turns"),
    [
        ("connect6", {"size": 9}, 0),
        ("connect6", {"size": 9}, 5),
        ("gameof6", {"size": 9}, 4),
        ("six", {"ruleset": "steffen"}, 3),
        ("six", {"ruleset": "romanian-advanced", "players": 4, "declare": True}, 60),
    ],
)
async def test_a_turn_is_legal_whole_and_leaves_the_game_alone(thinker, name, options, turns):
    game = random_position(name, options, seed=turns, turns=turns)
    saved = game.to_bytes()
    moves = await thinker.think(game, level="hard", seconds=0.3, seed=2)
    assert game.to_bytes() == saved
    play_whole_turn(game.copy(), moves)


async def test_the_loop_keeps_running_while_the_worker_thinks(thinker):
    game = slow_position()
    started = time.perf_counter()
    moves, largest = await largest_gap_while(thinker.think(game, "hard", seconds=BUDGET, seed=1))
    took = time.perf_counter() - started
    # Thinking on the loop would stall it for the whole think; here it ticked all
    # along (the pool's start included), however long the search chose to run.
    assert took > 0.3
    assert largest < 0.2
    play_whole_turn(game, moves)


async def test_a_cancelled_think_returns_at_once_and_the_thinker_goes_on(thinker):
    game = slow_position()
    task = asyncio.create_task(thinker.think(game, "hard", seconds=BUDGET, seed=1))
    await asyncio.sleep(0.3)  # the worker is busy with it now
    started = time.perf_counter()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - started < 0.5
    six = new_game("six")
    play_whole_turn(six, await thinker.think(six, seconds=0.2))


async def test_cancelling_while_the_pool_starts_still_leaves_a_working_thinker(thinker):
    task = asyncio.create_task(thinker.think(new_game("six"), seconds=0.2))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    game = new_game("connect6", size=9)
    play_whole_turn(game, await thinker.think(game, seconds=0.2))


async def test_a_finished_game_or_an_unknown_level_is_a_value_error(thinker):
    game = new_game("six")
    game.resign(0)
    with pytest.raises(ValueError, match=r"^the game is over: there is no turn to play$"):
        await thinker.think(game)
    with pytest.raises(ValueError, match=r"^there is no level 'expert'"):
        await thinker.think(new_game("six"), level="expert")
    live = new_game("six")
    play_whole_turn(live, await thinker.think(live, seconds=0.2))


async def test_a_dead_worker_is_a_runtime_error_and_the_next_think_works(thinker):
    # A worker killed while still starting is another error ("could not start"): on a
    # busy machine starting can outlast the wait below, so the pool is started first.
    warm = new_game("six")
    play_whole_turn(warm, await thinker.think(warm, seconds=0.05))
    game = slow_position()
    task = asyncio.create_task(thinker.think(game, "hard", seconds=BUDGET, seed=1))
    await asyncio.sleep(0.3)
    workers = multiprocessing.active_children()
    assert workers
    for process in workers:
        process.kill()
    with pytest.raises(RuntimeError, match="worker process died"):
        await task
    six = new_game("six")
    play_whole_turn(six, await thinker.think(six, seconds=0.2))


async def test_close_leaves_no_child_processes_and_ends_the_thinker():
    thinker = Thinker()
    game = slow_position()
    task = asyncio.create_task(thinker.think(game, "hard", seconds=BUDGET, seed=1))
    await asyncio.sleep(0.3)
    assert multiprocessing.active_children()
    task.cancel()
    started = time.perf_counter()
    _, largest = await largest_gap_while(thinker.close())
    assert time.perf_counter() - started < BUDGET + 0.5  # the abandoned job's budget at most
    assert largest < 0.2
    assert multiprocessing.active_children() == []
    with pytest.raises(RuntimeError, match="closed"):
        await thinker.think(new_game("six"))
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_close_before_any_think_is_fine():
    await Thinker().close()
    assert multiprocessing.active_children() == []


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def test_two_workers_think_at_the_same_time():
    async with Thinker(workers=2) as thinker:
        await asyncio.gather(*(thinker.think(new_game("six"), seconds=0.1) for _ in range(2)))
        workers = {process.pid: cpu_seconds(process.pid) for process in active_children()}
        assert len(workers) == 2
        games = [slow_position(), slow_position()]
        turns = [
            asyncio.create_task(thinker.think(game, "hard", seconds=BUDGET, seed=1))
            for game in games
        ]
        # Both workers use the CPU before either turn is over: one after the other, the
        # second would not start until the first had ended, however fast the machine.
        while not all(cpu_seconds(pid) > used + 0.01 for pid, used in workers.items()):
            assert not any(turn.done() for turn in turns), "the turns were thought in turn"
            await asyncio.sleep(0.01)
        for game, moves in zip(games, await asyncio.gather(*turns), strict=True):
            play_whole_turn(game, moves)
    assert active_children() == []


async def test_one_players_crowd_of_tables_keeps_another_waiting_for_one_turn_at_most():
    crowd_turns, seconds = 12, 0.3
    async with Thinker(workers=1) as thinker:
        await thinker.think(new_game("six"), seconds=0.1)  # the worker has started
        started = time.perf_counter()
        await thinker.for_player("other").think(slow_position(), "hard", seconds=seconds)
        alone = time.perf_counter() - started
        crowd = [
            asyncio.create_task(
                thinker.for_player("crowd").think(slow_position(), "hard", seconds=seconds)
            )
            for _ in range(crowd_turns)
        ]
        await asyncio.sleep(0.05)  # the crowd's first turn is with the worker
        started = time.perf_counter()
        other, largest = await largest_gap_while(
            thinker.for_player("other").think(slow_position(), "hard", seconds=seconds)
        )
        crowded = time.perf_counter() - started
        # Behind the crowd's turn under way and its next: never behind all of them.
        assert sum(turn.done() for turn in crowd) <= 2
        assert crowded < 4 * alone, f"{crowded:.2f} s with the crowd, {alone:.2f} s alone"
        assert largest < 0.2
        play_whole_turn(slow_position(), other)
        for turn in crowd:
            play_whole_turn(slow_position(), await turn)


async def test_a_turn_given_up_on_before_a_worker_took_it_is_never_thought_about():
    async with Thinker(workers=1) as thinker:
        busy = asyncio.create_task(thinker.think(slow_position(), "hard", seconds=BUDGET))
        waiting = asyncio.create_task(thinker.for_player("b").think(slow_position(), "hard"))
        await asyncio.sleep(0.1)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert thinker._lines == {}  # nothing is left waiting for the worker
        play_whole_turn(slow_position(), await busy)


LONG = 120.0  # seconds: a turn that would hold its worker far longer than any test waits


async def test_a_turn_given_up_on_while_a_worker_thinks_frees_the_worker_at_once():
    async with Thinker(workers=1) as thinker:
        await thinker.think(new_game("six"), seconds=0.1)  # the worker has started
        given_up = asyncio.create_task(thinker.think(slow_position(), "hard", seconds=LONG))
        await asyncio.sleep(0.5)  # the worker thinks about it now
        given_up.cancel()
        with pytest.raises(asyncio.CancelledError):
            await given_up
        # Had it run on, the next turn would wait two minutes for the worker.
        six = new_game("six")
        play_whole_turn(six, await asyncio.wait_for(thinker.think(six, seconds=0.1), LONG / 4))


async def test_closing_stops_the_turns_under_way():
    thinker = Thinker(workers=1)
    await thinker.think(new_game("six"), seconds=0.1)
    under_way = asyncio.create_task(thinker.think(slow_position(), "hard", seconds=LONG))
    await asyncio.sleep(0.5)
    await asyncio.wait_for(thinker.close(), LONG / 4)
    with pytest.raises(RuntimeError, match="closed"):
        await under_way
    assert active_children() == []


def test_workers_must_be_at_least_one():
    with pytest.raises(ValueError, match="at least one worker"):
        Thinker(workers=0)


def test_docstring_examples_hold():
    failures, _ = doctest.testmod(sixtui.ai.worker)
    assert failures == 0
