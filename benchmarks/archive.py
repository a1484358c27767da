"""The game archive: writing a game that ended, and reading a player's page, with
:data:`GAMES` games in the archive, all of them the profiled player's.

An archive file in a temporary folder is filled with :data:`GAMES` rated games of
Connect6 between one player and :data:`OPPONENTS` others (each a few random stones, then
a resignation), then each run times :data:`TIMED` more writes (the whole transaction: the
game, its seats and both ratings) and :data:`TIMED` openings of the player's page (their
ratings and last ten games, as ``profile NAME`` shows them). The figures are the median
and the 99th percentile of a run, median of the runs.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from benchmarks.measure import Figure
from benchmarks.rooms import percentile
from sixtui.rules import Game, new_game
from sixtui.server.archive import Ended, open_archive
from sixtui.server.player_pages import profile_page
from sixtui.server.table_state import SeatHolder

GAMES = 10_000
OPPONENTS = 50
TIMED = 200
PLAYER = SeatHolder("ann", "SHA256:ann")


def short_game(rng: random.Random) -> Game:
    game = new_game("connect6")
    for _ in range(rng.randrange(1, 12)):
        game.play(rng.choice(game.legal_moves()))
    game.resign(rng.randrange(2))
    return game


def one_run(folder: Path, rng: random.Random) -> tuple[list[float], list[float]]:
    """Seconds each of :data:`TIMED` writes took, then each page opening."""
    archive = open_archive(folder)
    opponents = [SeatHolder(f"p{n}", f"SHA256:p{n}") for n in range(OPPONENTS)]
    games = [short_game(rng) for _ in range(TIMED)]

    def ended(game: Game) -> Ended:
        return Ended(game, (PLAYER, rng.choice(opponents)), ended=time.time())

    while archive.count() < GAMES:
        archive.add(ended(short_game(rng)))
    writes = []
    for game in games:
        start = time.perf_counter()
        archive.add(ended(game))
        writes.append(time.perf_counter() - start)
    pages = []
    for _ in range(TIMED):
        start = time.perf_counter()
        profile_page(archive, "ann")
        pages.append(time.perf_counter() - start)
    archive.close()
    return writes, pages


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    rng = random.Random(1)
    done = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):  # the same file, a little fuller each run
            done.append(one_run(Path(folder), rng))
    for index, what in enumerate(("writing a game that ended", "opening a player's page")):
        yield Figure(
            f"archive: ms {what}, {GAMES:,}+ games in it, p50",
            [1000 * statistics.median(times[index]) for times in done],
            "ms",
            "≤ 5",
            digits=2,
        )
        yield Figure(
            "archive: the same, p99",
            [1000 * percentile(times[index], 0.99) for times in done],
            "ms",
            "≤ 50",
            digits=2,
        )
