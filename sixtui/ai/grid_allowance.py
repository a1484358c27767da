"""How long a Connect6 or Game of 6 search may go on: a count of stones and a deadline.

A search stops when its board has put down a set number of stones, the measure
of work that makes a turn repeat exactly for a given seed, or at its deadline,
whichever comes first. The stones a level may put down follow from its time
and :data:`STONES_PER_SECOND`, so on an unhurried machine the count ends the
search close to the deadline, and on a busy one the deadline still holds.

>>> from sixtui.ai.line_patterns import LineBoard
>>> board = LineBoard(9)
>>> allowance = Allowance.for_seconds(board, 0.01, start=0.0)
>>> allowance.last_stone
300
>>> allowance.part(0.5).last_stone, allowance.part(0.5).deadline
(150, 0.005)
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass

from sixtui.ai.line_patterns import LineBoard

STONES_PER_SECOND = 30_000
"""Stones a search puts down in a second of processor time on the machine the levels
were tuned on (between 27,000 and 46,000 there, by position): what turns a level's time
into its count of stones."""


@dataclass(frozen=True)
class Allowance:
    """The search on ``board`` stops once ``board.played`` reaches ``last_stone`` or
    the clock (:func:`time.perf_counter`) passes ``deadline``."""

    board: LineBoard
    deadline: float
    last_stone: int
    start: float
    first_stone: int

    @classmethod
    def for_seconds(
        cls,
        board: LineBoard,
        seconds: float,
        start: float | None = None,
        stones: int | None = None,
        longest: float = math.inf,
    ) -> Allowance:
        """``seconds`` of search from ``start`` (now when ``None``) on ``board``, putting
        down ``stones`` stones at most (by default what the seconds, but no more than
        ``longest`` of them, are worth at :data:`STONES_PER_SECOND`)."""
        begun = time.perf_counter() if start is None else start
        if stones is None:
            stones = round(min(seconds, longest) * STONES_PER_SECOND)
        return cls(board, begun + seconds, board.played + stones, begun, board.played)

    @classmethod
    def until(cls, board: LineBoard, deadline: float) -> Allowance:
        """Until ``deadline`` only, however many stones the search puts down."""
        return cls(board, deadline, sys.maxsize, time.perf_counter(), board.played)

    def over(self) -> bool:
        """Whether the search must stop now."""
        return self.board.played >= self.last_stone or time.perf_counter() > self.deadline

    def part(self, share: float) -> Allowance:
        """The first ``share`` of this allowance, counted from its start."""
        return Allowance(
            self.board,
            self.start + share * (self.deadline - self.start),
            self.first_stone + round(share * (self.last_stone - self.first_stone)),
            self.start,
            self.first_stone,
        )
