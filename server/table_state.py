"""A shared table as the hub stores it: one msgpack value holding everything about it.

Nothing here talks to the hub: :class:`TableState` is a plain value that the rooms
(:mod:`sixtui.server.rooms`) change through intents and every screen at the table reads.
Its bytes carry the hub version they are stored at, so a message published with them
says by itself how new it is. It is stored at :func:`table_key`.

The stored map::

    format        FORMAT (the layout of this map)
    version       the hub version the value is stored at
    game          "connect6", "gameof6" or "six"
    options       the game's options, as sixtui.rules.new_game takes them
    sides         two lists of seat holders, each {"name", "identity", "level"}; the
                  side that opens a game plays its seats 0 and 2, the other 1 and 3
    match         {"games", "opening", "results": [[winner, reason, points]], "openers"}
    current       the game in play, Game.to_bytes()
    number        games begun at this table (1 for the first), rematches included
    turns         whole turns played in the game in play
    status        "playing", "game-over", "match-over" or "aborted"
    draw_offer    the side offering a draw, or nil
    asked         the sides that asked for the next game (a rematch, once the match is over)
    away          {identity: the wall-clock time it went away}
    window        seconds an away player has to come back (reconnect_window)
    clock         nil, or the time control and each side's time left (Clock.to_map)
    casual        whether its games are played unrated, by choice
    since         the wall-clock time the turn in play began (the game, or the last turn)
    took          the seconds each whole turn of the game in play took, in order
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

import msgpack

from sixtui.ai import LEVELS
from sixtui.rules import Game, Match, Result, load_game
from sixtui.server.table_clock import Clock
from sixtui.tui.session import Player

FORMAT = 1
GUEST = "guest:"  # how a guest's identity begins
Status = Literal["playing", "game-over", "match-over", "aborted"]


def table_key(table_id: str) -> str:
    """The hub key of a table's state."""
    return f"table:{table_id}"


@dataclass(frozen=True)
class SeatHolder:
    """Who sits in a seat: a person, known by ``identity`` (a key fingerprint, or a guest's
    session id), or the computer at ``level`` (given an identity of its own at the table,
    which its intents are sent with); ``name`` is what the others see."""

    name: str
    identity: str | None = None
    level: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError("a seat holder needs a name")
        if self.identity is None and self.level is None:
            raise ValueError(f"{self.name} must be a person (an identity) or a computer (a level)")
        if self.identity is not None and (not isinstance(self.identity, str) or not self.identity):
            raise ValueError(f"{self.name}'s identity must be a non-empty string")
        if self.level is not None and self.level not in LEVELS:
            raise ValueError(f"the computer plays {', '.join(LEVELS)}, not {self.level!r}")

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    @property
    def keyed(self) -> bool:
        """Whether this is a person who came with an SSH key: not a guest, not the computer."""
        return self.level is None and not str(self.identity).startswith(GUEST)

    @property
    def player(self) -> Player:
        """The holder as a game screen names them."""
        return Player(self.name, self.level)


Sides = tuple[tuple[SeatHolder, ...], tuple[SeatHolder, ...]]


@dataclass(frozen=True)
class TableState:
    """Everything about one table, as stored in the hub (see the module docstring)."""

    game: str
    options: Mapping[str, Any]
    sides: Sides
    match: Match
    current: bytes
    version: int = 0
    number: int = 1
    turns: int = 0
    status: Status = "playing"
    draw_offer: int | None = None
    asked: tuple[int, ...] = ()
    away: Mapping[str, float] = field(default_factory=dict)
    window: float = 60.0
    clock: Clock | None = None
    casual: bool = False
    since: float = 0.0
    took: tuple[float, ...] = ()

    # -- who sits where ----------------------------------------------------------------

    @property
    def recorded(self) -> bool:
        """Whether the game in play has ended and is counted in the match."""
        return self.status in ("game-over", "match-over")

    @property
    def opener(self) -> int:
        """The side playing team 0 in the game in play."""
        if self.recorded:
            return self.match.openers[-1]
        return self.match.next_opener or 0

    def side_of_team(self, team: int) -> int:
        return team ^ self.opener

    def holder_at(self, seat: int) -> SeatHolder:
        """Who plays ``seat`` in the game in play."""
        return self.sides[self.side_of_team(seat % 2)][seat // 2]

    def side_of(self, identity: str) -> int | None:
        """The side whose seat ``identity`` holds, or ``None``."""
        for side, holders in enumerate(self.sides):
            if any(holder.identity == identity for holder in holders):
                return side
        return None

    def seats_of(self, identity: str) -> list[int]:
        """The seats ``identity`` plays in the game in play."""
        seats = range(2 * len(self.sides[0]))
        return [seat for seat in seats if self.holder_at(seat).identity == identity]

    @property
    def people(self) -> list[SeatHolder]:
        return [holder for side in self.sides for holder in side if not holder.is_computer]

    # -- how far along -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """Whether the match goes on: a game in play, or one over and the next to come."""
        return self.status in ("playing", "game-over")

    def deserted(self, now: float) -> bool:
        """Whether everyone who holds a seat has gone, so that the match cannot go on: away
        from a game in play for longer than the window, or away at all between games."""
        people = self.people
        if not self.in_progress or not people:
            return False
        if any(holder.identity not in self.away for holder in people):
            return False
        if self.status != "playing":
            return True
        return all(self.away[str(holder.identity)] + self.window <= now for holder in people)

    def load(self) -> Game:
        """The game in play, as the engine has it: a game of the caller's own, which no
        one else holds."""
        return _LOADED.load(self.current)

    # -- bytes -------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        return cast(
            bytes,
            msgpack.packb(
                {
                    "format": FORMAT,
                    "version": self.version,
                    "game": self.game,
                    "options": dict(self.options),
                    "sides": [[_holder_map(holder) for holder in side] for side in self.sides],
                    "match": _match_map(self.match),
                    "current": self.current,
                    "number": self.number,
                    "turns": self.turns,
                    "status": self.status,
                    "draw_offer": self.draw_offer,
                    "asked": list(self.asked),
                    "away": dict(self.away),
                    "window": self.window,
                    "clock": None if self.clock is None else self.clock.to_map(),
                    "casual": self.casual,
                    "since": self.since,
                    "took": list(self.took),
                }
            ),
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> TableState:
        """The state stored in ``data``; :class:`ValueError` if it is not one."""
        try:
            stored = msgpack.unpackb(data, raw=False, strict_map_key=True)
            if not isinstance(stored, dict) or stored.get("format") != FORMAT:
                raise ValueError("not a table of this format")
            match = stored["match"]
            return cls(
                game=stored["game"],
                options=stored["options"],
                sides=cast(
                    Sides,
                    tuple(
                        tuple(SeatHolder(**holder) for holder in side) for side in stored["sides"]
                    ),
                ),
                match=Match(
                    games=match["games"],
                    opening=match["opening"],
                    results=[
                        Result(w, reason, tuple(points)) for w, reason, points in match["results"]
                    ],
                    openers=list(match["openers"]),
                ),
                current=stored["current"],
                version=stored["version"],
                number=stored["number"],
                turns=stored["turns"],
                status=stored["status"],
                draw_offer=stored["draw_offer"],
                asked=tuple(stored["asked"]),
                away=stored["away"],
                window=stored["window"],
                clock=None if stored.get("clock") is None else Clock.from_map(stored["clock"]),
                casual=bool(stored.get("casual", False)),
                since=float(stored.get("since", 0.0)),
                took=tuple(float(seconds) for seconds in stored.get("took", ())),
            )
        except (KeyError, TypeError, ValueError, msgpack.UnpackException) as why:
            raise ValueError(f"the stored table cannot be read: {why}") from None

    def but(self, **changes: Any) -> TableState:
        """A copy with ``changes``."""
        return replace(self, **changes)


class _LoadedGames:
    """Process-local: the games last saved or loaded in this process, by their saved bytes.

    A table's game is loaded again by the room for every intent and by every session at
    every change, and loading replays every move (milliseconds, for a long game); a copy
    of the same game made here a moment earlier costs microseconds. Only a memo of
    :func:`~sixtui.rules.load_game`: each caller gets a copy of its own, and a game not
    found is simply loaded.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._games: OrderedDict[bytes, Game] = OrderedDict()

    def load(self, data: bytes) -> Game:
        game = self._games.get(data)
        if game is None:
            game = load_game(data)
            self._keep(data, game)
        else:
            self._games.move_to_end(data)
        return game.copy()

    def save(self, game: Game) -> bytes:
        data = game.to_bytes()
        self._keep(data, game.copy())
        return data

    def _keep(self, data: bytes, game: Game) -> None:
        self._games[data] = game
        if len(self._games) > self._size:
            self._games.popitem(last=False)


_LOADED = _LoadedGames(size=512)  # twice the games of 256 busy tables


def saved(game: Game) -> bytes:
    """``game.to_bytes()``; the game is kept a while, so that loading these bytes again in
    this process costs a copy rather than a replay."""
    return _LOADED.save(game)


def _holder_map(holder: SeatHolder) -> dict[str, str | None]:
    return {"name": holder.name, "identity": holder.identity, "level": holder.level}


def _match_map(match: Match) -> dict[str, Any]:
    return {
        "games": match.games,
        "opening": match.opening,
        "results": [[r.winner, r.reason, list(r.points)] for r in match.results],
        "openers": list(match.openers),
    }
