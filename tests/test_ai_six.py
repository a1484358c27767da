"""The Six computer player against a deliberately simple exhaustive solver.

The solver knows nothing of shapes: it plays every legal move on a copy of the game
and reads the result. Positions come from games of random moves that favour cells
next to the mover's own pieces, so that shapes one or two pieces short abound.
"""

import doctest
import importlib
import math
import random
from collections import Counter

import pytest

from sixtui.ai import LEVELS, choose_turn
from sixtui.ai.six import (
    HARD_DEPTH,
    HARD_LIFTS_PER_PIECE,
    HARD_SECOND_ROUND_REPLY_WIDTH,
    HARD_WIDTH,
    hard_lifts_per_piece,
    hard_pre_empts,
    hard_search,
)
from sixtui.ai.six_search import MOVES_PER_CELL, PIECE_WORTH, THREAT_WIN, WIN, SixSearch
from sixtui.ai.six_shapes import ShapeBoard
from sixtui.rules import new_game
from sixtui.rules.hexes import NEIGHBOUR_STEPS, Hex, pack
from sixtui.rules.shapes import shapes_through
from sixtui.rules.six_ending import TOO_FEW
from support.six_games import OPTION_ARGUMENTS
from support.six_solver import (
    can_win_at_once,
    every_move,
    forces_a_win,
    lets_the_other_team_force_a_win,
    lets_the_other_team_win,
    wins_at_once,
)
from support.turns import level_turn, play_whole_turn, random_position

FIRST_ROUND_OPTIONS = [
    {"ruleset": "steffen"},
    {"ruleset": "romanian"},
    {"ruleset": "romanian", "declare": True},
    {"ruleset": "steffen", "players": 4},
]
EVERY_OPTION = OPTION_ARGUMENTS


# -- the positions ----------------------------------------------------------------------------


def clumped_positions(options, games, seed, first_round_only=True):
    """The positions of ``games`` random games in which each move favours cells next to
    the mover's own pieces, and mostly fills a cell where the other team would complete
    a shape, so that games last; only positions still in the first round if so asked."""
    rng = random.Random(f"{seed} {sorted(options.items())}")
    for _ in range(games):
        game = new_game("six", **options)
        while game.result is None:
            if first_round_only and not game.in_hand(game.to_move):
                break
            yield game.copy()
            game.play(clumping_move(game, rng))


def clumping_move(game, rng):
    team = game.team(game.to_move)
    moves = game.legal_moves()
    board = {pack(cell): owner for cell, owner in game.layout().items()}
    theirs = ShapeBoard(board, game.rules.centre_may_be_opponent).winning_cells(1 - team)
    blocks = [move for move in moves if move.to is not None and pack(move.to) in theirs]
    if blocks and rng.random() < 0.8:
        return rng.choice(blocks)
    weights = [1 + 4 * friends(game, move, team) ** 2 for move in moves]
    return rng.choices(moves, weights)[0]


def friends(game, move, team):
    if move.to is None:
        return 0
    return sum(game.at(cell) == team for cell in move.to.neighbours() if cell != move.origin)


def chosen(game, level, seed=1):
    """The move of ``level``'s test turn (:func:`support.turns.level_turn`)."""
    moves = level_turn(game, level, seed)
    assert len(moves) == 1
    return moves[0]


def counted_turn(game, level, seed, positions=None):
    """The turn of ``level`` searching ``positions`` (its test turn's if not given),
    whatever the time: the tests are quick and repeat on any machine."""
    if positions is None:
        return level_turn(game, level, seed)
    return choose_turn(game, level=level, seed=seed, positions=positions)


# -- winning, blocking, double threats -----------------------------------------------------------


@pytest.mark.parametrize("options", FIRST_ROUND_OPTIONS)
def test_every_level_wins_at_once_when_it_can(options):
    checked = 0
    for game in clumped_positions(options, games=8 if options.get("declare") else 12, seed=11):
        if not can_win_at_once(game):
            continue
        for level in LEVELS:
            move = chosen(game, level)
            assert wins_at_once(game, move), f"{level} missed a win with {move} in {game}"
        checked += 1
    assert checked >= 12


@pytest.mark.parametrize("options", FIRST_ROUND_OPTIONS)
def test_every_level_stops_a_win_next_turn_when_one_move_can(options):
    checked = 0
    for game in clumped_positions(options, games=3 if options.get("declare") else 6, seed=12):
        if can_win_at_once(game):
            continue
        moves = every_move(game)
        losing = [lets_the_other_team_win(game, move) for move in moves]
        if not any(losing) or all(losing):
            continue  # nothing to stop, or nothing stops it
        for level in LEVELS:
            move = chosen(game, level)
            assert not lets_the_other_team_win(game, move), f"{level}: {move} in {game}"
        checked += 1
    assert checked >= 12


@pytest.mark.parametrize("options", [FIRST_ROUND_OPTIONS[i] for i in (0, 1, 3)])
def test_normal_and_hard_make_a_double_threat_when_there_is_one(options):
    checked = 0
    for game in clumped_positions(options, games=5, seed=13):
        if can_win_at_once(game):
            continue
        moves = every_move(game)
        if any(lets_the_other_team_win(game, move) for move in moves):
            continue  # the other team threatens: stopping it comes first
        if not any(forces_a_win(game, move) for move in moves):
            continue
        for level in ("normal", "hard"):
            move = chosen(game, level)
            assert forces_a_win(game, move), f"{level} made no double threat: {move} in {game}"
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("options", FIRST_ROUND_OPTIONS[:2])
def test_normal_and_hard_stop_a_double_threat_when_one_move_can(options):
    """Where the other team could make a double threat (found through the shapes), the
    move chosen leaves it none, unless every move would (the solver then checks them all)."""
    checked = 0
    for game in clumped_positions(options, games=4, seed=14):
        team = game.team(game.to_move)
        board = {pack(cell): owner for cell, owner in game.layout().items()}
        shapes = ShapeBoard(board, game.rules.centre_may_be_opponent)
        if shapes.winning_cells(1 - team) or not shapes.double_threat_cells(1 - team):
            continue  # a win to stop (tested above), or no double threat to stop
        if can_win_at_once(game):
            continue
        for move in {chosen(game, level) for level in ("normal", "hard")}:
            if lets_the_other_team_force_a_win(game, move):
                assert all(
                    lets_the_other_team_force_a_win(game, other) for other in every_move(game)
                ), f"{move} lets the other team force a win in {game}"
        checked += 1
        if checked == 15:
            break
    assert checked == 15


def capture_position(players, cut_off):
    """A Steffen game at the start of its second round, laid out along a path that makes
    no shape: lifting black's piece on 0,0 cuts off ``cut_off`` white pieces."""
    per_team = 19 if players == 2 else 18
    path = [((i + 1) // 2, i // 2) for i in range(-cut_off, 2 * per_team - cut_off)]
    left, right = path[:cut_off], path[cut_off + 1 :]
    order = [path[cut_off]]  # black's first piece: 0,0
    for turn in range(1, 2 * per_team):
        white_turn = turn % 2 == 1
        order.append(left.pop() if white_turn and left else right.pop(0))
    game = new_game("six", ruleset="steffen", players=players)
    for q, r in order:
        game.play(f"{q},{r}")
    assert game.result is None and not game.in_hand(game.to_move) and game.to_move == 0
    return game, per_team - cut_off


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_a_capture_that_leaves_too_few_pieces_wins(players, level):
    for cut_off in range(10, 19 if players == 2 else 18):
        game, white_left = capture_position(players, cut_off)
        if cut_off >= 2 * (19 if players == 2 else 18) - 1 - cut_off:
            continue  # the white part is the larger and would stay
        move = chosen(game, level)
        if white_left <= 5:
            assert wins_at_once(game, move), f"{level} missed the capture, cutting off {cut_off}"
        else:
            assert not lets_the_other_team_win(game, move)


# -- never an illegal move, whatever the budget ------------------------------------------------


@pytest.mark.parametrize("options", EVERY_OPTION)
def test_every_move_is_legal_in_every_ruleset(options):
    for seed, turns in enumerate((0, 1, 3, 9, 20, 35, 45, 60, 80)):
        game = random_position("six", options, seed=seed, turns=turns)
        if game.result is not None:
            continue
        for level in LEVELS:
            play_whole_turn(game.copy(), choose_turn(game, level=level, seed=seed, seconds=0.05))


@pytest.mark.parametrize("seconds", [0.0, 0.001, 0.01])
@pytest.mark.parametrize("options", EVERY_OPTION[::2])
def test_tiny_budgets_still_give_legal_moves(options, seconds):
    for turns in (2, 30, 60):
        game = random_position("six", options, seed=turns, turns=turns)
        if game.result is None:
            for level in LEVELS:
                play_whole_turn(game.copy(), choose_turn(game, level, seconds=seconds, seed=1))


@pytest.mark.parametrize("options", FIRST_ROUND_OPTIONS)
def test_the_same_seed_makes_the_same_move(options):
    for turns in (4, 14, 50):
        game = random_position("six", options, seed=turns, turns=turns)
        if game.result is None:
            for level in LEVELS:
                first = [counted_turn(game, level, seed, 100) for seed in range(4)]
                assert first == [counted_turn(game, level, seed, 100) for seed in range(4)]


def test_easy_varies_with_the_seed():
    game = random_position("six", {"ruleset": "steffen"}, seed=2, turns=8)
    assert len({tuple(counted_turn(game, "easy", seed)) for seed in range(12)}) > 1


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_vary_with_the_seed_among_equal_moves(level):
    """Early positions offer several moves of the same worth: the seed picks one."""
    for turns in (2, 3, 4):
        game = random_position("six", {"ruleset": "steffen"}, seed=turns, turns=turns)
        moves = {chosen(game, level, seed) for seed in range(8)}
        if len(moves) > 1:
            return
    raise AssertionError(f"{level} played the same move whatever the seed")


def test_a_seed_and_a_count_of_positions_repeat_a_whole_game():
    def game_of(seed):
        game = new_game("six", ruleset="romanian")
        while game.result is None and len(game.history) < 16:
            level = LEVELS[len(game.history) % 3]
            game.play(counted_turn(game, level, seed + len(game.history), 150)[0])
        return game.history

    assert game_of(5) == game_of(5)


# -- the shapes, kept move by move, against a plain count -------------------------------------


STEPS = (0, *NEIGHBOUR_STEPS)


def completing_cells(board, team, centre_may_be_opponent):
    """The empty cells where a piece of ``team`` makes a shape, each tried on the board
    and checked by the rules' own shape finder."""

    def centre_allows(centre, side):
        return centre_may_be_opponent or board.get(centre, side) == side

    found = set()
    for cell in {cell + step for cell in board for step in NEIGHBOUR_STEPS} - set(board):
        board[cell] = team
        if next(shapes_through(board, cell, team, centre_allows), None) is not None:
            found.add(cell)
        del board[cell]
    return found


def kept_positions(ruleset: str):
    """Clumped positions of ``ruleset``, each as its board and its shapes kept piece by
    piece, a third of the pieces lifted and put back on the way (the counts must come
    back too)."""
    centre_rule = new_game("six", ruleset=ruleset).rules.centre_may_be_opponent
    for game in clumped_positions({"ruleset": ruleset}, games=6, seed=15, first_round_only=False):
        board = {pack(cell): owner for cell, owner in game.layout().items()}
        shapes = ShapeBoard({}, centre_rule)
        for cell, owner in board.items():
            shapes.place(cell, owner)
        for cell in list(board)[::3]:
            shapes.place(cell, shapes.remove(cell))
        yield board, shapes


@pytest.mark.parametrize("ruleset", ["steffen", "romanian"])
def test_shapes_kept_move_by_move_find_every_winning_cell_and_double_threat(ruleset):
    centre_rule = new_game("six", ruleset=ruleset).rules.centre_may_be_opponent
    checked = 0
    for board, shapes in kept_positions(ruleset):
        for team in (0, 1):
            winning = completing_cells(board, team, centre_rule)
            assert shapes.winning_cells(team) == winning
            if len(winning) >= 2:
                continue  # already two: every move leaves a double threat
            doubles = set()
            # A shape lacking two may lack both its cells beyond the end of a row.
            for cell in {c + one + two for c in board for one in STEPS for two in STEPS} - set(
                board
            ):
                board[cell] = team
                if len(completing_cells(board, team, centre_rule)) >= 2:
                    doubles.add(cell)
                del board[cell]
            assert shapes.double_threat_cells(team) == doubles
            checked += bool(doubles)
    assert checked >= 10


@pytest.mark.parametrize("module", ["six", "six_search", "six_shapes"])
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(importlib.import_module(f"sixtui.ai.{module}"))
    assert failures == 0


# -- captures, read from the cut points, against the moves played -----------------------------


def capture_worth(mine_left, theirs_left, lost_mine, lost_theirs):
    if theirs_left <= TOO_FEW < mine_left:
        return WIN
    if mine_left <= TOO_FEW < theirs_left:
        return -WIN
    return PIECE_WORTH * (lost_theirs - lost_mine)


@pytest.mark.parametrize("ruleset", ["steffen", "romanian-advanced"])
def test_captures_read_from_the_cut_points_are_those_the_moves_make(ruleset):
    """Every lift that captures, and only those, is valued by what playing it takes."""
    checked = 0
    for seed in range(40):
        game = random_position("six", {"ruleset": ruleset}, seed=seed, turns=40 + seed)
        if game.result is not None or game.in_hand(game.to_move):
            continue
        team = game.team(game.to_move)
        played = {}
        for move in game.legal_moves():
            if (move.origin, move.keep) in played:
                continue
            mine, theirs = game.pieces(team), game.pieces(1 - team)
            game.play(move)
            left = game.pieces(team), game.pieces(1 - team)
            game.undo()
            if left != (mine, theirs):
                worth = capture_worth(*left, mine - left[0], theirs - left[1])
                played[move.origin, move.keep] = worth
        assert SixSearch(game, math.inf).capture_gains(team) == played, str(game)
        checked += bool(played)
    assert checked >= 5


def test_two_layouts_one_piece_apart_have_different_keys():
    """The cells packed as -1 and -2 (0,-1 and 0,-2) once gave their layouts one key
    (Python hashes -1 as -2); so did a layout with black's piece on 0,0 (packed as 0)
    and the same without it."""
    near, far = (ShapeBoard({pack(Hex(0, r)): 0}, True) for r in (-1, -2))
    assert near.key != far.key
    assert ShapeBoard({pack(Hex(0, 0)): 0}, True).key != ShapeBoard({}, True).key


@pytest.mark.parametrize("ruleset", ["steffen", "romanian"])
def test_second_round_candidates_go_to_more_than_one_cell(ruleset):
    """Many pieces may go to the best cell: the search's few moves go to several cells,
    at most MOVES_PER_CELL to each, unless every move must block one winning cell."""
    checked = 0
    for seed in range(30):
        game = random_position("six", {"ruleset": ruleset}, seed=seed, turns=44 + seed)
        if game.result is not None or game.in_hand(game.to_move):
            continue
        search = SixSearch(game, math.inf)
        team = game.team(game.to_move)
        if search.shapes.winning_cells(team) or search.shapes.winning_cells(1 - team):
            continue  # a win to take, or one winning cell to block
        cells = Counter(move.to for move in search.candidates(7))
        assert max(cells.values()) <= MOVES_PER_CELL, str(game)
        checked += 1
    assert checked >= 10


# -- a capture that wins comes before any shape --------------------------------------------

# A Steffen game between normal (black) and hard, white to move in the second round: its
# lift -2,-1>-4,1 makes two winning cells, but lets black's lift 0,0>-1,-2 cut off enough
# white pieces to leave white too few, which wins before any shape.
CAPTURE_UNDER_THREAT = (
    "0,0 1,0 1,-1 1,-2 -1,1 -2,2 0,-1 -1,0 -2,1 0,1 -1,-1 -2,0 2,-1 3,-1 0,-2 -2,-1 1,-3 "
    "2,-3 3,-3 4,-4 0,-3 0,-4 -1,-3 -1,-2 2,-4 -1,2 0,2 3,-5 -2,3 4,-1 4,-2 4,-6 4,-5 "
    "3,-4 -2,-3 5,-5 5,-6 4,-3 4,-2>-3,-3 4,-1>-4,-3 2,-1>3,-2 1,0>6,-5 -3,-3>6,-6 "
    "3,-5>6,-4 0,2>5,-3 5,-5>5,-4 0,0>7,-6 6,-5>7,-4 7,-6>8,-4 7,-4>4,-2 -1,1>-3,-3 "
    "-1,2>-4,-3 -2,1>0,0 4,-3>7,-4 3,-3>8,-4 7,-4>0,1 -3,-3>2,-1 4,-2>7,-4 3,-2>8,-4 "
    "7,-4>-1,1 5,-3>-3,-3 6,-4>-4,-3 -3,-3>-2,-2 -1,0>-2,1 6,-6>-3,2 5,-4>-3,1 4,-5>3,-1 "
    "3,-4>4,-1 -1,-1>-3,-3 -1,-2>-4,-3 0,-3>-2,2"
)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_capture_that_wins_is_seen_past_a_shape_threat(level):
    game = new_game("six", ruleset="steffen")
    for move in CAPTURE_UNDER_THREAT.split():
        game.play(move)
    careless = game.parse_move("-2,-1>-4,1")
    assert lets_the_other_team_win(game, careless)
    for seed in range(3):
        move = chosen(game, level, seed)
        assert not lets_the_other_team_win(game, move), f"{level} played {move}"
    game.play(careless)
    assert SixSearch(game, math.inf).evaluate(game.team(game.to_move)) >= THREAT_WIN // 2


# -- a piece that looks idle ----------------------------------------------------------------

# A Steffen game from the benchmark's opening 9064, normal (black) against hard, up to
# white's move: black's five on 0,-2 .. 4,-2 is blocked by white's 5,-2, which hangs on
# the layout through white's 4,-1 and black's 4,-2. White lifted 4,-1 (every move hard
# searched lifted it: it looked the idlest piece), and black's 4,-2>3,-6 cut 5,-2 off
# while making a winning cell on 3,-7; each block white made there and on 5,-2 hung on
# the piece black lifted next, and white lost a piece a turn and the game.
IDLE_LOOKING = (
    "0,0 -1,1 -1,0 1,-1 -2,0 -3,0 0,-1 -1,-1 -2,-1 -2,1 0,-2 -1,-2 2,-2 0,1 1,-2 1,1 1,0 "
    "2,-1 2,1 2,-3 -1,2 3,-1 4,-2 3,0 -4,1 3,1 3,-2 5,-2 5,-1 -3,-1 3,-3 4,-4 3,-4 2,-4 "
    "-4,2 -3,-2 3,-5 2,2 5,-1>-3,2 -1,1>4,-1 -1,2>5,-1 4,-1>-4,0 5,-1>-4,-1 -3,-2>4,-1 "
    "-4,-1>5,-1 4,-1>-3,-2 5,-1>-4,-1 -3,-2>4,-1 -4,-1>5,-1 4,-1>-5,0 5,-1>-4,-1 "
    "-3,-1>4,-1 -4,-1>5,-1 4,-1>-4,-1 5,-1>-3,-1 1,1>4,-1 -2,0>5,-1"
)


def pieces_cut_off_by(game, move):
    """How many pieces of the team not to move ``move`` captures."""
    other = 1 - game.team(game.to_move)
    before = game.pieces(other)
    game.play(move)
    try:
        return before - game.pieces(other)
    finally:
        game.undo()


def test_hard_keeps_the_piece_that_holds_its_block_on_the_layout():
    game = new_game("six", ruleset="steffen")
    for move in IDLE_LOOKING.split():
        game.play(move)
    careless = game.parse_move("4,-1>-6,0")
    game.play(careless)
    trap = game.parse_move("4,-2>3,-6")
    assert pieces_cut_off_by(game, trap) == 1
    game.undo()
    for seed in range(2):
        # As many positions as hard searches in the benchmark's turns, where it played so.
        move = counted_turn(game, "hard", seed, positions=16_000)[0]
        game.play(move)
        # A piece put on the trap's cell spares the block as surely as keeping 4,-1.
        if trap in game.legal_moves():
            assert pieces_cut_off_by(game, trap) == 0, f"hard played {move}"
        game.undo()


# Partner Six from the benchmark's opening 360, normal's team first, up to hard's turn:
# hard's -3,-1 there left it two shapes two pieces short (-5,-1 -4,-1 and -3,0 -3,1).
# Searching the other team's seven best-ranked answers, none of them on those cells, hard
# took it for a forced win; normal's -3,0 spoilt the triangle, and hard lost the game.
PRE_EMPTED = "0,0 0,-1 0,-2 -1,-1 1,-1 -2,-1 2,-2 -1,0 -2,1 -2,0 -1,-2"


def test_hard_takes_no_threats_for_a_forced_win_that_a_block_ahead_stops():
    game = new_game("six", ruleset="steffen", players=4)
    for move in PRE_EMPTED.split():
        game.play(move)
    # As many positions as hard searches in the benchmark's turns.
    _, score = hard_search(game, math.inf, 16_000).best_move(HARD_DEPTH)
    assert score < THREAT_WIN // 2
    game.play("-3,-1")
    answers = {str(move) for move in hard_search(game, math.inf).candidates(HARD_WIDTH)}
    assert {"-3,0", "-3,1", "-4,-1"} <= answers  # -5,-1 touches no piece yet
    game.play("-3,0")
    _, score = hard_search(game, math.inf, 16_000).best_move(HARD_DEPTH)
    assert score < THREAT_WIN // 2  # what -3,-1 was to force is gone


@pytest.mark.parametrize(("players", "pre_empts"), [(2, False), (4, True)])
def test_hard_pre_empts_shapes_two_pieces_short_in_partner_six_only(players, pre_empts):
    assert hard_pre_empts(new_game("six", ruleset="steffen", players=players)) is pre_empts


@pytest.mark.parametrize("ruleset", ["steffen", "romanian"])
def test_partner_hard_weighs_every_block_of_a_shape_two_pieces_short_in_the_first_round(ruleset):
    """Each placement onto a cell where the other team's next piece would make a winning
    cell is among the moves hard searches, however it ranks."""
    options = {"ruleset": ruleset, "players": 4}
    centre_rule = new_game("six", **options).rules.centre_may_be_opponent
    beyond_the_width = 0
    for game in clumped_positions(options, games=8, seed=23):
        team = game.team(game.to_move)
        board = {pack(cell): owner for cell, owner in game.layout().items()}
        if completing_cells(board, team, centre_rule) or completing_cells(
            board, 1 - team, centre_rule
        ):
            continue  # a win to take, or a winning cell to block: those moves alone
        blocks_ahead = set()
        for move in game.legal_moves():
            board[pack(move.to)] = 1 - team
            if completing_cells(board, 1 - team, centre_rule):
                blocks_ahead.add(move)
            del board[pack(move.to)]
        assert blocks_ahead <= set(hard_search(game, math.inf).candidates(HARD_WIDTH)), str(game)
        ranked = SixSearch(game, math.inf, HARD_WIDTH).candidates(HARD_WIDTH)
        beyond_the_width += bool(blocks_ahead - set(ranked))
    assert beyond_the_width >= 3


@pytest.mark.parametrize(("players", "limit"), [(2, HARD_LIFTS_PER_PIECE), (4, None)])
def test_hard_limits_the_lifts_of_one_piece_only_between_two_players(players, limit):
    assert hard_lifts_per_piece(new_game("six", ruleset="steffen", players=players)) == limit


@pytest.mark.parametrize("ruleset", ["steffen", "romanian"])
def test_hard_second_round_moves_lift_several_pieces(ruleset):
    """The piece whose lift costs least by the cells alone does not fill hard's every
    place: at most HARD_LIFTS_PER_PIECE of the moves searched lift any one piece."""
    checked = 0
    for seed in range(30):
        game = random_position("six", {"ruleset": ruleset}, seed=seed, turns=44 + seed)
        if game.result is not None or game.in_hand(game.to_move):
            continue
        search = SixSearch(game, math.inf, lifts_per_piece=HARD_LIFTS_PER_PIECE)
        team = game.team(game.to_move)
        if search.shapes.winning_cells(team) or search.shapes.winning_cells(1 - team):
            continue  # a win to take, or one winning cell to block
        lifts = Counter(move.origin for move in search.candidates(HARD_SECOND_ROUND_REPLY_WIDTH))
        assert max(lifts.values()) <= HARD_LIFTS_PER_PIECE, str(game)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("ruleset", ["steffen", "romanian"])
def test_pieces_held_back_kept_move_by_move_are_those_whose_lift_frees_a_shape(ruleset):
    centre_rule = new_game("six", ruleset=ruleset).rules.centre_may_be_opponent
    checked = 0
    for board, shapes in kept_positions(ruleset):
        for team in (0, 1):
            held = set()
            for cell in [cell for cell, owner in board.items() if owner == team]:
                del board[cell]
                if cell in completing_cells(board, 1 - team, centre_rule):
                    held.add(cell)
                board[cell] = team
            assert shapes.held_back(team) == held
            checked += bool(held)
    assert checked >= 10


# A Romanian game from the benchmark's opening 9020, normal (black) against hard, up to
# hard's move: after 1,0>-1,3 there, black's 0,-1>-3,4 leaves each piece red may lift the
# last one keeping black from a triangle, and black won so.
HELD_FAST = (
    "0,-1 1,-2 -1,0 2,-2 -2,1 3,-3 2,-3 3,-2 4,-2 1,-1 4,-4 3,-1 2,-1 3,-4 3,0 -3,2 3,-5 "
    "-4,2 -2,2 -5,3 -4,3 -5,2 -2,0 -2,-1 -6,2 -5,1 -3,1 -1,-2 -2,3 -1,-1 -2,-2 -5,0 -5,-1 "
    "0,-3 1,-4 -2,4 -4,1 0,1 4,0 5,0 -2,0>-5,4 1,-2>4,1 -4,3>4,-5 3,-3>4,-3 1,-4>2,-5 "
    "3,-2>1,-5 2,-1>4,-6 -4,2>1,-3 -2,-2>-1,-3 1,-1>0,-2 1,0>4,-7 4,1>3,-6 4,-7>1,-2 "
    "0,-3>1,1 4,-6>2,0 3,-6>1,0 2,-3>-1,1 1,-3>3,-2 -2,1>2,-1 3,-2>1,2 2,0>0,2 0,0>1,3 "
    "4,-5>1,4 1,1>-2,-2 -5,4>-2,0 -1,-2>-5,4 1,-2>-5,5 5,0>1,-2 4,0>0,0 -2,4>-2,1 "
    "3,0>-3,3 1,-5>-4,4 -3,1>-1,2"
)


def held_fast_game():
    game = new_game("six", ruleset="romanian")
    for move in HELD_FAST.split():
        game.play(move)
    return game


def test_hard_leaves_no_piece_it_may_lift_the_last_one_holding_back_a_shape():
    game = held_fast_game()
    careless = game.parse_move("1,0>-1,3")
    trap = "0,-1>-3,4"
    game.play(careless)
    assert forces_a_win(game, game.parse_move(trap))
    assert SixSearch(game, math.inf).evaluate(0) < THREAT_WIN // 2  # no shape threat shows it
    game.undo()
    for seed in range(2):
        # As many positions as hard searches in the benchmark's games, where it played so.
        move = counted_turn(game, "hard", seed, positions=16_000)[0]
        game.play(move)
        if trap in {str(reply) for reply in game.legal_moves()}:
            assert not forces_a_win(game, game.parse_move(trap)), f"hard played {move}"
        game.undo()


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_move_that_leaves_every_lift_freeing_a_shape_is_played(level):
    game = held_fast_game()
    game.play("1,0>-1,3")
    for seed in range(2):
        move = chosen(game, level, seed)
        assert forces_a_win(game, move), f"{level} played {move}"
