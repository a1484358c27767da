"""From a table's last move to the archive: games that end wait in a hub queue, and an
:class:`Archivist` in each server process writes them to the archive as they come.

The rooms put every game that ends (finished or aborted) in the queue, in the step that
stores its end (:func:`hand_over`), and publish a word on a topic so that archivists need
not poll. An entry leaves the queue only once its game is written, and the archive keeps
each game's entry name as its origin and writes no origin twice: a process killed
between the two, or two archivists reading the same entry, never loses a game nor writes
one twice.

Hub names:

* ``games:ended`` (queue): the games to archive, one member each (the table, the game's
  number there, the table's version and a random part: never the same twice), valued with a msgpack
  map: the game (``Game.to_bytes()``), its seats (name, identity, level each), its
  status (``finished`` or ``aborted``), when it ended, whether it was casual, and the
  seconds each move took (a turn's with its last move);
* ``games:ended:news`` (topic): a word each time one joins the queue;
* ``games:archived:TABLE`` (topic): once a game of the table is archived, its number in
  the archive and, when it was rated, each player's rating before and after it: a msgpack
  map ``{"number": N, "ratings": {identity: [before, after]}}``, ratings as shown.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid
from datetime import UTC, datetime
from typing import Any

import msgpack

from sixtui.rules import Game, GameDataError, load_game, new_game
from sixtui.server.archive import AlreadyArchived, Archived, Ended
from sixtui.server.background import BackgroundTask
from sixtui.server.durable import GameRecords
from sixtui.server.hub import Hub, Lagged, Subscription
from sixtui.server.table_state import SeatHolder, TableState
from sixtui.tui.player_text import printable

log = logging.getLogger(__name__)

ENDED_GAMES = "games:ended"
ENDED_NEWS = "games:ended:news"


def archived_topic(table_id: str) -> str:
    """Where the games of ``table_id`` are told as they are archived: their numbers there,
    and the ratings they moved."""
    return f"games:archived:{table_id}"


class NotAnEndedGame(ValueError):
    """A queue entry that does not describe a game that ended."""


async def hand_over(hub: Hub, table_id: str, state: TableState, now: float) -> None:
    """Puts the game that just ended at table ``table_id`` (``state``, as stored) in the
    queue of games to archive, and tells the archivists."""
    game = load_game(state.current)
    seats = [state.holder_at(seat) for seat in range(game.players)]
    entry = {
        "game": state.current,
        "seats": [[holder.name, holder.identity, holder.level] for holder in seats],
        "status": "aborted" if state.status == "aborted" else "finished",
        "ended": now,
        "table": table_id,
        "casual": state.casual,
        "times": _move_times(game, state.took),
        "clock": None if state.clock is None else state.clock.text,
    }
    member = f"{table_id}/{state.number}/{state.version}/{uuid.uuid4().hex[:12]}"
    await hub.queue_join(ENDED_GAMES, member, msgpack.packb(entry))
    await hub.publish(ENDED_NEWS, b"")


def _move_times(game: Game, took: tuple[float, ...]) -> list[float | None]:
    """The seconds each move of ``game`` took: a turn's time goes with its last move (its
    moves are sent together), none with the others."""
    replay = new_game(game.name, **game.options())
    times: list[float | None] = []
    turn = 0
    for move in game.history:
        seat = replay.to_move
        replay.play(move)
        ends_turn = replay.is_over or replay.to_move != seat
        times.append(round(took[turn], 1) if ends_turn and turn < len(took) else None)
        turn += ends_turn
    return times


def ended_from(data: bytes) -> Ended:
    """The game a queue entry describes; :class:`NotAnEndedGame` saying what is wrong."""
    try:
        entry: Any = msgpack.unpackb(data)
        game = load_game(entry["game"])
        seats = tuple(
            SeatHolder(*(str(part) if part else None for part in seat)) for seat in entry["seats"]
        )
        status = entry["status"]
        ended = float(entry["ended"])
        datetime.fromtimestamp(ended, UTC)  # a time that can be written
    except (
        OverflowError,
        OSError,
        GameDataError,
        KeyError,
        TypeError,
        ValueError,
        msgpack.UnpackException,
    ) as why:
        raise NotAnEndedGame(f"not a game that ended: {why}") from None
    if status not in ("finished", "aborted") or len(seats) != game.players:
        raise NotAnEndedGame("not a game that ended: its status or seats are wrong")
    if any(not seat.name for seat in seats):
        raise NotAnEndedGame("not a game that ended: a seat has no name")
    when = datetime.fromtimestamp(ended, UTC)
    headers = {"Site": "sixtui", "Date": f"{when:%Y-%m-%d}", "Time": f"{when:%H:%M:%S}"}
    if isinstance(entry.get("clock"), str):
        headers["Clock"] = printable(entry["clock"])
    table, casual = str(entry.get("table", "")), entry.get("casual") is True
    times = entry.get("times", [])
    if not isinstance(times, list) or len(times) > len(game.history):
        raise NotAnEndedGame("not a game that ended: its moves' times are wrong")
    if not all(seconds is None or isinstance(seconds, int | float) for seconds in times):
        raise NotAnEndedGame("not a game that ended: a move's time is not a number")
    return Ended(
        game, seats, ended, status=status, casual=casual, times=times, headers=headers, table=table
    )


class Archivist:
    """Writes the games that end to ``archive`` as they come, from :meth:`start` until
    :meth:`close`."""

    def __init__(self, hub: Hub, archive: GameRecords) -> None:
        self._hub = hub
        self._archive = archive
        self._background = BackgroundTask("archivist", self._keep_archiving)
        self._news: Subscription | None = None

    def start(self) -> None:
        """Archives from now on (the games waiting first); once started, started."""
        if not self._background.started:
            self._news = self._hub.subscribe(ENDED_NEWS)
            self._background.start()

    async def close(self) -> None:
        """Stops, once the game being written (if any) is in: none is half-written."""
        if self._news is not None:
            await self._news.close()
        await self._background.close(cancel=False)  # the closed news ends it

    async def _keep_archiving(self) -> None:
        news = self._news
        assert news is not None
        while True:
            await self.archive_waiting()
            try:
                await anext(news)
            except Lagged:  # many ended at once: the queue still holds every one of them
                continue
            except StopAsyncIteration:  # closed
                return

    async def archive_waiting(self) -> list[Archived]:
        """Writes every game waiting in the queue; a damaged entry is logged and dropped."""
        written = []
        while waiting := await self._hub.queue_list(ENDED_GAMES):
            member, data = waiting[0].member, waiting[0].value
            try:
                ended = dataclasses.replace(ended_from(data), origin=member)
                archived = self._archive.add(ended)
            except AlreadyArchived:  # by another archivist, or before a kill
                await self._hub.queue_leave(ENDED_GAMES, member)
                continue
            except NotAnEndedGame as why:
                log.warning("archive: entry %s dropped: %s", member, why)
                await self._hub.queue_leave(ENDED_GAMES, member)
                continue
            except Exception:
                log.exception("archive: the game %s could not be written", member)
                await self._hub.queue_leave(ENDED_GAMES, member)
                continue
            await self._hub.queue_leave(ENDED_GAMES, member)
            written.append(archived)
            if ended.table:
                ratings = {c.identity: [c.before, c.after] for c in archived.changes}
                news = {"number": archived.id, "ratings": ratings}
                await self._hub.publish(archived_topic(ended.table), msgpack.packb(news))
        return written
