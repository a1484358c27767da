"""Games that ended while a player was away, told to them when they are back in the lobby.

A game may end without one of its players: the other side claims it after the player's
connection dropped, their clock runs out while they are gone, or the server stopped and
started again. Each player with a key who was away as it ended finds a line about it in
the hub map ``games:missed`` (a field ``IDENTITY TABLE/NUMBER`` each), which their next
lobby reads, tells them, and takes out. A line nobody came back for is taken out after
:data:`KEPT` by the sweeper (:func:`forget_old`), so the map holds no more than the
games that ended lately. Guests are left out: a guest who is gone never comes back.

>>> from sixtui.rules import new_game
>>> game = new_game("connect6", size=9)
>>> for point in ["E5", "A1", "A2"]:
...     game.play(point)
>>> game.forfeit(0)
>>> missed_line(game, team=0, opponents="bob", status="game-over")
'while you were away, your Connect6 game against bob ended: you lost (left the game)'
"""

from __future__ import annotations

import msgpack

from sixtui.rules import Game
from sixtui.server.hub import Hub
from sixtui.server.table_state import TableState
from sixtui.tui.widgets.panel import DRAWN_BY, LOST_BY, WON_BY, table_title

MISSED = "games:missed"
KEPT = 7 * 24 * 3600.0  # seconds a line waits for its player to come back
TITLE_WIDTH = 60  # room enough for any game's whole title


def missed_line(game: Game, team: int, opponents: str, status: str) -> str:
    """What ``game``, ended, did for ``team``, said to one of its players."""
    ended = f"while you were away, your {table_title(game, TITLE_WIDTH)} game against {opponents}"
    result = game.result
    if status == "aborted" or result is None:
        return f"{ended} was aborted: it counts for nobody"
    if result.winner is None:
        return f"{ended} ended: a draw ({DRAWN_BY[result.reason]})"
    if result.winner == team:
        return f"{ended} ended: you won ({WON_BY[result.reason]})"
    how = LOST_BY.get(result.reason, WON_BY[result.reason])
    return f"{ended} ended: you lost ({how})"


async def note_missed(hub: Hub, table_id: str, state: TableState, now: float) -> None:
    """Keeps, for each player with a key away from table ``table_id`` as its game ended
    (``state``, as stored, at ``now``), a line saying how it ended."""
    game = state.load()
    for side, holders in enumerate(state.sides):
        team = state.side_of_team(side)  # a side's team: the same mapping either way
        opponents = " and ".join(holder.name for holder in state.sides[1 - side])
        for holder in holders:
            if holder.keyed and holder.identity in state.away:
                line = missed_line(game, team, opponents, state.status)
                entry = msgpack.packb({"line": line, "ended": now})
                where = f"{holder.identity} {table_id}/{state.number}"
                await hub.map_set(MISSED, where, entry)


async def take_missed(hub: Hub, identity: str) -> list[tuple[str, str]]:
    """The lines kept for ``identity``, each with its game (``TABLE/NUMBER``), oldest
    first, taken out of the hub: each is told once."""
    taken = []
    for field_name, value in (await hub.map_all(MISSED)).items():
        who, _, game = field_name.partition(" ")
        if who != identity or not await hub.map_delete(MISSED, field_name):
            continue  # another's, or taken by another session of theirs
        try:
            entry = msgpack.unpackb(value)
            taken.append((float(entry["ended"]), game, str(entry["line"])))
        except (ValueError, KeyError, TypeError, msgpack.UnpackException):
            continue
    return [(game, line) for _, game, line in sorted(taken)]


async def forget_old(hub: Hub, now: float) -> None:
    """Takes out the lines kept longer than :data:`KEPT` (and any that cannot be read)."""
    for field_name, value in (await hub.map_all(MISSED)).items():
        try:
            ended = float(msgpack.unpackb(value)["ended"])
        except (ValueError, KeyError, TypeError, msgpack.UnpackException):
            ended = None
        if ended is None or ended + KEPT <= now:
            await hub.map_delete(MISSED, field_name)
