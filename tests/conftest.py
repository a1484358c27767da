import pytest

from sixtui.rules import Game


def play_turns(game: Game, *turns: str) -> None:
    """Plays whole turns, each written as its points separated by spaces ("A1 B2")."""
    for turn in turns:
        seat = game.to_move
        for point in turn.split():
            assert game.to_move == seat, f"{point} was given after {seat}'s turn ended"
            game.play(point)
        assert game.result is not None or game.to_move != seat, f"turn {turn!r} is short"


@pytest.fixture
def turns():
    return play_turns
