"""What each edition of the rules of Six decides: the three rulesets.

>>> RULESETS["romanian"].split_captures, RULESETS["romanian-advanced"].split_captures
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sixtui.rules.hexes import Hex


@dataclass(frozen=True)
class Ruleset:
    """What one edition of the rules decides."""

    name: str
    hand_two_players: int  # pieces in hand per player
    hand_four_players: int  # per player, or per team when the pool is shared
    shared_team_pool: bool
    preplaced: tuple[tuple[Hex, int], ...]  # (cell, team)
    first_cells: tuple[Hex, ...]  # where the first piece placed must go
    centre_may_be_opponent: bool
    split_captures: bool  # otherwise a lift that splits the layout is forbidden
    may_declare: bool


_STEFFEN = Ruleset(
    name="steffen",
    hand_two_players=19,
    hand_four_players=18,
    shared_team_pool=True,
    preplaced=(),
    first_cells=(Hex(0, 0),),
    centre_may_be_opponent=True,
    split_captures=True,
    may_declare=False,
)
_ROMANIAN = Ruleset(
    name="romanian",
    hand_two_players=20,
    hand_four_players=10,
    shared_team_pool=False,
    preplaced=((Hex(0, 0), 1), (Hex(1, 0), 0)),  # red, then black
    first_cells=(Hex(-1, 0), Hex(0, -1), Hex(-1, 1)),  # touch red, not black
    centre_may_be_opponent=False,
    split_captures=False,
    may_declare=True,
)
RULESETS: dict[str, Ruleset] = {
    ruleset.name: ruleset
    for ruleset in (
        _STEFFEN,
        _ROMANIAN,
        replace(_ROMANIAN, name="romanian-advanced", split_captures=True),
    )
}
