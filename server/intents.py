"""What a player asks of a table, as the msgpack bytes a session sends to the room.

An intent names what it asks (``do``), the table version its sender saw (``v``) and who
sends it (``by``: the identity of a seat holder). A turn carries its moves' notation.

>>> data = Intent("turn", 3, "SHA256:abc", ("K10", "L10")).to_bytes()
>>> Intent.from_bytes(data)
Intent(kind='turn', version=3, identity='SHA256:abc', moves=('K10', 'L10'))
>>> Intent.from_bytes(b"hello")
Traceback (most recent call last):
...
sixtui.server.intents.NotAnIntent: that is not a request the table understands
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast, get_args

import msgpack

Kind = Literal[
    "turn",  # the moves of one whole turn, all or none
    "resign",
    "offer-draw",
    "accept-draw",
    "decline-draw",
    "next-game",  # of the series or match
    "rematch",  # asks for a new match; asked by both sides, it begins
    "away",  # the sender's connection dropped
    "back",  # the sender is here again
    "gone",  # the sender has left for good (a guest's session ended): no time to come back
    "claim",  # the win, when the other side has been away past the window
    "abort",  # the game, likewise, while fewer than two turns were played
    "flag",  # the game, when the side to move's time is up
]
KINDS: tuple[Kind, ...] = get_args(Kind)
MAX_INTENT_BYTES = 2048
MAX_MOVES = 4  # more than any turn of any game holds
MAX_NOTATION = 40  # characters of one move's notation


class NotAnIntent(ValueError):
    """Bytes that are not an intent; the message says so in plain words."""


@dataclass(frozen=True)
class Intent:
    kind: Kind
    version: int
    identity: str
    moves: tuple[str, ...] = ()

    def to_bytes(self) -> bytes:
        fields: dict[str, object] = {"do": self.kind, "v": self.version, "by": self.identity}
        if self.moves:
            fields["moves"] = list(self.moves)
        return cast(bytes, msgpack.packb(fields))

    @classmethod
    def from_bytes(cls, data: bytes) -> Intent:
        """The intent in ``data``; :class:`NotAnIntent` saying what is wrong otherwise."""
        if not isinstance(data, bytes | bytearray) or len(data) > MAX_INTENT_BYTES:
            raise NotAnIntent("that is not a request the table understands")
        try:
            fields = msgpack.unpackb(data, raw=False, strict_map_key=True)
        except Exception:  # msgpack raises many types for damaged data
            raise NotAnIntent("that is not a request the table understands") from None
        if not isinstance(fields, dict):
            raise NotAnIntent("that is not a request the table understands")
        kind, version, identity = fields.get("do"), fields.get("v"), fields.get("by")
        if kind not in KINDS:
            raise NotAnIntent(f"the table does not know what {kind!r} asks for")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise NotAnIntent("the request does not say which state of the table it was made on")
        if not isinstance(identity, str) or not identity:
            raise NotAnIntent("the request does not say who sends it")
        return cls(cast(Kind, kind), version, identity, _moves(kind, fields.get("moves")))


def _moves(kind: object, moves: object) -> tuple[str, ...]:
    if kind != "turn":
        if moves is not None:
            raise NotAnIntent(f"only a turn carries moves, not {kind}")
        return ()
    if not isinstance(moves, list) or not moves:
        raise NotAnIntent("a turn needs a move")
    if len(moves) > MAX_MOVES:
        raise NotAnIntent(f"no turn holds {len(moves)} moves")
    if not all(isinstance(move, str) and len(move) <= MAX_NOTATION for move in moves):
        raise NotAnIntent("a turn's moves are written as text, like K10 or 0,0>1,1")
    return tuple(moves)
