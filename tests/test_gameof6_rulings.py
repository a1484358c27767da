"""Game of 6 as the rulings read it: one test per ruling.

Positions are built with :func:`arrange`: each side's dots in order, the side
without a dot to place filling in far away (dots two cells apart on the top
rows, which never touch, so they make no line and close nothing).
"""

import pytest

from sixtui.rules import IllegalMove, Result, Square, new_game

FILLERS = {
    0: [f"{c}{r}" for r in (13, 11) for c in "ACEGIKMOQS"],
    1: [f"{c}{r}" for r in (19, 17, 15) for c in "ACEGIKMOQS"],
}


def arrange(black: str = "", white: str = "", size: int = 19):
    """A game where Black (seat 0) has placed ``black`` and White ``white``, in that
    order, and it is Black's turn with two dots to place."""
    g = new_game("gameof6", size=size)
    todo = {0: black.split(), 1: white.split()}
    fillers = {seat: iter(points) for seat, points in FILLERS.items()}
    while todo[0] or todo[1] or g.to_move != 0 or g.stones_left != 2:
        seat = g.to_move
        g.play(todo[seat].pop(0) if todo[seat] else next(fillers[seat]))
        assert g.result is None, "the arranged position ended the game"
    return g


def colored_cells(g) -> dict[str, int]:
    cells = {}
    for row in range(g.size):
        for col in range(g.size):
            team = g.colored(Square(col, row))
            if team is not None:
                cells[str(Square(col, row))] = team
    return cells


def test_the_opener_places_one_dot_then_each_turn_is_two():
    g = new_game("gameof6")
    assert (g.to_move, g.stones_left) == (0, 1)
    g.play("J10")
    assert (g.to_move, g.stones_left) == (1, 2)
    g.play("A1")
    assert (g.to_move, g.stones_left) == (1, 1)


def test_the_diamond_colors_the_cell_it_surrounds():
    g = arrange(black="C4 E4 D5")
    g.play("D3")
    assert g.colored("D4") == 0
    assert g.colored_count(0) == 1
    assert colored_cells(g) == {"D4": 0}


def test_a_colored_cell_is_out_of_play_already_for_the_second_dot_of_the_turn():
    g = arrange(black="C4 E4 D5")
    g.play("D3")  # the first dot of the turn colors D4
    assert "D4" not in {str(m) for m in g.legal_moves()}
    with pytest.raises(IllegalMove, match="D4 is colored and out of play"):
        g.play("D4")
    assert g.stones_left == 1


def test_a_dot_goes_only_on_an_empty_cell():
    g = arrange(black="C4", white="K10")
    with pytest.raises(IllegalMove, match="K10 is taken"):
        g.play("K10")


def test_an_opponent_dot_inside_is_colored_and_then_counts_for_nothing_in_a_line():
    g = arrange(black="C4 E4 D5", white="D4")
    g.play("D3")
    assert (g.colored("D4"), g.at("D4")) == (0, 1)  # White's dot stands, dead
    # White's diagonal A1-F6 would be six with a live D4.
    g.play("L10")
    for point in ["A1", "B2", "C3", "E5", "F6"]:
        if g.to_move == 0:
            g.play(FILLERS[0].pop())
        g.play(point)
    assert g.result is None


def test_a_dead_dot_is_no_part_of_a_polygonal():
    g = arrange(black="C4 E4 D5", white="D4")
    g.play("D3")  # White's D4 dies
    g.play("L10")
    g.play("F4"), g.play("E5")
    g.play("M12"), g.play("N14")
    g.play("E3")
    # E4 is Black's dot; White's F4 E5 E3 and a live D4 would enclose it.
    assert g.colored("E4") is None


def test_own_dots_strictly_inside_a_polygonal_are_colored():
    g = arrange(black="C3 B2 C2 D2 B3 D3 B4 C4")
    g.play("D4")  # the 3×3 block is complete: its centre C3 is inside the ring
    assert colored_cells(g) == {"C3": 0}
    assert g.at("C3") == 0


def test_the_board_edge_is_no_wall():
    g = arrange(black="B1 B2 C3 D2")
    g.play("D1")  # a U open to the bottom edge: C1 and C2 are reached from outside
    assert colored_cells(g) == {}
    g.play("K10")
    g = arrange(black="A2")
    g.play("B1")  # the corner A1 is on the edge
    assert colored_cells(g) == {}


def test_closing_a_polygonal_along_the_edge_row_colors_what_it_encloses():
    g = arrange(black="B1 B2 C3 D2 D1")
    g.play("C1")
    assert colored_cells(g) == {"C2": 0}


def test_a_polygonal_may_be_enlarged_and_newly_enclosed_cells_take_the_color_then():
    g = arrange(black="C4 E4 D5 D3 F4 E5")
    assert colored_cells(g) == {"D4": 0}
    g.play("E3")  # with F4 E5 E3 the diamond's E4 is now strictly inside too
    assert colored_cells(g) == {"D4": 0, "E4": 0}


def test_colored_cells_never_change_color():
    g = arrange(black="C4 E4 D5 D3", white="C2 D2 E2 B3 B4 B5 F3 F4 F5 C6 D6")
    assert colored_cells(g) == {"D4": 0}
    g.play("K10"), g.play("M10")
    g.play("E6")  # White's ring encloses C3..E5, Black's D4 among them
    assert g.colored("D4") == 0
    assert colored_cells(g) == {
        "D4": 0,
        "C4": 1,
        "E4": 1,
        "D5": 1,
        "D3": 1,
        "C3": 1,
        "E3": 1,
        "C5": 1,
        "E5": 1,
    }
    assert g.result == Result(1, "colored-cells", (1, 6))


def test_six_colored_cells_win_even_far_apart():
    g = arrange(black="K10 M10 L11 L9 C2 D2 E2 F2 G2 C4 D4 E4 F4 G4 B3")
    assert g.colored_count(0) == 1
    g.play("H3")  # encloses C3..G3: five more
    assert g.colored_count(0) == 6
    assert g.result == Result(0, "colored-cells", (6, 0))


def test_five_colored_cells_do_not_win():
    g = arrange(black="C2 D2 E2 F2 G2 C4 D4 E4 F4 G4 B3")
    g.play("H3")
    assert g.colored_count(0) == 5
    assert g.result is None


def test_a_line_of_six_prevails_over_an_enclosure_made_by_the_same_dot():
    g = arrange(black="B5 C5 D5 E5 F5 G3 F4 H4")
    g.play("G5")  # six in row 5 and the fourth side of a diamond round G4
    assert g.result == Result(0, "six-in-a-row", (6, 0))
    assert g.colored("G4") is None
    assert g.colored_count(0) == 0


def test_a_colored_cell_breaks_a_line():
    g = arrange(black="D4", white="C4 E4 D5")
    g.play("A1")
    g.play("B2")
    g.play("D3")  # White colors D4 under Black's dot
    g.play("K12")
    g.play("C3"), g.play("E5")
    g.play("B18"), g.play("D18")
    g.play("F6")  # A1 B2 C3 (D4) E5 F6: only five live dots
    assert g.result is None


# A random game on an 8×8 board that fills it: 64 dots, a few cells colored with
# dots under them, and a last turn that begins with one empty cell.
FULL_BOARD_GAME = [
    "A5",
    "A7",
    "G3",
    "F7",
    "G6",
    "C8",
    "D7",
    "D6",
    "D5",
    "B1",
    "H8",
    "H4",
    "E8",
    "A3",
    "C7",
    "E1",
    "E2",
    "B2",
    "F4",
    "A6",
    "E3",
    "C5",
    "E7",
    "A2",
    "B8",
    "H3",
    "A1",
    "F3",
    "E6",
    "E4",
    "C3",
    "F6",
    "B3",
    "B7",
    "H7",
    "F1",
    "C2",
    "B6",
    "C6",
    "B5",
    "D2",
    "F2",
    "C1",
    "D1",
    "B4",
    "C4",
    "A4",
    "D4",
    "H5",
    "G4",
    "H2",
    "G7",
    "F8",
    "G8",
    "D3",
    "G2",
    "F5",
    "G5",
    "E5",
    "G1",
    "A8",
    "H6",
    "H1",
    "D8",
]


def test_no_empty_cell_left_is_a_draw_scored_by_colored_cells():
    g = new_game("gameof6", size=8)
    for point in FULL_BOARD_GAME[:-1]:
        g.play(point)
    assert len(g.legal_moves()) == 1 and g.stones_left == 1
    g.play(FULL_BOARD_GAME[-1])
    counts = (g.colored_count(0), g.colored_count(1))
    assert sum(counts) > 0
    assert g.result == Result(None, "board-full", counts)


def test_a_turn_that_begins_with_one_empty_cell_is_one_dot():
    g = new_game("gameof6", size=8)
    for point in FULL_BOARD_GAME:
        seat_before = g.to_move
        g.play(point)
        if g.result is None and g.to_move != seat_before:
            assert g.stones_left == min(2, len(g.legal_moves()))


def test_points_winner_six_loser_one_per_colored_cell():
    g = arrange(black="C4 E4 D5", white="L4 N4 M5 M3 Q4 S4 R5")
    assert g.colored_count(1) == 1
    g.resign(1)
    assert g.result == Result(0, "resign", (6, 1))


def test_points_on_resignation_count_the_winners_six():
    g = arrange(black="C4 E4 D5 D3")
    g.resign(0)
    assert g.result == Result(1, "resign", (1, 6))


@pytest.mark.parametrize("size", [8, 19, 26])
def test_board_sizes_from_8_to_26_use_columns_up_to_z(size):
    g = new_game("gameof6", size=size)
    assert len(g.legal_moves()) == size * size
    assert str(g.legal_moves()[-1]) == f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[size - 1]}{size}"


@pytest.mark.parametrize("size", [7, 27])
def test_other_sizes_are_refused(size):
    with pytest.raises(ValueError, match="8 to 26"):
        new_game("gameof6", size=size)
