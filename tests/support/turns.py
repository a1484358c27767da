"""Whole turns and random positions, shared by the computer-player tests."""

import random
from dataclasses import replace

from sixtui.ai import choose_turn
from sixtui.rules import new_game

TEST_POSITIONS = {
    ("grid", "easy"): 1500,
    ("grid", "normal"): 8000,
    ("six", "easy"): 20,
    ("six", "normal"): 80,
}
"""Positions searched in a test turn by the levels that think their whole time through
(about their first search's worth): a count keeps the suites quick, and their turns
repeatable however busy the machine is."""


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
    time when ``None``), or :data:`TEST_POSITIONS` positions for the levels listed there."""
    positions = TEST_POSITIONS.get(("six" if game.name == "six" else "grid", level))
    if positions is not None:
        return choose_turn(game, level=level, seed=seed, positions=positions)
    return choose_turn(game, level=level, seed=seed, seconds=seconds)
