"""The lobby's chat: lines said to everyone, the last few kept for those who come later,
how fast each player may talk, and whom each player has muted.

* ``lobby:chat`` (key): the last :data:`KEPT` lines, appended by compare-and-set; each
  line has a number (``lobby:chat-numbers`` counter), so that one read both from there and
  from the news is shown once.
* ``lobby:chat-allowance:IDENTITY`` (key): how many lines the player may say at once now:
  :data:`BURST` at most, one more every :data:`REFILL` seconds, counted across all their
  sessions and every server process (the time is the wall clock, which they share).
* ``lobby:muted:IDENTITY`` (key): the names whose lines the player does not see, kept for
  their next visit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sixtui.server.hub import Hub, Versioned
from sixtui.server.lobby_news import BadNews, pack, tell_everyone, unpack, update_value

RECENT = "lobby:chat"
LINE_NUMBERS = "lobby:chat-numbers"
KEPT = 50
BURST = 5  # lines a player may say one after another
REFILL = 3.0  # seconds until one more line may be said


def allowance_key(identity: str) -> str:
    return f"lobby:chat-allowance:{identity}"


def muted_key(identity: str) -> str:
    return f"lobby:muted:{identity}"


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


async def say(hub: Hub, name: str, identity: str, text: str) -> SaidLine:
    """Keeps the line with the recent ones and tells every lobby."""
    line = SaidLine(await hub.next_number(LINE_NUMBERS), name, identity, text)

    def appended(stored: dict[str, Any] | None) -> dict[str, Any]:
        lines = list(stored["lines"]) if stored and isinstance(stored.get("lines"), list) else []
        return {"lines": [*lines, line.to_map()][-KEPT:]}

    await update_value(hub, RECENT, appended)
    await tell_everyone(hub, "chat", line=line.to_map())
    return line


async def recent_lines(hub: Hub) -> list[SaidLine]:
    stored = await hub.get(RECENT)
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
