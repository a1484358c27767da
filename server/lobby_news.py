"""How the lobby's news travels through the hub: every value is a msgpack map, and every
message names its ``kind``.

``lobby:news`` (topic) carries what every lobby session shows: people coming, changing
what they do and going, pools, challenges, chat. ``lobby:to:SID`` (topic) carries what is
for one session alone: a notice for its player, a pool they wait in or no longer do.
``lobby:person:IDENTITY`` (topic) carries what is for every session of one person: a seat
at a table, which each of their sessions opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import msgpack

from sixtui.server.hub import Hub

NEWS = "lobby:news"
SESSION_NUMBERS = "lobby:sessions"  # counter: each lobby session's number, its id


class BadNews(ValueError):
    """A value or message that is not what the lobby stores: read from a hub that another
    version of the server wrote, say. It is passed over, never trusted."""


def pack(value: dict[str, Any]) -> bytes:
    return cast(bytes, msgpack.packb(value))


def unpack(data: bytes) -> dict[str, Any]:
    """The map ``data`` holds; :class:`BadNews` if it holds anything else."""
    try:
        value = msgpack.unpackb(data)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as why:
        raise BadNews(f"not msgpack: {why}") from None
    if not isinstance(value, dict):
        raise BadNews(f"a map was expected, not {type(value).__name__}")
    return value


def session_topic(sid: str) -> str:
    return f"lobby:to:{sid}"


def person_topic(identity: str) -> str:
    return f"lobby:person:{identity}"


async def tell_everyone(hub: Hub, kind: str, **fields: Any) -> None:
    await hub.publish(NEWS, pack({"kind": kind, **fields}))


async def tell_session(hub: Hub, sid: str, kind: str, **fields: Any) -> None:
    await hub.publish(session_topic(sid), pack({"kind": kind, **fields}))


async def tell_person(hub: Hub, identity: str, kind: str, **fields: Any) -> None:
    """Tells every lobby session of the person ``identity``."""
    await hub.publish(person_topic(identity), pack({"kind": kind, **fields}))


async def notify(hub: Hub, sid: str, text: str) -> None:
    """Tells the player at session ``sid`` ``text``."""
    await tell_session(hub, sid, "notice", text=text)


async def update_value(
    hub: Hub, key: str, change: Callable[[dict[str, Any] | None], dict[str, Any]]
) -> dict[str, Any]:
    """Stores ``change`` of the map at ``key`` (``None`` when there is none, or none that
    can be read) and returns what was stored; tried again on the newer value whenever
    another process changed it in between."""
    while True:
        stored = await hub.get(key)
        try:
            current = None if stored is None else unpack(stored.value)
        except BadNews:
            current = None
        changed = change(current)
        version = 0 if stored is None else stored.version
        if await hub.compare_and_set(key, version, pack(changed)) is not None:
            return changed
