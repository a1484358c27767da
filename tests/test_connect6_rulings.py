"""Connect6 as the rulings read it: one test per ruling."""

import pytest

from sixtui.rules import IllegalMove, Result, Square, new_game


def test_seat_0_is_black_and_opens_with_exactly_one_stone():
    g = new_game("connect6")
    assert (g.to_move, g.stones_left) == (0, 1)
    g.play("J10")
    assert (g.to_move, g.stones_left) == (1, 2)


def test_after_the_opening_hands_are_two_stones_alternating(turns):
    g = new_game("connect6")
    turns(g, "J10", "K10 K11")
    assert (g.to_move, g.stones_left) == (0, 2)
    g.play("A1")
    assert (g.to_move, g.stones_left) == (0, 1)
    g.play("A2")
    assert (g.to_move, g.stones_left) == (1, 2)


def test_the_two_stones_of_a_hand_go_on_two_different_empty_points(turns):
    g = new_game("connect6")
    turns(g, "J10")
    g.play("K10")
    with pytest.raises(IllegalMove, match="K10 is taken"):
        g.play("K10")
    with pytest.raises(IllegalMove, match="J10 is taken"):
        g.play("J10")


def test_columns_run_a_to_s_with_i_and_rows_1_to_19_bottom_to_top():
    g = new_game("connect6")
    g.play("i9")
    assert g.at("I9") == 0
    assert Square.parse("A1") == Square(0, 0)
    assert Square.parse("S19") == Square(18, 18)
    assert [str(m) for m in g.legal_moves()][:2] == ["A1", "B1"]
    assert str(g.legal_moves()[-1]) == "S19"


@pytest.mark.parametrize("point", ["T4", "A20", "A0", "Z1"])
def test_points_off_the_board_are_refused(point):
    g = new_game("connect6")
    with pytest.raises(IllegalMove, match=f"{point} is off the board"):
        g.play(point)


@pytest.mark.parametrize("text", ["", "J", "10", "J10K", "JJ10", "J-1", "J 10", None, 42])
def test_text_that_is_not_a_point_is_refused_with_an_example(text):
    g = new_game("connect6")
    with pytest.raises(IllegalMove, match="like J10"):
        g.play(text)
    assert g.history == []


def test_input_is_case_insensitive():
    g = new_game("connect6")
    g.play("j10")
    assert [str(m) for m in g.history] == ["J10"]


LINES = {
    "horizontal": ("C5 D5 E5 F5 G5", "H5"),
    "vertical": ("C5 C6 C7 C8 C9", "C10"),
    "diagonal": ("C5 D6 E7 F8 G9", "H10"),
    "anti-diagonal": ("C10 D9 E8 F7 G6", "H5"),
}


def _black_builds(line: str, last: str):
    """Black places ``line`` then ``last``; White answers far away on row 19 and 17."""
    g = new_game("connect6")
    black = [*line.split(), last]
    white = iter(f"{c}{r}" for r in (19, 17) for c in "ACEGIKMOQS")
    g.play(black[0])
    rest = black[1:]
    while g.result is None:
        for _ in range(g.stones_left):
            if g.to_move == 1:
                g.play(next(white))
            elif g.result is None:
                g.play(rest.pop(0))
    return g


@pytest.mark.parametrize("direction", LINES)
def test_six_in_an_unbroken_line_wins_in_every_direction(direction):
    line, last = LINES[direction]
    g = _black_builds(line, last)
    assert g.result == Result(0, "six-in-a-row", ())
    assert {str(s) for s in g.winning_cells()} == {*line.split(), last}


def test_five_in_a_row_is_not_a_win(turns):
    g = new_game("connect6")
    turns(g, "C5", "A19 C19", "D5 E5", "E19 G19", "F5 G5")
    assert g.result is None


def test_overlines_win(turns):
    g = new_game("connect6")
    # Black: C5 D5 E5 and G5 H5 I5, then F5 joins them into seven.
    turns(g, "C5", "A19 C19", "D5 E5", "E19 G19", "G5 H5", "I19 K19", "I5 A17", "M19 O19")
    assert g.result is None
    g.play("F5")
    assert g.result == Result(0, "six-in-a-row", ())
    assert len(g.winning_cells()) == 7


def test_the_game_ends_at_the_stone_that_makes_six(turns):
    g = new_game("connect6")
    turns(g, "C5", "A19 C19", "D5 E5", "E19 G19", "F5 G5", "I19 K19")
    g.play("H5")  # the first stone of Black's hand
    assert g.result is not None and g.result.winner == 0
    assert g.legal_moves() == []
    assert g.stones_left == 0
    with pytest.raises(IllegalMove, match="the game is over"):
        g.play("A1")


def test_a_stone_of_the_other_color_breaks_the_line(turns):
    g = new_game("connect6")
    turns(g, "C5", "F5 A19", "D5 E5", "C19 E19", "G5 H5", "G19 I19", "I5 J5")
    assert g.result is None


def _stripes(col: int, row: int) -> int:
    """A 6×6 coloring with no six in a line: pairs of columns alternating each row."""
    return (col // 2 + row) % 2


def test_full_board_without_a_line_is_a_draw_and_a_lone_last_empty_point_is_a_one_stone_turn():
    g = new_game("connect6", size=6)
    waiting = {
        team: [Square(c, r) for r in range(6) for c in range(6) if _stripes(c, r) == team]
        for team in (0, 1)
    }
    while len(g.legal_moves()) > 1:
        g.play(waiting[g.to_move].pop())
    assert g.stones_left == 1  # 36 points: the last hand has one empty point to fill
    assert g.result is None
    g.play(waiting[g.to_move].pop())
    assert g.result == Result(None, "board-full", ())
    assert not waiting[0] and not waiting[1]


def test_any_seat_may_resign_while_the_game_runs_and_the_other_team_wins(turns):
    g = new_game("connect6")
    turns(g, "J10")
    g.resign(0)  # seat 1 is to move; seat 0 may still resign
    assert g.result == Result(1, "resign", ())
    assert g.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        g.resign(1)
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        g.undo()


@pytest.mark.parametrize("seat", [2, -1, "0", None, True])
def test_resigning_for_a_seat_that_does_not_exist_is_refused(seat):
    g = new_game("connect6")
    with pytest.raises(IllegalMove, match="no seat"):
        g.resign(seat)
    assert g.result is None


@pytest.mark.parametrize("size", [6, 12, 19])
def test_board_sizes_from_6_to_19(size):
    g = new_game("connect6", size=size)
    assert len(g.legal_moves()) == size * size


@pytest.mark.parametrize("size", [5, 20, 0, "19", 19.0, True])
def test_other_board_sizes_are_refused_with_the_range(size):
    with pytest.raises(ValueError, match=r"6 to 19|whole number"):
        new_game("connect6", size=size)


def test_unknown_options_are_named():
    with pytest.raises(ValueError, match=r"no option 'sise'; its options: size"):
        new_game("connect6", sise=19)


def test_undo_takes_back_one_stone_and_its_place_in_the_turn(turns):
    g = new_game("connect6")
    turns(g, "J10", "K10 K11")
    assert str(g.undo()) == "K11"
    assert (g.to_move, g.stones_left, g.at("K11")) == (1, 1, None)
    g.undo()
    g.undo()
    assert (g.to_move, g.stones_left, g.history) == (0, 1, [])
    with pytest.raises(IllegalMove, match="no move to take back"):
        g.undo()
