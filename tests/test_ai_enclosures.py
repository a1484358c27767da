"""Game of 6 enclosures as the computer player reads them agree with the rules, and its
reading of the race to six colored cells meets the other team's polygonals."""

import pytest

from sixtui.ai.enclosures import (
    ENCLOSURE_WORTH,
    EnclosureReading,
    Walls,
    closings,
    lines_colored,
)
from sixtui.ai.line_patterns import LineBoard
from sixtui.rules import IllegalMove, new_game
from support.turns import random_position


def colored_by(game, points):
    """How many cells the seat to move colors by playing ``points`` in its turn (``None``
    when a dot is refused, makes six or falls in the next turn); ``game`` is kept."""
    team, before = game.to_move, game.colored_count(game.to_move)
    played = 0
    try:
        for point in points:
            if game.to_move != team:
                return None
            game.play(point)
            played += 1
            if game.result is not None and game.result.reason == "six-in-a-row":
                return None
        return game.colored_count(team) - before
    except IllegalMove:
        return None
    finally:
        for _ in range(played):
            game.undo()


@pytest.mark.parametrize("seed", range(6))
def test_a_dot_colors_what_the_rules_color(seed):
    game = random_position("gameof6", {"size": 9 + seed}, seed, turns=25 + 8 * seed)
    board = LineBoard.from_game(game)
    walls = Walls.of(board, game.to_move)
    for key in range(board.size**2):
        square = board.square(key)
        if game.at(square) is None and game.colored(square) is None:
            colored = colored_by(game, [square])
            if colored is not None:
                assert walls.gain((key,)) == colored, str(square)


@pytest.mark.parametrize("seed", range(6))
def test_every_closing_found_colors_what_it_says(seed):
    game = random_position("gameof6", {"size": 9 + seed}, 100 + seed, turns=30 + 8 * seed)
    board = LineBoard.from_game(game)
    for keys, gain in closings(Walls.of(board, game.to_move), board):
        colored = colored_by(game, [board.square(key) for key in keys])
        assert colored in (None, gain)


def test_the_reading_breaks_a_polygonal_rather_than_play_inside_it():
    # White walls in E5-F6 but for G5 and G6: its next turn colors four cells, Black's
    # dots inside them included, unless Black takes G5 or G6 now.
    game = new_game("gameof6", size=12)
    for point in ["A12", "E4", "F4", "C12", "J12", "E7", "F7", "L1", "L10", "D5", "D6"]:
        game.play(point)
    board = LineBoard.from_game(game)
    reading = EnclosureReading(board, 0, (0, 0))
    inside = reading.value((board.key("E6"), board.key("D7")))
    breaking = reading.value((board.key("G5"), board.key("F5")))
    assert inside <= -4 * ENCLOSURE_WORTH
    assert breaking > inside + 2 * ENCLOSURE_WORTH


def test_a_dot_that_walls_in_its_own_dot_is_seen_to_kill_it():
    board = LineBoard(8)
    for point in ["C3", "B3", "D3", "C2"]:
        board.play(board.key(point), 0)
    walls = Walls.of(board, 0)
    assert walls.colors_own_dots([board.key("C4")])
    assert not walls.colors_own_dots([board.key("F6")])
    colored = walls.enclosed(walls.with_walls([board.key("C4")]))
    # C3's dot dies with the cell: Black's row B3-D3 and column C2-C4 lose their lines.
    assert lines_colored(board, 0, colored) < 0
