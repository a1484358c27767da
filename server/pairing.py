"""Quick pairing: pools of players waiting for a game with given options, and the pairing
of whoever has waited longest, safe however many server processes pair at once.

A pool is a hub queue, ``lobby:pool:KEY`` (KEY as :attr:`GameChoice.key` names the game
and its options). A member is one person (by identity) or two partners (``pair:A+B``,
their identities in order), valued with the people and the sessions they wait at.

Any session may pair a pool: it lists the waiters, picks the first table they can fill
among players of close ratings (:func:`find_match`: the range widens the longer the
longest waiter has waited, so that nobody waits long), and takes exactly those members,
all of them or none, in one step
(the hub's ``queue_take_members``). What another process took first is not there to be
taken again, and the pass looks again: so no one is seated twice. A pass runs after every
join and sees everyone who joined before it, and a waiting session runs one again every
:data:`PAIR_AGAIN` seconds, as the ranges widen, so no one is left waiting while a table
could be filled.

A waiter who has sat down at a game meanwhile (a challenge accepted, a game against the
computer, another pool, another session of theirs) is passed over: their sessions, told
of the seat, take them out of the pool. The rooms refuse to seat anyone at two games in
play (:mod:`sixtui.server.seated`), so a table that loses that race is not opened: whoever
sits elsewhere leaves the pool, told so with the partner who waits with them, and the
others wait again, in the places they had.

``lobby:pools`` (map) names every pool ever joined, so that a new session finds those
beyond the standard ones. ``lobby:pool-numbers`` (counter) orders the news of pools: of
two summaries of a pool, the one with the higher number was read later.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sixtui.server import seated
from sixtui.server.hub import Hub, QueueEntry
from sixtui.server.lobby_news import BadNews, pack, tell_everyone, tell_session, unpack
from sixtui.server.seated import AlreadySeated
from sixtui.server.seating import OpenTable, Seeker, TableProblem, seat
from sixtui.tui.lobby_commands import STANDARD_POOLS, GameChoice

POOLS = "lobby:pools"
POOL_NUMBERS = "lobby:pool-numbers"
NEWCOMER = 1500  # the rating of a waiter with none at the pool's game
RATING_RANGE = 150  # rating points apart that two waiters are paired at once
RANGE_WIDENS = 10.0  # more points for each second the longest of them has waited
PAIR_AGAIN = 3.0  # seconds between two pairing passes while someone waits


def rating_range(waited: float) -> float:
    """How far apart in rating two waiters may be paired, one having waited ``waited`` s.

    >>> rating_range(0), rating_range(30), rating_range(120)
    (150.0, 450.0, 1350.0)
    """
    return RATING_RANGE + RANGE_WIDENS * max(0.0, waited)


def pool_queue(key: str) -> str:
    return f"lobby:pool:{key}"


@dataclass(frozen=True)
class Waiter:
    """A member of a pool: one person, or two partners who play as a side, and its
    rating at the pool's game (partners: the mean of theirs)."""

    people: tuple[Seeker, ...]
    rating: int = NEWCOMER

    @property
    def member(self) -> str:
        """The member's name in the queue: the same whichever partner queued the pair."""
        if len(self.people) == 1:
            return self.people[0].identity
        return "pair:" + "+".join(sorted(person.identity for person in self.people))

    @property
    def identities(self) -> frozenset[str]:
        return frozenset(person.identity for person in self.people)

    def to_bytes(self) -> bytes:
        return pack({"people": [person.to_map() for person in self.people], "rating": self.rating})

    @classmethod
    def from_bytes(cls, data: bytes) -> Waiter:
        try:
            stored = unpack(data)
            people = tuple(Seeker.from_map(person) for person in stored["people"])
            rating = int(stored.get("rating", NEWCOMER))
        except (KeyError, TypeError, ValueError) as why:
            raise BadNews(f"not a waiter: {why}") from None
        if len(people) not in (1, 2):
            raise BadNews(f"a waiter is one person or two, not {len(people)}")
        return cls(people, rating)


@dataclass(frozen=True)
class PoolSummary:
    """How many players wait in a pool and how long the longest has waited (seconds), as
    read after news ``number``."""

    waiting: int
    longest: float
    number: int = 0


def find_match(
    waiters: Sequence[Waiter], players: int, waited: Sequence[float] | None = None
) -> list[int] | None:
    """The places of the waiters (in the order they came) who make the first table that
    can be made: the first waiter who can be seated at all, with the others that fill
    exactly ``players`` seats, each within :func:`rating_range` of the first's rating
    (widened by how long the longer waiter of the two has waited, in ``waited`` seconds;
    without ``waited``, ratings are not looked at): for two players the closest in rating,
    for four the earliest. Partners are one side, so a pair sits only with another pair
    or with two who came alone; nobody sits twice at one table.

    >>> solo = lambda name: Waiter((Seeker(name, name, name),))
    >>> pair = lambda a, b: Waiter((Seeker(a, a, a), Seeker(b, b, b)))
    >>> find_match([pair("a", "b"), solo("c"), pair("d", "e")], 4)
    [0, 2]
    >>> find_match([solo("a"), pair("b", "c"), pair("d", "e")], 4)  # a waits: 5 seats
    [1, 2]
    >>> find_match([pair("a", "b"), solo("c")], 4) is None
    True
    >>> rated = lambda name, rating: Waiter((Seeker(name, name, name),), rating)
    >>> pool = [rated("a", 1500), rated("b", 2100), rated("c", 1720), rated("d", 1540)]
    >>> find_match(pool, 2, [5, 4, 3, 0]), find_match(pool[:3], 2, [5, 4, 3])
    ([0, 3], None)
    >>> find_match(pool[:3], 2, [60, 4, 3])  # waited a minute: 750 points apart at most
    [0, 2]
    """
    largest = players // 2  # a waiter is at most one side
    for first, waiter in enumerate(waiters):
        if len(waiter.people) > largest:
            continue
        close = [
            place
            for place in range(first + 1, len(waiters))
            if waited is None
            or abs(waiters[place].rating - waiter.rating)
            <= rating_range(max(waited[first], waited[place]))
        ]
        if players == 2 and waited is not None:
            close.sort(key=lambda place: abs(waiters[place].rating - waiter.rating))
        rest = _earliest(waiters, close, players - len(waiter.people), waiter.identities)
        if rest is not None:
            return [first, *sorted(rest)]
    return None


def _earliest(
    waiters: Sequence[Waiter], places: Sequence[int], seats: int, seated: frozenset[str]
) -> list[int] | None:
    """The first waiters of ``places``, in that order, who fill exactly ``seats`` seats,
    none of them one of the people already ``seated``."""
    if seats == 0:
        return []
    for index, place in enumerate(places):
        waiter = waiters[place]
        if len(waiter.people) <= seats and seated.isdisjoint(waiter.identities):
            rest = _earliest(
                waiters, places[index + 1 :], seats - len(waiter.people), seated | waiter.identities
            )
            if rest is not None:
                return [place, *rest]
    return None


def sides_of(waiters: Sequence[Waiter], rng: random.Random) -> list[list[Seeker]]:
    """The two sides of a table of ``waiters``: partners side by side, and those who came
    alone partnered at random."""
    pairs = [list(waiter.people) for waiter in waiters if len(waiter.people) == 2]
    alone = [waiter.people[0] for waiter in waiters if len(waiter.people) == 1]
    rng.shuffle(alone)
    per_side = (2 * len(pairs) + len(alone)) // 2
    return pairs + [alone[start : start + per_side] for start in range(0, len(alone), per_side)]


async def join(hub: Hub, choice: GameChoice, waiter: Waiter) -> bool:
    """Puts ``waiter`` in the pool; false, changing nothing, if they wait there already."""
    await hub.map_set(POOLS, choice.key, b"")
    joined = await hub.queue_join(pool_queue(choice.key), waiter.member, waiter.to_bytes())
    if joined:
        await publish_summary(hub, choice)
    return joined


async def leave(hub: Hub, choice: GameChoice, member: str) -> bool:
    """Takes ``member`` out of the pool; false if they were not there (or were paired)."""
    left = await hub.queue_leave(pool_queue(choice.key), member)
    if left:
        await publish_summary(hub, choice)
    return left


async def pair_pool(
    hub: Hub, choice: GameChoice, open_table: OpenTable, rng: random.Random
) -> list[Waiter]:
    """Seats every table the pool's waiters can fill, longest waiters first; returns who
    was seated. If a table cannot be opened, its players wait again and are told why."""
    queue = pool_queue(choice.key)
    paired: list[Waiter] = []
    passed_over: set[str] = set()
    while True:
        readable = [(e, w) for e, w in await _readable(hub, queue) if w.member not in passed_over]
        waiting = [waiter for _, waiter in readable]
        chosen = find_match(waiting, choice.players, [entry.waited for entry, _ in readable])
        if chosen is None:
            return paired
        table = [waiting[place] for place in chosen]
        playing = [waiter for waiter in table if await _playing(hub, waiter)]
        if playing:
            passed_over.update(waiter.member for waiter in playing)
            continue
        taken = await hub.queue_take_members(queue, [waiter.member for waiter in table])
        if not taken:
            continue  # another pass took some of them, or someone left: look again
        waited = {entry.member: entry.waited for entry in taken}
        await publish_summary(hub, choice)
        try:
            await seat(hub, open_table, choice, sides_of(table, rng), rng)
        except AlreadySeated as why:
            elsewhere = {waiter: sat for waiter in table if (sat := await _playing(hub, waiter))}
            await _tell_seated_elsewhere(hub, choice, elsewhere)
            still = [w for w in table if w not in elsewhere]
            await _wait_again(hub, choice, still, waited, str(why))
            passed_over.update(w.member for w in table if why.identity in w.identities)
            continue
        except TableProblem as why:
            problem = f"the table could not be opened ({why})"
            await _wait_again(hub, choice, table, waited, problem)
            return paired
        paired += table


async def _playing(hub: Hub, waiter: Waiter) -> list[Seeker]:
    """The people of ``waiter`` who have a game in play."""
    return [person for person in waiter.people if await seated.table_of(hub, person.identity)]


async def _tell_seated_elsewhere(
    hub: Hub, choice: GameChoice, elsewhere: dict[Waiter, list[Seeker]]
) -> None:
    """Tells the sessions of the waiters taken from the pool for a table that was not
    opened, since some of them (``elsewhere``, by waiter) sat down at another game, that
    they wait no more."""
    for waiter, playing in elsewhere.items():
        for person in waiter.people:
            who = "you have" if person in playing else f"{playing[0].name} has"
            text = f"{who} just sat down at another game: you no longer wait for {choice.title}"
            await tell_session(hub, person.sid, "unqueued", pool=choice.key, text=text)


async def _readable(hub: Hub, queue: str) -> list[tuple[QueueEntry, Waiter]]:
    """The pool's members, longest waiter first; one whose value cannot be read (written
    by another version of the server, say) is taken out, never seated."""
    readable = []
    for entry in await hub.queue_list(queue):
        try:
            readable.append((entry, Waiter.from_bytes(entry.value)))
        except BadNews:
            await hub.queue_leave(queue, entry.member)
    return readable


async def waiting_at(hub: Hub, key: str, sid: str) -> tuple[GameChoice, Waiter] | None:
    """The pool ``key`` and its member that the lobby session ``sid`` waits as, if it does."""
    try:
        choice = GameChoice.from_key(key)
    except ValueError:
        return None
    for _, waiter in await _readable(hub, pool_queue(key)):
        if any(person.sid == sid for person in waiter.people):
            return choice, waiter
    return None


async def _wait_again(
    hub: Hub, choice: GameChoice, waiters: list[Waiter], waited: dict[str, float], why: str
) -> None:
    """Puts ``waiters``, taken for a table that was not opened, back in the pool in the
    places they had (each had ``waited`` seconds, by member), and tells their sessions
    (which may have stopped waiting meanwhile, finding them taken) that they wait again,
    and ``why``."""
    for waiter in waiters:
        value, since = waiter.to_bytes(), waited.get(waiter.member, 0.0)
        await hub.queue_join(pool_queue(choice.key), waiter.member, value, since)
        for person in waiter.people:
            await tell_session(
                hub,
                person.sid,
                "queued",
                pool=choice.key,
                people=[p.to_map() for p in waiter.people],
                text=f"{why}: you wait again for {choice.title}",
            )
    await publish_summary(hub, choice)


async def publish_summary(hub: Hub, choice: GameChoice) -> None:
    """Tells every lobby how many wait in the pool now. The number is taken after the
    change and before the reading, so the summary with the highest number is the newest."""
    number = await hub.next_number(POOL_NUMBERS)
    summary = await read_pool(hub, choice.key)
    await tell_everyone(
        hub,
        "pool",
        pool=choice.key,
        number=number,
        waiting=summary.waiting,
        longest=summary.longest,
    )


async def read_pool(hub: Hub, key: str) -> PoolSummary:
    entries = await hub.queue_list(pool_queue(key))
    waiting = 0
    for entry in entries:
        try:
            waiting += len(Waiter.from_bytes(entry.value).people)
        except BadNews:
            continue
    return PoolSummary(waiting, entries[0].waited if entries else 0.0)


async def read_pools(hub: Hub) -> dict[str, PoolSummary]:
    """Every pool that has been joined (and the standard ones), as it is now."""
    keys = {choice.key for choice in STANDARD_POOLS} | set(await hub.map_all(POOLS))
    return {key: await read_pool(hub, key) for key in keys}
