"""Opening a table for players the lobby brought together: who sits where, who opens,
and telling each of them.

The tables themselves are the rooms' (``open_table``); the lobby hands them the two sides,
each one seat holder or two partners (a side's first holder plays seat 0 or 1, its second
the seat opposite, 2 or 3), with the side that opens the first game first.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sixtui.server import seated
from sixtui.server.hub import Hub
from sixtui.server.lobby_news import tell_person
from sixtui.server.seated import AlreadySeated
from sixtui.server.table_state import SeatHolder
from sixtui.tui.lobby_commands import GameChoice


@dataclass(frozen=True)
class Seeker:
    """A person in the lobby at one of their sessions: ``sid`` is the session,
    ``identity`` the person (a key fingerprint, or a guest's session id)."""

    sid: str
    identity: str
    name: str

    def to_map(self) -> dict[str, str]:
        return {"sid": self.sid, "identity": self.identity, "name": self.name}

    @classmethod
    def from_map(cls, value: dict[str, Any]) -> Seeker:
        return cls(str(value["sid"]), str(value["identity"]), str(value["name"]))


class OpenTable(Protocol):
    """The rooms' ``open_table``: opens a table of ``game`` with ``options`` for two
    ``sides`` of seat holders, side ``opener`` opening the first game, with the time
    control ``clock`` (``10+5``) if any, unrated when ``casual``; returns its id.
    Raises :class:`ValueError` (or :class:`RuntimeError`) saying why it cannot:
    :class:`~sixtui.server.seated.AlreadySeated` when someone has a game in play."""

    async def __call__(
        self,
        hub: Hub,
        game: str,
        options: dict[str, Any],
        sides: list[list[SeatHolder]],
        *,
        opener: int,
        clock: str | None = None,
        casual: bool = False,
    ) -> str: ...


Sitter = Seeker | str  # a person, or the level of a computer player
TableProblem = (ValueError, RuntimeError)  # what open_table raises when it cannot open one
PATIENCE = 50  # looks at a seat held by a table still opening, a turn of the event loop apart


def computer_names(levels: Sequence[str]) -> list[str]:
    """The names of computer players at ``levels``, numbered where two play at one level.

    >>> computer_names(["hard", "easy", "hard"])
    ['Hard computer 1', 'Easy computer', 'Hard computer 2']
    """
    names = []
    for place, level in enumerate(levels):
        name = f"{level.capitalize()} computer"
        alike = levels.count(level)
        names.append(name if alike == 1 else f"{name} {levels[:place].count(level) + 1}")
    return names


def holders(sides: Sequence[Sequence[Sitter]]) -> list[list[SeatHolder]]:
    """The seat holders of ``sides``, the computer players named."""
    levels = [sitter for side in sides for sitter in side if isinstance(sitter, str)]
    names = iter(computer_names(levels))
    return [
        [
            SeatHolder(next(names), level=sitter)
            if isinstance(sitter, str)
            else SeatHolder(sitter.name, sitter.identity)
            for sitter in side
        ]
        for side in sides
    ]


async def seat(
    hub: Hub,
    open_table: OpenTable,
    choice: GameChoice,
    sides: Sequence[Sequence[Sitter]],
    rng: random.Random,
) -> str:
    """Draws the side that opens, opens the table with it first, and tells every session
    of every person where they sit; returns the table's id. Raises what ``open_table``
    raises, having told no one."""
    ordered = list(sides) if rng.randrange(2) == 0 else [sides[1], sides[0]]
    held = holders(ordered)
    table = await _open(hub, open_table, choice, held)
    names = [[holder.name for holder in side] for side in held]
    for side in ordered:
        for sitter in side:
            if isinstance(sitter, Seeker):
                await tell_person(
                    hub, sitter.identity, "seated", table=table, game=choice.key, sides=names
                )
    return table


async def _open(
    hub: Hub, open_table: OpenTable, choice: GameChoice, sides: list[list[SeatHolder]]
) -> str:
    """``open_table`` for ``sides``, the first side opening. A seat it finds held by a
    table still opening is looked at again a moment later: that table opens (the person
    sits there, and :class:`AlreadySeated` says so) or gives the seat back."""
    looks_left = PATIENCE
    while True:
        try:
            return await open_table(
                hub,
                choice.game,
                choice.options(),
                sides,
                opener=0,
                clock=choice.clock,
                casual=choice.casual,
            )
        except AlreadySeated as why:
            looks_left -= 1
            if not looks_left or await seated.table_of(hub, why.identity) is not None:
                raise
            await asyncio.sleep(0)


def playing_text(choice: GameChoice, sides: Sequence[Sequence[str]], me: str) -> str:
    """The game a player sits at, with and against whom.

    >>> playing_text(GameChoice("six", players=4), [["bob", "dee"], ["ann", "cy"]], "ann")
    'Six steffen, partners, with cy against bob and dee'
    """
    mine = _side_of(sides, me)
    theirs = sides[1] if mine is sides[0] else sides[0]
    partners = [name for name in mine if name != me]
    with_whom = f", with {' and '.join(partners)}" if partners else ""
    return f"{choice.title}{with_whom} against {' and '.join(theirs)}"


def seated_text(choice: GameChoice, sides: Sequence[Sequence[str]], me: str) -> str:
    """What a player is told of the table they now sit at: :func:`playing_text`, and who
    opens (the first side).

    >>> seated_text(GameChoice("connect6"), [["bob"], ["ann"]], "ann")
    'Connect6 19×19 against bob: bob opens'
    >>> seated_text(GameChoice("six", players=4), [["ann", "cy"], ["bob", "dee"]], "ann")
    'Six steffen, partners, with cy against bob and dee: you open'
    """
    first = sides[0]
    if _side_of(sides, me) is first:
        opens = "you open"
    else:
        opens = f"{' and '.join(first)} open{'s' if len(first) == 1 else ''}"
    return f"{playing_text(choice, sides, me)}: {opens}"


def _side_of(sides: Sequence[Sequence[str]], me: str) -> Sequence[str]:
    return next((side for side in sides if me in side), sides[0])
