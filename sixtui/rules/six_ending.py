"""How a move of Six ends the game, declaring aside: a shape completed, too few
pieces left after a capture, or the third repetition of a position.

>>> too_few_pieces((12, 4))
Result(winner=0, reason='too-few-pieces', points=())
>>> too_few_pieces((5, 3))
Result(winner=None, reason='too-few-pieces', points=())
>>> too_few_pieces((6, 6)) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from sixtui.rules.result import Result
from sixtui.rules.shapes import ShapeId, circle_at, first_by_kind, shapes_through

TOO_FEW = 5  # a team with this many pieces or fewer can no longer make a shape
REPETITIONS_TO_DRAW = 3
REPETITION = Result(None, "repetition", ())
NO_MOVES = Result(None, "no-moves", ())


def shape_win(
    board: dict[int, int],
    mover: int,
    to: int,
    emptied: list[int],
    centre_allows: Callable[[int, int], bool],
    centre_may_be_opponent: bool,
) -> tuple[int, ShapeId] | None:
    """Without declaring: the team that a move completing a shape makes win, and the
    first of its shapes by kind, or ``None``. The move put a piece of ``mover`` on
    ``to`` and emptied the ``emptied`` cells; the mover's team is looked at first."""
    # Only emptying a circle's centre gives the other team a shape, and only where the
    # centre may not hold the other team's piece.
    sides = (mover,) if centre_may_be_opponent else (mover, 1 - mover)
    for side in sides:
        shapes = list(shapes_through(board, to, side, centre_allows)) if side == mover else []
        if not centre_may_be_opponent:
            shapes += [("circle", c) for c in emptied if circle_at(board, c, side, centre_allows)]
        if shapes:
            return side, first_by_kind(shapes)
    return None


def too_few_pieces(pieces: tuple[int, int]) -> Result | None:
    """After a capture, given each team's pieces (table and hand): a team with too few
    loses, both so is a draw; ``None`` when both have enough."""
    short = [team for team in (0, 1) if pieces[team] <= TOO_FEW]
    if not short:
        return None
    return Result(None if len(short) == 2 else 1 - short[0], "too-few-pieces", ())


class Repetitions:
    """How many times each position of the second round has come up."""

    def __init__(self) -> None:
        self._counts: dict[Hashable, int] = {}

    def add(self, position: Hashable) -> bool:
        """Counts ``position`` once more; returns whether that draws the game."""
        count = self._counts[position] = self._counts.get(position, 0) + 1
        return count >= REPETITIONS_TO_DRAW

    def remove(self, position: Hashable) -> None:
        count = self._counts[position] - 1
        if count:
            self._counts[position] = count
        else:
            del self._counts[position]

    def copy(self) -> Repetitions:
        other = Repetitions()
        other._counts = self._counts.copy()
        return other
