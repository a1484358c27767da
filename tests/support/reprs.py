"""What the tests expect of a game's repr."""

from sixtui.rules.game import MOVES_SHOWN


def assert_moves_shown(text: str, history: list[str]) -> None:
    """``text`` (a repr) ends with the number of moves and the last few of them."""
    if not history:
        assert text.endswith("; no moves>"), text
        return
    shown = history[-MOVES_SHOWN:]
    earlier = len(history) - len(shown)
    moves = f"{len(history)} move{'s' if len(history) > 1 else ''}: "
    if earlier:
        moves += f"({earlier} earlier) "
    assert text.endswith(f"; {moves}{' '.join(shown)}>"), text


def result_words(winner: int | None, reason: str) -> str:
    return f"drawn ({reason})" if winner is None else f"team {winner} won ({reason})"
