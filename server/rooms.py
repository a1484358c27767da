"""Rooms: shared tables kept in the hub, changed only by intents, each change published.

A table is one versioned value in the hub (:class:`~sixtui.server.table_state.TableState`
as bytes). Whoever has an intent for it, in whichever server process, calls
:func:`submit`: the intent is checked against the state its sender saw and applied with
the rules engine (:mod:`sixtui.server.room_rules`), and the new state is stored with
compare-and-set at the next version, then published on the table's topic. Of two intents
made on one version exactly one is stored; the other is refused as stale. A refusal goes
back to its sender alone, as the return value, and changes nothing.

Hub names:

* ``table:ID``: the table's state (key);
* ``table:ID:news``: every new state of the table, as stored, and :data:`GONE` once the
  table is removed (topic);
* ``tables``: the counter that numbers tables;
* ``tables:live``: the tables whose match is in progress, by id, each a msgpack summary
  (game, options, names by side and the identities of those with an SSH key, time
  control, whether casual, status, wins, game number): the lobby's list of games to
  watch (map);
* ``tables:news``: every change to ``tables:live``, as a msgpack map of the table's
  ``id`` and its ``summary`` (nil once it left the list), so that lobbies keep their list
  without reading it again (topic);
* ``tables:ended``: the tables whose match is over or aborted, by id, each the wall-clock
  time it ended, in decimal (map); every table is in this list or the last;
* ``tables:of:IDENTITY``: the tables in progress where a person holds a seat, by id, for a
  player who comes back (map);
* ``games:ended`` and its news: every game that ends, for the archive
  (:mod:`sixtui.server.archiving`);
* ``seated:IDENTITY``: the game in play a person sits at (key):
  :mod:`sixtui.server.seated`. Taken for everyone at a table before a game begins there,
  given back as it ends: nobody plays two games at once.

Who follows a table, and how a table ends and leaves the hub: :mod:`sixtui.server.table_life`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import msgpack

from sixtui.rules import new_game
from sixtui.server import seated
from sixtui.server.archiving import hand_over
from sixtui.server.hub import Hub
from sixtui.server.intents import Intent, NotAnIntent
from sixtui.server.missed_games import note_missed
from sixtui.server.room_rules import Refusal, apply_intent, new_match
from sixtui.server.seated import AlreadySeated, Hold
from sixtui.server.settings import Settings
from sixtui.server.table_clock import Clock
from sixtui.server.table_state import SeatHolder, Sides, TableState, saved, table_key

TABLE_NUMBERS = "tables"
LIVE_TABLES = "tables:live"
TABLES_NEWS = "tables:news"
ENDED_TABLES = "tables:ended"
COMPUTER = "computer:"  # how the identities the computer seats are given begin
STALE = "the table has changed since you saw it: nothing was done, look again"
GONE = b"gone"  # the last news of a table: it was removed from the hub


def table_topic(table_id: str) -> str:
    return f"table:{table_id}:news"


async def list_live(hub: Hub, table_id: str, summary: bytes | None) -> None:
    """Lists the table among the games in progress with its ``summary`` (see
    :func:`summary`), or takes it off the list when ``summary`` is None, and tells the
    lobbies."""
    if summary is None:
        await hub.map_delete(LIVE_TABLES, table_id)
    else:
        await hub.map_set(LIVE_TABLES, table_id, summary)
    news = msgpack.packb({"id": table_id, "summary": summary})
    await hub.publish(TABLES_NEWS, cast(bytes, news))


def player_tables(identity: str) -> str:
    return f"tables:of:{identity}"


@dataclass(frozen=True)
class Applied:
    """The intent was carried out: the table is now ``state``."""

    state: TableState


@dataclass(frozen=True)
class Refused:
    """The intent was refused, for the reason in ``message``; nothing changed. ``stale``:
    only because the table had changed since its sender saw it."""

    message: str
    stale: bool = False


Outcome = Applied | Refused


class Keeper(Protocol):
    """What keeps a table's computer seats playing (see :mod:`sixtui.server.computer_seats`)."""

    def keep(self, table_id: str) -> None: ...


async def open_table(
    hub: Hub,
    game: str,
    options: Mapping[str, Any],
    sides: Sequence[Sequence[SeatHolder]],
    *,
    opener: int | None = None,
    reconnect_window: float = Settings.reconnect_window,
    computers: Keeper | None = None,
    rng: random.Random | None = None,
    clock: str | None = None,
    casual: bool = False,
) -> str:
    """Opens a table of ``game`` with ``options`` for two sides of one or two seat holders
    each (partners sit opposite: the side that opens a game plays seats 0 and 2) and
    returns its id.

    ``opener`` is the side that opens the first game; ``None`` draws it at random;
    ``clock`` is the time control of every game (``10+5``), if any; ``casual`` games
    are not rated. The
    stored sides are ordered so that side 0 opened the first game. Computer seats need
    ``computers``, which keeps them playing from this process. Raises
    :class:`ValueError` saying what is wrong with the game, options or sides, and
    :class:`~sixtui.server.seated.AlreadySeated` (opening nothing) when one of the people
    has a game in play elsewhere.
    """
    first = new_game(game, **options)
    ordered = _checked_sides(sides, first.players)
    if opener not in (None, 0, 1):
        raise ValueError(f"the opener is side 0 or 1, not {opener!r}")
    has_computers = any(holder.is_computer for side in ordered for holder in side)
    if has_computers and computers is None:
        raise ValueError("computer seats need something to keep them playing")
    first_side = (rng or random).randrange(2) if opener is None else opener
    if first_side == 1:
        ordered = (ordered[1], ordered[0])
    table_id = str(await hub.next_number(TABLE_NUMBERS))
    state = TableState(
        game=game,
        options=first.options(),
        sides=ordered,
        match=new_match(game),
        current=saved(first),
        version=1,
        window=reconnect_window,
        clock=Clock.parse(clock),
        casual=casual,
        since=time.time(),
    )
    if await hub.compare_and_set(table_key(table_id), 0, state.to_bytes()) is None:
        raise RuntimeError(f"table {table_id} exists already: its number was given twice")
    try:
        await seated.take(hub, Hold(table_id, state.version), state.people)
    except AlreadySeated:
        await hub.delete(table_key(table_id), state.version)  # never listed: no one knows it
        raise
    await _list(hub, table_id, None, state, time.time())
    if has_computers:
        assert computers is not None
        computers.keep(table_id)
    return table_id


def _checked_sides(sides: Sequence[Sequence[SeatHolder]], seats: int) -> Sides:
    """The sides as stored, each computer given an identity of its own at the table."""
    if len(sides) != 2 or any(len(side) * 2 != seats for side in sides):
        raise ValueError(f"this game seats two sides of {seats // 2}")
    if any(not isinstance(holder, SeatHolder) for side in sides for holder in side):
        raise ValueError("every seat is held by a SeatHolder")
    identities = [holder.identity for side in sides for holder in side if not holder.is_computer]
    if len(set(identities)) != len(identities):
        raise ValueError("a person holds one seat at a table")
    if any(identity.startswith(COMPUTER) for identity in identities if identity):
        raise ValueError(f"identities beginning {COMPUTER!r} are the computer's")
    return cast(
        Sides,
        tuple(
            tuple(
                SeatHolder(holder.name, f"{COMPUTER}{number}.{place}", holder.level)
                if holder.is_computer
                else holder
                for place, holder in enumerate(side)
            )
            for number, side in enumerate(sides)
        ),
    )


async def read_table(hub: Hub, table_id: str) -> TableState | None:
    """The table's state now, or ``None`` if there is no such table."""
    stored = await hub.get(table_key(table_id))
    return None if stored is None else TableState.from_bytes(stored.value)


async def submit(
    hub: Hub, table_id: str, data: bytes, clock: Callable[[], float] = time.time
) -> Outcome:
    """Carries out the intent in ``data`` at the table, or says why not; ``clock`` gives the
    wall-clock time (every server process shares it) that away players are timed by."""
    try:
        intent = Intent.from_bytes(data)
    except NotAnIntent as why:
        return Refused(str(why))
    stored = await hub.get(table_key(table_id))
    if stored is None:
        return Refused("there is no such table")
    if intent.version != stored.version:
        return Refused(STALE, stale=True)
    state = TableState.from_bytes(stored.value)
    now = clock()
    try:
        changed = apply_intent(state, intent, now)
    except Refusal as why:
        return Refused(str(why))
    if changed == state:
        return Applied(state)
    return await _store(hub, table_id, stored.version, state, changed, now)


async def _store(
    hub: Hub, table_id: str, version: int, before: TableState, after: TableState, now: float
) -> Outcome:
    """Stores ``after`` in place of ``before`` (at hub ``version``), publishes it and keeps
    the lists up to date; a game that begins takes the seats of everyone at the table
    first, and one that ends gives them back."""
    after = after.but(version=version + 1)
    taken: seated.Taken = []
    if after.status == "playing" and before.status != "playing":
        try:
            taken = await seated.take(hub, Hold(table_id, after.version), after.people)
        except AlreadySeated as why:
            if why.table == table_id:  # another request begins this game, or the last
                return Refused(STALE, stale=True)  # one's seats are being given back
            return Refused(f"{why}: the next game cannot begin")
    data = after.to_bytes()
    if await hub.compare_and_set(table_key(table_id), version, data) is None:
        await seated.give_back(hub, taken)
        return Refused(STALE, stale=True)
    await hub.publish(table_topic(table_id), data)
    await _list(hub, table_id, before, after, now)
    if before.status == "playing" and after.status != "playing":
        await seated.release(hub, table_id, [str(holder.identity) for holder in after.people])
        await hand_over(hub, table_id, after, now)
        await note_missed(hub, table_id, after, now)
    return Applied(after)


async def end_deserted(hub: Hub, table_id: str, now: float) -> None:
    """Ends the table if everyone who holds a seat there has gone (see
    :meth:`TableState.deserted`): a game in play is aborted, and a match between games
    ends where it stands."""
    while True:
        stored = await hub.get(table_key(table_id))
        if stored is None:
            return
        state = TableState.from_bytes(stored.value)
        if not state.deserted(now):
            return
        status = "aborted" if state.status == "playing" else "match-over"
        ended = state.but(status=status, draw_offer=None)
        outcome = await _store(hub, table_id, stored.version, state, ended, now)
        if not (isinstance(outcome, Refused) and outcome.stale):
            return


async def flag_if_due(hub: Hub, table_id: str, now: float) -> None:
    """Ends the game in play on time if the side to move's clock has run out: for a table
    whose screens are all gone, which would flag it themselves."""
    state = await read_table(hub, table_id)
    if state is None or state.status != "playing" or not state.people:
        return
    if state.clock is not None and state.clock.out_of_time(now) is not None:
        await _insist(hub, table_id, "flag", str(state.people[0].identity), lambda: now)


async def mark_away(
    hub: Hub, table_id: str, identity: str, clock: Callable[[], float] = time.time
) -> None:
    """Marks ``identity``'s seat away from now (its connection dropped)."""
    await _insist(hub, table_id, "away", identity, clock)


async def mark_gone(
    hub: Hub, table_id: str, identity: str, clock: Callable[[], float] = time.time
) -> None:
    """Marks ``identity``'s seat away for good (a guest, whose session has ended, never
    comes back): the others need not wait for them."""
    await _insist(hub, table_id, "gone", identity, clock)


async def mark_back(
    hub: Hub, table_id: str, identity: str, clock: Callable[[], float] = time.time
) -> None:
    """Clears ``identity``'s away mark: it is connected again."""
    await _insist(hub, table_id, "back", identity, clock)


async def _insist(
    hub: Hub, table_id: str, kind: str, identity: str, clock: Callable[[], float]
) -> Outcome:
    """Submits an intent that does not depend on what its sender saw, on whatever version
    the table is at, until it is not stale."""
    while True:
        stored = await hub.get(table_key(table_id))
        if stored is None:
            return Refused("there is no such table")
        intent = Intent(kind, stored.version, identity)  # type: ignore[arg-type]
        outcome = await submit(hub, table_id, intent.to_bytes(), clock)
        if not (isinstance(outcome, Refused) and outcome.stale):
            return outcome


# -- the lists ---------------------------------------------------------------------------


def summary(state: TableState) -> bytes:
    """What the list of live tables says of a table."""
    return cast(
        bytes,
        msgpack.packb(
            {
                "game": state.game,
                "options": dict(state.options),
                "sides": [[holder.name for holder in side] for side in state.sides],
                # whose ratings the lobby shows beside their names: those with an SSH key
                "rated": [
                    [str(holder.identity) if holder.keyed else None for holder in side]
                    for side in state.sides
                ],
                "clock": None if state.clock is None else state.clock.text,
                "casual": state.casual,
                "status": state.status,
                "wins": list(state.match.wins),
                "number": state.number,
            }
        ),
    )


async def _list(
    hub: Hub, table_id: str, before: TableState | None, after: TableState, now: float
) -> None:
    """Keeps the live tables, the ended ones and each person's tables up to date with a
    change made at wall-clock time ``now``."""
    was_in_progress = before is not None and before.in_progress
    if not after.in_progress:
        if was_in_progress:
            await list_live(hub, table_id, None)
            for holder in after.people:
                await hub.map_delete(player_tables(str(holder.identity)), table_id)
            await hub.map_set(ENDED_TABLES, table_id, repr(now).encode())
        return
    if before is not None and not was_in_progress:  # a rematch began
        await hub.map_delete(ENDED_TABLES, table_id)
    listed = summary(after)
    if before is None or not was_in_progress or summary(before) != listed:
        await list_live(hub, table_id, listed)
    if not was_in_progress:
        for holder in after.people:
            await hub.map_set(player_tables(str(holder.identity)), table_id, b"")
