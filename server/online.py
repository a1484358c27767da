"""Online play on the hub for one SSH session: the lobby, the tables its player sits at or
watches, and the table they come back to after their connection dropped.

A person is known by an identity: their key's fingerprint, the same at every login, so
that a player who comes back with the same key finds their seat; or, for a guest, one of
their own session, which no later login has.
"""

from __future__ import annotations

from sixtui.server.chat import Speaker
from sixtui.server.durable import GameRecords
from sixtui.server.hub import Hub
from sixtui.server.lobby import HubLobby
from sixtui.server.rooms import mark_gone, player_tables, read_table
from sixtui.server.seating import OpenTable
from sixtui.server.table_session import TableSession
from sixtui.server.table_state import GUEST
from sixtui.tui.lobby_commands import GameChoice
from sixtui.tui.lobby_session import LobbySession
from sixtui.tui.online import Online
from sixtui.tui.session import GameSession

GUEST_NOTICE = "A guest who drops out cannot come back to the game: an SSH key lets you."


def guest_identity(name: str) -> str:
    """The identity of the guest called ``name`` (a name no other session has)."""
    return f"{GUEST}{name}"


class HubOnline(Online):
    """The player ``identity``'s way into online play on ``hub``; ``open_table`` opens
    the tables the lobby seats them at (the rooms', with this server's settings); the
    games that ended are read from ``archive``."""

    def __init__(
        self, hub: Hub, identity: str, open_table: OpenTable, archive: GameRecords | None = None
    ) -> None:
        self._hub = hub
        self._archive = archive
        self._identity = identity
        self._open_table = open_table
        self._lobby: HubLobby | None = None
        self._tables: list[TableSession] = []
        if identity.startswith(GUEST):
            self.notice = GUEST_NOTICE

    async def open_lobby(self, name: str) -> LobbySession:
        if self._lobby is not None:
            await self._lobby.close()
        self._lobby = await HubLobby.open(
            self._hub, name, self._identity, self._open_table, archive=self._archive
        )
        return self._lobby

    async def join_table(self, table: str, watching: bool) -> GameSession:
        state = await read_table(self._hub, table)
        if state is None:
            raise ValueError(f"game {table} is over and gone")
        seated = state.side_of(self._identity) is not None
        if not seated and not watching:
            raise ValueError(f"you hold no seat in game {table}")
        if seated:
            session = await TableSession.join(
                self._hub, table, self._identity, archive=self._archive
            )
        else:
            watcher = None if self._lobby is None else Speaker(self._lobby.name, self._identity)
            session = await TableSession.join(
                self._hub, table, watcher=watcher, archive=self._archive
            )
        self._tables = [*(kept for kept in self._tables if not kept.closed), session]
        if self._identity in state.away and self._lobby is not None:
            names = [[holder.name for holder in side] for side in state.sides]
            await self._lobby.back_at(table, GameChoice(state.game, **state.options), names)
        return session

    async def table_to_return_to(self) -> str | None:
        """The newest table where the player has a game in play: one they left as their
        connection dropped, or one they play at another terminal (the same key logged in
        twice is at the same tables)."""
        held = await self._hub.map_all(player_tables(self._identity))
        for table in sorted(held, key=lambda table: (len(table), table), reverse=True):
            state = await read_table(self._hub, table)
            if state is not None and state.status == "playing":
                return table
        return None

    def in_a_game(self) -> bool:
        """Whether the player sits at a game in play, as last heard."""
        return any(
            not session.closed and session.own_seats and session.state.status == "playing"
            for session in self._tables
        )

    async def close(self) -> None:
        if self._identity.startswith(GUEST):  # no later login is this guest
            for table in await self._hub.map_all(player_tables(self._identity)):
                await mark_gone(self._hub, table, self._identity)
        tables, self._tables = self._tables, []
        for session in tables:
            await session.close()
        lobby, self._lobby = self._lobby, None
        if lobby is not None:
            await lobby.close()
