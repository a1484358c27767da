"""Chat on the hub: lines said in a room (the lobby, a table's players, a table's
spectators), the last few kept for those who come later, how fast each player may talk,
and whom each player has muted.

Each :class:`Room` keeps its last :data:`KEPT` lines in one key, appended by
compare-and-set, and tells each new line on a topic (a msgpack map ``{"kind": "chat",
"line": ...}``). Every line has a number from the room's counter, so that one read both
from the key and from the news is shown once.

* The lobby's: ``lobby:chat`` (key), numbered by ``lobby:chat-numbers`` (counter), told on
  ``lobby:news`` (topic) with the rest of the lobby's news.
* A table's players': ``table:ID:chat`` (key), told on ``table:ID:chat-news`` (topic).
* A table's spectators': ``table:ID:spectators-chat`` (key), told on
  ``table:ID:spectators-chat-news`` (topic). The two chats of a table share one counter,
  ``table:ID:chat-numbers``, so that a spectator, who reads both, reads their lines in
  the order they were said. Tables are kept for good (the rooms never remove one), and so
  are their chats.
* ``chat:allowance:IDENTITY`` (key): how many lines the player may say at once now, in
  any room: :data:`BURST` at most, one more every :data:`REFILL` seconds, counted across
  all their sessions and every server process (the time is the wall clock, which they
  share). They are one person typing, wherever they type.
* ``chat:muted:IDENTITY`` (key): the names whose lines the player does not see, in any
  room, kept for their next visit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sixtui.server.hub import Hub, Versioned
from sixtui.server.lobby_news import NEWS, BadNews, pack, unpack, update_value
from sixtui.tui.field_lengths import CHAT_LINE
from sixtui.tui.lobby_commands import chat_too_long
from sixtui.tui.player_text import printable

KEPT = 50
BURST = 5  # lines a player may say one after another
REFILL = 3.0  # seconds until one more line may be said


@dataclass(frozen=True)
class Room:
    """A chat: the key that keeps its last lines, the counter that numbers them, and the
    topic that tells each new one."""

    key: str
    numbers: str
    topic: str


LOBBY = Room("lobby:chat", "lobby:chat-numbers", NEWS)


def players_chat(table_id: str) -> Room:
    """The chat of the players at table ``table_id``, which its spectators read too."""
    return Room(f"table:{table_id}:chat", _table_numbers(table_id), f"table:{table_id}:chat-news")


def spectators_chat(table_id: str) -> Room:
    """The chat of the spectators at table ``table_id``, which its players never see."""
    key = f"table:{table_id}:spectators-chat"
    return Room(key, _table_numbers(table_id), f"{key}-news")


def _table_numbers(table_id: str) -> str:
    return f"table:{table_id}:chat-numbers"


def allowance_key(identity: str) -> str:
    return f"chat:allowance:{identity}"


def muted_key(identity: str) -> str:
    return f"chat:muted:{identity}"


@dataclass(frozen=True)
class Speaker:
    """Who says a line: the name shown with it, and the person (``identity``) whose
    allowance it uses."""

    name: str
    identity: str


@dataclass(frozen=True)
class SaidLine:
    """A line of chat, its text already printable."""

    number: int
    name: str
    identity: str
    text: str

    def to_map(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "identity": self.identity,
            "text": self.text,
        }

    @classmethod
    def from_map(cls, value: dict[str, Any]) -> SaidLine:
        try:
            return cls(
                int(value["number"]), str(value["name"]), str(value["identity"]), str(value["text"])
            )
        except (KeyError, TypeError, ValueError) as why:
            raise BadNews(f"not a line of chat: {why}") from None


async def speak(
    hub: Hub, room: Room, speaker: Speaker, text: str, now: float, *, empty: str
) -> SaidLine | str:
    """Says ``text``, made printable, in ``room`` when it is a line that may be said and
    ``speaker`` may say one at ``now``; otherwise why not (``empty`` for a line with
    nothing to show), and nothing is said."""
    line = printable(text).strip()
    if not line:
        return empty
    if len(line) > CHAT_LINE:
        return chat_too_long(len(line))
    wait = await wait_before_saying(hub, speaker.identity, now)
    if wait > 0:
        return f"slow down: you may say another line in {math.ceil(wait)} s"
    return await say(hub, room, speaker, line)


async def say(hub: Hub, room: Room, speaker: Speaker, text: str) -> SaidLine:
    """Keeps the line with the room's recent ones and tells everyone who reads the room."""
    line = SaidLine(await hub.next_number(room.numbers), speaker.name, speaker.identity, text)

    def appended(stored: dict[str, Any] | None) -> dict[str, Any]:
        lines = list(stored["lines"]) if stored and isinstance(stored.get("lines"), list) else []
        return {"lines": [*lines, line.to_map()][-KEPT:]}

    await update_value(hub, room.key, appended)
    await hub.publish(room.topic, pack({"kind": "chat", "line": line.to_map()}))
    return line


async def recent_lines(hub: Hub, room: Room) -> list[SaidLine]:
    """The room's last lines, oldest first (those that can be read)."""
    stored = await hub.get(room.key)
    if stored is None:
        return []
    lines = []
    try:
        for value in unpack(stored.value).get("lines", []):
            lines.append(SaidLine.from_map(value))
    except (BadNews, AttributeError):
        return lines
    return lines


async def wait_before_saying(hub: Hub, identity: str, now: float) -> float:
    """0 if the player may say a line now (and one of their allowance is used), otherwise
    how many seconds until they may (and nothing is changed)."""
    key = allowance_key(identity)
    while True:
        stored = await hub.get(key)
        left = _allowance_left(stored, now)
        if left < 1:
            return (1 - left) * REFILL
        version = 0 if stored is None else stored.version
        if await hub.compare_and_set(key, version, pack({"left": left - 1, "at": now})):
            return 0.0


def _allowance_left(stored: Versioned | None, now: float) -> float:
    """The lines a player may say at ``now``, by the allowance stored at ``stored``."""
    if stored is None:
        return BURST
    try:
        allowance = unpack(stored.value)
        return min(BURST, float(allowance["left"]) + (now - float(allowance["at"])) / REFILL)
    except (BadNews, KeyError, TypeError, ValueError):
        return BURST  # an allowance that cannot be read starts again


async def muted_names(hub: Hub, identity: str) -> set[str]:
    """The names (folded to lower case) the player muted."""
    stored = await hub.get(muted_key(identity))
    if stored is None:
        return set()
    try:
        return {str(name) for name in unpack(stored.value).get("names", [])}
    except (BadNews, TypeError, AttributeError):
        return set()


async def set_muted(hub: Hub, identity: str, name: str, muted: bool) -> None:
    """Mutes ``name`` for the player, or no longer."""
    folded = name.casefold()

    def changed(stored: dict[str, Any] | None) -> dict[str, Any]:
        names = set(stored.get("names", [])) if stored else set()
        names = names | {folded} if muted else names - {folded}
        return {"names": sorted(names)}

    await update_value(hub, muted_key(identity), changed)
