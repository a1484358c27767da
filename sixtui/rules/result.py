"""How a game ended."""

from __future__ import annotations

from typing import Literal, NamedTuple

Reason = Literal[
    "six-in-a-row",
    "colored-cells",
    "board-full",
    "row",
    "triangle",
    "circle",
    "too-few-pieces",
    "repetition",
    "no-moves",
    "resign",
    "left",
    "time",
    "agreement",
]


class Result(NamedTuple):
    """The outcome of a finished game.

    ``winner`` is the winning team, or ``None`` for a draw. ``points`` holds
    each team's points where the game scores them (Game of 6) and is empty
    otherwise.

    >>> Result(0, "six-in-a-row", ())
    Result(winner=0, reason='six-in-a-row', points=())
    """

    winner: int | None
    reason: Reason
    points: tuple[int, ...] = ()
