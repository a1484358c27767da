"""Saving and loading games: the bytes hold the whole game and bad bytes are refused."""

import random

import msgpack
import pytest

from sixtui.rules import GameDataError, load_game, new_game


def finished_game(name: str):
    g = new_game(name)
    for point in ["J10", "A1", "A2", "K10", "L10", "B1", "B2", "M10", "N10", "C1", "C2", "O10"]:
        g.play(point)
    return g


@pytest.mark.parametrize("name", ["connect6", "gameof6"])
def test_a_loaded_game_equals_the_saved_one_and_keeps_its_history(name):
    g = finished_game(name)
    loaded = load_game(g.to_bytes())
    assert loaded == g
    assert loaded.result == g.result
    assert [str(m) for m in loaded.history] == [str(m) for m in g.history]
    assert loaded.undo() == g.undo()
    assert loaded.to_bytes() == g.to_bytes()


def test_options_and_resignation_are_saved():
    g = new_game("gameof6", size=11)
    g.play("F6")
    g.resign(0)
    loaded = load_game(g.to_bytes())
    assert loaded.size == 11
    assert loaded.result == g.result


@pytest.mark.parametrize("name", ["connect6", "gameof6", "six"])
def test_a_game_forfeited_by_a_player_who_left_is_saved_as_such(name):
    g = new_game(name)
    g.forfeit(1)
    loaded = load_game(g.to_bytes())
    assert loaded.result == g.result and g.result.reason == "left" and g.result.winner == 0
    assert loaded == g and loaded != load_game(saved(resigned=1))


def test_games_that_differ_are_not_equal():
    a, b = new_game("connect6"), new_game("connect6")
    a.play("J10")
    b.play("K10")
    assert a != b
    assert new_game("connect6") != new_game("gameof6")
    assert new_game("connect6", size=18) != new_game("connect6")


def saved(**changes) -> bytes:
    record = msgpack.unpackb(new_game("connect6").to_bytes())
    record.update(changes)
    return msgpack.packb(record)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "not a saved sixtui game"),
        (b"\xc1", "not a saved sixtui game"),
        (msgpack.packb([1, 2]), "not a saved sixtui game"),
        (saved(game="chess"), "no known game"),
        (saved(version=99), "version"),
        (saved(options={"size": 99}), "options are not valid"),
        (saved(options={"colour": 1}), "options are not valid"),
        (saved(options=[1]), "options"),
        (saved(moves="J10"), "move list is missing"),
        (saved(moves=b"\x00"), "cut short"),
        (saved(moves=b"\xff\xff"), "off the board"),
        (saved(moves=b"\x00\x00\x00\x00"), "cannot be replayed: A1 is taken"),
        (saved(resigned=5), "cannot be replayed: there is no seat 5"),
        (saved(left="yes"), "leaving or time-out is not true or false"),
        (saved(timeout=1), "leaving or time-out is not true or false"),
        ("text", "bytes, not str"),
    ],
)
def test_bytes_that_are_not_a_saved_game_are_refused_with_the_reason(data, reason):
    with pytest.raises(GameDataError, match=reason):
        load_game(data)


@pytest.mark.parametrize(("name", "size"), [("connect6", 19), ("gameof6", 26)])
def test_every_game_saves_in_under_two_kilobytes(name, size):
    """Two bytes a move: even a board filled to the last point stays under 2 KB."""
    g = new_game(name, size=size)
    empty = len(g.to_bytes())
    rng = random.Random(7)
    while g.result is None:
        g.play(rng.choice(g.legal_moves()))
    # msgpack spends one more byte on the length of a move list over 255 bytes.
    longer_length = 1 if 2 * len(g.history) > 255 else 0
    assert len(g.to_bytes()) == empty + 2 * len(g.history) + longer_length
    assert empty + 2 * size * size + 1 < 2048
