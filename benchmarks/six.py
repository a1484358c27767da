"""Six through its public API: random games per ruleset, second-round move lists."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from benchmarks.measure import Figure, rate
from sixtui.rules import Game, new_game
from sixtui.rules.six import RULESETS

FULL_TABLE = 38  # steffen, 2 players: every piece placed, none captured yet


def random_six(options: dict, rng: random.Random) -> Game:
    game = new_game("six", **options)
    while game.result is None:
        game.play(rng.choice(game.legal_moves()))
    return game


def games_per_second(options: dict, seconds: float, seed: int) -> float:
    rng = random.Random(seed)

    def one_game() -> int:
        random_six(options, rng)
        return 1

    return rate(one_game, seconds)


def full_tables(count: int) -> list[Game]:
    """Positions that open the second round of steffen games: 38 pieces on the table."""
    found = []
    rng = random.Random(38)
    while len(found) < count:
        game = new_game("six")
        while game.result is None and len(game.layout()) < FULL_TABLE:
            game.play(rng.choice(game.legal_moves()))
        if game.result is None and game.in_hand(game.to_move) == 0:
            found.append(game)
    return found


def legal_moves_microseconds(positions: list[Game], repeats: int = 5) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        for game in positions:
            game.legal_moves()
    return (time.perf_counter() - start) / (repeats * len(positions)) * 1e6


def declaring_games(count: int, moves: int) -> list[Game]:
    """Romanian games with declaring, ``moves`` random moves long (or shorter if over):
    every move brings the shapes on the table up to date."""
    games = []
    rng = random.Random(6)
    for _ in range(count):
        game = new_game("six", ruleset="romanian", declare=True)
        while game.result is None and len(game.history) < moves:
            game.play(rng.choice(game.legal_moves()))
        games.append(game)
    return games


def replay_microseconds(games: list[Game]) -> float:
    """Replays ``games`` from the start: µs per ``play()``."""
    played = 0
    start = time.perf_counter()
    for finished in games:
        game = new_game("six", **finished.options())
        for move in finished.history:
            game.play(move)
        played += len(finished.history)
    return (time.perf_counter() - start) / played * 1e6


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    """Each ruleset after one untimed run: the engine keeps the moves it has made (see
    ``sixtui.rules.six_moves.MoveCache``), and a server that has played a while has them all."""
    for ruleset in RULESETS:
        for players in (2, 4):
            options = {"ruleset": ruleset, "players": players}
            games_per_second(options, seconds, seed=-1)  # untimed: fills the move cache
            yield Figure(
                f"six {ruleset}, {players} players: random complete games per second",
                [games_per_second(options, seconds, seed) for seed in range(runs)],
                "games/s",
                "≥ 150" if (ruleset, players) == ("steffen", 2) else "",
                digits=0,
            )
    positions = full_tables(100)
    moves = sum(len(game.legal_moves()) for game in positions) / len(positions)
    yield Figure(
        f"six steffen: µs per legal_moves(), second round, 38 pieces ({moves:.0f} moves)",
        [legal_moves_microseconds(positions) for _ in range(runs)],
        "µs",
    )
    declaring = declaring_games(20, 150)
    yield Figure(
        "six romanian declaring: µs per play(), 20 random games of 150 moves replayed",
        [replay_microseconds(declaring) for _ in range(runs)],
        "µs",
    )
