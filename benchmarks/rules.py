"""The rules engines through their public API: random games, single calls, saving."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from benchmarks.measure import Figure, rate
from sixtui.rules import Game, load_game, new_game

GAMES_PER_SECOND_TARGETS = {"connect6": "≥ 1,000", "gameof6": "≥ 250"}


def random_game(name: str, rng: random.Random) -> Game:
    """One complete game of random moves, through ``legal_moves()`` and ``play()``."""
    game = new_game(name)
    while game.result is None:
        game.play(rng.choice(game.legal_moves()))
    return game


def play_microseconds(games: list[Game]) -> float:
    """Replays finished games: µs per ``play()``."""
    played = 0
    start = time.perf_counter()
    for finished in games:
        game = new_game(finished.name)
        for move in finished.history:
            game.play(move)
        played += len(finished.history)
    return (time.perf_counter() - start) / played * 1e6


def positions(games: list[Game]) -> list[Game]:
    """Every position met in ``games``, as independent copies."""
    met = []
    for finished in games:
        game = new_game(finished.name)
        for move in finished.history:
            met.append(game.copy())
            game.play(move)
    return met


def legal_moves_microseconds(met: list[Game]) -> float:
    """µs per ``legal_moves()`` over positions met in real games."""
    start = time.perf_counter()
    for game in met:
        game.legal_moves()
    return (time.perf_counter() - start) / len(met) * 1e6


def save_figures(game: Game, repeats: int = 2000) -> tuple[int, float, float]:
    """Size of ``to_bytes()``, µs per ``to_bytes()`` and per ``load_game()``."""
    data = game.to_bytes()
    start = time.perf_counter()
    for _ in range(repeats):
        game.to_bytes()
    save_us = (time.perf_counter() - start) / repeats * 1e6
    start = time.perf_counter()
    for _ in range(repeats // 20):
        load_game(data)
    load_us = (time.perf_counter() - start) / (repeats // 20) * 1e6
    return len(data), save_us, load_us


def games_per_second(name: str, seconds: float) -> float:
    rng = random.Random(2026)

    def one_game() -> int:
        random_game(name, rng)
        return 1

    return rate(one_game, seconds)


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    for name in ("connect6", "gameof6"):
        yield Figure(
            f"{name} 19×19: random complete games per second",
            [games_per_second(name, seconds) for _ in range(runs)],
            "games/s",
            GAMES_PER_SECOND_TARGETS[name],
            digits=0,
        )
        sample = [random_game(name, random.Random(seed)) for seed in range(100)]
        moves = sum(len(g.history) for g in sample) / len(sample)
        yield Figure(
            f"{name}: µs per play() (random games, {moves:.0f} moves on average)",
            [play_microseconds(sample) for _ in range(runs)],
            "µs",
            digits=2,
        )
        met = positions(sample[:10])
        yield Figure(
            f"{name}: µs per legal_moves() (positions of those games)",
            [legal_moves_microseconds(met) for _ in range(runs)],
            "µs",
            digits=2,
        )
        finished = max(sample, key=lambda g: len(g.history))
        saves = [save_figures(finished) for _ in range(runs)]
        longest = len(finished.history)
        yield Figure(
            f"{name}: to_bytes() size, longest of those games ({longest} moves)",
            [s[0] for s in saves],
            "bytes",
            "< 2,048",
            digits=0,
        )
        yield Figure(
            f"{name}: µs per to_bytes() of that game", [s[1] for s in saves], "µs", "< 100"
        )
        yield Figure(
            f"{name}: µs per load_game() of that game", [s[2] for s in saves], "µs", digits=0
        )
