"""Game of 6 enclosures as the computer player reads them agree with the rules, and its
reading of the race to six colored cells meets the other team's polygonals."""

import pytest

from sixtui.ai.enclosures import (
    ENCLOSURE_WORTH,
    EnclosureReading,
    Walls,
    closings,
    lines_colored,
    race_pairs,
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


def test_a_dot_that_seals_a_dot_beside_a_colored_cell_is_a_closing():
    # White's N9 has walls on three sides and a cell it colored on the fourth: O9
    # colors N9, White's sixth cell.
    game = new_game("gameof6")
    moves = (
        "I7 I9 M8 M7 L12 L7 K9 K8 L9 J8 J10 M6 L10 K6 N9 J5 P11 J7 L8 K11 M11 N7 O8 J12 K13 "
        "M9 N10 I8 P9 H10 I11"
    )
    for point in moves.split():
        game.play(point)
    board = LineBoard.from_game(game)
    found = dict(closings(Walls.of(board, 1), board))
    assert found[(board.key("O9"),)] == 1
    game.play("G13")
    game.play("I13")
    assert colored_by(game, ["O9"]) == 1


def test_threatened_by_a_line_the_race_pairs_block_beside_a_breaking_dot():
    # White threatens six on the H-row, stopped by H6 alone, and walls in C3 but for C4.
    game = new_game("gameof6", size=10)
    moves = "J10 C2 B3 A10 A9 D3 H3 J1 J3 H4 H5 A1 A3 H7 H8"
    for point in moves.split():
        game.play(point)
    board = LineBoard.from_game(game)
    blocks = [(board.key("H6"), board.key("J8"))]
    block, breaking = board.key("H6"), board.key("C4")
    plain = race_pairs(board, 0, blocks, 4)
    mixed = race_pairs(board, 0, blocks, 4, beside_blocks=True)
    assert tuple(sorted((block, breaking))) not in plain
    assert tuple(sorted((block, breaking))) in mixed
