"""Game of 6 wins by a threat of six and a closing together: those found are wins
the other team cannot stop, and hard plays them and spoils the other team's."""

from itertools import combinations

import pytest

from sixtui.ai.grid import winning_turn
from sixtui.ai.line_patterns import LineBoard
from sixtui.ai.mixed_threats import mixed_wins, spoiled
from sixtui.rules import IllegalMove, new_game
from support.turns import level_turn

# Black, to move, makes a line of four with K13 and J14 and K13 walls in the cells
# that L11 then colors: six of them.
LINE_AND_CUP = "K10 M12 K11 H12 I11 H10 J12 J10 L12 K9 L10 M11 I13 N12 G13"
# White, to move, makes a four with G9 and F10, which color two cells and leave
# E9 and D10 to color its last three.
FOUR_AND_CLOSING = (
    "K10 M12 K11 H12 I11 H10 I13 G13 H14 F12 F14 J10 H13 L8 H11 G14 H15 G11 H17 F15 G16 "
    "I12 E13 J8 D14 E11 D12 J9 J13 C11 J12 B10 F11"
)

# White, to move, has such wins (with I8 beside H9 or I11, among others) besides plain
# moves that look as good to the line reading.
WHITE_TO_MIX = "I7 I9 M8 M7 L12 L7 K9 K8 L9 J8 J10 M6 L10 K6 N9 J5 P11 J7 L8 K11 M11 N7 O8 J12 K13"


def game_after(moves, but_last=0):
    """The game after the points ``moves`` names, but for its last ``but_last``."""
    game = new_game("gameof6")
    points = moves.split()
    for point in points[: len(points) - but_last]:
        game.play(point)
    return game


def needed(game, team):
    return 6 - game.colored_count(team)


def wins_after(game, first, reply):
    """Whether the team to move, playing ``first``, then wins at once whatever the other
    team's ``reply`` (``None`` when a dot of the reply is refused); ``game`` is kept."""
    team = game.to_move
    played = 0
    try:
        for move in first:
            game.play(move)
            played += 1
        for move in reply:
            game.play(move)
            played += 1
            if game.result is not None:
                return game.result.winner == team
        return winning_turn(game, float("inf")) is not None
    except IllegalMove:
        return None
    finally:
        for _ in range(played):
            game.undo()


@pytest.mark.parametrize(
    ("moves", "pair"), [(LINE_AND_CUP, {"K13", "J14"}), (FOUR_AND_CLOSING, {"G9", "F10"})]
)
def test_a_win_by_a_threat_and_a_closing_is_found(moves, pair):
    game = game_after(moves)
    board = LineBoard.from_game(game)
    found = mixed_wins(board, game.to_move, needed(game, game.to_move))
    assert pair in [{str(board.square(key)) for key in win.pair} for win in found]


@pytest.mark.parametrize("moves", [LINE_AND_CUP, FOUR_AND_CLOSING])
def test_no_reply_on_the_points_that_matter_stops_the_win(moves):
    game = game_after(moves)
    board = LineBoard.from_game(game)
    team = game.to_move
    win = mixed_wins(board, team, needed(game, team), first_only=True)[0]
    first = [board.square(key) for key in win.pair]
    points = sorted(win.points - set(win.pair))
    for reply in combinations(points, 2):
        squares = [board.square(key) for key in reply]
        assert wins_after(game, first, squares) in (True, None), [str(s) for s in squares]


def test_a_pair_elsewhere_spoils_nothing_and_one_on_the_win_does():
    game = game_after(LINE_AND_CUP)
    board = LineBoard.from_game(game)
    team = game.to_move
    need = needed(game, team)
    win = mixed_wins(board, team, need, first_only=True)[0]
    far = (board.key("C3"), board.key("D3"))
    assert not spoiled(board, team, win, need, far)
    assert spoiled(board, team, win, need, (win.pair[0], far[0]))


def test_a_board_without_closings_has_no_such_win():
    game = game_after("J10 K10 K11 L11 M12 N13 A1")
    board = LineBoard.from_game(game)
    assert mixed_wins(board, game.to_move, 6) == []


def test_hard_plays_its_win_by_a_threat_and_a_closing():
    game = game_after(WHITE_TO_MIX)
    board = LineBoard.from_game(game)
    team = game.to_move
    wins = mixed_wins(board, team, needed(game, team))
    turn = level_turn(game, "hard", seed=1)
    assert {board.key(move.to) for move in turn} in [set(win.pair) for win in wins]


def test_hard_spoils_the_other_teams_win_by_a_threat_and_a_closing():
    game = game_after(LINE_AND_CUP, but_last=2)
    board = LineBoard.from_game(game)
    other = 1 - game.to_move
    need = needed(game, other)
    theirs = mixed_wins(board, other, need)
    assert theirs
    turn = tuple(board.key(move.to) for move in level_turn(game, "hard", seed=1))
    assert all(spoiled(board, other, win, need, turn) for win in theirs)


def test_a_pair_whose_dot_is_walled_in_at_once_wins_nothing():
    # White's L12 would make a four with M12, but L13, K12 and L11 wall it in: the dot
    # colors its own cell, dies, and the four with it.
    game = game_after("I7 L8 L13 J11 G8 K9 L10 J8 J10 M9 L11 H8 I9 K11 J12 N8 I13 K10 K12 K7 K13")
    board = LineBoard.from_game(game)
    team = game.to_move
    pairs = [set(win.pair) for win in mixed_wins(board, team, needed(game, team))]
    assert {board.key("L12"), board.key("M12")} not in pairs
