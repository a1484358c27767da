"""The computer players: legal whole turns, wins taken, wins stopped, games finished."""

import doctest
import importlib
from itertools import combinations

import pytest

from sixtui.ai import LEVEL_SECONDS, LEVELS, choose_turn
from sixtui.rules import Move, new_game
from support.turns import level_turn, play_whole_turn, random_position

SIX_OPTIONS = [
    {"ruleset": "steffen"},
    {"ruleset": "steffen", "players": 4},
    {"ruleset": "romanian"},
    {"ruleset": "romanian", "players": 4},
    {"ruleset": "romanian", "declare": True},
    {"ruleset": "romanian-advanced", "players": 4, "declare": True},
    {"ruleset": "romanian-advanced"},
]
GAMES = [
    ("connect6", {"size": 9}),
    ("gameof6", {"size": 9}),
    *(("six", options) for options in SIX_OPTIONS),
]


def turns_from(game, points):
    """The game after playing ``points``, written one after another ("E5 A1 A2")."""
    for point in points.split():
        game.play(point)
    return game


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_turn_is_legal_whole_and_leaves_the_game_alone(name, options, level):
    for turns in (0, 1, 6):
        game = random_position(name, options, seed=turns, turns=turns)
        saved = game.to_bytes()
        moves = choose_turn(game, level=level, seed=3)
        assert game.to_bytes() == saved
        play_whole_turn(game.copy(), moves)


@pytest.mark.parametrize("options", SIX_OPTIONS)
def test_six_second_round_moves_are_legal(options):
    game = random_position("six", options, seed=5, turns=60)
    assert game.result is None and game.in_hand(game.to_move) == 0
    for level in LEVELS:
        play_whole_turn(game.copy(), choose_turn(game, level=level, seed=1, seconds=0.5))


@pytest.mark.parametrize("level", LEVELS)
def test_connect6_makes_six_when_it_can(level):
    game = turns_from(new_game("connect6", size=9), "E5 A1 A2 F5 G5 B1 B2 H5 C7 C1 C2")
    moves = choose_turn(game, level=level, seed=2)
    play_whole_turn(game, moves)
    assert game.result.winner == 0 and game.result.reason == "six-in-a-row"


@pytest.mark.parametrize("level", LEVELS)
def test_gameof6_closes_a_polygonal_of_six_cells(level):
    # Black walls in D4-F5 but for G5; White plays far away.
    game = turns_from(
        new_game("gameof6", size=12),
        "D6 A12 C12 E6 F6 E12 G12 D3 E3 I12 K12 F3 C4 A10 C10 C5 G4 E10 G10",
    )
    moves = choose_turn(game, level=level, seed=2)
    play_whole_turn(game, moves)
    assert game.result.winner == 0 and game.result.reason == "colored-cells"
    assert "G5" in [str(move) for move in moves]


@pytest.mark.parametrize("declare", [False, True])
@pytest.mark.parametrize("level", LEVELS)
def test_six_completes_a_row_when_it_can(level, declare):
    ruleset = "romanian" if declare else "steffen"
    game = new_game("six", ruleset=ruleset, declare=declare)
    # Black builds a row on r = 0, White one beside it on r = 1 with its ends free.
    black = ["-1,0", "-2,0", "-3,0", "-4,0", "-5,0"] if declare else ["0,0", "1,0", "2,0"]
    black += ["3,0", "4,0"] if not declare else []
    white = ["-1,1", "-2,1", "-3,1", "1,1", "1,-1"] if declare else ["0,1", "1,1", "2,1", "3,1"]
    white += [] if declare else ["0,2"]
    for mine, theirs in zip(black, white, strict=True):
        game.play(mine)
        game.play(theirs)
    moves = choose_turn(game, level=level, seed=2)
    play_whole_turn(game, moves)
    assert game.result.winner == 0 and game.result.reason == "row"
    assert moves[0].declare == declare


def test_six_declares_a_shape_on_the_table():
    game = new_game("six", ruleset="romanian", declare=True)
    for mine, theirs in zip(
        ["-1,0", "-2,0", "-3,0", "-4,0", "-5,0", "-6,0"],
        ["-1,1", "-2,1", "-3,1", "1,1", "1,-1", "2,-1"],
        strict=True,
    ):
        game.play(mine)  # the sixth completes the row without declaring it
        game.play(theirs)
    assert game.result is None and game.can_declare()
    assert choose_turn(game, seed=1) == [Move(None, declare=True)]


# Black completes a row on r = -1, then red one on r = 1; neither declares.
BOTH_ROWS = "0,-1 0,1 1,-1 1,1 2,-1 2,1 3,-1 3,1 4,-1 4,1 5,-1 5,1"


@pytest.mark.parametrize("level", LEVELS)
def test_six_wins_with_a_new_shape_once_its_right_to_the_old_one_is_lost(level):
    """Red completed its row after black's: a "!" on black's row wins nothing any more,
    but lengthening it makes a new row, which wins with "!"."""
    game = turns_from(new_game("six", ruleset="romanian", declare=True), BOTH_ROWS)
    moves = choose_turn(game, level=level, seed=1)
    assert [str(move) for move in moves] in (["-1,-1!"], ["6,-1!"])
    play_whole_turn(game, moves)
    assert game.result.winner == 0 and game.result.reason == "row"


@pytest.mark.parametrize("level", LEVELS)
def test_six_declares_while_its_right_stands(level):
    game = turns_from(new_game("six", ruleset="romanian", declare=True), BOTH_ROWS + " -1,0")
    assert choose_turn(game, level=level, seed=1) == [Move(None, declare=True)]


# Red closes a ring round -3,1 (-4,2), then black one round 3,-2 (2,-1), and red puts a piece
# in the middle of black's ring, which is no circle any more. Red has five in a row, 0,2 .. 4,2.
LOST_RING = (
    "-1,0 0,1 0,-1 -2,0 -1,-1 -2,1 -1,2 0,2 1,1 2,0 -2,3 -3,0 -1,3 -3,2 2,1 1,2 3,-1 -4,1 "
    "4,-2 2,2 4,-3 3,2 3,-3 4,2 2,-2 -4,2 2,-1 3,-2"
)


@pytest.mark.parametrize("level", LEVELS)
def test_six_spoils_no_shape_that_can_no_longer_be_declared(level):
    """Red's ring can no longer be declared: black completed a shape after it. Filling its
    middle gains black nothing; 5,2 stops a new row that red could declare at once."""
    game = turns_from(new_game("six", ruleset="romanian", declare=True), LOST_RING)
    assert game.declarable_shapes(0) == game.declarable_shapes(1) == []
    assert [str(move) for move in choose_turn(game, level=level, seed=1)] == ["5,2"]


@pytest.mark.parametrize("level", LEVELS)
def test_connect6_blocks_an_open_four(level):
    game = turns_from(new_game("connect6", size=12), "A1 D5 E5 L12 L10 F5 G5")
    play_whole_turn(game, choose_turn(game, level=level, seed=4))
    # No two white stones in the row now make six.
    row = [point for point in (f"{letter}5" for letter in "ABCDEFGHIJKL") if game.at(point) is None]
    for pair in combinations(row, 2):
        trial = turns_from(game.copy(), " ".join(pair))
        assert trial.result is None, f"White wins with {pair}"


@pytest.mark.parametrize("level", LEVELS)
def test_six_blocks_a_row_one_piece_short(level):
    game = new_game("six")
    for mine, theirs in zip(
        ["0,0", "-1,1", "1,-1", "0,-1", "2,-1"], ["0,1", "1,1", "2,1", "3,1", "4,1"], strict=True
    ):
        game.play(mine)
        game.play(theirs)
    assert [str(move) for move in choose_turn(game, level=level, seed=4)] == ["5,1"]


@pytest.mark.parametrize(("name", "options"), GAMES[:3])
def test_the_same_seed_makes_the_same_choice(name, options):
    game = random_position(name, options, seed=8, turns=7)
    first = [level_turn(game, "easy", seed) for seed in range(6)]
    assert first == [level_turn(game, "easy", seed) for seed in range(6)]


def test_easy_varies_with_the_seed():
    game = random_position("connect6", {"size": 9}, seed=8, turns=3)
    assert len({tuple(level_turn(game, "easy", seed)) for seed in range(12)}) > 1


def test_a_bad_level_or_a_finished_game_is_refused():
    with pytest.raises(ValueError, match="no level 'expert'"):
        choose_turn(new_game("connect6"), level="expert")
    game = new_game("connect6", size=9)
    game.resign(0)
    with pytest.raises(ValueError, match="game is over"):
        choose_turn(game)


@pytest.mark.parametrize(
    ("name", "options", "levels"),
    [
        ("connect6", {"size": 9}, ("normal", "easy")),
        ("gameof6", {"size": 9}, ("hard", "normal")),
        ("six", {"ruleset": "steffen"}, ("normal", "hard")),
        ("six", {"ruleset": "romanian", "players": 4, "declare": True}, ("easy", "normal")),
    ],
)
def test_computer_against_computer_finishes(name, options, levels):
    game = new_game(name, **options)
    for turn in range(200):
        if game.result is not None:
            break
        # Six's easy and normal think for all their time, whatever it is.
        seconds = 0.1 if name == "six" else 0.3
        play_whole_turn(game, choose_turn(game, level=levels[turn % 2], seed=turn, seconds=seconds))
    assert game.result is not None
    assert game.result.winner in (0, 1, None)


@pytest.mark.parametrize("module", ["sixtui.ai", "sixtui.ai.grid", "sixtui.ai.six"])
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


@pytest.mark.parametrize("name, options", [("connect6", {"size": 19}), ("six", {})])
def test_stats_count_the_positions_searched(name, options):
    game = new_game(name, **options)
    counts = []
    for level in LEVELS:
        stats = {"positions": -1}
        # A fifth of each level's own time: Six's easy thinks as long as it is given.
        choose_turn(game, level, seconds=LEVEL_SECONDS[level] / 5, seed=1, stats=stats)
        counts.append(stats["positions"])
    assert all(count > 0 for count in counts[1:]), counts
    assert counts[2] > counts[0], counts  # hard searches more than easy


@pytest.mark.parametrize("positions", [0, -5])
def test_a_count_of_positions_below_one_is_refused(positions):
    game = new_game("six")
    with pytest.raises(ValueError, match=f"at least one position to search, not {positions}"):
        choose_turn(game, level="hard", positions=positions)
    assert game.history == []


@pytest.mark.parametrize(("name", "options"), GAMES[:3])
def test_a_count_of_positions_repeats_hard_exactly(name, options):
    game = random_position(name, options, seed=4, turns=6)
    turns = {tuple(choose_turn(game, "hard", seed=2, positions=600)) for _ in range(2)}
    assert len(turns) == 1
