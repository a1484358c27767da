"""Computer players: how long a turn takes a worker, and how long another player waits for
theirs while one address keeps a crowd of tables thinking.

The turns are the ``hard`` level's in Game of 6 middle games on 19×19 (random play for
:data:`MOVES` moves), where it searches until its time is up, given :data:`SECONDS` each:
the longest kind of turn there is. They are thought in a :class:`~sixtui.ai.worker.Thinker`
with one worker, as the server has on a 2-core machine; each figure is the median of the
runs.

- **alone**: one turn after another, nothing else thinking;
- **crowded**: the same turns asked by another player while :data:`CROWD` tables of one
  address keep a turn each waiting (each asks again as soon as it is answered);
- **one line**: the same, had every table waited in one line (first come, first served);
- **two workers**: two turns at once with two workers, over one alone (1.0: fully side by
  side; 2.0: one after the other).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Iterator

from benchmarks.measure import Figure
from sixtui.ai.worker import Thinker
from sixtui.rules import Game, new_game

MOVES = 60  # random moves into each position
SECONDS = 0.3  # the time each turn is given
TURNS = 3  # turns timed per run
CROWD = 20  # tables of one address, each always thinking


def middle_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = new_game("gameof6")
    while len(game.history) < MOVES:
        game.play(rng.choice(game.legal_moves()))
        if game.result is not None:
            return middle_game(seed + 1000)
    return game


async def timed_turns(thinker: Thinker, player: str | None) -> list[float]:
    taken = []
    for seed in range(TURNS):
        started = time.perf_counter()
        await thinker.think(middle_game(seed), "hard", SECONDS, player=player)
        taken.append(time.perf_counter() - started)
    return taken


async def crowd_table(thinker: Thinker, seed: int, player: str | None) -> None:
    while True:
        await thinker.think(middle_game(seed), "hard", SECONDS, player=player)


async def crowded_turns(thinker: Thinker, crowd: str | None, player: str | None) -> float:
    """The median time of ``player``'s turns while ``crowd`` keeps its tables thinking."""
    tables = [asyncio.create_task(crowd_table(thinker, 100 + seed, crowd)) for seed in range(CROWD)]
    await asyncio.sleep(0.5)
    taken = statistics.median(await timed_turns(thinker, player))
    for table in tables:
        table.cancel()
    await asyncio.gather(*tables, return_exceptions=True)
    return taken


async def one_run() -> tuple[float, float, float, float]:
    async with Thinker(workers=1) as thinker:
        await thinker.think(new_game("six"), seconds=0.1)  # the worker has started
        alone = statistics.median(await timed_turns(thinker, "player"))
        crowded = await crowded_turns(thinker, "crowd", "player")
        one_line = await crowded_turns(thinker, None, None)
    async with Thinker(workers=2) as thinker:
        await asyncio.gather(*(thinker.think(new_game("six"), seconds=0.1) for _ in range(2)))
        started = time.perf_counter()
        await thinker.think(middle_game(0), "hard", SECONDS)
        one = time.perf_counter() - started
        started = time.perf_counter()
        await asyncio.gather(*(thinker.think(middle_game(0), "hard", SECONDS) for _ in range(2)))
        two = time.perf_counter() - started
    return alone, crowded, one_line, two / one


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    del seconds
    done = [asyncio.run(one_run()) for _ in range(runs)]
    yield Figure(
        f"computer: s for a hard Game of 6 turn given {SECONDS:g} s, one worker, alone",
        [d[0] for d in done],
        "s",
        digits=2,
    )
    yield Figure(
        f"computer: s for another player's turn while one address keeps {CROWD} tables thinking",
        [d[1] for d in done],
        "s",
        "≤ 3× alone",
        digits=2,
    )
    yield Figure(
        f"computer: the same, had all {CROWD + 1} tables waited in one line",
        [d[2] for d in done],
        "s",
        digits=2,
    )
    yield Figure(
        "computer: two turns at once on two workers ÷ one alone",
        [d[3] for d in done],
        "×",
        "< 1.6",
        digits=2,
    )
