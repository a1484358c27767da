"""What the app sees of online play, when a server runs it: the lobby, the shared tables,
and the table a player comes back to.

The interface never imports the server: a server implements :class:`Online` on its shared
state and hands it to the app (``SixtuiApp(online=...)``) for one player; the app opens
the lobby once the player's name is settled, and every table chosen there.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from sixtui.tui.lobby_session import LobbySession
from sixtui.tui.session import GameSession


class Online(ABC):
    """One player's way into online play. ``notice`` is a line the lobby shows them as
    they arrive ("" for none): a guest, say, is told what being a guest costs."""

    notice: str = ""

    @abstractmethod
    async def open_lobby(self, name: str) -> LobbySession:
        """Brings the player, called ``name``, into the lobby."""

    @abstractmethod
    async def join_table(self, table: str, watching: bool) -> GameSession:
        """The player at ``table``: in their seat if they hold one there, otherwise (when
        ``watching``) as a spectator. :class:`ValueError` saying why when it cannot be
        opened (the table is gone, say)."""

    @abstractmethod
    async def table_to_return_to(self) -> str | None:
        """The table the player left in the middle of a game and may go back to, if any:
        the app opens it at once, as the player comes."""

    @abstractmethod
    async def close(self) -> None:
        """The player has gone: their lobby is closed and the tables they sat at are told."""
