"""A match: a run of games between two sides, with the rule for who opens each one.

Game of 6 is played in matches of six games whose openers alternate; Six in
open-ended series where the loser of a game opens the next.

>>> from sixtui.rules import Match, Result
>>> m = Match()
>>> m.next_opener
0
>>> m.record(Result(0, "six-in-a-row", (6, 2)))   # side 0 opened and won
>>> m.next_opener, m.wins, m.points
(1, (1, 0), (6, 2))
>>> m
<Match of 6 games, openers alternate; 1 played, wins 1-0, points 6-2; side 1 opens next>
>>> Match(games=None, opening="loser")
<Match series, the loser opens; none played; side 0 opens next>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sixtui.rules.result import Result

Opening = Literal["alternate", "loser"]


@dataclass
class Match:
    """Games between side 0 and side 1, recorded as they end.

    In each game the opening side plays as team 0. ``games`` is the match
    length, or ``None`` for a series with no set end. ``opening`` says who
    opens the next game: ``"alternate"`` (side 0 opens games 1, 3, 5, ...) or
    ``"loser"`` (the loser of the last game; after a draw the opener
    alternates).
    """

    games: int | None = 6
    opening: Opening = "alternate"
    results: list[Result] = field(default_factory=list)
    openers: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.games is not None and (not isinstance(self.games, int) or self.games < 1):
            raise ValueError(f"a match has at least one game, not {self.games!r}")
        if self.opening not in ("alternate", "loser"):
            raise ValueError(f"the opener rule is 'alternate' or 'loser', not {self.opening!r}")

    @property
    def next_opener(self) -> int | None:
        """The side that opens the next game, or ``None`` once the match is over."""
        if self.is_over:
            return None
        if not self.results:
            return 0
        last = self.results[-1]
        if self.opening == "loser" and last.winner is not None:
            return 1 - self._side(last.winner, len(self.results) - 1)
        return 1 - self.openers[-1]

    def record(self, result: Result) -> None:
        """Records the result of the game that :attr:`next_opener` opened.

        ``result`` speaks of the game's teams: team 0 is the side that opened.
        """
        opener = self.next_opener
        if opener is None:
            raise ValueError("the match is over")
        if result.winner not in (None, 0, 1):
            raise ValueError(f"a game between two sides has no team {result.winner!r}")
        self.openers.append(opener)
        self.results.append(result)

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by side 0 and side 1."""
        won = [0, 0]
        for number, result in enumerate(self.results):
            if result.winner is not None:
                won[self._side(result.winner, number)] += 1
        return won[0], won[1]

    @property
    def points(self) -> tuple[int, int]:
        """Points scored by side 0 and side 1 (zero in games without points)."""
        total = [0, 0]
        for number, result in enumerate(self.results):
            for team, scored in enumerate(result.points):
                total[self._side(team, number)] += scored
        return total[0], total[1]

    @property
    def is_over(self) -> bool:
        return self.games is not None and len(self.results) >= self.games

    @property
    def winner(self) -> int | None:
        """The side that won the match: more wins, then more points; ``None`` while
        it runs or when drawn."""
        if not self.is_over:
            return None
        for side0, side1 in (self.wins, self.points):
            if side0 != side1:
                return 0 if side0 > side1 else 1
        return None

    def __repr__(self) -> str:
        length = "series" if self.games is None else f"of {self.games} games"
        rule = "openers alternate" if self.opening == "alternate" else "the loser opens"
        played = f"{len(self.results)} played" if self.results else "none played"
        if self.results:
            played += f", wins {self.wins[0]}-{self.wins[1]}"
        if any(result.points for result in self.results):
            played += f", points {self.points[0]}-{self.points[1]}"
        if not self.is_over:
            outcome = f"side {self.next_opener} opens next"
        else:
            outcome = "drawn" if self.winner is None else f"side {self.winner} won"
        return f"<Match {length}, {rule}; {played}; {outcome}>"

    def _side(self, team: int, game_number: int) -> int:
        """The side that played as ``team`` in that game."""
        return team ^ self.openers[game_number]
