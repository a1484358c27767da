"""The computer players over many random positions and whole games: never an illegal
move, at any level, in any game, ruleset or player count, first round or second; the
time budget holds; the same seed gives the same game, different seeds different games
where the level plays at random.

Cancelling a think (the worker returns at once and goes on) is tested in
``test_ai_worker.py``.
"""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sixtui.ai import LEVELS, choose_turn
from sixtui.rules import new_game
from support.six_games import Chooser
from support.turns import level_turn, play_whole_turn

GAMES = [
    ("connect6", {"size": 19}),
    ("connect6", {"size": 9}),
    ("gameof6", {"size": 19}),
    ("gameof6", {"size": 8}),
    *(
        ("six", {"ruleset": ruleset, "players": players, "declare": declare})
        for ruleset in ("steffen", "romanian", "romanian-advanced")
        for players in (2, 4)
        for declare in (False, True)
        if ruleset != "steffen" or not declare
    ),
]
POSITIONS = 150  # a game and options: 2100 positions in all


def game_id(entry):
    name, options = entry
    return "-".join([name, *(str(value) for value in options.values())])


def random_walk(name, options, rng):
    """The positions of random games, one after each move (a stone, a dot or a piece),
    so that turns half played come too; a move that would end the game is taken back
    and another tried. Six games are played by the random players of the Six property
    tests (some of them shuttle pieces or capture a lot), so that second rounds come."""
    while True:
        game = new_game(name, **options)
        chooser = Chooser(rng, rng.choice(["uniform", "long", "shuttle", "shrink"]))
        for _ in range(rng.randint(20, 140)):
            moves = game.legal_moves()
            if not moves:
                break
            first = chooser.choose(game) if name == "six" else rng.choice(moves)
            for move in [first, *rng.sample(moves, min(5, len(moves)))]:
                game.play(move)
                if game.result is None:
                    break
                game.undo()
            else:
                break
            yield game


@pytest.mark.parametrize(("name", "options"), GAMES, ids=map(game_id, GAMES))
def test_every_level_plays_a_legal_whole_turn_in_random_positions(name, options):
    """150 random positions of each game, ruleset and player count, the levels in turn,
    with tiny budgets (none at all, a millisecond, a few): the moves returned complete a
    legal whole turn and the game is left as it was. Six reaches its second round,
    Connect6 and Game of 6 half-played turns."""
    rng = random.Random(f"legal {name} {options}")
    seen = {"second round": 0, "half a turn": 0}
    for number, game in enumerate(random_walk(name, options, rng)):
        if number == POSITIONS:
            break
        level = LEVELS[number % 3]
        seconds = (0.0, 0.001, 0.004)[number // 3 % 3]
        saved = game.to_bytes()
        moves = choose_turn(game, level=level, seconds=seconds, seed=number)
        assert game.to_bytes() == saved, "the game was changed"
        play_whole_turn(game.copy(), moves)
        if name == "six":
            seen["second round"] += not game.in_hand(game.to_move)
        else:
            seen["half a turn"] += game.stones_left == 1 and len(game.history) > 1
    assert seen["second round" if name == "six" else "half a turn"] >= 20, seen


@settings(max_examples=150, deadline=None)
@given(
    entry=st.sampled_from(GAMES),
    walk_seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 120),
    level=st.sampled_from(LEVELS),
    seconds=st.sampled_from([0.0, 0.001, 0.003]),
    seed=st.integers(0, 2**32 - 1) | st.none(),
)
def test_property_any_position_any_level_a_legal_whole_turn(
    entry, walk_seed, steps, level, seconds, seed
):
    """Whatever the game, the random position, the level, the budget and the seed (or
    none), the moves returned complete a legal whole turn."""
    name, options = entry
    for number, game in enumerate(random_walk(name, options, random.Random(walk_seed))):
        if number == steps:
            play_whole_turn(game.copy(), choose_turn(game, level, seconds=seconds, seed=seed))
            break


# -- the budget -------------------------------------------------------------------------------


def budget_positions():
    rng = random.Random("budget")
    for name, options in [GAMES[0], GAMES[2], GAMES[4], GAMES[12]]:
        walk = random_walk(name, options, rng)
        for number, game in enumerate(walk):
            if number >= 60 and (name != "six" or game.in_hand(game.to_move) == 0):
                yield game.copy()
                break
            if number > 200:
                raise AssertionError(f"no position for {name} {options}")


@pytest.mark.parametrize("level", LEVELS)
def test_a_turn_takes_no_more_processor_time_than_its_budget_and_a_margin(level):
    """The processor time a turn takes (never more than the time on the clock, however
    loaded the machine) stays within its 0.1 s budget and a second's margin: in
    Connect6 and Game of 6 on 19×19, and Six in its second round. How close to the
    budget the players come is measured by the benchmarks."""
    for game in budget_positions():
        started = time.process_time()
        play_whole_turn(game.copy(), choose_turn(game, level=level, seconds=0.1, seed=1))
        assert time.process_time() - started < 0.1 + 1.0, game


# -- seeds ------------------------------------------------------------------------------------

SEED_GAMES = [
    ("connect6", {"size": 9}),
    ("gameof6", {"size": 8}),
    ("six", {"ruleset": "steffen"}),
    ("six", {"ruleset": "romanian-advanced", "players": 4, "declare": True}),
]


def whole_game(name, options, levels, seed, turns=60):
    """The moves of a game (up to ``turns`` turns) between ``levels`` taking turns, each
    turn seeded from ``seed``. The budget is far more than normal uses on the grids, and
    the levels that think their whole time through search a count of positions
    (:func:`support.turns.level_turn`): their work is never cut by the clock, so the seed
    alone decides."""
    game = new_game(name, **options)
    for turn in range(turns):
        if game.result is not None:
            break
        moves = level_turn(game, levels[turn % 2], seed * 1000 + turn, seconds=30)
        play_whole_turn(game, moves)
    return [str(move) for move in game.history]


@pytest.mark.parametrize(("name", "options"), SEED_GAMES, ids=map(game_id, SEED_GAMES))
def test_the_same_seed_gives_the_same_game(name, options):
    """Easy against normal, twice with the same seed: the same moves both times."""
    first = whole_game(name, options, ("easy", "normal"), 1, turns=25)
    assert whole_game(name, options, ("easy", "normal"), 1, turns=25) == first


@pytest.mark.parametrize(("name", "options"), SEED_GAMES, ids=map(game_id, SEED_GAMES))
def test_different_seeds_give_different_games_at_easy(name, options):
    """Easy plays one of its few best moves at random: six seeds, six different games
    (twelve turns each)."""
    games = {
        tuple(whole_game(name, options, ("easy", "easy"), seed, turns=12)) for seed in range(6)
    }
    assert len(games) == 6
