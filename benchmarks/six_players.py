"""The computer players of Six against one another, each at its own default time.

python -m benchmarks.six_players [--games N] [--pairs A:B,...] [--game NAME ...] [--workers W]
                                 [--first-opening SEED]

``python -m benchmarks ai`` gives every level the same time; here each level of
:func:`sixtui.ai.choose_turn` thinks for its :data:`~sixtui.ai.LEVEL_SECONDS`, as in
play, and ``random`` plays uniformly random legal moves. Openings, colours, the
move cap and the table are those of :mod:`benchmarks.ai`; a line per game is printed
as it ends, so a long run shows how it goes.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.ai import (
    GAME_OPTIONS,
    TABLE_HEAD,
    GameJob,
    GameRecord,
    PairResult,
    Thinking,
    pair_jobs,
    parse_pairs,
    play_in_workers,
    random_opening,
    think,
)
from sixtui.ai import LEVEL_SECONDS

SECONDS = {"random": 0.0, **LEVEL_SECONDS}
SIX_GAMES = tuple(name for name in GAME_OPTIONS if name.startswith("six"))


def parser() -> argparse.ArgumentParser:
    options = argparse.ArgumentParser(
        prog="python -m benchmarks.six_players",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    options.add_argument("--games", type=int, default=20, help="games per pair in each game")
    options.add_argument("--pairs", default="easy:random,normal:easy,hard:normal")
    options.add_argument("--game", action="append", choices=SIX_GAMES)
    options.add_argument("--workers", type=int, default=1)
    options.add_argument(
        "--first-opening", type=int, default=0, help="seed of the first opening: more games"
    )
    return options


def game_line(record: GameRecord) -> str:
    """One finished game: its opening, who held which colour, the winner and its length."""
    job = record.job
    winner = "draw" if record.winner is None else job.team_levels[record.winner]
    return f"  opening {job.opening_seed}: {' vs '.join(job.team_levels)} -> {winner}, " + (
        f"{record.moves} moves"
    )


PACE = 0.1  # a turn should take its time give or take this share of it


@dataclass
class PacedRecord(GameRecord):
    """A game with, for each level, the seconds of its turns that did not win at once."""

    paced: dict[str, list[float]] = field(default_factory=dict)


def play_contest(job: GameJob) -> PacedRecord:
    """:func:`benchmarks.ai.play_game` of Six, keeping the seconds of every turn."""
    game = random_opening(job.game, job.opening_seed)
    rng = random.Random(job.opening_seed * 7919 + 1)
    opening_length = len(game.history)
    record = PacedRecord(job, thinking={level: Thinking() for level in job.team_levels})
    while game.result is None and len(game.history) - opening_length < job.move_cap:
        level = job.team_levels[game.team(game.to_move)]
        log, seconds = record.thinking[level], job.seconds[level]
        started = time.perf_counter()
        turn = think(game, level, seconds, rng, log)
        spent = time.perf_counter() - started
        game.play(turn[0])
        if game.result is None:
            record.paced.setdefault(level, []).append(spent)
    record.moves = len(game.history) - opening_length
    record.winner = None if game.result is None else game.result.winner
    return record


def pace_line(level: str, spent: list[float]) -> str:
    """How many of a level's turns (wins at once aside) kept to its time, give or take
    :data:`PACE`."""
    budget = SECONDS[level]
    early = sum(seconds < budget * (1 - PACE) for seconds in spent)
    late = sum(seconds > budget * (1 + PACE) for seconds in spent)
    return (
        f"  {level}: {len(spent)} turns (wins at once aside) of {budget:g} s: {early} early, "
        f"{late} late, {min(spent, default=0):.3f} - {max(spent, default=0):.3f} s"
    )


def run(
    games: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    count: int,
    workers: int,
    first_opening: int = 0,
) -> None:
    """Plays every pair in every game and prints its row of the table as it ends."""
    rows = []
    for game in games:
        for pair in pairs:
            result = PairResult(game, pair)
            spent: dict[str, list[float]] = {level: [] for level in pair}
            for record in play_in_workers(
                play_contest, pair_jobs(game, pair, count, SECONDS, first_opening), workers
            ):
                result.add(record)
                for level, seconds in record.paced.items():
                    spent[level] += seconds
                print(game_line(record), flush=True)
            rows.append(result.row())
            print(rows[-1], flush=True)
            print("\n".join(pace_line(level, spent[level]) for level in pair if level != "random"))
    print(f"\nPython {platform.python_version()}, {workers} worker(s), seconds per turn:", end=" ")
    print(", ".join(f"{level} {seconds:g}" for level, seconds in LEVEL_SECONDS.items()))
    print(TABLE_HEAD)
    print("\n".join(rows))


def main(arguments: Sequence[str]) -> None:
    args = parser().parse_args(arguments)
    try:
        pairs = parse_pairs(args.pairs)
    except ValueError as error:
        sys.exit(str(error))
    run(args.game or SIX_GAMES[:2], pairs, args.games, args.workers, args.first_opening)


if __name__ == "__main__":
    main(sys.argv[1:])
