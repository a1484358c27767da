"""A table's clock, kept by the server: the time control and the time each side has left.

A plain value, as the table state is: the rooms make a new one at every turn with the
moment the turn arrived. A time control is written like ``10+5``: ten minutes for each
side, and five seconds added after each of its turns. The clock of the side that opens a
game starts with that side's second turn: the first turn of a game is not timed, so that
nobody loses time while the table opens; from then on the side to move's clock runs,
whether its player is at the table or not.

>>> clock = Clock.parse("1+2")
>>> clock.text, clock.left
('1+2', (60.0, 60.0))
>>> clock = clock.first_turn_played(by=0, now=100.0)  # side 1's clock starts
>>> clock.left_now(1, now=130.0)
30.0
>>> clock = clock.turn_played(by=1, now=130.0)  # 30 s spent, 2 s added; side 0 runs
>>> clock.left, clock.running
((60.0, 32.0), 0)
>>> clock.out_of_time(now=200.0)
0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sixtui.tui.lobby_commands import time_control


@dataclass(frozen=True)
class Clock:
    """Minutes and increment of the time control (``initial`` and ``increment``, in
    seconds), the seconds each side had left at ``since`` (by side), and the side whose
    clock runs from ``since`` (``None``: neither)."""

    initial: float
    increment: float
    left: tuple[float, float]
    running: int | None = None
    since: float = 0.0

    @classmethod
    def parse(cls, text: str | None) -> Clock | None:
        """The clock of a time control written ``MINUTES+SECONDS``, or ``None`` for
        ``none`` (or ``None``); :class:`ValueError` saying how to write one otherwise.

        >>> Clock.parse("none") is None
        True
        >>> Clock.parse("5")
        Traceback (most recent call last):
        ...
        ValueError: a clock is written MINUTES+SECONDS, like 5+5, or none: not '5'
        """
        control = None if text is None else time_control(text)
        if control is None:
            return None
        minutes, increment = control
        return cls(60.0 * minutes, float(increment), (60.0 * minutes, 60.0 * minutes))

    @property
    def text(self) -> str:
        """The time control as it is written: ``10+5``."""
        return f"{round(self.initial / 60)}+{round(self.increment)}"

    def left_now(self, side: int, now: float) -> float:
        """Seconds ``side`` has left at ``now`` (below zero once its time is up)."""
        if side == self.running:
            return self.left[side] - (now - self.since)
        return self.left[side]

    def out_of_time(self, now: float) -> int | None:
        """The side whose time is up at ``now``, if any."""
        side = self.running
        return side if side is not None and self.left_now(side, now) <= 0 else None

    def first_turn_played(self, by: int, now: float) -> Clock:
        """The opening turn of a game was played, untimed: the other side's clock runs."""
        return replace(self, running=1 - by, since=now)

    def turn_played(self, by: int, now: float) -> Clock:
        """``by`` ended its turn at ``now``: its time is taken off, the increment added,
        and the other side's clock runs."""
        left = list(self.left)
        left[by] = self.left_now(by, now) + self.increment
        return replace(self, left=(left[0], left[1]), running=1 - by, since=now)

    def stopped(self, now: float) -> Clock:
        """Neither clock runs any more (the game ended at ``now``)."""
        left = tuple(self.left_now(side, now) for side in (0, 1))
        return replace(self, left=(left[0], left[1]), running=None, since=now)

    def fresh(self) -> Clock:
        """The clock of a new game: full time on both sides, neither running."""
        return replace(self, left=(self.initial, self.initial), running=None, since=0.0)

    def to_map(self) -> dict[str, Any]:
        return {
            "initial": self.initial,
            "increment": self.increment,
            "left": list(self.left),
            "running": self.running,
            "since": self.since,
        }

    @classmethod
    def from_map(cls, stored: dict[str, Any]) -> Clock:
        left = stored["left"]
        running = stored["running"]
        if len(left) != 2 or running not in (None, 0, 1):
            raise ValueError("not a clock")
        return cls(
            float(stored["initial"]),
            float(stored["increment"]),
            (float(left[0]), float(left[1])),
            running,
            float(stored["since"]),
        )
