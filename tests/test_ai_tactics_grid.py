"""The Connect6 and Game of 6 computer player on generated tactical positions, checked
by the plain solver of :mod:`support.connect6_solver` (Game of 6 enclosures: by the
game itself).

What each level must do:

* every level makes six, or colors its sixth cell, whenever one turn can;
* normal and hard stop the other team's six whenever two stones can; easy overlooks
  it on purpose now and then (with probability 0.2, see ``sixtui/ai/grid.py``), and
  the test bounds how often;
* normal and hard play a double threat (a win in two turns) when there is one, and
  leave the other team none when a pair can;
* hard plays the first turn of a win in three turns by threats when there is one,
  and leaves the other team no three-turn win when a pair can.

A chosen turn need not be the solver's: it is checked to have the property asked.
"""

import math
import random
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sixtui.ai import LEVELS, choose_turn
from sixtui.ai.grid import EASY_OVERLOOKS, _as_safe_as, _SafetyChecks
from sixtui.ai.grid_allowance import Allowance
from sixtui.ai.line_patterns import LineBoard
from sixtui.ai.threat_search import ThreatSearch, double_threat
from sixtui.rules import new_game
from support.connect6_solver import (
    Board,
    can_six,
    double_threat_pairs,
    game_with,
    hopeful_points,
    planted,
    planted_positions,
    stoppable,
    turn_points,
    windows,
    wins_in_three_with,
    wins_in_two,
    wins_in_two_with,
    wins_within,
)
from support.turns import level_turn, play_whole_turn

# Each level's test turn, turned into a count of stones by support.turns.level_turn (easy
# and normal a fixed count, hard what these seconds are worth): a short one is enough for
# tactics this shallow, and keeps the suites quick and the same on any machine.
SECONDS = {"easy": 1.0, "normal": 1.0, "hard": 0.05}
BLOCKING_SECONDS = 0.02  # "hard" keeps only pairs that stop a six before it searches


def chosen_turn(game, level, seed=0, seconds=None):
    """The player's turn, checked legal and whole, as point numbers of the board."""
    moves = level_turn(game, level, seed, seconds=seconds or SECONDS[level])
    play_whole_turn(game.copy(), moves)
    return turn_points(Board.of(game), moves)


def after_turn(game, level, seed=0, seconds=None):
    """The game after the player's turn, checked legal and whole."""
    moves = level_turn(game, level, seed, seconds=seconds or SECONDS[level])
    trial = game.copy()
    play_whole_turn(trial, moves)
    return trial


def at_least(count, probability, bound):
    """The chance that ``count`` independent trials, each succeeding with
    ``probability``, succeed fewer than ``bound`` times."""
    return sum(
        math.comb(count, k) * probability**k * (1 - probability) ** (count - k)
        for k in range(bound)
    )


# -- winning this turn ----------------------------------------------------------------------


def enclosure_positions(count, seed, size=8):
    """Game of 6 positions, Black to play, where Black has walled in six cells but for
    one dot: every cell round a random shape of six cells (orthogonally connected),
    less one; White's dots are scattered. Kept when one dot (tried on the game itself
    on every open cell) wins, and no six in a row is on."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        shape = random_shape(rng, size)
        ring = sorted(
            {
                (col + dc, row + dr)
                for col, row in shape
                for dc in (-1, 0, 1)
                for dr in (-1, 0, 1)
                if (col + dc, row + dr) not in shape
            }
        )
        gap = rng.choice(ring)
        black = [row * size + col for col, row in ring if (col, row) != gap]
        avoid = [row * size + col for col, row in [*shape, gap]]
        game = game_with(rng, "gameof6", size, black, [], avoid=avoid)
        if game is None or can_six(Board.of(game), 0) or can_six(Board.of(game), 1):
            continue
        if one_dot_wins(game):
            found.append(game)
    return found


def random_shape(rng, size):
    """Six cells grown one at a time from a random cell, each beside one already in,
    none on the board's edge."""
    shape = [(rng.randrange(1, size - 1), rng.randrange(1, size - 1))]
    while len(shape) < 6:
        col, row = rng.choice(shape)
        dc, dr = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        cell = (col + dc, row + dr)
        if cell not in shape and 1 <= cell[0] < size - 1 and 1 <= cell[1] < size - 1:
            shape.append(cell)
    return set(shape)


def one_dot_wins(game):
    for move in game.legal_moves():
        game.play(move)
        won = game.result is not None and game.result.winner == 0
        game.undo()
        if won:
            return True
    return False


def six_to_make(board):
    return can_six(board, 0) and not can_six(board, 1)


@pytest.mark.parametrize("name", ["connect6", "gameof6"])
def test_every_level_makes_six_whenever_one_turn_can(name):
    """150 positions a game where two stones make six (some have the other team's
    six to stop as well): every level wins at once."""
    for game in planted_positions(150, 21, [(1, 4), (2, 3)], six_to_make, name=name):
        for level in LEVELS:
            won = after_turn(game, level).result
            assert won is not None and won.winner == 0, (level, game)


def test_every_level_makes_a_six_whose_dots_all_live_in_game_of_6():
    """Black's I8 J8 K8 L8 make six with H8 M8 or with M8 N8, but H8 walls in I8 (with
    H7 I7 J7, I9 and J8), whose dot dies and the six with it: every level plays a six
    that stands."""
    game = new_game("gameof6")
    moves = "I7 G9 L13 H7 K8 E7 H9 J7 I9 I6 J9 K7 I12 F7 L7 J8 H10 L6 G11 I8 L8 G8 I10"
    for point in moves.split():
        game.play(point)
    for level in LEVELS:
        won = after_turn(game, level).result
        assert won is not None and won.winner == 0, level


def test_every_level_colors_its_sixth_cell_whenever_one_dot_can():
    """Game of 6, 8×8: 30 positions where one dot closes a polygonal worth the sixth
    colored cell; every level wins at once."""
    for game in enclosure_positions(30, 22):
        for level in LEVELS:
            won = after_turn(game, level).result
            assert won is not None and won.winner == 0, (level, game)


# -- stopping a six ---------------------------------------------------------------------------


def six_to_stop(board):
    threats = board.threats(1)
    return not can_six(board, 0) and bool(threats) and stoppable(threats)


@cache
def sixes_to_stop():
    return planted_positions(150, 23, [(2, 3), (1, 4)], six_to_stop)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_stop_a_six_whenever_two_stones_can(level):
    """150 Connect6 positions where White makes six next turn unless Black's pair
    meets all its windows, which two stones can: after Black's turn White has no six."""
    for number, game in enumerate(sixes_to_stop()):
        seconds = BLOCKING_SECONDS if level == "hard" else None
        assert not can_six(Board.of(after_turn(game, level, number, seconds)), 1), game


def test_easy_stops_a_six_most_of_the_time():
    """Easy overlooks the other team's six to come with probability EASY_OVERLOOKS (a
    fresh draw of its seeded generator each turn), and otherwise stops it. Over the 150
    positions it must stop at least 40% of them: were each stopped with the probability
    it has, fewer would happen with a chance under one in a billion."""
    games = sixes_to_stop()
    bound = math.ceil(0.4 * len(games))
    assert at_least(len(games), 1 - EASY_OVERLOOKS, bound) < 1e-9
    stopped = sum(
        not can_six(Board.of(after_turn(game, "easy", seed=number)), 1)
        for number, game in enumerate(games)
    )
    assert stopped >= bound


def wins_this_turn(game):
    """Whether the seat to move wins with its turn of two dots: every dot, and every
    second dot after it, tried on the game itself (in order: a dot may color a cell)."""
    team = game.to_move
    for first in game.legal_moves():
        game.play(first)
        try:
            if game.result is not None:
                if game.result.winner == team:
                    return True
                continue
            for second in game.legal_moves():
                game.play(second)
                won = game.result is not None and game.result.winner == team
                game.undo()
                if won:
                    return True
        finally:
            game.undo()
    return False


def white_wins_after(game, points):
    """Whether after Black's ``points`` (a whole turn) White wins with its next turn."""
    trial = game.copy()
    for point in points:
        trial.play(Board.of(game).square(point))
    return trial.result is None and wins_this_turn(trial)


def gameof6_six_to_stop(game):
    """Game of 6: White makes six next turn unless Black stops it, Black cannot win
    this turn, and a pair meeting all White's windows leaves White no win at all."""
    board = Board.of(game)
    if not six_to_stop(board) or wins_this_turn(game):
        return False
    threats = board.threats(1)
    points = sorted(set().union(*threats))
    blocks = [pair for pair in combinations(points, 2) if all(t & set(pair) for t in threats)]
    return any(not white_wins_after(game, pair) for pair in blocks[:4])


@cache
def gameof6_sixes_to_stop():
    rng = random.Random(28)
    found = []
    while len(found) < 25:
        game = planted(rng, [(1, 2), (2, 4)], size=8, name="gameof6", extra=6)
        if game is not None and gameof6_six_to_stop(game):
            found.append(game)
    return found


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_stop_a_six_in_game_of_6_whenever_two_dots_can(level):
    """25 Game of 6 positions on 8×8 where White makes six next turn unless Black stops
    it, and a pair of Black leaves White no winning turn at all (every pair of dots and
    every enclosure tried on the game): after Black's turn, White has no winning turn
    either."""
    for game in gameof6_sixes_to_stop():
        seconds = BLOCKING_SECONDS if level == "hard" else None
        trial = after_turn(game, level, seconds=seconds)
        assert trial.result is not None or not wins_this_turn(trial), game


# -- wins in two turns: double threats --------------------------------------------------------


def double_threat_on(board):
    return not can_six(board, 0) and not can_six(board, 1) and wins_in_two(board, 0)


@cache
def double_threats_to_make():
    return planted_positions(200, 24, [(2, 3), (2, 2)], double_threat_on)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_play_a_double_threat_when_there_is_one(level):
    """200 Connect6 positions where a pair of Black leaves threats two white stones
    cannot all meet: the pair chosen does so too."""
    for game in double_threats_to_make():
        pair = chosen_turn(game, level)
        assert wins_in_two_with(Board.of(game), 0, pair), game


def quiet_board(board):
    return not can_six(board, 0) and not can_six(board, 1)


@cache
def positions_with_and_without_double_threats():
    """Connect6 positions with no threat on, half where Black has a double threat."""
    rng = random.Random(29)
    found = {True: [], False: []}
    while min(len(games) for games in found.values()) < 60:
        game = planted(rng, [(2, 3), (2, 2)], extra=8)
        if game is not None and quiet_board(Board.of(game)):
            has = wins_in_two(Board.of(game), 0)
            if len(found[has]) < 60:
                found[has].append(game)
    return found[True] + found[False]


def test_a_double_threat_is_read_exactly_as_the_solver_finds_it():
    """120 positions with no threat on (60 where Black wins in two turns, 60 where it
    does not): the look ahead's reading of a double threat, which it takes for a win,
    finds one exactly where the solver, trying every pair of Black's, does, and the
    pair it gives leaves threats two white stones cannot stop."""
    for game in positions_with_and_without_double_threats():
        board = Board.of(game)
        pair = double_threat(LineBoard.from_game(game), 0)
        assert (pair is not None) == wins_in_two(board, 0), game
        assert pair is None or wins_in_two_with(board, 0, pair), game


def refutable(board, turns, tries=40):
    """A pair of Black after which White has no win within ``turns`` turns, among the
    pairs of White's and Black's most promising points; None if none of ``tries`` does."""
    points = hopeful_points(board, 1)[:10] + hopeful_points(board, 0)[:4]
    for pair in list(combinations(dict.fromkeys(points), 2))[:tries]:
        if not wins_within(board.after(pair, 0), 1, turns):
            return pair
    return None


def double_threat_to_stop(board):
    return (
        not can_six(board, 1)
        and not wins_in_two(board, 0)
        and bool(double_threat_pairs(board, 1, first_only=True))
        and refutable(board, 2) is not None
    )


@cache
def double_threats_to_stop():
    return planted_positions(100, 25, [(2, 2), (2, 3)], double_threat_to_stop)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_leave_no_double_threat_when_a_pair_can(level):
    """100 Connect6 positions where White would have a double threat next turn and a
    pair of Black leaves it none (Black itself has no win in two): after Black's pair,
    White has no win within two turns."""
    for game in double_threats_to_stop():
        assert not wins_within(Board.of(after_turn(game, level)), 1, 2), game


# -- wins in three turns ----------------------------------------------------------------------


def three_turn_win_on(board, team=0):
    """Whether ``team`` (to move, or as if it were) wins in three turns by threats, not
    sooner, and no six is on. The first pairs tried hold two points of one window with
    two of its stones: every three-turn win seen starts there."""
    if can_six(board, 0) or can_six(board, 1) or wins_in_two(board, team):
        return False
    return any(
        wins_in_three_with(board, team, pair)
        for line in board.lines(team, 2)
        for pair in combinations(sorted(line), 2)
    )


@cache
def three_turn_wins_to_find():
    return planted_positions(25, 26, [(2, 3), (3, 2)], three_turn_win_on, extra=8)


def test_hard_plays_a_win_in_three_turns_when_there_is_one():
    """25 Connect6 positions where Black wins in three turns by threats and not in two:
    the pair chosen threatens, and every white pair that meets the threats leaves Black
    a double threat. The budget is generous: hard stops as soon as its threat search
    finds the win."""
    for number, game in enumerate(three_turn_wins_to_find()):
        pair = chosen_turn(game, "hard", seconds=1.0)
        assert wins_in_three_with(Board.of(game), 0, pair), (number, game)


# The positions (by number) whose winning pair ranks low by the potential of its points:
# once missed, as the threat search tried only the pairs of most potential.
LOW_RANKED_THREE_TURN_WINS = (0, 8, 9, 10, 12, 14, 16, 18, 22)


def test_hard_plays_the_low_ranked_three_turn_wins_in_a_short_turn():
    """The 9 positions of the suite above whose win starts with a pair of little
    potential: hard finds them in a short turn (5,000 stones, about 0.3 seconds), its
    threat search trying every pair whose threats need both of White's stones."""
    games = three_turn_wins_to_find()
    missed = []
    for number in LOW_RANKED_THREE_TURN_WINS:
        game = games[number]
        moves = choose_turn(game, "hard", seed=0, positions=5000)
        play_whole_turn(game.copy(), moves)
        pair = turn_points(Board.of(game), moves)
        if not wins_in_three_with(Board.of(games[number]), 0, pair):
            missed.append(number)
    assert missed == []


def three_turn_win_to_stop(board):
    return (
        not wins_in_two(board, 0)
        and three_turn_win_on(board, 1)
        and refutable(board, 3, tries=8) is not None
    )


def test_hard_leaves_no_win_in_three_turns_when_a_pair_can():
    """8 Connect6 positions where White would win in three turns by threats (not in
    two) and a pair of Black leaves it no such win: after hard's pair, the solver finds
    none, trying every threatening pair of White."""
    for game in planted_positions(8, 27, [(2, 2), (2, 3)], three_turn_win_to_stop, extra=8):
        assert not wins_within(Board.of(after_turn(game, "hard", seconds=0.3)), 1, 3), game


# Game of 6 positions met in games between hard and normal where hard, checking the other
# team's threat wins only four turns deep, chose a pair that leaves it one in five.
FIVE_TURN_WINS_TO_STOP = (
    "G12 H13 H7 K8 K12 I10 K10 H12 J12 I11 I12 I9 L9 J13 I14 M10 N11 J7 O12 J9 N9",
    "J9 M11 L8 J7 L12 I8 J8 K7 K8",
)


@pytest.mark.parametrize("moves", FIVE_TURN_WINS_TO_STOP)
def test_hard_leaves_no_five_turn_win_in_game_of_6_when_a_pair_can(moves):
    """After hard's pair, at its count of positions a turn in the benchmarks, the other
    team has no win by continuous threats within six turns."""
    game = new_game("gameof6")
    for point in moves.split():
        game.play(point)
    turn = choose_turn(game, "hard", seed=0, positions=20_000)
    play_whole_turn(game.copy(), turn)
    for move in turn:
        game.play(move)
    board = LineBoard.from_game(game)
    allowance = Allowance.for_seconds(board, math.inf, stones=1_000_000)
    assert ThreatSearch(board, game.to_move, allowance).forced_win(6) is None


# -- the same, stated for every position: properties ---------------------------------------------

PROPERTY_SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


@st.composite
def connect6_positions(draw, least):
    """A Connect6 game on 10×10, Black to play two stones: a window (of them all) holding
    ``least[team]`` stones of each team, and stones of both scattered anywhere else."""
    size = 10
    points = st.integers(0, size * size - 1)
    black, white = set(), set()
    for team, stones in ((0, black), (1, white)):
        if least[team]:
            window = draw(st.sampled_from(windows(size)))
            stones.update(draw(st.permutations(window))[: least[team]])
    black |= set(draw(st.lists(points, max_size=8))) - white
    white |= set(draw(st.lists(points, max_size=8))) - black
    rng = random.Random(draw(st.integers(0, 2**16)))  # the order the stones are played in
    game = game_with(rng, "connect6", size, sorted(black), sorted(white))
    assume(game is not None)
    return game


@PROPERTY_SETTINGS
@given(game=connect6_positions((4, 0)), level=st.sampled_from(LEVELS))
def test_property_a_six_to_make_is_made(game, level):
    """Whatever the position, when two stones make six, every level wins at once."""
    assume(can_six(Board.of(game), 0))
    won = after_turn(game, level).result
    assert won is not None and won.winner == 0


@PROPERTY_SETTINGS
@given(game=connect6_positions((0, 4)), level=st.sampled_from(["normal", "hard"]))
def test_property_a_six_to_stop_is_stopped(game, level):
    """Whatever the position, when White makes six next turn unless Black's two stones
    meet every window it would make it in, and they can, normal and hard do."""
    assume(six_to_stop(Board.of(game)))
    seconds = BLOCKING_SECONDS if level == "hard" else None
    assert not can_six(Board.of(after_turn(game, level, seconds=seconds)), 1)


# Connect6 openings (5 stones, White to move) where hard, judging its looks by the board
# after its own turn, played a four that one turn of Black stops (M6 M8, I7 I8) and lost
# to Cloudict, which built instead.
OPENINGS_NOT_TO_SPEND_A_FOUR_IN = ("H9 M9 M7 G11 M11", "K12 I9 I10 L13 I13")


@pytest.mark.parametrize("moves", OPENINGS_NOT_TO_SPEND_A_FOUR_IN)
def test_hard_does_not_spend_a_four_on_its_first_turn(moves):
    """With the turn it is about to play counted for the side to move at the end of its
    looks, hard (at its count of positions a turn in the benchmarks) builds: its pair
    makes no threat that Black would stop and build on."""
    game = new_game("connect6")
    for point in moves.split():
        game.play(point)
    turn = choose_turn(game, "hard", seed=0, positions=27_000)
    board = Board.of(game).after(turn_points(Board.of(game), turn), 1)
    assert not can_six(board, 1), [str(move) for move in turn]


def checks_after_opening() -> _SafetyChecks:
    """The safety checks of a turn after the second opening above."""
    game = new_game("connect6")
    for point in OPENINGS_NOT_TO_SPEND_A_FOUR_IN[1].split():
        game.play(point)
    board = LineBoard.from_game(game)
    return _SafetyChecks(game, board, Allowance.for_seconds(board, 60))


def test_a_new_looks_best_pair_stands_once_checked_as_deep_as_the_choice_before():
    """A deeper look's best pair replaces the choice before once it leaves the other team
    no win as deep as that choice was checked; a pair that leaves one does not."""
    checks = checks_after_opening()
    key = checks.board.key
    choice, new = (key("I7"), key("I8")), (key("J10"), key("M13"))
    assert checks.first_safe([choice], 3) == choice
    assert _as_safe_as(checks, [new, choice], choice) == new
    assert checks.checked[new] == 3
    found_losing = (key("A1"), key("S19"))  # as if a check had found it to leave a win
    checks.unsafe[found_losing] = 2
    assert _as_safe_as(checks, [found_losing, choice], choice) == choice


def test_a_choice_found_to_leave_a_win_gives_way_to_the_pair_checked_deepest():
    """When a check a turn deeper, cut short by the time, finds the choice to leave the
    other team a win, the pair checked deepest of those found to leave none is played;
    the choice stands when no such pair is known."""
    checks = checks_after_opening()
    key = checks.board.key
    choice, shallow, deep, losing = (
        (key(first), key(second))
        for first, second in (("I7", "I8"), ("J10", "M13"), ("H10", "K13"), ("A1", "S19"))
    )
    checks.checked.update({choice: 4, shallow: 3, deep: 4, losing: 4})
    assert checks.safest([choice, shallow, deep], choice) == choice
    checks.unsafe.update({choice: 5, losing: 5})  # as if the deeper checks had found wins
    assert checks.safest([losing, choice, shallow, deep], choice) == deep
    assert checks.safest([choice, losing], choice) == choice


def after_hards_turn(
    points: list[str], name: str = "connect6", positions: int = 19_000
) -> tuple[list, LineBoard]:
    """Hard's turn after ``points``, by default in Connect6 at its count of positions a
    turn in the Cloudict benchmarks, and the board it leaves."""
    game = new_game(name)
    for point in points:
        game.play(point)
    turn = choose_turn(game, "hard", seed=0, positions=positions)
    for move in turn:
        game.play(move)
    return turn, LineBoard.from_game(game)


def test_hard_finds_the_safe_pair_among_many_that_lose_to_double_threats():
    """After opening G9 J10 L10 H8 M8 and Cloudict's J12 L8, Black's J6 I7 and White's
    E11 K5, nearly every pair of Black's leaves White a win by double threats in five or
    six turns; M9 M10 and K9 J11 do not. Hard (at its count of positions a turn in the
    benchmarks) checked eleven pairs before its positions ran out, each check spending most
    of them on threats one stone stops that found no win, and played K9 K11, which loses."""
    turn, board = after_hards_turn(
        ["G9", "J10", "L10", "H8", "M8", "J12", "L8", "J6", "I7", "E11", "K5"]
    )
    doubles = ThreatSearch(board, 1, Allowance.for_seconds(board, 60), loose_tried=0)
    assert doubles.forced_win(6) is None, [str(move) for move in turn]
    assert ThreatSearch(board, 1, Allowance.for_seconds(board, 60)).forced_win(4) is None


def test_hard_leaves_no_seven_turn_win_by_double_threats_after_its_first_pair():
    """After opening H12 L7 K11 J9 I7 and Cloudict's K10 L10, Black's L9 M10 left White
    a win in seven turns, each a four that both of Black's stones must stop: the checks
    after the first looks reach a turn further by double threats than by any threats."""
    turn, board = after_hards_turn(["H12", "L7", "K11", "J9", "I7", "K10", "L10"])
    doubles = ThreatSearch(board, 1, Allowance.for_seconds(board, 60), loose_tried=0)
    assert doubles.forced_win(7) is None, [str(move) for move in turn]


def test_hard_does_not_play_a_pair_its_deeper_check_found_to_lose():
    """After opening J11 K8 I12 G9 H10 and the game's turns to stone 19 (hard as Black,
    Cloudict as White), hard's second look preferred H11 H13, safe four turns deep; the
    check five turns deep found it to leave White a win, then ran out of positions, and
    H11 H13 was played and lost. The first look's J14 K14, checked safe, is played instead."""
    moves = "J11 K8 I12 G9 H10 J12 I13 I10 K12 K11 L10 M9 H14 H9 G10 I14 M14 L13 J13"
    turn, board = after_hards_turn(moves.split())
    assert ThreatSearch(board, 1, Allowance.for_seconds(board, 60)).forced_win(6) is None, [
        str(move) for move in turn
    ]


# Hard's count of positions a turn in the Game of 6 benchmarks against normal (2 s a turn
# at 20,000 positions a second).
GAME_OF_6_POSITIONS = 40_000


def test_hard_leaves_no_win_by_double_threats_in_game_of_6():
    """The Connect6 opening of the test above, in Game of 6, where no polygonal is near:
    hard, looking for no double-threat wins there, played J10 L12, which leaves White
    a win within eight turns, each a four both of Black's dots must stop."""
    turn, board = after_hards_turn(
        ["H12", "L7", "K11", "J9", "I7", "K10", "L10"], "gameof6", GAME_OF_6_POSITIONS
    )
    doubles = ThreatSearch(board, 1, Allowance.for_seconds(board, 60), loose_tried=0)
    assert doubles.forced_win(8) is None, [str(move) for move in turn]


# Game of 6 benchmark openings (5 dots, White to move) where hard, judging its looks by
# the board after its own turn, played a four that one turn of Black stops (H10 F12, and
# G13 F14 once it read double threats).
GAME_OF_6_OPENINGS_NOT_TO_SPEND_A_FOUR_IN = ("J13 G11 I9 I12 H9", "L11 H12 I11 I8 K12")


@pytest.mark.parametrize("moves", GAME_OF_6_OPENINGS_NOT_TO_SPEND_A_FOUR_IN)
def test_hard_does_not_spend_a_four_on_its_first_turn_in_game_of_6(moves):
    """With the turn it is about to play counted for the side to move at the end of its
    looks, hard builds: its pair makes no threat that Black would stop and build on."""
    turn, board = after_hards_turn(moves.split(), "gameof6", GAME_OF_6_POSITIONS)
    assert not board.threats[1], [str(move) for move in turn]
