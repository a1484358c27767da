"""Whole turns and random positions, shared by the computer-player tests."""

import random
from dataclasses import replace

from sixtui.ai import LEVEL_SECONDS, choose_turn
from sixtui.ai.grid_allowance import STONES_PER_SECOND
from sixtui.rules import new_game

TEST_POSITIONS = {
    ("grid", "easy"): 1500,
    ("grid", "normal"): 8000,
    ("six", "easy"): 20,
    ("six", "normal"): 160,
    ("six", "hard"): 300,
}
"""Positions searched in a test turn by the levels that think their whole time through
(about their first search's worth; Six's hard, its first few plies): a count keeps the
suites quick, and their turns repeatable however busy the machine is."""


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
    """The turn of ``level`` seeded by ``seed``: :data:`TEST_POSITIONS` positions for the
    levels listed there; for hard in Connect6 and Game of 6, the stones ``seconds`` (its
    own time when ``None``) are worth on an unhurried machine; else ``seconds`` of thought."""
    grid = game.name != "six"
    positions = TEST_POSITIONS.get(("grid" if grid else "six", level))
    if positions is None and grid and level == "hard":
        worth = LEVEL_SECONDS[level] if seconds is None else seconds
        positions = round(worth * STONES_PER_SECOND)
    if positions is not None:
        return choose_turn(game, level=level, seed=seed, positions=positions)
    return choose_turn(game, level=level, seed=seed, seconds=seconds)
