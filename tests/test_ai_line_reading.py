"""Connect6 hard's judgement of the early game: whole lines read once each, live or
dead, and pairs that build several lines together among its candidates.

The line reading is checked against a plain reading written here, straight from
the stones on each row, column and diagonal.
"""

import random

from sixtui.ai.grid import PLANS
from sixtui.ai.grid_search import candidate_pairs
from sixtui.ai.line_patterns import LineBoard
from sixtui.ai.line_reading import DEAD_LINE, LIVE, LIVE_LINE, READY_TO_WIN, LineReadingBoard

SIZE = 19
STEPS = ((1, 0), (0, 1), (1, 1), (1, -1))


def plain_line_worth(cells, team):
    """Each whole line's worth to ``team``: the most of its stones in a six-point stretch
    holding none of the other team's, live when at least LIVE stretches hold as many."""
    total = 0
    for dc, dr in STEPS:
        for col in range(SIZE):
            for row in range(SIZE):
                back = (col - dc, row - dr)
                if 0 <= back[0] < SIZE and 0 <= back[1] < SIZE:
                    continue  # not the first point of its line
                line = []
                c, r = col, row
                while 0 <= c < SIZE and 0 <= r < SIZE:
                    line.append(cells.get((c, r)))
                    c, r = c + dc, r + dr
                held = [
                    line[start : start + 6].count(team)
                    for start in range(len(line) - 5)
                    if 1 - team not in line[start : start + 6]
                ]
                most = max(held, default=0)
                if most:
                    table = LIVE_LINE if held.count(most) >= LIVE else DEAD_LINE
                    total += table[most]
    return total


def test_line_reading_follows_every_stone_played_and_taken_back():
    rng = random.Random(6)
    board = LineReadingBoard(SIZE)
    windows = LineBoard(SIZE)
    played = []
    cells = {}
    for step in range(160):
        if played and rng.random() < 0.4:
            key = played.pop()
            board.undo(key)
            windows.undo(key)
            del cells[(key % SIZE, key // SIZE)]
        else:
            key = rng.choice([key for key in range(SIZE * SIZE) if board.is_empty(key)])
            board.play(key, len(played) % 2)
            windows.play(key, len(played) % 2)
            cells[(key % SIZE, key // SIZE)] = len(played) % 2
            played.append(key)
        assert (board.worth, board.threats, board.chances) == (
            windows.worth,
            windows.threats,
            windows.chances,
        )
        if step % 8 == 0:
            assert sum(board.kinds[0]) == sum(board.kinds[1]) == len(board.line_states[0])
            assert board.line_worth == [plain_line_worth(cells, 0), plain_line_worth(cells, 1)]


def test_three_crossing_lines_of_two_outweigh_one_line_of_three():
    """Two stones beside one, each line of two crossing the others, promise double
    threats; a line of three is one threat to come."""

    def balance(points):
        board = LineReadingBoard(SIZE)
        for point in points:
            board.play(board.key(point), 0)
        return board.balance(0)

    assert balance(["G8", "F9", "G10"]) > balance(["G8", "G9", "G10"])
    assert balance(["G8", "F9", "G10"]) > balance(["G8", "K12", "N4"])  # scattered


def test_a_pair_building_with_a_stone_alone_is_among_hard_candidates():
    """White's F7 H9 makes a line of three with its G8; neither point is among the best
    single points, where blocking Black's loose stones scores higher."""
    board = LineBoard(SIZE)
    for point, team in [("J7", 0), ("M7", 1), ("G8", 1), ("L10", 0), ("M8", 0)]:
        board.play(board.key(point), team)
    building = tuple(sorted((board.key("F7"), board.key("H9"))))
    hard = PLANS["hard"]
    assert building in candidate_pairs(board, 1, hard.root_width, builders=hard.builders)
    assert building not in candidate_pairs(board, 1, hard.root_width)


def test_a_live_three_and_another_three_win_for_the_side_to_move_only():
    """To move, Black makes a four of each three: stopping both takes three stones."""
    board = LineReadingBoard(SIZE)
    for point in ["G8", "G9", "G10", "K5", "L5", "M5"]:
        board.play(board.key(point), 0)
    board.play(board.key("C3"), 1)
    ready = board.balance(0)
    assert ready >= READY_TO_WIN > -board.balance(1)
    board.play(board.key("N5"), 1)  # a live three and a dead one: still a win
    assert board.balance(0) >= READY_TO_WIN
    board.play(board.key("J5"), 1)  # one three left, live
    assert board.balance(0) < READY_TO_WIN
