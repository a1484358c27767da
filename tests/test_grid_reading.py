"""Reading a whole square board at once agrees with reading it point by point."""

from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.rules import Square
from support.turns import random_position


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(["connect6", "gameof6"]),
    size=st.integers(8, 13),
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 60),
)
def test_layout_and_colored_cells_match_every_point(name, size, seed, turns):
    game = random_position(name, {"size": size}, seed, turns)
    points = [Square(col, row) for col in range(size) for row in range(size)]
    stones = {point: game.at(point) for point in points if game.at(point) is not None}
    colored = {point: game.colored(point) for point in points if game.colored(point) is not None}
    assert game.layout() == stones
    assert game.colored_cells() == colored
    assert len(stones) == len(game.history)


def test_an_enclosure_shows_in_colored_cells_and_its_dead_dot_in_the_layout():
    from sixtui.rules import new_game

    game = new_game("gameof6", size=9)
    for point in ["D5", "D4", "A1", "C4", "E4", "A3", "A5", "D3"]:
        game.play(point)
    assert game.colored_cells() == {Square.parse("D4"): 0}
    assert game.layout()[Square.parse("D4")] == 1  # White's dot, dead, is still there
