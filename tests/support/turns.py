"""Whole turns and random positions, shared by the computer-player tests."""

import random
import time
from dataclasses import replace

from sixtui.ai import choose_turn
from sixtui.ai.grid import choose_grid_turn
from sixtui.rules import new_game

EASY_STONES = 1500
"""Stones easy puts down in a test turn of Connect6 or Game of 6: it thinks its whole time
through, so a count of stones keeps the suites quick and its turns repeatable however busy
the machine is."""


def play_whole_turn(game, moves):
    """Plays ``moves`` checking each is legal, and that together they end the turn."""
    seat = game.to_move
    stones = game.stones_left if game.name != "six" else 1
    assert 1 <= len(moves) <= stones
    for move in moves:
        assert game.result is None and game.to_move == seat
        plain = replace(move, declare=False) if move.to is not None else move
        assert plain in game.legal_moves(), f"{move} is not legal"
        game.play(move)
    assert game.result is not None or (len(moves) == stones and game.to_move != seat)


def random_position(name, options, seed, turns):
    """A game after ``turns`` random moves that did not end it."""
    rng = random.Random(seed)
    game = new_game(name, **options)
    for _ in range(turns):
        moves = game.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            game.play(move)
            if game.result is None:
                break
            game.undo()
    return game


def level_turn(game, level, seed, seconds=None):
    """The turn of ``level`` seeded by ``seed``: ``seconds`` of thought (the level's own
    time when ``None``), but :data:`EASY_STONES` stones for easy in Connect6 and Game of 6."""
    if level == "easy" and game.name != "six":
        deadline = time.perf_counter() + 30
        return choose_grid_turn(game, level, deadline, random.Random(seed), stones=EASY_STONES)
    return choose_turn(game, level=level, seed=seed, seconds=seconds)
