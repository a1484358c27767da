"""The lobby on the hub: each player's :class:`HubLobby` keeps everything it shares in the
hub, so that any number of server processes hold one lobby between them.

Hub names (every value a msgpack map):

* ``lobby:people`` (map): who is in the lobby, by lobby session id (``lobby:sessions``
  counter), and what they are doing; ``tables:live`` (map, the rooms'): the games in
  progress. Both: :mod:`sixtui.server.lobby_copy`. A session writes its own entry in
  ``lobby:people``, and no other.
* ``lobby:news``, ``lobby:to:SID`` and ``lobby:person:IDENTITY`` (topics):
  :mod:`sixtui.server.lobby_news`.
* The pools of quick pairing: :mod:`sixtui.server.pairing`; the challenges:
  :mod:`sixtui.server.challenges`; the chat: :mod:`sixtui.server.chat`.
* ``lobby:partners-away`` (map): by identity, the partner of a person who left the
  lobby while partnered; they are partners again when that person comes back while the
  partner still asks for them.
* ``seated:IDENTITY`` (key, the rooms'): the game in play a person sits at, if any
  (:mod:`sixtui.server.seated`). Nobody starts a second game while one of theirs is in
  play: they may not wait in a pool, accept a challenge or play the computer; watching is
  fine.

A session reads everything once as it opens, then keeps its own copy up to date from the
news (all of it again after falling behind), and builds its player's view from that copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import replace
from typing import Any

from sixtui.server import challenges, chat, pairing, seated
from sixtui.server.challenges import ChallengeRecord
from sixtui.server.durable import GameRecords
from sixtui.server.hub import Hub, Lagged, Subscription, of_this_process
from sixtui.server.lobby_copy import PEOPLE, LobbyCopy, Presence, folded, side_names
from sixtui.server.lobby_news import (
    NEWS,
    SESSION_NUMBERS,
    BadNews,
    notify,
    pack,
    person_topic,
    session_topic,
    tell_everyone,
    tell_session,
    unpack,
)
from sixtui.server.missed_games import take_missed
from sixtui.server.pairing import Waiter
from sixtui.server.player_pages import profile_page, top_page
from sixtui.server.ratings import variant
from sixtui.server.rooms import TABLES_NEWS, read_table
from sixtui.server.seated import AlreadySeated
from sixtui.server.seating import (
    OpenTable,
    Seeker,
    Sitter,
    TableProblem,
    playing_text,
    seat,
    seated_text,
)
from sixtui.server.table_state import GUEST
from sixtui.tui.lobby_commands import (
    Accept,
    Challenge,
    Command,
    Decline,
    GameChoice,
    Mute,
    Pair,
    Partner,
    Play,
    Profile,
    Replay,
    Say,
    Top,
    Unmute,
    Unpair,
    Unpartner,
    Watch,
    Withdraw,
)
from sixtui.tui.lobby_session import (
    LobbySession,
    LobbyUpdate,
    LobbyView,
    Outcome,
)
from sixtui.tui.player_text import cut, printable, shown_word

log = logging.getLogger("sixtui.server")

LONGEST_NAME = 24  # cells: a longer name is cut, so that every list keeps its columns
TEAM_HINT = "pair six --players 4 waits for a game as a team"


def _alone(waiting_for: GameChoice | None) -> str:
    """What a player who waits alone for a game of four as they become partners is told:
    their partner does not join them there."""
    if waiting_for is None or waiting_for.players != 4:
        return ""
    return (
        f"; you still wait alone for {waiting_for.title}: unpair, then pair again to wait together"
    )


PARTNERS_AWAY = "lobby:partners-away"


class HubLobby(LobbySession):
    """One player's lobby, every part of it that others see kept in ``hub``.

    Made with :meth:`open`. ``open_table`` is the rooms' (see
    :class:`~sixtui.server.seating.OpenTable`); ``rng`` draws who opens and who partners
    whom; ``clock`` is the wall clock, which every server process shares (chat allowances
    are counted on it).
    """

    def __init__(
        self,
        hub: Hub,
        me: Seeker,
        open_table: OpenTable,
        rng: random.Random,
        clock: Callable[[], float],
        archive: GameRecords | None = None,
    ) -> None:
        super().__init__()
        self._archive = archive
        self._hub = hub
        self._me = me
        self._open_table = open_table
        self._rng = rng
        self._clock = clock
        self._presence = Presence(me.name, me.identity)
        self._waiting: tuple[GameChoice, Waiter] | None = None
        self._copy = LobbyCopy()
        self._subscriptions: list[Subscription] = []
        self._readers: list[asyncio.Task[None]] = []
        self._pairing: asyncio.Task[None] | None = None  # passes again while waiting
        self._ratings_read: dict[tuple[str, str], tuple[str, Hashable]] = {}  # and when
        self._left_table: str | None = None  # the table whose game goes on without them

    @classmethod
    async def open(
        cls,
        hub: Hub,
        name: str,
        identity: str,
        open_table: OpenTable,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.time,
        archive: GameRecords | None = None,
    ) -> HubLobby:
        """Brings the player ``name`` (the person ``identity``) into the lobby; ``archive``
        is where the games that ended are kept, for the profiles, leaderboards and replays."""
        sid = of_this_process(hub, f"s{await hub.next_number(SESSION_NUMBERS)}")
        shown = cut(printable(name).strip(), LONGEST_NAME) or "?"
        me = Seeker(sid, identity, shown)
        lobby = cls(hub, me, open_table, rng or random.Random(), clock, archive)
        await lobby._start()
        return lobby

    @classmethod
    async def let_go(cls, hub: Hub, sid: str, presence: Presence, open_table: OpenTable) -> None:
        """Ends the lobby session ``sid`` of a server process that died (``presence``, its
        entry), as the session would have ended itself: it stops waiting in its pool, its
        challenges are withdrawn if it was its player's last session, its partner is told,
        and every lobby sees it gone."""
        me = Seeker(sid, presence.identity, presence.name)
        lobby = cls(hub, me, open_table, random.Random(), time.time)
        lobby._presence = presence
        await lobby._copy.read(hub, presence.identity)
        if presence.doing == "waiting" and presence.pool is not None:
            lobby._waiting = await pairing.waiting_at(hub, presence.pool, sid)
        await lobby.close()

    @property
    def name(self) -> str:
        return self._me.name

    async def _start(self) -> None:
        # Subscribed before reading, so that nothing changed in between goes unheard.
        news = self._hub.subscribe(NEWS)
        mine = self._hub.subscribe(session_topic(self._me.sid))
        every_session = self._hub.subscribe(person_topic(self._me.identity))
        tables = self._hub.subscribe(TABLES_NEWS)
        self._subscriptions = [news, mine, every_session, tables]
        await self._copy.read(self._hub, self._me.identity)
        await self._present()
        again, missed = await self._partner_again(), await self._missed()
        self.greeting = "\n".join(line for line in (again, missed) if line)
        self._readers = [
            asyncio.create_task(self._read(news, self._heard)),
            asyncio.create_task(self._read(mine, self._heard_mine)),
            asyncio.create_task(self._read(every_session, self._heard_mine)),
            asyncio.create_task(self._read(tables, self._heard_table)),
        ]

    # -- what the player sees ------------------------------------------------------------

    def view(self) -> LobbyView:
        archive = self._archive
        if archive is None:
            return self._copy.view(self._me.sid, self._waiting, None)
        changes = archive.changes  # once a drawing: every rating in it is read as of now
        return self._copy.view(
            self._me.sid,
            self._waiting,
            lambda identity, kind: self._rating(archive, changes, identity, kind),
        )

    def _rating(self, archive: GameRecords, changes: Hashable, identity: str, kind: str) -> str:
        """A person's rating at ``kind`` of game, as shown: read from the archive again
        only once it has changed, as the lobby is drawn again at every piece of news."""
        kept = self._ratings_read.get((identity, kind))
        if kept is None or kept[1] != changes:
            kept = archive.rating(identity, kind).label, changes
            self._ratings_read[identity, kind] = kept
        return kept[0]

    # -- commands --------------------------------------------------------------------------

    async def _carry_out(self, command: Command) -> Outcome:
        match command:
            case Pair(choice):
                return await self._pair(choice)
            case Unpair():
                return await self._unpair()
            case Partner(name):
                return await self._partner(name)
            case Unpartner():
                return await self._unpartner()
            case Challenge(name, choice, computer):
                return await self._challenge(name, choice, computer)
            case Accept(name):
                return await self._accept(name)
            case Decline(name):
                return await self._decline(name)
            case Withdraw(name):
                return await self._withdraw(name)
            case Play(choice, level):
                return await self._play(choice, level)
            case Watch(target):
                return await self._watch(target)
            case Say(text):
                return await self._say(text)
            case Mute(name):
                return await self._mute(name)
            case Unmute(name):
                return await self._unmute(name)
            case Profile() | Top() | Replay():
                return self._from_archive(command)
        raise AssertionError(f"no way to carry out {command!r}")

    def _from_archive(self, command: Profile | Top | Replay) -> Outcome:
        """A profile, a leaderboard or an archived game to step through."""
        archive = self._archive
        if archive is None:
            return Outcome("this server keeps no archive of games")
        match command:
            case Profile(name):
                found = profile_page(archive, name)
            case Top(choice):
                found = top_page(archive, variant(choice.game, choice.options()))
            case Replay(number):
                record = archive.record(number)
                if record is None:
                    return Outcome(f"there is no game {number} in the archive")
                return Outcome(record=record)
        return Outcome(found) if isinstance(found, str) else Outcome(page=found)

    async def _pair(self, choice: GameChoice) -> Outcome:
        in_a_game = await self._in_a_game()
        if in_a_game:
            return Outcome(in_a_game)
        people: tuple[Seeker, ...] = (self._me,)
        partner = self._copy.partner_of(self._me.sid) if choice.players == 4 else None
        if partner is not None:
            them = partner[1]
            if await self._playing(them):
                return Outcome(f"your partner {them.name} is playing now: unpartner to wait alone")
            people = (self._me, self._copy.seeker(partner))
        waiter = Waiter(people, self._rating_of(people, choice))
        with_whom = f" with {partner[1].name}" if partner else ""
        if self._waiting and (self._waiting[0], self._waiting[1].member) == (choice, waiter.member):
            return Outcome(f"you wait{with_whom} for {choice.title} already: unpair to stop")
        before = ""
        if self._waiting:
            left = self._waiting[0]
            if not await self._stop_waiting():
                return Outcome("too late: you have just been paired, and your table opens")
            before = f"you no longer wait for {left.title}; "
        if not await pairing.join(self._hub, choice, waiter):
            return Outcome(f"{before}you wait{with_whom} for {choice.title} already")
        self._waiting = (choice, waiter)
        await self._present(doing="waiting", pool=choice.key, what=choice.title, table=None)
        for person in waiter.people[1:]:
            await tell_session(
                self._hub,
                person.sid,
                "queued",
                pool=choice.key,
                people=[p.to_map() for p in waiter.people],
                text=f"{self._me.name} is waiting with you for {choice.title}: unpair to stop",
            )
        seated = await pairing.pair_pool(self._hub, choice, self._open_table, self._rng)
        if any(waiter.member == other.member for other in seated):
            return Outcome()  # the news of the seat says where
        self._keep_pairing(choice)
        if await self._in_a_game():  # seated meanwhile from another session: its news came
            await self._stop_waiting()  # before they waited, and left them waiting
            return Outcome()
        return Outcome(f"{before}you wait{with_whom} for {choice.title}: unpair to stop")

    def _rating_of(self, people: tuple[Seeker, ...], choice: GameChoice) -> int:
        """The waiters' rating at ``choice``'s game: their mean, a newcomer's for a guest
        or without an archive."""
        kind = variant(choice.game, choice.options())
        ratings = [
            self._archive.rating(person.identity, kind).shown
            if self._archive is not None and not person.identity.startswith(GUEST)
            else pairing.NEWCOMER
            for person in people
        ]
        return round(sum(ratings) / len(ratings))

    def _keep_pairing(self, choice: GameChoice) -> None:
        """While the player waits for ``choice``, a pairing pass every so often: the range
        of ratings they may be paired within widens as they wait."""
        if self._pairing is not None:
            self._pairing.cancel()
        self._pairing = asyncio.create_task(self._pair_again(choice), name="pairing again")

    async def _pair_again(self, choice: GameChoice) -> None:
        while self._waiting is not None and self._waiting[0] == choice:
            await asyncio.sleep(pairing.PAIR_AGAIN)
            if self._waiting is None or self._waiting[0] != choice:
                return
            try:
                await pairing.pair_pool(self._hub, choice, self._open_table, self._rng)
            except Exception:
                log.exception("pairing %s again failed; trying again later", choice.key)

    async def _unpair(self) -> Outcome:
        if self._waiting is None:
            return Outcome("you are not waiting for a game: pair GAME waits for one")
        choice = self._waiting[0]
        if not await self._stop_waiting():
            return Outcome("too late: you have just been paired, and your table opens")
        return Outcome(f"you no longer wait for {choice.title}")

    async def _stop_waiting(self) -> bool:
        """Leaves the pool the player waits in, telling a partner who waits with them;
        false if they were paired meanwhile (their table's news is on its way)."""
        if self._waiting is None:
            return True
        choice, waiter = self._waiting
        self._waiting = None
        if not await pairing.leave(self._hub, choice, waiter.member):
            return False
        for person in waiter.people:
            if person.sid != self._me.sid:
                await tell_session(
                    self._hub,
                    person.sid,
                    "unqueued",
                    pool=choice.key,
                    text=f"{self._me.name} stopped waiting: you no longer wait for {choice.title}",
                )
        await self._no_longer_waiting()
        return True

    async def _no_longer_waiting(self) -> None:
        """Shows the player in the lobby, unless their seat came first: then they play."""
        if self._presence.doing == "waiting":
            await self._present(doing="lobby", pool=None, what="")

    async def _partner(self, name: str) -> Outcome:
        found = self._copy.someone(name)
        if isinstance(found, str):
            return Outcome(found)
        _, them = found
        if them.identity == self._me.identity:
            return Outcome("you cannot partner yourself: partner NAME asks someone else")
        current = self._copy.partner_of(self._me.sid)
        if current and current[1].identity == them.identity:
            return Outcome(f"{them.name} is your partner already")
        if self._waiting and len(self._waiting[1].people) == 2:
            return Outcome(f"you wait with your partner for {self._waiting[0].title}: unpair first")
        await self._present(partner=them.name)
        if current is not None:
            await notify(
                self._hub,
                current[0],
                f"{self._me.name} partners {them.name} now: you have no partner",
            )
        answered = self._copy.partner_of(self._me.sid)
        if answered is not None:
            their_pool = them.pool if them.doing == "waiting" else None
            their_wait = GameChoice.from_key(their_pool) if their_pool else None
            await notify(
                self._hub,
                answered[0],
                f"{self._me.name} is your partner now: {TEAM_HINT}{_alone(their_wait)}",
            )
            my_wait = self._waiting[0] if self._waiting else None
            return Outcome(f"{them.name} is your partner now: {TEAM_HINT}{_alone(my_wait)}")
        for other_sid, _ in self._copy.sessions_of(them.identity):
            await notify(
                self._hub,
                other_sid,
                f"{self._me.name} asks you to be partners: partner {self._me.name} to answer",
            )
        return Outcome(
            f"you asked {them.name} to be your partner: they answer partner {self._me.name}"
        )

    async def _unpartner(self) -> Outcome:
        asked = self._presence.partner
        if asked is None:
            return Outcome("you have no partner, and have asked no one")
        current = self._copy.partner_of(self._me.sid)
        if self._waiting and len(self._waiting[1].people) == 2 and not await self._stop_waiting():
            return Outcome("too late: you have just been paired, and your table opens")
        await self._present(partner=None)
        if current is None:
            asked_one = self._copy.someone(asked)
            if not isinstance(asked_one, str):  # their lobby still shows the ask
                withdrawn = f"{self._me.name} no longer asks you to be partners"
                await notify(self._hub, asked_one[0], withdrawn)
            return Outcome(f"you no longer ask {asked} to partner you")
        await notify(self._hub, current[0], f"{self._me.name} no longer partners you")
        return Outcome(f"you no longer partner {current[1].name}")

    async def _challenge(self, name: str, choice: GameChoice, computer: str | None) -> Outcome:
        found = self._copy.someone(name)
        if isinstance(found, str):
            return Outcome(found)
        sid, them = found
        if them.identity == self._me.identity:
            return Outcome("you cannot challenge yourself: play GAME plays the computer")
        if them.doing == "playing":
            return Outcome(f"{them.name} is playing now: challenge them once they are back")
        mine: list[Seeker] = [self._me]
        theirs: list[Seeker] = [Seeker(sid, them.identity, them.name)]
        if choice.players == 4:
            partner = self._copy.partner_of(self._me.sid)
            if partner and partner[1].identity == them.identity:
                return Outcome(f"{them.name} is your partner: challenge another pair")
            for side, side_sid, who in (
                (mine, self._me.sid, "you have"),
                (theirs, sid, f"{them.name} has"),
            ):
                found = self._partner_at_table(side_sid, who, computer)
                if isinstance(found, str):
                    return Outcome(found)
                side.extend([found] if found else [])
        for record in list(self._copy.challenges.values()):
            if (
                record.on_side(0, self._me.identity)
                and record.challenged[0].identity == them.identity
            ):
                await challenges.close(self._hub, record.id)  # a new challenge replaces it
        record = await challenges.make(self._hub, mine, theirs, choice, computer)
        self._copy.challenges[record.id] = record
        challengers = side_names(record, record.challengers)
        for person in theirs:
            await notify(
                self._hub,
                person.sid,
                f"{' and '.join(challengers)} challenge{'s' if len(mine) == 1 else ''} you to "
                f"{choice.title}: accept {self._me.name} or decline {self._me.name}",
            )
        for person in mine[1:]:
            await notify(
                self._hub,
                person.sid,
                f"{self._me.name} challenged {them.name} to {choice.title}, with you",
            )
        return Outcome(
            f"you challenged {them.name} to {choice.title}: withdraw {them.name} takes it back"
        )

    def _partner_at_table(self, sid: str, who: str, computer: str | None) -> Seeker | str | None:
        """The partner who sits beside the person at ``sid`` (``who`` names them: "you
        have", "cy has") in a four-player game: theirs, unless at a table; ``None`` when
        the computer sits there instead; or why no one can."""
        found = self._copy.partner_of(sid)
        if found and found[1].doing != "playing":
            return self._copy.seeker(found)
        if computer is not None:
            return None
        if found:
            return f"{found[1].name} is playing now: --computer LEVEL gives a computer partner"
        return f"{who} no partner here: --computer LEVEL gives the computer as one"

    async def _accept(self, name: str) -> Outcome:
        record = self._copy.challenge_between(self._me.identity, name, side=1)
        if record is None:
            return Outcome(self._copy.no_challenge_from(self._me.identity, name))
        in_a_game = await self._in_a_game()
        if in_a_game:
            return Outcome(f"{in_a_game}; the challenge stays open")
        for person in record.people:
            entry = self._copy.entry_of(person)
            if entry is None:
                await self._end_challenge(
                    record,
                    f"{person.name} has left: the challenge to {record.choice.title} is withdrawn",
                )
                return Outcome(f"{person.name} has left: the challenge is withdrawn")
            if person.identity != self._me.identity and await self._playing(entry):
                return Outcome(f"{person.name} is playing now: accept once they are back")
        if not await challenges.close(self._hub, record.id):
            return Outcome("too late: the challenge was withdrawn")
        try:
            await seat(
                self._hub, self._open_table, record.choice, record.sides(self._me), self._rng
            )
        except AlreadySeated as why:
            title = record.choice.title
            await self._tell_others(record, f"{why}: the challenge to {title} is withdrawn")
            return Outcome(f"{self._sat_elsewhere(why)}: the challenge is withdrawn")
        except TableProblem as why:
            title = record.choice.title
            await self._tell_others(record, f"the table for {title} could not be opened: {why}")
            return Outcome(f"the table could not be opened: {why}")
        await self._stop_waiting()  # seated first: had it failed, they would wait on
        return Outcome()

    async def _decline(self, name: str) -> Outcome:
        record = self._copy.challenge_between(self._me.identity, name, side=1)
        if record is None:
            return Outcome(self._copy.no_challenge_from(self._me.identity, name))
        challenger = record.challengers[0].name
        if not await self._end_challenge(
            record, f"{self._me.name} declined your challenge to {record.choice.title}"
        ):
            return Outcome(f"{challenger}'s challenge was withdrawn already")
        return Outcome(f"you declined {challenger}'s challenge")

    async def _withdraw(self, name: str) -> Outcome:
        record = self._copy.challenge_between(self._me.identity, name, side=0)
        if record is None:
            return Outcome(f"you have no challenge out to {shown_word(name)}")
        challenged = record.challenged[0].name
        if not await self._end_challenge(
            record, f"{self._me.name} withdrew the challenge to {record.choice.title}"
        ):
            return Outcome(f"{challenged} answered first: the challenge is over")
        return Outcome(f"you withdrew your challenge to {challenged}")

    async def _end_challenge(self, record: ChallengeRecord, news: str) -> bool:
        """Closes ``record`` and tells everyone in it but the player ``news``; false if it
        was closed already."""
        if not await challenges.close(self._hub, record.id):
            return False
        await self._tell_others(record, news)
        return True

    async def _tell_others(self, record: ChallengeRecord, news: str) -> None:
        """Tells everyone in ``record`` but the player ``news``."""
        for person in record.people:
            if person.identity != self._me.identity:
                await notify(self._hub, person.sid, news)

    async def _in_a_game(self) -> str | None:
        """Why the player may not start a game now: one of theirs is in play, begun at
        this session or another."""
        table = await seated.table_of(self._hub, self._me.identity)
        if table is None:
            return None
        return f"you are playing game {table}: finish it first (watch {table} takes you back)"

    async def _playing(self, entry: Presence) -> bool:
        """Whether the person of ``entry`` plays now: seen at a table, or with a game in
        play (left for a moment, or begun at another session)."""
        if entry.doing == "playing":
            return True
        return await seated.table_of(self._hub, entry.identity) is not None

    def _sat_elsewhere(self, why: AlreadySeated) -> str:
        """``why`` a table was not opened, told to the player."""
        if why.identity == self._me.identity:
            return "you have just sat down at another game"
        return str(why)

    async def _play(self, choice: GameChoice, level: str) -> Outcome:
        in_a_game = await self._in_a_game()
        if in_a_game:
            return Outcome(in_a_game)
        mine: list[Sitter] = [self._me]
        if choice.players == 4:
            partner = self._copy.partner_of(self._me.sid)
            if partner and not await self._playing(partner[1]):
                mine.append(self._copy.seeker(partner))
            else:
                mine.append(level)
        theirs: list[Sitter] = [level] * (choice.players // 2)
        try:
            await seat(self._hub, self._open_table, choice, [mine, theirs], self._rng)
        except AlreadySeated as why:
            return Outcome(self._sat_elsewhere(why))
        except TableProblem as why:
            return Outcome(f"the table could not be opened: {why}")
        await self._stop_waiting()  # seated first: had it failed, they would wait on
        return Outcome()

    async def _watch(self, target: str) -> Outcome:
        await self._copy.read_tables(self._hub)
        if target.isdigit():
            listed = self._copy.tables.get(target)
            if listed is None:
                return Outcome(f"no game numbered {target} is in progress")
            table = listed.view
        else:
            found = self._copy.table_of(target)
            if isinstance(found, str):
                return Outcome(found)
            table = found
        what = " against ".join(" and ".join(side) for side in table.sides)
        await self._present(doing="watching", table=table.id, what=what, pool=None)
        return Outcome(table=table.id, watching=True)

    async def _say(self, text: str) -> Outcome:
        said = await chat.speak(
            self._hub,
            chat.LOBBY,
            chat.Speaker(self._me.name, self._me.identity),
            text,
            self._clock(),
            empty="say what? say TEXT sends TEXT to everyone in the lobby",
        )
        return Outcome(said if isinstance(said, str) else "")

    async def _mute(self, name: str) -> Outcome:
        known = self._copy.known_name(name)
        shown = known or shown_word(name)
        if folded(name) == folded(self._me.name):
            return Outcome("you cannot mute yourself")
        if folded(name) in self._copy.muted:
            return Outcome(f"{shown} is muted already: unmute {shown} shows their chat again")
        if known is None:
            return Outcome(f"no one called {shown} is here or in the chat")
        await self._set_muted(name, True)
        return Outcome(f"you no longer see {shown}'s chat: unmute {shown} shows it again")

    async def _unmute(self, name: str) -> Outcome:
        shown = self._copy.known_name(name) or shown_word(name)
        if folded(name) not in self._copy.muted:
            muted = ", ".join(sorted(self._copy.muted)) or "no one"
            return Outcome(f"{shown} is not muted: you mute {muted}")
        await self._set_muted(name, False)
        return Outcome(f"you see {shown}'s chat again")

    async def _set_muted(self, name: str, muted: bool) -> None:
        if muted:
            self._copy.muted.add(folded(name))
        else:
            self._copy.muted.discard(folded(name))
        await chat.set_muted(self._hub, self._me.identity, name, muted)
        self._tell(LobbyUpdate("chat"))

    # -- leaving and coming back -----------------------------------------------------------

    async def returned(self) -> None:
        """The player is back in the lobby from a table: still playing there, to the
        others, while their game goes on without them (their seat waits)."""
        table = await seated.table_of(self._hub, self._me.identity)
        state = None if table is None else await read_table(self._hub, table)
        if table is not None and state is not None:
            sides = [[holder.name for holder in side] for side in state.sides]
            await self.back_at(table, GameChoice(state.game, **state.options), sides)
            self._left_table = table
        else:
            await self._present(doing="lobby", table=None, what="")
        self._tell(LobbyUpdate("lobby"))

    async def back_at(self, table: str, choice: GameChoice, sides: list[list[str]]) -> None:
        """The player is back in their seat at ``table``, between ``sides`` (the names on
        each): the others see them playing there."""
        self._left_table = None
        what = playing_text(choice, sides, self._me.name)
        await self._present(doing="playing", table=table, what=what, pool=None)

    async def close(self) -> None:
        if self._pairing is not None:
            self._pairing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pairing
        for reader in self._readers:
            reader.cancel()
        for reader in self._readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        for subscription in self._subscriptions:
            await subscription.close()
        self._news.clear()
        await self._stop_waiting()
        last = not any(sid != self._me.sid for sid, _ in self._copy.sessions_of(self._me.identity))
        if last:
            for record in await challenges.open_challenges(self._hub):
                if any(person.identity == self._me.identity for person in record.people):
                    title = record.choice.title
                    left = f"{self._me.name} has left: the challenge to {title} is withdrawn"
                    await self._end_challenge(record, left)
        await self._end_partnering(last)
        await self._hub.map_delete(PEOPLE, self._me.sid)
        await tell_everyone(self._hub, "gone", sid=self._me.sid)

    async def _end_partnering(self, last: bool) -> None:
        """Tells the player's partner that they left; when this is their ``last`` session,
        everyone who asked them to partner is told to forget it (an ask to another session
        of theirs may still be answered), and the partner that they are partners again
        if the player comes back (a dropped connection must not part a team)."""
        partner = self._copy.partner_of(self._me.sid)
        if last and partner is not None:
            kept = pack({"name": partner[1].name})
            await self._hub.map_set(PARTNERS_AWAY, self._me.identity, kept)
        for sid, entry in list(self._copy.people.items()):
            if sid == self._me.sid or folded(entry.partner) != folded(self._me.name):
                continue
            if partner is not None and sid == partner[0]:
                if last:
                    back = "they are your partner again when they come back, unless you unpartner"
                    await notify(self._hub, sid, f"{self._me.name} has left: {back}")
                    continue
                text = f"{self._me.name} has left: you have no partner now"
            elif last:
                text = f"{self._me.name} has left: your invitation to partner them is withdrawn"
            else:
                continue
            if last:
                await tell_session(self._hub, sid, "unpartnered", name=self._me.name, text=text)
            else:
                await notify(self._hub, sid, text)

    # -- the hub ---------------------------------------------------------------------------

    async def _present(self, **changes: Any) -> None:
        """Changes the player's entry and tells everyone."""
        self._presence = replace(self._presence, **changes)
        self._copy.people[self._me.sid] = self._presence
        value = self._presence.to_map()
        await self._hub.map_set(PEOPLE, self._me.sid, pack(value))
        await tell_everyone(self._hub, "person", sid=self._me.sid, person=value)

    async def _read(
        self, subscription: Subscription, heard: Callable[[dict[str, Any]], Awaitable[None]]
    ) -> None:
        """Hands every message of ``subscription`` to ``heard``; after falling behind,
        reads everything again."""
        while True:
            try:
                message = await anext(subscription)
            except StopAsyncIteration:
                return
            except Lagged:
                await self._copy.read(self._hub, self._me.identity)
                self._tell(LobbyUpdate("lobby"))
                continue
            try:
                await heard(unpack(message))
            except (BadNews, KeyError, TypeError, ValueError) as why:
                log.warning("lobby news passed over: %s", why)

    async def _heard(self, news: dict[str, Any]) -> None:
        """News for every lobby."""
        self._copy.heard(news)
        if news["kind"] != "chat":
            self._tell(LobbyUpdate("lobby"))
        elif folded(news["line"]["name"]) not in self._copy.muted:
            self._tell(LobbyUpdate("chat"))

    async def _heard_table(self, news: dict[str, Any]) -> None:
        """A game in progress began, changed or ended; the game the player left ended
        without them (on time, say): they are in the lobby again, and told so."""
        if self._copy.heard_table(news):
            self._tell(LobbyUpdate("lobby"))
        left = self._left_table
        if left is None or str(news.get("id")) != left:
            return
        if await seated.table_of(self._hub, self._me.identity) is None:
            self._left_table = None
            await self._present(doing="lobby", table=None, what="")
            notice = await self._missed()
            if not notice:
                notice = f"your game {left} is over: profile {self._me.name} shows how it ended"
            self._tell(LobbyUpdate("notice", notice))

    async def _partner_again(self) -> str:
        """Makes the player partners again with whom they partnered when they left, if
        that person is here and still asks for them: what to tell the player ("" if not)."""
        kept = (await self._hub.map_all(PARTNERS_AWAY)).get(self._me.identity)
        if kept is None or not await self._hub.map_delete(PARTNERS_AWAY, self._me.identity):
            return ""  # nobody to come back to, or another session of theirs took it
        try:
            name = str(unpack(kept)["name"])
        except (BadNews, KeyError):
            return ""
        if not any(
            folded(entry.name) == folded(name)
            and folded(entry.partner) == folded(self._me.name)
            and entry.identity != self._me.identity
            for entry in self._copy.people.values()
        ):
            return ""
        await self._present(partner=name)
        found = self._copy.partner_of(self._me.sid)
        if found is None:
            return ""
        await notify(self._hub, found[0], f"{self._me.name} is back: your partner again")
        return f"{found[1].name} is your partner again: {TEAM_HINT}"

    async def _missed(self) -> str:
        """How the games that ended while the player was away ended, and where to see
        them, a line each (each told once); "" for none."""
        lines = []
        for game, line in await take_missed(self._hub, self._me.identity):
            number = None if self._archive is None else self._archive.number_of_game(game)
            shown = f"replay {number}" if number is not None else f"profile {self._me.name}"
            lines.append(f"{line}; {shown} shows it")
        return "\n".join(lines)

    async def _heard_mine(self, news: dict[str, Any]) -> None:
        """News for this session alone."""
        kind = news["kind"]
        if kind == "notice":
            self._tell(LobbyUpdate("notice", str(news["text"])))
        elif kind == "seated":
            await self._seated(
                str(news["table"]), GameChoice.from_key(str(news["game"])), news["sides"]
            )
        elif kind == "queued":
            choice = GameChoice.from_key(str(news["pool"]))
            people = tuple(Seeker.from_map(person) for person in news["people"])
            self._waiting = (choice, Waiter(people))
            if await seated.table_of(self._hub, self._me.identity) is not None:
                await self._stop_waiting()  # put back in the pool after sitting down
                return
            await self._present(doing="waiting", pool=choice.key, what=choice.title, table=None)
            self._tell(LobbyUpdate("notice", str(news["text"])))
        elif kind == "unpartnered":
            if folded(self._presence.partner) == folded(str(news["name"])):
                await self._present(partner=None)
            self._tell(LobbyUpdate("notice", str(news["text"])))
        elif kind == "unqueued":
            if self._waiting and self._waiting[0].key == news["pool"]:
                self._waiting = None
                await self._no_longer_waiting()
            self._tell(LobbyUpdate("notice", str(news["text"])))

    async def _seated(self, table: str, choice: GameChoice, sides: list[list[str]]) -> None:
        names = [[str(name) for name in side] for side in sides]
        await self._stop_waiting()  # seated by a challenge, or the computer, while waiting
        self._left_table = None
        what = playing_text(choice, names, self._me.name)
        await self._present(doing="playing", table=table, what=what, pool=None)
        self._tell(LobbyUpdate("seated", seated_text(choice, names, self._me.name), table))
