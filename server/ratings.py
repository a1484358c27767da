"""Ratings: how strong each player is at each kind of game, moved by every rated game.

The rating model is openskill's Plackett-Luce (a Bayesian skill estimate with a mean and an
uncertainty, for two players or two teams alike: partners share their team's result). A
newcomer starts at the model's defaults; the rating shown is the mean on the familiar scale
where a newcomer is 1500, and a player is provisional (shown with ``?``) for their first
:data:`PROVISIONAL_GAMES` rated games of that kind.

Each kind of game is rated apart (:func:`variant`): Connect6; Game of 6 by board size group;
Six by ruleset, two players and partners apart.

>>> newcomer = Rating()
>>> newcomer.shown, newcomer.provisional, newcomer.label
(1500, True, '1500?')
>>> (winner,), (loser,) = rate([[newcomer], [Rating()]], winner=0)
>>> winner.shown > 1500 > loser.shown, winner.games
(True, 1)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce

NEWCOMER = 1500  # the shown rating of a player's first game
SCALE = 42.0  # shown points per unit of the model's mean: its starting spread shows as 350
PROVISIONAL_GAMES = 10  # rated games of a kind before the rating loses its "?"
_MODEL = PlackettLuce()
_DEFAULT = _MODEL.rating()
# Game of 6 boards by size: a rating says little across very different boards.
GAMEOF6_GROUPS = ((8, 12, "small"), (13, 18, "medium"), (19, 26, "large"))


@dataclass(frozen=True)
class Rating:
    """One player's rating at one kind of game: the model's ``mu`` and ``sigma``, and how
    many rated games of that kind they played."""

    mu: float = _DEFAULT.mu
    sigma: float = _DEFAULT.sigma
    games: int = 0

    @property
    def shown(self) -> int:
        """The rating on the 1500 scale."""
        return round(NEWCOMER + (self.mu - _DEFAULT.mu) * SCALE)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def label(self) -> str:
        """The rating as shown beside a name: ``1612``, or ``1500?`` while provisional."""
        return f"{self.shown}{'?' if self.provisional else ''}"


def rate(teams: Sequence[Sequence[Rating]], winner: int | None) -> list[list[Rating]]:
    """The ratings of two teams (one player each, or two partners) after a game that
    team ``winner`` won (``None``: a draw), in the same order.

    >>> (a,), (b,) = rate([[Rating()], [Rating()]], winner=None)
    >>> a == b and a.sigma < Rating().sigma
    True
    """
    if len(teams) != 2 or not all(teams):
        raise ValueError("a rated game is between two teams of players")
    if winner not in (None, 0, 1):
        raise ValueError(f"the winner is team 0 or 1, or None for a draw, not {winner!r}")
    ranks = [0, 0] if winner is None else [0 if team == winner else 1 for team in (0, 1)]
    before = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    after = _MODEL.rate(before, ranks=ranks)
    rated = [
        [
            replace(old, mu=new.mu, sigma=new.sigma, games=old.games + 1)
            for old, new in zip(team, new_team, strict=True)
        ]
        for team, new_team in zip(teams, after, strict=True)
    ]
    if not all(math.isfinite(r.mu) and math.isfinite(r.sigma) for team in rated for r in team):
        raise ArithmeticError("the rating model gave a rating that is not a number")
    return rated


def variant(game: str, options: Mapping[str, Any]) -> str:
    """The kind of game a rating is kept for.

    >>> variant("connect6", {"size": 19}), variant("gameof6", {"size": 15})
    ('connect6', 'gameof6-medium')
    >>> variant("six", {"ruleset": "romanian", "players": 4, "declare": True})
    'six-romanian-partners'
    """
    if game == "connect6":
        return "connect6"
    if game == "gameof6":
        size = options.get("size", 19)
        group = next(name for low, high, name in GAMEOF6_GROUPS if low <= size <= high)
        return f"gameof6-{group}"
    if game == "six":
        players = "partners" if options.get("players", 2) == 4 else "two"
        return f"six-{options.get('ruleset', 'steffen')}-{players}"
    raise ValueError(f"there is no game {game!r} to rate")


VARIANTS = (
    "connect6",
    *(f"gameof6-{name}" for _, _, name in GAMEOF6_GROUPS),
    *(
        f"six-{ruleset}-{players}"
        for ruleset in ("steffen", "romanian", "romanian-advanced")
        for players in ("two", "partners")
    ),
)
