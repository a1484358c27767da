"""A table as chosen on the home screen or the command line, checked before play.

>>> setup = GameSetup("six", ruleset="romanian", players=4, seats=(None, "easy", None, "easy"))
>>> setup.describe()
'Six, romanian rules, 4 players'
>>> GameSetup("connect6", players=4)
Traceback (most recent call last):
...
ValueError: connect6 is played by 2 players, not 4
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sixtui.ai import LEVELS
from sixtui.ai.worker import Thinker
from sixtui.rules import GAMES, Game, Match, new_game
from sixtui.rules.six import RULESETS
from sixtui.tui.session import LocalSession, Player

TITLES = {"connect6": "Connect6", "gameof6": "Game of 6", "six": "Six"}
SIZES = {
    name: range(GAMES[name].MIN_SIZE, GAMES[name].MAX_SIZE + 1) for name in ("connect6", "gameof6")
}
DEFAULT_SIZE = 19


@dataclass(frozen=True)
class GameSetup:
    """Which game, with which options, and who plays each seat of the first game.

    ``seats`` holds, per seat in turn order, ``None`` for a person or the
    computer's level. Seats 0 and 2 form the side that opens the first game.
    """

    game: str = "connect6"
    ruleset: str = "steffen"
    players: int = 2
    size: int = DEFAULT_SIZE
    declare: bool = False
    seats: tuple[str | None, ...] = field(default=(None, "normal"))
    start_from: Game | None = field(default=None, compare=False)
    """A game of these options, unfinished, that the first game goes on from."""

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"there is no game {self.game!r}: choose {', '.join(GAMES)}")
        allowed = (2, 4) if self.game == "six" else (2,)
        if self.players not in allowed:
            counts = " or ".join(str(count) for count in allowed)
            raise ValueError(f"{self.game} is played by {counts} players, not {self.players}")
        if self.game == "six" and self.ruleset not in RULESETS:
            raise ValueError(f"there is no ruleset {self.ruleset!r}: choose {', '.join(RULESETS)}")
        if self.game in SIZES and self.size not in SIZES[self.game]:
            sizes = SIZES[self.game]
            raise ValueError(
                f"a {TITLES[self.game]} board is {sizes[0]} to {sizes[-1]} wide, not {self.size}"
            )
        if self.declare and not (self.game == "six" and RULESETS[self.ruleset].may_declare):
            raise ValueError("declaring is part of the romanian rulesets only")
        if len(self.seats) != self.players:
            raise ValueError(f"{self.players} seats to fill, not {len(self.seats)}")
        for level in self.seats:
            if level is not None and level not in LEVELS:
                raise ValueError(f"the computer plays {', '.join(LEVELS)}, not {level!r}")
        start = self.start_from
        if start is not None and (start.name, start.options()) != (self.game, self.options()):
            raise ValueError(f"the game to go on from is not one of {self.describe()}")
        if start is not None and start.is_over:
            raise ValueError("the game to go on from is over")

    @classmethod
    def against(
        cls, game: str, levels: Sequence[str], players: int = 2, **options: Any
    ) -> GameSetup:
        """You in seat 0 and the computer at ``levels``: one level plays the whole
        other side; several fill seats 1, 2, 3 in order; seats left over are people.

        >>> GameSetup.against("six", ["hard"], players=4).seats
        (None, 'hard', None, 'hard')
        """
        seats: list[str | None] = [None] * players
        if len(levels) == 1:
            for seat in range(1, players, 2):
                seats[seat] = levels[0]
        elif len(levels) <= players - 1:
            seats[1 : 1 + len(levels)] = levels
        else:
            others = players - 1
            raise ValueError(
                f"{players} players leave {others} seat{'s' if others > 1 else ''} for the computer"
            )
        return cls(game, players=players, seats=tuple(seats), **options)

    def options(self) -> dict[str, Any]:
        """The options :func:`sixtui.rules.new_game` takes for this game."""
        if self.game == "six":
            return {"ruleset": self.ruleset, "players": self.players, "declare": self.declare}
        return {"size": self.size}

    def describe(self) -> str:
        """One line naming the game and its options."""
        if self.game == "six":
            declaring = ", declaring" if self.declare else ""
            return f"Six, {self.ruleset} rules, {self.players} players{declaring}"
        return f"{TITLES[self.game]}, {self.size}×{self.size}"

    def match(self) -> Match:
        """Game of 6: six games, openers alternating; Six: a series the loser opens;
        Connect6: a series, openers alternating."""
        if self.game == "gameof6":
            return Match(games=6, opening="alternate")
        return Match(games=None, opening="loser" if self.game == "six" else "alternate")

    def sides(self, visitor: str | None = None) -> tuple[tuple[Player, ...], tuple[Player, ...]]:
        """The players of the two sides, named so that no two share a name: "You" when
        one person plays, else "Player 1", "Player 2"...; the computer by its level,
        numbered when it plays two seats at one level ("Easy computer 2"). The first
        person's seat, the one at this terminal, takes the name of the ``visitor`` who
        came to a server, when there is one (the server's names have no spaces, so they
        meet none of the others).

        >>> [p.name for side in GameSetup.against("six", ["easy"], players=4).sides() for p in side]
        ['Player 1', 'Player 2', 'Easy computer 1', 'Easy computer 2']
        >>> [p.name for side in GameSetup("six", seats=(None, None)).sides("ann") for p in side]
        ['ann', 'Player 2']
        """
        names = [_seat_name(self.seats, seat) for seat in range(self.players)]
        if visitor is not None and None in self.seats:
            names[self.seats.index(None)] = visitor
        players = [Player(name, level) for name, level in zip(names, self.seats, strict=True)]
        return tuple(players[0::2]), tuple(players[1::2])

    def _games(self) -> Callable[[], Game]:
        """What makes each game of the match: the first goes on from :attr:`start_from`."""
        fresh = partial(new_game, self.game, **self.options())
        waiting = [] if self.start_from is None else [self.start_from.copy()]

        def next_game() -> Game:
            return waiting.pop() if waiting else fresh()

        return next_game

    def session(
        self, thinker: Thinker | None, computer_pause: float = 0.4, visitor: str | None = None
    ) -> LocalSession:
        """A table in this process for this setup; ``visitor`` as for :meth:`sides`."""
        return LocalSession(
            self._games(),
            self.sides(visitor),
            self.match(),
            thinker,
            computer_pause,
        )


def _seat_name(seats: Sequence[str | None], seat: int) -> str:
    """The name of ``seat`` among ``seats`` (each a computer level, or ``None`` for a person)."""
    level = seats[seat]
    alike, before = seats.count(level), seats[:seat].count(level)
    if level is None:
        return "You" if alike == 1 else f"Player {before + 1}"
    name = f"{level.capitalize()} computer"
    return name if alike == 1 else f"{name} {before + 1}"
