"""A side whose time runs out: it loses, unless the other side could no longer win at all,
and then the game is drawn; kept through saving and records."""

from __future__ import annotations

from itertools import permutations

import pytest

from sixtui.rules import IllegalMove, load_game, new_game
from sixtui.rules.records import GameRecord
from sixtui.rules.square import COLUMN_LETTERS


def blocking_rows() -> tuple[int, ...]:
    """A row for each column of a 6×6 board, no two alike, touching each long diagonal once:
    six stones there leave no six points in a line free of them, and make no six."""
    return next(
        rows
        for rows in permutations(range(6))
        if sum(rows[col] == col for col in range(6)) == 1
        and sum(rows[col] == 5 - col for col in range(6)) == 1
    )


def black_blocks_every_line():
    """A 6×6 Connect6 game where Black's stones stand on every line of six, White to move."""
    black = [f"{COLUMN_LETTERS[col]}{row + 1}" for col, row in enumerate(blocking_rows())]
    taken = set(black)
    white = [f"{c}{r}" for c in "ABCDEF" for r in range(1, 7) if f"{c}{r}" not in taken][:6]
    game = new_game("connect6", size=6)
    order = [black[0], *white[0:2], *black[1:3], *white[2:4], *black[3:5], *white[4:6], black[5]]
    for point in order:
        game.play(point)
    return game


def test_time_out_loses_to_a_side_that_could_still_win():
    game = new_game("connect6")
    game.play("J10")
    game.time_out(1)
    assert game.result.winner == 0 and game.result.reason == "time"
    assert game.conceding_seat == 1
    with pytest.raises(IllegalMove):
        game.undo()
    with pytest.raises(IllegalMove, match="the game is over"):
        game.time_out(0)


def test_time_out_is_a_draw_when_the_other_side_could_no_longer_make_six():
    game = black_blocks_every_line()
    assert game.result is None
    assert not game.could_still_win(1) and game.could_still_win(0)
    game.time_out(0)  # Black's time runs out, but White had no six left to make
    assert game.result.winner is None and game.result.reason == "time"


@pytest.mark.parametrize("name", ["connect6", "gameof6", "six"])
def test_a_time_out_is_saved_and_recorded(name):
    game = new_game(name)
    game.play(game.legal_moves()[0])
    game.time_out(0)
    loaded = load_game(game.to_bytes())
    assert loaded == game and loaded.result == game.result
    text = str(GameRecord(game))
    assert '[Reason "time"]' in text and '[EndedBy "Seat1"]' in text
    assert GameRecord.parse(text).game == game
    assert loaded != load_game(_resigned(name))


def _resigned(name: str) -> bytes:
    game = new_game(name)
    game.play(game.legal_moves()[0])
    game.resign(0)
    return game.to_bytes()
