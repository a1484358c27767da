"""Who sits at a game in play: one hub key per person, so that nobody is ever seated at two
games at once, however many pools, challenges, sessions of theirs and server processes
try to seat them in the same instant.

``seated:IDENTITY`` (key) is the person's hold: the table, the table version at which its
game is (or is about to be) in play, and whether every person of it holds theirs, as
msgpack ``{"table": ID, "version": V, "whole": bool}``. The rooms take a hold with
compare-and-set for every person of a table, all of them or none, before its game begins
(as the table opens, at the next game of a match, at a rematch), and give them back as
the game ends (:mod:`sixtui.server.rooms`).

A hold stands while its table is in the hub: no other table takes it, and only the table
that took it gives it back, before the table goes. A hold still there once its table has
gone is what a server process left as it stopped half way; the next table that seats its
person takes it over, having read it again after finding its table gone. (A key deleted
and set again starts over at version 1: a hold read before its table gave it back could
be another one, at the same version, by then. Read again after the table has gone, it
can no longer be given back, and only a compare-and-set changes it.)

Taking holds one by one, a table may hold some and then find another person seated
elsewhere, and give back what it took: until it has all of them, its holds are not
``whole``. Such a hold keeps others from seating its person, but does not yet say that
they sit anywhere (:func:`table_of` says so only of a whole one, whose game is in play):
whoever finds it may look again a moment later (:func:`sixtui.server.seating.seat`
does).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from sixtui.server.hub import Hub
from sixtui.server.lobby_news import BadNews, pack, unpack
from sixtui.server.table_state import SeatHolder, TableState, table_key

Taken = list[tuple[str, int]]  # the holds a table took: each person's, at its hub version


def hold_key(identity: str) -> str:
    return f"seated:{identity}"


class AlreadySeated(ValueError):
    """A person of the table holds a seat at table ``table``: another, or this one's next
    game begun by another request. Nothing was taken."""

    def __init__(self, holder: SeatHolder, table: str) -> None:
        super().__init__(f"{holder.name} has just sat down at another game")
        self.identity = str(holder.identity)
        self.table = table


@dataclass(frozen=True)
class Hold:
    """A person's seat at table ``table``, whose game is in play from ``version`` on;
    ``whole`` once every person of the table holds theirs."""

    table: str
    version: int
    whole: bool = False

    def to_bytes(self) -> bytes:
        return pack({"table": self.table, "version": self.version, "whole": self.whole})

    @classmethod
    def from_bytes(cls, data: bytes) -> Hold:
        value = unpack(data)
        try:
            return cls(str(value["table"]), int(value["version"]), bool(value["whole"]))
        except (KeyError, TypeError, ValueError) as why:
            raise BadNews(f"not a hold: {why}") from None


async def take(hub: Hub, hold: Hold, people: Iterable[SeatHolder]) -> Taken:
    """Seats every one of ``people`` at ``hold``'s table and returns the holds taken, whole;
    :class:`AlreadySeated` naming the first who holds a seat, with nothing taken. People
    are taken in the order of their identities, so that two tables seating the same
    people at once do not each take some and both give up."""
    taken: Taken = []
    for holder in sorted(people, key=lambda holder: str(holder.identity)):
        try:
            taken.append((str(holder.identity), await _take_one(hub, holder, hold)))
        except AlreadySeated:
            await give_back(hub, taken)
            raise
    whole = replace(hold, whole=True).to_bytes()
    made_whole: Taken = []
    for identity, version in taken:
        if await hub.compare_and_set(hold_key(identity), version, whole) is not None:
            made_whole.append((identity, version + 1))
    return made_whole


async def _take_one(hub: Hub, holder: SeatHolder, hold: Hold) -> int:
    """Takes the person's hold and returns the hub version it is stored at;
    :class:`AlreadySeated` if they hold one that stands."""
    key = hold_key(str(holder.identity))
    while True:
        stored = await hub.get(key)
        version = 0
        if stored is not None:
            current = _read(stored.value)
            if current is not None and await hub.get(table_key(current.table)) is not None:
                raise AlreadySeated(holder, current.table)
            if await hub.get(key) != stored:
                continue  # given back as its table went: look again
            version = stored.version  # still there, its table gone: left behind
        stored_at = await hub.compare_and_set(key, version, hold.to_bytes())
        if stored_at is not None:
            return stored_at


async def give_back(hub: Hub, taken: Taken) -> None:
    """Gives back holds that :func:`take` took, for a game that did not begin."""
    for identity, version in taken:
        await hub.delete(hold_key(identity), version)


async def release(hub: Hub, table_id: str, identities: Iterable[str]) -> None:
    """Gives back the holds of ``identities`` at ``table_id``, whose game has ended (a
    hold elsewhere stays)."""
    for identity in identities:
        while True:
            stored = await hub.get(hold_key(identity))
            current = None if stored is None else _read(stored.value)
            if stored is None or current is None or current.table != table_id:
                break
            if await hub.delete(hold_key(identity), stored.version):
                break


async def holds_at(hub: Hub, table_id: str, identity: str) -> bool:
    """Whether the person ``identity`` holds a seat at ``table_id``."""
    stored = await hub.get(hold_key(identity))
    current = None if stored is None else _read(stored.value)
    return current is not None and current.table == table_id


async def table_of(hub: Hub, identity: str) -> str | None:
    """The table where the person ``identity`` has a game in play, if any (a table still
    taking its holds, or giving them back, has none)."""
    stored = await hub.get(hold_key(identity))
    current = None if stored is None else _read(stored.value)
    if current is None or not current.whole:
        return None
    table = await hub.get(table_key(current.table))
    if table is None:
        return None
    if table.version < current.version:
        return current.table
    try:
        playing = TableState.from_bytes(table.value).status == "playing"
    except ValueError:
        return None
    return current.table if playing else None


def _read(data: bytes) -> Hold | None:
    try:
        return Hold.from_bytes(data)
    except BadNews:
        return None
