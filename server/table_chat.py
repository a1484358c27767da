"""The chat of one screen at a shared table, on the hub (the rooms are
:mod:`sixtui.server.chat`'s).

Players say their lines to the table's players' chat, which everyone at the table reads:
partners included, since in Six for four the rules forbid them hints, so that no channel
of their own is offered. Spectators read the players' chat too, and say theirs to the
spectators' chat, which only spectators read; the players never see it, while the game
runs or after (as at lichess, where the two chats stay apart). Lines of the players the
reader muted are left out. Chat never touches the table's state: a line said never makes
a turn being sent stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from sixtui.server import chat
from sixtui.server.chat import Room, SaidLine, Speaker
from sixtui.server.hub import Hub, Lagged, Subscription
from sixtui.server.lobby_news import BadNews, unpack
from sixtui.tui.chat import ChatLine

log = logging.getLogger("sixtui.server")

NOTHING_TO_SAY = "say what? type a line of chat, then Enter: nothing was sent"
NAMELESS = "you watch this table without a name: nothing was sent"


class TableChat:
    """The chats read at ``table_id`` from one screen, and the one written to: a player's
    (``spectator`` false) or a spectator's. ``speaker`` is who says the lines written
    from it (``None``: a spectator with no name, who reads and says nothing); ``heard``
    is called whenever a line comes that the screen shows.

    :meth:`start` begins reading; :meth:`close` stops.
    """

    def __init__(
        self,
        hub: Hub,
        table_id: str,
        speaker: Speaker | None,
        spectator: bool,
        heard: Callable[[], None],
    ) -> None:
        self._hub = hub
        self._speaker = speaker
        self._spectator = spectator
        self._heard = heard
        players, spectators = chat.players_chat(table_id), chat.spectators_chat(table_id)
        self._writes_to = spectators if spectator else players
        self._spectators_chat = spectators
        self._reads = (players, spectators) if spectator else (players,)
        self._lines: dict[int, tuple[SaidLine, Room]] = {}  # by number, shared by the rooms
        self._muted: set[str] = set()
        self._readers: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Reads the lines kept and follows the news of every chat read here."""
        # Subscribed before reading, so that nothing said in between goes unheard.
        subscriptions = [(self._hub.subscribe(room.topic), room) for room in self._reads]
        await self._read_mutes()
        for room in self._reads:
            await self._read_kept(room)
        self._readers = [
            asyncio.create_task(self._follow(subscription, room))
            for subscription, room in subscriptions
        ]

    async def close(self) -> None:
        readers, self._readers = self._readers, []
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    # -- reading ---------------------------------------------------------------------------

    @property
    def lines(self) -> tuple[ChatLine, ...]:
        """The lines shown here, oldest first."""
        return tuple(
            ChatLine(line.name, line.text, spectators=room == self._spectators_chat)
            for _, (line, room) in sorted(self._lines.items())
            if line.name.casefold() not in self._muted
        )

    @property
    def may_say(self) -> bool:
        return self._speaker is not None

    @property
    def readers(self) -> str:
        """Who reads the lines said from here."""
        if self._spectator:
            return "the spectators alone"
        return "everyone at the table"

    # -- saying ----------------------------------------------------------------------------

    async def say(self, text: str, now: float) -> str:
        """Says ``text`` at ``now`` in the chat written to from here: "" once said,
        otherwise why nothing was sent."""
        if self._speaker is None:
            return NAMELESS
        said = await chat.speak(
            self._hub, self._writes_to, self._speaker, text, now, empty=NOTHING_TO_SAY
        )
        if isinstance(said, str):
            return said
        self._keep(said, self._writes_to)
        return ""

    # -- inside ------------------------------------------------------------------------------

    async def _read_mutes(self) -> None:
        if self._speaker is not None:
            self._muted = await chat.muted_names(self._hub, self._speaker.identity)

    async def _read_kept(self, room: Room) -> None:
        for line in await chat.recent_lines(self._hub, room):
            self._lines.setdefault(line.number, (line, room))
        self._keep_newest()

    def _keep(self, line: SaidLine, room: Room) -> None:
        """Keeps ``line``, said in ``room``, and tells the screen, unless it is known
        already or said by someone muted here."""
        if line.number in self._lines:
            return
        self._lines[line.number] = (line, room)
        self._keep_newest()
        if line.name.casefold() not in self._muted:
            self._heard()

    def _keep_newest(self) -> None:
        for number in sorted(self._lines)[: -chat.KEPT]:
            del self._lines[number]

    async def _follow(self, subscription: Subscription, room: Room) -> None:
        """Keeps each line ``room``'s news brings, with the mutes as they are now (muted
        in the lobby a moment ago counts); after losing some, the room's kept lines."""
        try:
            while True:
                try:
                    news = unpack(await anext(subscription))
                    await self._read_mutes()
                    self._keep(SaidLine.from_map(news["line"]), room)
                except StopAsyncIteration:
                    return
                except Lagged:
                    await self._read_kept(room)
                    self._heard()
                except (BadNews, KeyError, TypeError) as why:
                    log.warning("table chat news passed over: %s", why)
        finally:
            await subscription.close()
