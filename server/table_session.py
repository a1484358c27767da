"""A shared table as one player's game screen sees it: a :class:`GameSession` with the hub
behind it.

The session never changes the game itself. It follows the table's topic and draws from
the state it is sent; what its player does becomes an intent, made on the version the
player saw, submitted to the room (:func:`sixtui.server.rooms.submit`). A refusal comes
back to this player alone: an :class:`~sixtui.rules.IllegalMove` for a turn, a "problem"
update otherwise. A spectator (no identity) follows the table and may do nothing.

Players chat with everyone at the table, and spectators among themselves as well
(:mod:`sixtui.server.table_chat`).

A player who joins a table where they were marked away is back; one who closes their
last session there while the match goes on is marked away, and the others see the time
they have to come back (the table's window) counted down (:mod:`sixtui.server.table_life`
counts the sessions).

The stones of a Connect6 or Game of 6 turn chosen on the board are staged here, shown
there, and sent together when the player confirms the whole turn; a turn typed whole is
sent as it is. Undo is not offered.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import cast

import msgpack

from sixtui.rules import Game, IllegalMove, Move
from sixtui.server import table_life
from sixtui.server.archive import both_sides_moved
from sixtui.server.archiving import archived_topic
from sixtui.server.chat import Speaker
from sixtui.server.durable import GameRecords
from sixtui.server.hub import Hub, Lagged, Subscription
from sixtui.server.intents import Intent, Kind
from sixtui.server.ratings import variant
from sixtui.server.rooms import (
    Applied,
    Outcome,
    Refused,
    mark_back,
    read_table,
    submit,
    table_topic,
)
from sixtui.server.table_chat import TableChat
from sixtui.server.table_state import GUEST, SeatHolder, TableState
from sixtui.tui.chat import ChatLine
from sixtui.tui.session import GameSession, Player, Update, checked_turn
from sixtui.tui.widgets.panel import names_of, verb_for

RESENDS = 3  # times a turn is sent again when only the table's offers or marks moved on
FLAG_LATE = 0.05  # seconds after the clock shows zero that a flag is sent: never early

Sides = tuple[tuple[Player, ...], tuple[Player, ...]]


def _players(state: TableState, ratings: Mapping[str, str]) -> Sides:
    """The table's players as the screen names them, with their ratings where known."""
    return cast(
        Sides,
        tuple(
            tuple(
                replace(holder.player, rating=ratings.get(str(holder.identity), ""))
                for holder in side
            )
            for side in state.sides
        ),
    )


class TableSession(GameSession):
    """One player (``identity``), or a spectator (``None``), at table ``table_id``; a
    spectator chats as ``watcher`` (a name and an identity), if given.

    Make it with :meth:`join`; :meth:`close` stops following the table.
    """

    shared = True

    def __init__(
        self,
        hub: Hub,
        table_id: str,
        identity: str | None,
        state: TableState,
        clock: Callable[[], float] = time.time,
        watcher: Speaker | None = None,
        archive: GameRecords | None = None,
    ) -> None:
        self._archive = archive
        self._ratings = _ratings_of(archive, state)
        super().__init__(_players(state, self._ratings), state.match)
        self.hub = hub
        self.table_id = table_id
        self.identity = identity
        self._clock = clock
        self._state = state
        self._game = state.load()
        self._staged: list[Move] = []
        self._shown = self._game  # the game with the staged moves on it
        self._sending = False
        self._following: asyncio.Task[None] | None = None
        seat = next((h for h in state.people if identity and h.identity == identity), None)
        speaker = watcher if seat is None else Speaker(seat.name, str(seat.identity))
        self._chat = TableChat(
            hub, table_id, speaker, spectator=seat is None, heard=self._chat_heard
        )
        self._subscription: Subscription | None = None
        self._archived_as: int | None = None  # the game's number in the archive, once there
        self._flag_timer: asyncio.TimerHandle | None = None  # when the running clock ends
        self._follower = ""  # this session's field among the table's followers

    @classmethod
    async def join(
        cls,
        hub: Hub,
        table_id: str,
        identity: str | None = None,
        clock: Callable[[], float] = time.time,
        watcher: Speaker | None = None,
        archive: GameRecords | None = None,
    ) -> TableSession:
        """Sits ``identity`` at the table (``None``: to watch, as ``watcher`` in the
        spectators' chat), back in their seat if they were away, and starts following it
        and its chat; :class:`ValueError` if there is no such table. With the server's
        ``archive``, the players' ratings show beside their names, and move as each
        game is archived."""
        subscription = hub.subscribe(table_topic(table_id))  # first, to miss nothing
        archived = hub.subscribe(archived_topic(table_id)) if archive is not None else None
        follower = await table_life.follow(hub, table_id, identity)
        state = await read_table(hub, table_id)
        if state is None:
            await subscription.close()
            if archived is not None:
                await archived.close()
            await table_life.leave(hub, table_id, follower, identity, clock)
            raise ValueError(f"game {table_id} is over and gone")
        session = cls(hub, table_id, identity, state, clock, watcher, archive)
        session._follower, session._subscription = follower, subscription
        session._following = asyncio.create_task(session._follow(subscription, archived))
        session._watch_the_clock()
        await session._chat.start()
        if identity is not None and identity in state.away:
            await mark_back(hub, table_id, identity, clock)
        return session

    # -- reading -----------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        """The table as last received."""
        return self._state

    @property
    def game(self) -> Game:
        return self._shown

    @property
    def _recorded(self) -> bool:
        return self._state.recorded

    @property
    def may_move(self) -> bool:
        return (
            self._state.status == "playing"
            and not self._sending
            and self.identity is not None
            and self._state.holder_at(self._game.to_move).identity == self.identity
        )

    @property
    def may_undo(self) -> bool:
        return False

    @property
    def resigning_seat(self) -> int | None:
        if self.identity is None or self._state.status != "playing":
            return None
        seats = self._state.seats_of(self.identity)
        if self._game.to_move in seats:
            return self._game.to_move
        return seats[0] if seats else None

    @property
    def thinking(self) -> bool:
        state = self._state
        return state.status == "playing" and state.holder_at(self._game.to_move).is_computer

    @property
    def own_seats(self) -> tuple[int, ...]:
        return () if self.identity is None else tuple(self._state.seats_of(self.identity))

    @property
    def staged(self) -> tuple[Move, ...]:
        return tuple(self._staged)

    @property
    def draw_offered_by(self) -> int | None:
        return self._state.draw_offer

    @property
    def may_offer_draw(self) -> bool:
        state = self._state
        return self._own_side is not None and state.status == "playing" and state.draw_offer is None

    @property
    def next_asked_by(self) -> tuple[int, ...]:
        return self._state.asked

    @property
    def away(self) -> dict[str, float]:
        state, now = self._state, self._clock()
        return {
            holder.name: max(0.0, state.away[holder.identity] + state.window - now)
            for side in state.sides
            for holder in side
            if holder.identity in state.away
        }

    @property
    def terms(self) -> str:
        """ "rated", or why the table's games are not, then its time control; without an
        archive (where no game is rated), the time control alone."""
        state = self._state
        clock = "" if state.clock is None else state.clock.text
        return " · ".join(part for part in (self._counts(), clock) if part)

    def _counts(self) -> str:
        """Whether the table's games are rated, in a word or a few: "" without an archive."""
        state = self._state
        if self._archive is None:
            return ""
        if state.casual:
            return "casual"
        if any(holder.is_computer for side in state.sides for holder in side):
            return "unrated: the computer plays"
        if not all(holder.keyed for holder in state.people):
            return "unrated: a guest plays"
        return "rated"

    @property
    def unrated_why(self) -> str:
        game = self._game
        if self._counts() != "rated" or not game.is_over or both_sides_moved(game):
            return ""
        return "Not rated: the game ended before each side had played a turn."

    @property
    def archived_as(self) -> int | None:
        return self._archived_as

    def clock_left(self, side: int) -> float | None:
        clock = self._state.clock
        return None if clock is None else clock.left_now(side, self._clock())

    def clock_runs(self, side: int) -> bool:
        clock = self._state.clock
        return clock is not None and clock.running == side

    @property
    def _own_side(self) -> int | None:
        return None if self.identity is None else self._state.side_of(self.identity)

    @property
    def chat_lines(self) -> tuple[ChatLine, ...]:
        return self._chat.lines

    @property
    def may_chat(self) -> bool:
        return self._chat.may_say

    @property
    def chat_readers(self) -> str:
        return self._chat.readers

    # -- acting ------------------------------------------------------------------------

    async def play_turn(self, moves: Sequence[Move | str]) -> None:
        if not self.may_move:
            raise IllegalMove(self._why_not_moving())
        turn = checked_turn(self._game, [*self._staged, *moves])
        trial = _played(self._game, turn)
        if not trial.is_over and trial.to_move == self._game.to_move:
            self._staged, self._shown = turn, trial
            self._tell(Update("moves", tuple(turn[len(turn) - len(moves) :])))
            return
        self._staged, self._shown = [], self._game
        outcome = await self._send("turn", tuple(str(move) for move in turn))
        if isinstance(outcome, Refused):
            self._tell(Update("moves"))  # the staged stones go from the board
            raise IllegalMove(outcome.message)

    @property
    def turn_ready(self) -> bool:
        return bool(self._staged) and (
            self._shown.is_over or self._shown.to_move != self._game.to_move
        )

    async def stage(self, move: Move | str) -> None:
        if self._game.name == "six" or self.turn_ready:
            await self.play_turn([move])  # a Six move is one step, chosen in two already
            return
        if not self.may_move:
            raise IllegalMove(self._why_not_moving())
        turn = checked_turn(self._game, [*self._staged, move])
        self._staged, self._shown = turn, _played(self._game, turn)
        self._tell(Update("moves", (turn[-1],)))

    async def confirm_turn(self) -> None:
        if not self._staged:
            raise IllegalMove("there is no turn waiting to be sent")
        if not self.turn_ready:
            raise IllegalMove("the turn is not whole yet: place the rest of it first")
        await self.play_turn([])

    async def clear_turn(self) -> None:
        if self._staged:
            self._staged, self._shown = [], self._game
            self._tell(Update("moves"))

    async def undo(self) -> None:
        raise IllegalMove("moves are not taken back at an online table")

    async def say(self, text: str) -> str:
        return await self._chat.say(text, self._clock())

    async def resign(self) -> None:
        await self._act("resign")

    async def next_game(self) -> None:
        if self._state.status == "playing":
            raise ValueError("the game in play has not ended")
        if self._state.status == "match-over":
            raise ValueError("the match is over")
        number = self._state.number
        outcome = await self._send("next-game")
        if isinstance(outcome, Refused) and self._state.number == number:
            self._tell(Update("problem", text=outcome.message))

    async def offer_draw(self) -> None:
        await self._act("offer-draw")

    async def answer_draw(self, accept: bool) -> None:
        await self._act("accept-draw" if accept else "decline-draw")

    async def rematch(self) -> None:
        await self._act("rematch")

    async def claim_win(self) -> None:
        await self._act("claim")

    @property
    def barely_begun(self) -> bool:
        return self._state.turns < 2

    async def abort(self) -> None:
        await self._act("abort")

    @property
    def aborted(self) -> bool:
        return self._state.status == "aborted"

    @property
    def closed(self) -> bool:
        return self._following is None

    async def close(self) -> None:
        """Stops following the table; a player who holds a seat there while the match
        goes on (a game in play, or one over and the next to come) is marked away, once
        no other session of theirs follows it."""
        task, self._following = self._following, None
        if task is None:
            return
        if self._flag_timer is not None:
            self._flag_timer.cancel()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await self._chat.close()
        if self._subscription is not None:  # a task cancelled before it began never closes it
            await self._subscription.close()
        self._news.clear()
        await table_life.leave(self.hub, self.table_id, self._follower, self.identity, self._clock)

    # -- inside ------------------------------------------------------------------------

    def _why_not_moving(self) -> str:
        status = self._state.status
        if status == "aborted":
            return "the game was aborted"
        if status != "playing":
            return "the game is over"
        if self.identity is None:
            return "you are watching this table"
        if self._sending:
            return "your turn is on its way to the table"
        return f"wait: it is {self._state.holder_at(self._game.to_move).name}'s turn"

    async def _act(self, kind: Kind) -> None:
        """Sends ``kind``; a refusal is told to this player's screen as a problem."""
        outcome = await self._send(kind)
        if isinstance(outcome, Refused):
            self._tell(Update("problem", text=outcome.message))

    async def _send(self, kind: Kind, moves: tuple[str, ...] = ()) -> Outcome:
        """Submits an intent made on the version seen. When it is refused as stale but the
        game is where the player saw it (only an offer or a mark changed), it is sent
        again on the new version."""
        if self.identity is None:
            return Refused("you are watching this table")
        seen = self._state
        self._sending = True
        try:
            for _ in range(RESENDS):
                intent = Intent(kind, self._state.version, self.identity, moves)
                outcome = await submit(self.hub, self.table_id, intent.to_bytes(), self._clock)
                if isinstance(outcome, Applied):
                    self._sending = False  # the screen told of it may act on it at once
                    self._receive(outcome.state)
                    return outcome
                if not outcome.stale:
                    return outcome
                now = await read_table(self.hub, self.table_id)
                if now is None:
                    return Refused("the table is gone")
                self._receive(now)
                if (now.current, now.number, now.status) != (
                    seen.current,
                    seen.number,
                    seen.status,
                ):
                    return outcome
            return outcome
        finally:
            self._sending = False

    async def _follow(self, subscription: Subscription, archived: Subscription | None) -> None:
        """Takes in each state the topic brings; after losing some (a backlog too long) or
        a message that is no state, the table as it is now; and the games archived."""
        hearing = None if archived is None else asyncio.create_task(self._hear_archive(archived))
        try:
            while True:
                try:
                    self._receive(TableState.from_bytes(await anext(subscription)))
                except StopAsyncIteration:
                    return
                except (Lagged, ValueError):
                    state = await read_table(self.hub, self.table_id)
                    if state is not None:
                        self._receive(state)
        finally:
            await subscription.close()
            if hearing is not None:
                hearing.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await hearing
            if archived is not None:
                await archived.close()

    async def _hear_archive(self, archived: Subscription) -> None:
        """Tells the game's number in the archive as it is kept there, and shows each
        player's new rating, saying how it moved."""
        while True:
            try:
                news = msgpack.unpackb(await anext(archived))
            except StopAsyncIteration:
                return
            except Exception:  # a lost backlog, or a message that is no news of the archive
                news = None
            self._ratings = _ratings_of(self._archive, self._state)
            self.sides = _players(self._state, self._ratings)
            said = ""
            if isinstance(news, dict) and type(news.get("number")) is int:
                self._archived_as = news["number"]
                ratings = news.get("ratings")
                said = _archive_news(self._state, news["number"], ratings)
            self._tell(Update("table", text=said))

    def _chat_heard(self) -> None:
        self._tell(Update("chat"))

    def _watch_the_clock(self) -> None:
        """A player at the table flags the side to move the moment its time is up, in
        case nobody else does first (its own player included: the server decides)."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        clock = self._state.clock
        if clock is None or clock.running is None or self.identity is None or self.closed:
            return
        delay = max(0.0, clock.left_now(clock.running, self._clock())) + FLAG_LATE
        loop = asyncio.get_running_loop()
        self._flag_timer = loop.call_later(delay, lambda: loop.create_task(self.flag()))

    async def flag(self) -> bool:
        """Ends the game if the side to move's time is up; whether it did."""
        clock = self._state.clock
        if (
            clock is None
            or clock.out_of_time(self._clock()) is None
            or self._state.status != "playing"
        ):
            return False
        return isinstance(await self._send("flag"), Applied)

    def _receive(self, state: TableState) -> None:
        """Takes in a newer state of the table and tells the screen what changed."""
        before = self._state
        if state.version <= before.version:
            return
        self._state = state
        if state.clock != before.clock:
            self._watch_the_clock()
        self.sides, self.match = _players(state, self._ratings), state.match
        if state.current == before.current:
            self._table_news(before, state)
            return
        known = self._game.history if state.number == before.number else None
        self._game = state.load()
        self._staged, self._shown = [], self._game
        if known is None:
            self._archived_as = None
            self._tell(Update("new-game"))
            return
        added = tuple(self._game.history[len(known) :])
        if added:
            self._tell(Update("moves", added))
        if state.recorded and not before.recorded:
            self._tell(Update("over"))

    def _table_news(self, before: TableState, after: TableState) -> None:
        """Tells the screen of a change at the table that left the game as it was."""
        if after.status == "aborted" and before.status != "aborted":
            self._tell(Update("problem", text="the game was aborted: it counts for nobody"))
            return
        said = _news(before, after, self._own_side)
        if said:
            self._tell(Update("table", text=said))


def _ratings_of(archive: GameRecords | None, state: TableState) -> dict[str, str]:
    """Each rated player's rating at the table's game, as shown: those with an SSH key."""
    if archive is None:
        return {}
    kind = variant(state.game, state.options)
    return {
        str(holder.identity): archive.rating(str(holder.identity), kind).label
        for holder in state.people
        if holder.keyed
    }


def _archive_news(state: TableState, number: int, changes: object) -> str:
    """The game's number in the archive and how it moved its players' ratings, in words.

    >>> from sixtui.rules import Match
    >>> from sixtui.server.table_state import SeatHolder
    >>> state = TableState("connect6", {"size": 9}, ((SeatHolder("ann", "k1"),),
    ...     (SeatHolder("bob", "k2"),)), Match(), b"")
    >>> _archive_news(state, 12, {"k1": [1500, 1611], "k2": [1500, 1389]})
    'archived as #12 (replay 12 in the lobby); ratings: ann 1611 (+111), bob 1389 (-111)'
    >>> _archive_news(state, 13, {})
    'archived as #13 (replay 13 in the lobby)'
    """
    kept = f"archived as #{number} (replay {number} in the lobby)"
    moved = []
    for holder in state.people:
        change = changes.get(holder.identity) if isinstance(changes, dict) else None
        if isinstance(change, list) and len(change) == 2 and all(type(n) is int for n in change):
            before, after = change
            moved.append(f"{holder.name} {after} ({after - before:+d})")
    return f"{kept}; ratings: {', '.join(moved)}" if moved else kept


def _played(game: Game, moves: Sequence[Move]) -> Game:
    """A copy of ``game`` with ``moves`` played on it: what a staged turn shows."""
    trial = game.copy()
    for move in moves:
        trial.play(move)
    return trial


def _news(before: TableState, after: TableState, own_side: int | None) -> str:
    """What changed at the table, in words, for a player of ``own_side`` (``None``: one
    who watches)."""
    if after.draw_offer is not None and before.draw_offer is None:
        if after.draw_offer == own_side:
            return "you offer a draw: the other side accepts or declines it"
        return _said_of(after.sides[after.draw_offer], "offer", "a draw")
    if before.draw_offer is not None and after.draw_offer is None and after.status == "playing":
        declining = 1 - before.draw_offer  # with a key or by playing on
        if declining == own_side:
            return "you declined the draw"
        return _said_of(after.sides[declining], "decline", "the draw")
    if len(after.asked) > len(before.asked):
        what = "a rematch" if after.status == "match-over" else "the next game"
        if after.asked[-1] == own_side:
            return f"you asked for {what}: now the other side"
        answer = ": n agrees" if own_side is not None else ""
        return _said_of(after.sides[after.asked[-1]], "ask", f"for {what}{answer}")
    gone = _newly_in(after.away, before.away, after)
    if gone and after.status != "playing":
        return f"{gone} left the table"
    if gone and all(who.startswith(GUEST) for who in set(after.away) - set(before.away)):
        return f"{gone} left the table, and a guest cannot come back"
    if gone:
        return f"{gone} left the table: waiting for them to come back"
    back = _newly_in(before.away, after.away, after)
    if back:
        return f"{back} came back"
    return ""


def _newly_in(now: Mapping[str, float], then: Mapping[str, float], state: TableState) -> str:
    """The names of the players in ``now`` and not in ``then``, in words."""
    holders = [holder for side in state.sides for holder in side]
    return " and ".join(h.name for h in holders if h.identity in now and h.identity not in then)


def _said_of(holders: Sequence[SeatHolder], verb: str, rest: str) -> str:
    players = [holder.player for holder in holders]
    return f"{names_of(players)} {verb_for(players, verb)} {rest}"
