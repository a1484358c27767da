"""One session's copy of the lobby: read from the hub once, kept up to date from the news,
and what its player sees built from it.

``lobby:people`` (map) holds who is in the lobby, by lobby session id: a
:class:`Presence` each (name, identity, what they are doing, whom they asked to partner
them). Two players are partners once each has asked the other: that follows from their
two entries, so there is no step of its own to agree on. ``tables:live`` (map, the
rooms') holds the games in progress, by table id, each a summary with ``game``,
``options``, ``sides`` (the names on each side), ``rated`` (the identity of each player
with an SSH key, by side), ``clock``, ``casual`` and ``wins``; ``tables:news`` (topic, the
rooms') tells of every change to it.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, cast
from weakref import WeakValueDictionary

from sixtui.server import challenges, chat, pairing
from sixtui.server.challenges import ChallengeRecord
from sixtui.server.hub import Hub
from sixtui.server.lobby_news import BadNews, unpack
from sixtui.server.pairing import PoolSummary, Waiter
from sixtui.server.ratings import variant
from sixtui.server.rooms import LIVE_TABLES
from sixtui.server.seating import Seeker, computer_names
from sixtui.server.table_state import GUEST
from sixtui.tui.chat import ChatLine
from sixtui.tui.lobby_commands import CLOSE, STANDARD_POOLS, GameChoice
from sixtui.tui.lobby_session import (
    ChallengeView,
    Doing,
    LobbyView,
    Person,
    PoolView,
    TableView,
)
from sixtui.tui.player_text import printable, shown_word

PEOPLE = "lobby:people"
BUSIEST_FIRST: tuple[Doing, ...] = ("playing", "watching", "waiting", "lobby")

RatingOf = Callable[[str, str], str]
"""A person's rating as shown, by their identity and the kind of game
(:func:`~sixtui.server.ratings.variant`)."""


@dataclass(frozen=True)
class ListedTable:
    """A game in progress as the lobby lists it, and whose ratings go beside its names:
    the kind of game they are kept for, and the identities of the players with an SSH
    key by side (``None`` for the others)."""

    view: TableView
    kind: str
    rated: tuple[tuple[str | None, ...], tuple[str | None, ...]]

    def with_ratings(self, rating_of: RatingOf) -> TableView:
        ratings = tuple(
            tuple("" if identity is None else rating_of(identity, self.kind) for identity in side)
            for side in self.rated
        )
        return replace(self.view, ratings=cast(tuple[tuple[str, ...], tuple[str, ...]], ratings))


@dataclass(frozen=True)
class Presence:
    """One session's entry in the lobby: its person, and what they are doing."""

    name: str
    identity: str
    doing: Doing = "lobby"
    what: str = ""
    pool: str | None = None
    table: str | None = None
    partner: str | None = None  # whom they asked to partner them

    def to_map(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "identity": self.identity,
            "doing": self.doing,
            "what": self.what,
            "pool": self.pool,
            "table": self.table,
            "partner": self.partner,
        }

    @classmethod
    def from_map(cls, value: dict[str, Any]) -> Presence:
        """The entry ``value`` holds, the same object for every session of the process
        that reads an equal one."""
        try:
            doing = str(value["doing"])
            if doing not in BUSIEST_FIRST:
                raise ValueError(doing)
            fields = (
                str(value["name"]),
                str(value["identity"]),
                doing,
                str(value["what"]),
                _text_or_none(value["pool"]),
                _text_or_none(value["table"]),
                _text_or_none(value["partner"]),
            )
        except (KeyError, TypeError, ValueError) as why:
            raise BadNews(f"not a person in the lobby: {why}") from None
        presence = _PRESENCES.get(fields)
        if presence is None:
            presence = _PRESENCES[fields] = cls(*fields)  # type: ignore[arg-type]
        return presence


# Every session keeps a copy of the lobby, so each entry and each game in progress would
# be held once a session, a few hundred times over: equal ones are shared, for as long
# as a session keeps them.
_PRESENCES: WeakValueDictionary[tuple[str | None, ...], Presence] = WeakValueDictionary()
_TABLES: WeakValueDictionary[tuple[str, bytes], ListedTable] = WeakValueDictionary()


def folded(name: str | None) -> str:
    """A name as names are compared: without regard to case."""
    return "" if name is None else name.casefold()


class LobbyCopy:
    """What one session knows of the lobby: the people, pools, challenges, games in
    progress and chat, and the names its player muted."""

    def __init__(self) -> None:
        self.people: dict[str, Presence] = {}
        self.pools: dict[str, tuple[PoolSummary, float]] = {}  # and when it was read
        self.challenges: dict[str, ChallengeRecord] = {}
        self.ended: set[str] = set()  # challenges closed, should news of them come late
        self.tables: dict[str, ListedTable] = {}
        self.chat: list[chat.SaidLine] = []
        self.muted: set[str] = set()

    # -- reading -------------------------------------------------------------------------

    async def read(self, hub: Hub, identity: str) -> None:
        """Reads everything the lobby shows, as it is now."""
        people = {}
        for sid, data in (await hub.map_all(PEOPLE)).items():
            try:
                people[sid] = Presence.from_map(unpack(data))
            except BadNews:
                continue
        self.people = people
        now = time.monotonic()
        self.pools = {key: (pool, now) for key, pool in (await pairing.read_pools(hub)).items()}
        self.challenges = {record.id: record for record in await challenges.open_challenges(hub)}
        self.chat = await chat.recent_lines(hub, chat.LOBBY)
        self.muted = await chat.muted_names(hub, identity)
        await self.read_tables(hub)

    async def read_tables(self, hub: Hub) -> bool:
        """Reads the games in progress; true if they changed."""
        tables = {}
        for table_id, data in (await hub.map_all(LIVE_TABLES)).items():
            try:
                tables[table_id] = _shared_table(table_id, data)
            except BadNews:
                continue
        changed = tables != self.tables
        self.tables = tables
        return changed

    def heard_table(self, news: dict[str, Any]) -> bool:
        """Takes in a change to the games in progress (``tables:news``); true if the list
        changed. :class:`BadNews` or :class:`KeyError` if it cannot be read."""
        table_id, summary = str(news["id"]), news["summary"]
        before = self.tables.get(table_id)
        if summary is None:
            self.tables.pop(table_id, None)
        elif isinstance(summary, bytes):
            self.tables[table_id] = _shared_table(table_id, summary)
        else:
            raise BadNews(f"a table's summary is bytes, not {type(summary).__name__}")
        return self.tables.get(table_id) != before

    def heard(self, news: dict[str, Any]) -> None:
        """Takes in a piece of news for every lobby (see :mod:`~sixtui.server.lobby_news`);
        :class:`BadNews`, :class:`KeyError` or :class:`ValueError` if it cannot be read."""
        kind = news["kind"]
        if kind == "person":
            self.people[str(news["sid"])] = Presence.from_map(news["person"])
        elif kind == "gone":
            self.people.pop(str(news["sid"]), None)
        elif kind == "pool":
            self._heard_pool(str(news["pool"]), int(news["number"]), news)
        elif kind == "challenge":
            record = ChallengeRecord.from_map(news["challenge"])
            if record.id not in self.ended:
                self.challenges[record.id] = record
        elif kind == "challenge-closed":
            self.ended.add(str(news["id"]))
            self.challenges.pop(str(news["id"]), None)
        elif kind == "chat":
            line = chat.SaidLine.from_map(news["line"])
            if all(kept.number != line.number for kept in self.chat):
                self.chat = sorted([*self.chat, line], key=lambda kept: kept.number)[-chat.KEPT :]

    def _heard_pool(self, key: str, number: int, news: dict[str, Any]) -> None:
        summary, _ = self.pools.get(key, (PoolSummary(0, 0.0), 0.0))
        if number > summary.number:
            fresh = PoolSummary(int(news["waiting"]), float(news["longest"]), number)
            self.pools[key] = (fresh, time.monotonic())

    # -- looking up ------------------------------------------------------------------------

    def someone(self, name: str) -> tuple[str, Presence] | str:
        """A session of the person called ``name`` (one not at a table, if they have one),
        or why there is none."""
        found = [
            (sid, entry) for sid, entry in self.people.items() if folded(entry.name) == folded(name)
        ]
        if not found:
            return self.nobody(name)
        return min(found, key=lambda item: item[1].doing == "playing")

    def nobody(self, name: str) -> str:
        """Why no one called ``name`` can be found, with the name closest to it."""
        here = {folded(entry.name): entry.name for entry in self.people.values()}
        close = difflib.get_close_matches(folded(name), list(here), n=1, cutoff=CLOSE)
        hint = f": did you mean {here[close[0]]}?" if close else ""
        return f"no one called {shown_word(name)} is here{hint}"

    def sessions_of(self, identity: str) -> list[tuple[str, Presence]]:
        return [(sid, entry) for sid, entry in self.people.items() if entry.identity == identity]

    def entry_of(self, person: Seeker) -> Presence | None:
        """What ``person`` is doing, at the session recorded or another of theirs."""
        entry = self.people.get(person.sid)
        if entry is not None:
            return entry
        sessions = self.sessions_of(person.identity)
        return sessions[0][1] if sessions else None

    def partner_of(self, sid: str) -> tuple[str, Presence] | None:
        """The session of the partner of the person at ``sid``: one that asked them back."""
        entry = self.people.get(sid)
        if entry is None or entry.partner is None:
            return None
        for other_sid, other in self.people.items():
            if (
                folded(other.name) == folded(entry.partner)
                and folded(other.partner) == folded(entry.name)
                and other.identity != entry.identity
            ):
                return other_sid, other
        return None

    def seeker(self, found: tuple[str, Presence]) -> Seeker:
        sid, entry = found
        return Seeker(sid, entry.identity, entry.name)

    def challenge_between(self, identity: str, name: str, side: int) -> ChallengeRecord | None:
        """The open challenge between the person ``identity``, on ``side`` (0: they made
        it, 1: it was made to them), and ``name`` on the other."""
        for record in self.challenges.values():
            others = record.challenged if side == 0 else record.challengers
            if record.on_side(side, identity) and any(
                folded(person.name) == folded(name) for person in others
            ):
                return record
        return None

    def no_challenge_from(self, identity: str, name: str) -> str:
        """Why the person ``identity`` has no challenge from ``name`` to answer."""
        challengers = sorted(
            {
                record.challengers[0].name
                for record in self.challenges.values()
                if record.on_side(1, identity)
            }
        )
        if not challengers:
            return f"no challenge from {shown_word(name)}: no one has challenged you"
        return f"no challenge from {shown_word(name)}: you have one from {', '.join(challengers)}"

    def table_of(self, name: str) -> TableView | str:
        """The game ``name`` plays, or why there is none to watch."""
        for entry in self.people.values():
            playing = entry.doing == "playing" and entry.table in self.tables
            if playing and folded(entry.name) == folded(name):
                return self.tables[entry.table].view
        for listed in self.tables.values():
            sides = listed.view.sides
            if any(folded(player) == folded(name) for side in sides for player in side):
                return listed.view
        if any(folded(entry.name) == folded(name) for entry in self.people.values()):
            return f"{shown_word(name)} is not playing now"
        return self.nobody(name)

    def known_name(self, name: str) -> str | None:
        """``name`` as someone here or in the chat writes it, if anyone does."""
        names = [entry.name for entry in self.people.values()] + [line.name for line in self.chat]
        return next((known for known in names if folded(known) == folded(name)), None)

    # -- the view --------------------------------------------------------------------------

    def view(
        self,
        sid: str,
        waiting: tuple[GameChoice, Waiter] | None,
        rating_of: RatingOf | None = None,
    ) -> LobbyView:
        """The lobby as the player at session ``sid`` sees it, waiting as ``waiting`` says;
        ``rating_of`` gives the ratings shown beside names (none without it): of the
        players in the games in progress, and of each person waiting at the game they
        wait for."""
        me = self.people[sid]
        partner = self.partner_of(sid)
        partner_name = partner[1].name if partner else None
        asking = {
            entry.name
            for entry in self.people.values()
            if folded(entry.partner) == folded(me.name) and entry.name != partner_name
        }
        return LobbyView(
            me=me.name,
            people=self._people_view(me.identity, rating_of),
            pools=self._pools_view(waiting[0].key if waiting else None),
            challenges=self._challenges_view(me.identity),
            tables=tuple(
                listed.view if rating_of is None else listed.with_ratings(rating_of)
                for _, listed in sorted(self.tables.items(), key=lambda item: _table_order(item[0]))
            ),
            chat=tuple(
                ChatLine(line.name, line.text)
                for line in self.chat
                if folded(line.name) not in self.muted
            ),
            partner=partner_name,
            asked=me.partner if partner is None else None,
            asking=tuple(sorted(asking, key=str.casefold)),
            pool=waiting[0] if waiting else None,
        )

    def _people_view(self, me: str, rating_of: RatingOf | None = None) -> tuple[Person, ...]:
        """Everyone once (a person at several sessions by what keeps them busiest), the
        player first, then by name; partners named once both have asked."""
        wanted: dict[str, set[str]] = {}
        shown: dict[str, Presence] = {}
        for entry in self.people.values():
            if entry.partner:
                wanted.setdefault(folded(entry.name), set()).add(folded(entry.partner))
            kept = shown.get(entry.identity)
            if kept is None or _busier(entry, kept):
                shown[entry.identity] = entry
        ordered = sorted(
            shown.values(), key=lambda entry: (entry.identity != me, folded(entry.name))
        )
        return tuple(
            Person(
                entry.name,
                entry.doing,
                entry.what,
                entry.partner
                if folded(entry.name) in wanted.get(folded(entry.partner), ())
                else None,
                entry.table,
                _waiting_rating(entry, rating_of),
            )
            for entry in ordered
        )

    def _pools_view(self, mine: str | None) -> tuple[PoolView, ...]:
        """The standard pools, then any other where someone waits; each one's longest wait
        counted up to now."""
        now = time.monotonic()
        standard = [choice.key for choice in STANDARD_POOLS]
        others = sorted(
            key
            for key, (summary, _) in self.pools.items()
            if key not in standard and (summary.waiting or key == mine)
        )
        pools = []
        for key in standard + others:
            try:
                choice = GameChoice.from_key(key)
            except ValueError:
                continue  # a pool of a game this server does not offer
            summary, read_at = self.pools.get(key, (PoolSummary(0, 0.0), now))
            longest = summary.longest + (now - read_at) if summary.waiting else 0.0
            pools.append(PoolView(choice, summary.waiting, longest, key == mine))
        return tuple(pools)

    def _challenges_view(self, me: str) -> tuple[ChallengeView, ...]:
        """Every open challenge: those to the player first, then theirs, then the rest."""
        views = [
            ChallengeView(
                record.id,
                side_names(record, record.challengers),
                side_names(record, record.challenged),
                record.choice,
                to_me=record.on_side(1, me),
                from_me=record.on_side(0, me),
            )
            for record in self.challenges.values()
        ]
        return tuple(
            sorted(views, key=lambda view: (not view.to_me, not view.from_me, int(view.id)))
        )


def _waiting_rating(entry: Presence, rating_of: RatingOf | None) -> str:
    """A waiting person's rating at the game they wait for, as shown (a guest has none)."""
    if rating_of is None or entry.doing != "waiting" or not entry.pool:
        return ""
    if entry.identity.startswith(GUEST):
        return ""
    try:
        choice = GameChoice.from_key(entry.pool)
    except ValueError:
        return ""
    return rating_of(entry.identity, variant(choice.game, choice.options()))


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _busier(entry: Presence, than: Presence) -> bool:
    return BUSIEST_FIRST.index(entry.doing) < BUSIEST_FIRST.index(than.doing)


def side_names(record: ChallengeRecord, people: Iterable[Seeker]) -> tuple[str, ...]:
    names = [person.name for person in people]
    if len(names) * 2 < record.choice.players and record.computer is not None:
        names += computer_names([record.computer])
    return tuple(names)


def _table_order(table_id: str) -> tuple[int, str]:
    return (int(table_id), "") if table_id.isdigit() else (0, table_id)


def _shared_table(table_id: str, data: bytes) -> ListedTable:
    """The game in progress ``data`` holds, the same object for every session of the
    process that reads it; :class:`BadNews` if it cannot be read."""
    listed = _TABLES.get((table_id, data))
    if listed is None:
        listed = _TABLES[table_id, data] = _listed_table(table_id, unpack(data))
    return listed


def _listed_table(table_id: str, summary: dict[str, Any]) -> ListedTable:
    """A game in progress as the rooms list it; :class:`BadNews` if it cannot be read."""
    try:
        game, options = str(summary["game"]), dict(summary["options"])
        try:
            title = GameChoice(game, **options).title
        except (TypeError, ValueError):
            title = game
        first, second = ([printable(str(name)) for name in side] for side in summary["sides"])
        wins = [int(count) for count in summary.get("wins", (0, 0))]
        clock = summary.get("clock")
        view = TableView(
            table_id,
            title,
            (tuple(first), tuple(second)),
            (wins[0], wins[1]) if len(wins) == 2 else (0, 0),
            clock=printable(clock) if isinstance(clock, str) else "",
            casual=summary.get("casual") is True,
            between_games=summary.get("status") == "game-over",
        )
        return ListedTable(view, variant(game, options), _rated_seats(summary, view.sides))
    except (KeyError, TypeError, ValueError) as why:
        raise BadNews(f"not a table: {why}") from None


def _rated_seats(
    summary: dict[str, Any], sides: tuple[tuple[str, ...], tuple[str, ...]]
) -> tuple[tuple[str | None, ...], tuple[str | None, ...]]:
    """The identities of a table's players with an SSH key, by side as ``sides`` (none
    where the summary does not say them right)."""
    rated = summary.get("rated")
    if (
        not isinstance(rated, list)
        or not all(isinstance(side, list) for side in rated)
        or [len(side) for side in rated] != [len(side) for side in sides]
    ):
        return (tuple(None for _ in sides[0]), tuple(None for _ in sides[1]))
    first, second = (
        tuple(identity if isinstance(identity, str) and identity else None for identity in side)
        for side in rated
    )
    return first, second
