"""Property-based tests of the rules library against a naive referee (tests/naive_referee.py).

Random games of Connect6 and Game of 6 are played on the engine and on the naive referee
side by side; they must agree after every move. Other properties: saving and loading,
undo, illegal moves, copies, and loading damaged saves.

A failing check names the game, the board size and the moves played, so that a failure
can be replayed by hand with ``new_game(name, size=size)`` and ``play`` on each move.
"""

from __future__ import annotations

import random
import re

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sixtui.rules import IllegalMove, Move, Square, load_game, new_game
from sixtui.rules.game import Game
from support.damaged_saves import damage, load_or_refusal, plausible_values
from support.naive_referee import LETTERS, NaiveGame, cell_name
from support.reprs import assert_moves_shown, result_words

GAME_NAMES = ("connect6", "gameof6")

# Board sizes: the whole allowed range, with half the draws on small boards, where
# enclosures, lines and full boards come soon.
BOARD_SIZES = {
    "connect6": st.one_of(st.integers(6, 8), st.integers(6, 19)),
    "gameof6": st.one_of(st.integers(8, 10), st.integers(8, 26)),
}
SMALL_BOARD_SIZES = {"connect6": st.integers(6, 7), "gameof6": st.integers(8, 9)}

# Random games on big boards are cut after this many moves to keep the run short.
MOVE_CAP = 100

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
QUICK_SETTINGS = settings(SETTINGS, max_examples=60)

seeds = st.integers(0, 2**32 - 1)


# -- players that choose the next move on the naive referee's board ------------------------


class UniformPlayer:
    """Any empty cell, uniformly."""

    def __init__(self, rng: random.Random, size: int) -> None:
        self.rng = rng

    def choose(self, naive: NaiveGame) -> tuple[int, int]:
        return self.rng.choice(naive.empty_cells())


class EnclosingPlayer:
    """Each side mostly places its dots on the border of a small shape (a union of
    rectangles and diamonds), so that closed polygonals (diamonds, rectangles, concave
    ones) form, often around the other side's dots or cut by the board's edge."""

    def __init__(self, rng: random.Random, size: int) -> None:
        self.rng = rng
        self.size = size
        self.rings: dict[int, list[tuple[int, int]]] = {0: [], 1: []}

    def new_ring(self, naive: NaiveGame, team: int) -> list[tuple[int, int]]:
        rng, size = self.rng, self.size
        opponent_dots = [(c, r) for c, r in naive.cells() if naive.dot[c][r] == 1 - team]
        if opponent_dots and rng.random() < 0.4:
            center = rng.choice(opponent_dots)  # try to enclose the other side's dots
        else:
            center = (rng.randrange(size), rng.randrange(size))
        shape: set[tuple[int, int]] = set()
        for _ in range(rng.randint(1, 3)):
            c0 = center[0] + rng.randint(-2, 2)
            r0 = center[1] + rng.randint(-2, 2)
            if rng.random() < 0.5:
                radius = rng.randint(1, 3)
                shape |= {
                    (c0 + dc, r0 + dr)
                    for dc in range(-radius, radius + 1)
                    for dr in range(-radius, radius + 1)
                    if abs(dc) + abs(dr) <= radius
                }
            else:
                width, height = rng.randint(3, 5), rng.randint(3, 5)
                shape |= {(c0 + dc, r0 + dr) for dc in range(width) for dr in range(height)}
        border = [
            (c, r)
            for c, r in shape
            if naive.on_board(c, r)
            and any((c + dc, r + dr) not in shape for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        ]
        return sorted(border)

    def choose(self, naive: NaiveGame) -> tuple[int, int]:
        team = naive.to_move
        if self.rng.random() < 0.85:
            for _ in range(4):
                targets = [cell for cell in self.rings[team] if naive.is_empty(*cell)]
                if targets:
                    return self.rng.choice(targets)
                self.rings[team] = self.new_ring(naive, team)
        return self.rng.choice(naive.empty_cells())


class DrawSeekingPlayer:
    """A random empty cell that does not end the game, when a few tries find one: games
    last long and often fill the board."""

    def __init__(self, rng: random.Random, size: int) -> None:
        self.rng = rng

    def choose(self, naive: NaiveGame) -> tuple[int, int]:
        empty = naive.empty_cells()
        for cell in self.rng.sample(empty, min(10, len(empty))):
            trial = naive.copy()
            trial.play(*cell)
            if trial.result is None:
                return cell
        return self.rng.choice(empty)


PLAYERS = {
    "uniform": UniformPlayer,
    "enclosing": EnclosingPlayer,
    "draw-seeking": DrawSeekingPlayer,
}


# -- helpers ---------------------------------------------------------------------------------


def all_squares(size: int) -> list[Square]:
    return [Square(col, row) for row in range(size) for col in range(size)]


def describe(naive: NaiveGame) -> str:
    moves = " ".join(cell_name(c, r) for c, r in naive.history)
    return f"{naive.name} size={naive.size} moves: {moves}"


def assert_agrees(game: Game, naive: NaiveGame, squares: list[Square]) -> None:
    """The engine and the naive referee see the same position and outcome."""
    where = describe(naive)
    assert game.result == naive.result, where
    assert game.is_over == (naive.result is not None), where
    assert game.to_move == naive.to_move, where
    assert game.stones_left == naive.stones_left, where
    assert [str(m) for m in game.history] == [cell_name(c, r) for c, r in naive.history], where
    assert [game.at(s) for s in squares] == [naive.dot[c][r] for c, r in squares], where
    assert [game.colored(s) for s in squares] == [naive.color[c][r] for c, r in squares], where
    assert [game.colored_count(t) for t in (0, 1)] == [naive.colored_count(t) for t in (0, 1)], (
        where
    )
    legal = [str(m) for m in game.legal_moves()]
    assert len(legal) == len(set(legal)), where
    assert set(legal) == naive.legal_move_names(), where
    assert {str(s) for s in game.winning_cells()} == naive.winning_cell_names(), where


def observable_state(game: Game, squares: list[Square]) -> dict[str, object]:
    """Everything the public interface shows about a game, and its saved bytes."""
    return {
        "bytes": game.to_bytes(),
        "legal_moves": [str(m) for m in game.legal_moves()],
        "at": [game.at(s) for s in squares],
        "colored": [game.colored(s) for s in squares],
        "colored_count": [game.colored_count(t) for t in (0, 1)],
        "to_move": game.to_move,
        "stones_left": game.stones_left,
        "result": game.result,
        "is_over": game.is_over,
        "history": [str(m) for m in game.history],
        "winning_cells": game.winning_cells(),
    }


def play_both(
    name: str,
    size: int,
    rng: random.Random,
    player: str = "uniform",
    max_moves: int | None = MOVE_CAP,
    check_every_move: bool = True,
) -> tuple[Game, NaiveGame]:
    """Plays one random game on the engine and the naive referee, move by move,
    checking that they agree after each move (or only at the end)."""
    game = new_game(name, size=size)
    naive = NaiveGame(name, size)
    squares = all_squares(size)
    chooser = PLAYERS[player](rng, size)
    assert_agrees(game, naive, squares)
    while naive.result is None and (max_moves is None or len(naive.history) < max_moves):
        col, row = chooser.choose(naive)
        text = cell_name(col, row)
        # Any case is the same point.
        text = "".join(ch.lower() if rng.random() < 0.3 else ch for ch in text)
        game.play(text)
        naive.play(col, row)
        if check_every_move:
            assert_agrees(game, naive, squares)
    assert_agrees(game, naive, squares)
    return game, naive


def random_position(name: str, size: int, rng: random.Random, player: str = "enclosing"):
    """A game stopped after a random number of moves (possibly over already)."""
    return play_both(
        name, size, rng, player, max_moves=rng.randint(0, MOVE_CAP), check_every_move=False
    )


def empty_cell_name(naive: NaiveGame, rng: random.Random) -> str:
    return cell_name(*rng.choice(naive.empty_cells()))


# -- the engine agrees with the naive referee ----------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_engine_agrees_with_naive_referee_on_uniform_random_games(name, data, seed):
    """Uniformly random games: after every move, same result, turn, board, colors and moves."""
    size = data.draw(BOARD_SIZES[name], label="size")
    play_both(name, size, random.Random(seed), "uniform")


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_engine_agrees_with_naive_referee_when_play_builds_enclosures(name, data, seed):
    """Games whose dots gather on the borders of small shapes (polygonals, lines) agree."""
    size = data.draw(BOARD_SIZES[name], label="size")
    play_both(name, size, random.Random(seed), "enclosing")


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds, player=st.sampled_from(sorted(PLAYERS)))
def test_engine_agrees_with_naive_referee_to_the_end_on_small_boards(name, data, seed, player):
    """Games on small boards played to their end (often a full board) agree at every move."""
    size = data.draw(SMALL_BOARD_SIZES[name], label="size")
    game, _ = play_both(name, size, random.Random(seed), player, max_moves=None)
    assert game.is_over


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_games_reach_every_ending_and_the_one_stone_last_turn(name):
    """The generators above do reach each way a game ends, and a turn that begins with one
    empty cell left, so the agreement tests exercise them (fixed seeds, engine checked)."""
    reasons: set[str] = set()
    one_stone_turns = 0
    colored_on_both_sides = 0
    for seed in range(40):
        rng = random.Random(seed)
        size = rng.choice([6, 7]) if name == "connect6" else 8
        player = ("draw-seeking", "enclosing")[seed % 2]
        game = new_game(name, size=size)
        naive = NaiveGame(name, size)
        chooser = PLAYERS[player](rng, size)
        while naive.result is None:
            seat = naive.to_move
            col, row = chooser.choose(naive)
            game.play(cell_name(col, row))
            naive.play(col, row)
            if naive.result is None and naive.to_move != seat and naive.stones_left == 1:
                one_stone_turns += 1
        assert_agrees(game, naive, all_squares(size))
        reasons.add(naive.result[1])
        colored_on_both_sides += all(naive.colored_count(t) for t in (0, 1))
    expected = {"six-in-a-row", "board-full"}
    if name == "gameof6":
        expected.add("colored-cells")
        assert colored_on_both_sides > 0
    assert expected <= reasons
    assert one_stone_turns > 0


# -- repr -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds, player=st.sampled_from(["uniform", "enclosing"]))
def test_repr_shows_the_game_the_turn_and_the_last_moves(name, data, seed, player):
    """repr() names the game and its size, Game of 6's colored cells, the seat to move
    and the stones it has left (or the result), the number of moves and the last few:
    one short line however long the game."""
    size = data.draw(BOARD_SIZES[name])
    game, naive = random_position(name, size, random.Random(seed), player)
    text = repr(game)
    title = {"connect6": "Connect6", "gameof6": "GameOf6"}[name]
    assert text.startswith(f"<{title} size={size}; "), text
    if name == "gameof6":
        assert f"; colored {naive.colored_count(0)}-{naive.colored_count(1)};" in text, text
    if naive.result is None:
        stones = f"{naive.stones_left} {'stone' if name == 'connect6' else 'dot'}"
        assert f"; seat {naive.to_move} to move, {stones}" in text, text
    else:
        assert f"; {result_words(*naive.result[:2])}" in text, text
    assert_moves_shown(text, [cell_name(c, r) for c, r in naive.history])
    assert len(text) <= 140, text


# -- saving and loading ----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_saved_game_loads_equal_and_plays_on_identically(name, data, seed):
    """load_game(g.to_bytes()) == g, with the same state, and both play on alike."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = random_position(name, size, rng)
    squares = all_squares(size)
    loaded = load_game(game.to_bytes())
    assert loaded == game
    assert observable_state(loaded, squares) == observable_state(game, squares)
    chooser = UniformPlayer(rng, size)
    for _ in range(rng.randint(0, 30)):
        if naive.result is not None:
            break
        col, row = chooser.choose(naive)
        game.play(cell_name(col, row))
        loaded.play(cell_name(col, row))
        naive.play(col, row)
        assert loaded.to_bytes() == game.to_bytes(), describe(naive)
        assert loaded.result == game.result == naive.result, describe(naive)
    assert observable_state(loaded, squares) == observable_state(game, squares)
    assert_agrees(loaded, naive, squares)


# -- undo -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds, player=st.sampled_from(["uniform", "enclosing"]))
def test_undo_restores_bytes_and_state_after_every_move_back_to_a_fresh_game(
    name, data, seed, player
):
    """Undoing each move of a game, last first, gives back the exact bytes and state seen
    before that move; the whole game undone is a fresh game."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    squares = all_squares(size)
    game = new_game(name, size=size)
    naive = NaiveGame(name, size)
    chooser = PLAYERS[player](rng, size)
    states = [observable_state(game, squares)]
    while naive.result is None and len(naive.history) < MOVE_CAP:
        col, row = chooser.choose(naive)
        game.play(cell_name(col, row))
        naive.play(col, row)
        states.append(observable_state(game, squares))
    for count in range(len(naive.history), 0, -1):
        taken_back = game.undo()
        assert str(taken_back) == cell_name(*naive.history[count - 1]), describe(naive)
        assert observable_state(game, squares) == states[count - 1], (
            f"undo of move {count}: {describe(naive)}"
        )
    fresh = new_game(name, size=size)
    assert observable_state(game, squares) == observable_state(fresh, squares)
    assert game == fresh
    with pytest.raises(IllegalMove):
        game.undo()


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_play_then_undo_of_any_legal_move_changes_nothing(name, data, seed):
    """In a random position, playing any legal move and undoing it restores the bytes and
    the whole observable state (the legal move list in its order included)."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = random_position(name, size, rng)
    if naive.result is not None:
        game.undo()  # a finished game: try the moves in the position before its last move
        naive = NaiveGame(name, size)
        for col, row in [(m.to.col, m.to.row) for m in game.history]:
            naive.play(col, row)
    squares = all_squares(size)
    before = observable_state(game, squares)
    moves = game.legal_moves()
    for move in rng.sample(moves, min(8, len(moves))):
        game.play(rng.choice([move, str(move)]))
        assert game.undo() == move
        assert observable_state(game, squares) == before, f"{move} after {describe(naive)}"


# -- illegal moves ---------------------------------------------------------------------------


def assert_rejected_without_change(game: Game, move: object, squares: list[Square]) -> None:
    """``play(move)`` raises IllegalMove (a ValueError) with a message; nothing changes."""
    before = observable_state(game, squares)
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).strip(), f"empty message for {move!r}"
    assert observable_state(game, squares) == before, f"{move!r} changed the game"


def looks_like_a_point(text: str) -> bool:
    """A letter and a number, once spaces are dropped: may be legal notation."""
    return re.fullmatch(r"[A-Za-z][0-9]+", re.sub(r"\s", "", text)) is not None


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_occupied_or_colored_cell_is_rejected_without_change(name, data, seed):
    """A cell holding a stone or dot, or colored, is refused in any notation or case."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = random_position(name, size, rng)
    if naive.result is not None:
        game.undo()
        naive = NaiveGame(name, size)
        for move in game.history:
            naive.play(move.to.col, move.to.row)
    squares = all_squares(size)
    taken = [(c, r) for c, r in naive.cells() if not naive.is_empty(c, r)]
    for col, row in rng.sample(taken, min(10, len(taken))):
        text = cell_name(col, row)
        for move in (text, text.lower(), Move(Square(col, row))):
            assert_rejected_without_change(game, move, squares)


@pytest.mark.parametrize("name", GAME_NAMES)
@QUICK_SETTINGS
@given(data=st.data())
def test_off_board_point_is_rejected_without_change(name, data):
    """A letter past the board's last column, or a row 0 or past the last row, is refused."""
    size = data.draw(BOARD_SIZES[name], label="size")
    game = new_game(name, size=size)
    if data.draw(st.booleans(), label="after a move"):
        game.play(cell_name(size // 2, size // 2))
    if size < len(LETTERS) and data.draw(st.booleans(), label="column off"):
        col = data.draw(st.integers(size, len(LETTERS) - 1), label="column")
        row = data.draw(st.integers(1, size), label="row")
    else:
        col = data.draw(st.integers(0, size - 1), label="column")
        row = data.draw(st.sampled_from([0, size + 1]) | st.integers(size + 1, 99), label="row")
    text = f"{LETTERS[col]}{row}"
    squares = all_squares(size)
    assert_rejected_without_change(game, data.draw(st.sampled_from([text, text.lower()])), squares)
    assert_rejected_without_change(game, Move(Square(col, row - 1)), squares)


def test_t4_is_off_the_standard_connect6_board():
    """T is the 20th letter: T4 is off a 19×19 Connect6 board (and on a 26-wide Game of 6)."""
    game = new_game("connect6")
    assert_rejected_without_change(game, "T4", all_squares(19))
    wide = new_game("gameof6", size=26)
    wide.play("T4")
    assert wide.at("T4") == 0


MALFORMED = [
    "",
    " ",
    "J",
    "10",
    "10J",
    "J0",
    "j0",
    "ZZ9",
    "J10J",
    "JJ10",
    "J-1",
    "J1.5",
    "J100",
    "J 1 0",
    "J10,K11",
    "é10",
    "\uff2a10",  # fullwidth J
    "J\uff11\uff10",  # fullwidth digits
    "J\u0661",  # an Arabic-Indic digit
    "J10\x00",
    "\n",
    "0,0",
    "J10!",
]


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_text_is_rejected_without_change(name, text):
    """Text that is not a point on the board is refused, and the game is unchanged."""
    game = new_game(name)
    game.play("J10")
    assert_rejected_without_change(game, text, all_squares(19))


@pytest.mark.parametrize("name", GAME_NAMES)
@QUICK_SETTINGS
@given(text=st.text())
def test_random_text_is_rejected_without_change(name, text):
    """Any text that is not a letter and a number is refused without change."""
    if looks_like_a_point(text):
        return
    game = new_game(name, size=8)
    game.play("D4")
    assert_rejected_without_change(game, text, all_squares(8))


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize(
    "move",
    [None, 42, 4.2, True, b"J10", ["J10"], ("J", 10), (9, 9), {"J10"}, object(), Move],
    ids=lambda value: type(value).__name__,
)
def test_wrong_type_is_rejected_without_change(name, move):
    """Something that is neither a move nor its notation is refused without change."""
    game = new_game(name)
    game.play("J10")
    assert_rejected_without_change(game, move, all_squares(19))


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds, player=st.sampled_from(sorted(PLAYERS)))
def test_play_after_the_game_is_over_is_rejected(name, data, seed, player):
    """Once a game has ended, every move is refused without change, as is resigning."""
    size = data.draw(SMALL_BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = play_both(name, size, rng, player, max_moves=None, check_every_move=False)
    squares = all_squares(size)
    assert game.legal_moves() == []
    for col, row in rng.sample(naive.cells(), 8):
        assert_rejected_without_change(game, cell_name(col, row), squares)
    before = observable_state(game, squares)
    for seat in (0, 1):
        with pytest.raises(IllegalMove):
            game.resign(seat)
    assert observable_state(game, squares) == before


# -- resigning -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds, seat=st.sampled_from([0, 1]))
def test_resigning_agrees_with_naive_referee_and_is_saved(name, data, seed, seat):
    """A seat resigning a running game: the other wins (reason resign, points as the rules
    say); the game then takes no move and no undo, and loads back the same."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = random_position(name, size, rng)
    if naive.result is not None:
        return
    squares = all_squares(size)
    before = observable_state(game, squares)
    for bad_seat in (2, -1, None, True, "0"):
        with pytest.raises(IllegalMove):
            game.resign(bad_seat)
    assert observable_state(game, squares) == before
    game.resign(seat)
    naive.resign(seat)
    assert_agrees(game, naive, squares)
    with pytest.raises(IllegalMove):
        game.undo()
    assert_rejected_without_change(game, empty_cell_name(naive, rng), squares)
    loaded = load_game(game.to_bytes())
    assert loaded == game
    assert observable_state(loaded, squares) == observable_state(game, squares)


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_an_agreed_draw_ends_the_game_drawn_and_is_saved(name, data, seed):
    """Both sides agreeing to a draw end a running game drawn (reason agreement, each
    side scoring its colored cells in Game of 6); the game then takes no move, no undo,
    no resignation and no second agreement, and loads back the same."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = random_position(name, size, rng)
    if naive.result is not None:
        return
    squares = all_squares(size)
    game.agree_draw()
    assert game.result == (None, "agreement", naive.points(None))
    drawn = observable_state(game, squares)
    for refused in (game.undo, game.agree_draw, lambda: game.resign(0)):
        with pytest.raises(IllegalMove):
            refused()
    assert_rejected_without_change(game, empty_cell_name(naive, rng), squares)
    assert observable_state(game, squares) == drawn
    loaded = load_game(game.to_bytes())
    assert loaded == game and loaded.result == game.result
    unagreed = game.to_bytes().replace(b"\xa6agreed\xc3", b"\xa6agreed\xc2")  # true → false
    assert load_game(unagreed).result is None


# -- copies ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
@SETTINGS
@given(data=st.data(), seed=seeds)
def test_copy_is_independent_of_the_original(name, data, seed):
    """Playing and undoing on a copy never changes the original, and the other way round."""
    size = data.draw(BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game, naive = random_position(name, size, rng)
    squares = all_squares(size)
    original = observable_state(game, squares)
    copied = game.copy()
    assert copied == game
    assert observable_state(copied, squares) == original
    copy_naive = naive.copy()
    chooser = EnclosingPlayer(rng, size)
    while copy_naive.result is None and len(copy_naive.history) < len(naive.history) + 40:
        col, row = chooser.choose(copy_naive)
        copied.play(cell_name(col, row))
        copy_naive.play(col, row)
        assert game.to_bytes() == original["bytes"]
    assert observable_state(game, squares) == original
    assert_agrees(copied, copy_naive, squares)
    for _ in range(rng.randint(0, len(copied.history))):
        copied.undo()
    assert observable_state(game, squares) == original
    # and the other way round: the original moves on, the copy stays
    snapshot = observable_state(copied, squares)
    if naive.result is None:
        game.play(empty_cell_name(naive, rng))
    else:
        game.undo()
    assert observable_state(copied, squares) == snapshot


# -- loading damaged or made-up data ---------------------------------------------------------


def assert_loads_or_refuses(data: bytes) -> None:
    """load_game either raises GameDataError (a ValueError) or returns a game that is
    valid: the naive referee, replaying its moves, sees the same, and it saves and
    loads back equal."""
    game = load_or_refusal(data)
    if game is None:
        return
    assert game.name in GAME_NAMES
    naive = NaiveGame(game.name, game.size)
    for move in game.history:
        naive.play(move.to.col, move.to.row)
    if game.result is not None and game.result.reason == "resign":
        naive.resign(1 - game.result.winner)
    assert_agrees(game, naive, all_squares(game.size))


@QUICK_SETTINGS
@given(data=st.binary(max_size=300))
def test_load_game_of_random_bytes_refuses_or_returns_a_valid_game(data):
    """Arbitrary bytes never make load_game fail with anything but GameDataError."""
    assert_loads_or_refuses(data)


@pytest.mark.parametrize("name", GAME_NAMES)
@QUICK_SETTINGS
@given(
    data=st.data(),
    seed=seeds,
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=4),
    cut=st.one_of(st.none(), st.integers(0, 10**6)),
    insert=st.one_of(st.none(), st.tuples(st.integers(0, 10**6), st.binary(min_size=1))),
)
def test_load_game_of_damaged_save_refuses_or_returns_a_valid_game(
    name, data, seed, flips, cut, insert
):
    """A valid save with bytes flipped, cut short or inserted loads or is refused cleanly."""
    size = data.draw(SMALL_BOARD_SIZES[name] | BOARD_SIZES[name], label="size")
    rng = random.Random(seed)
    game = new_game(name, size=size)
    naive = NaiveGame(name, size)
    chooser = EnclosingPlayer(rng, size)
    for _ in range(rng.randint(0, 60)):
        if naive.result is not None:
            break
        col, row = chooser.choose(naive)
        game.play(cell_name(col, row))
        naive.play(col, row)
    if naive.result is None and rng.random() < 0.2:
        game.resign(rng.choice([0, 1]))
    assert_loads_or_refuses(damage(game.to_bytes(), flips, insert, cut))


def saved_records():
    """Dictionaries shaped like a save, with each field either plausible or odd."""

    def move_bytes(keys):
        return b"".join(key.to_bytes(2, "big") for key in keys)

    fields = {
        "game": st.sampled_from(["connect6", "gameof6", "chess", "", "CONNECT6"])
        | plausible_values,
        "version": st.sampled_from([1, 0, 2, "1", 1.0, True]) | plausible_values,
        "options": st.fixed_dictionaries(
            {},
            optional={
                "size": st.integers(-3, 30)
                | st.sampled_from([True, 19.0, "19", None, 2**40])
                | plausible_values
            },
        )
        | st.dictionaries(st.text(max_size=6), plausible_values, max_size=3)
        | plausible_values,
        "moves": st.lists(st.integers(0, 2**16 - 1), max_size=40).map(move_bytes)
        | st.lists(st.integers(0, 80), max_size=60, unique=True).map(move_bytes)
        | st.binary(max_size=41)
        | plausible_values,
        "resigned": st.sampled_from([None, 0, 1, 2, -1, True, "0"]) | plausible_values,
    }
    return st.fixed_dictionaries({}, optional=fields)


@QUICK_SETTINGS
@given(record=saved_records(), extra=st.dictionaries(st.text(max_size=5), plausible_values))
def test_load_game_of_made_up_record_refuses_or_returns_a_valid_game(record, extra):
    """A msgpack table with odd or missing fields loads as a valid game or is refused."""
    assert_loads_or_refuses(msgpack.packb({**extra, **record}))
