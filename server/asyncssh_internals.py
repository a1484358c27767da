"""The few private names of asyncssh that the server cannot do without, each used only here.

asyncssh offers no public way to do what these do (docs/operations.md says why each is
needed). tests/test_server_asyncssh_internals.py checks every one against the installed
asyncssh and fails, saying what changed, when a release renames or moves one of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

import asyncssh
from asyncssh.constants import MSG_USERAUTH_REQUEST

__all__ = ["GatedListener", "explain_bad_user_names", "keep_environment"]


class _KeptEnvironment(dict[bytes, bytes]):
    """A channel's environment that keeps only the variables named, with short values."""

    def __init__(self, names: Iterable[str], longest: int) -> None:
        super().__init__()
        self._names = frozenset(name.encode() for name in names)
        self._longest = longest

    def __setitem__(self, name: bytes, value: bytes) -> None:
        if name in self._names and len(value) <= self._longest:
            super().__setitem__(name, value)


def keep_environment(
    channel: asyncssh.SSHServerChannel, names: Iterable[str], longest: int
) -> None:
    """Of the environment variables the client sends on ``channel``, keeps only those in
    ``names`` whose values have at most ``longest`` bytes. asyncssh keeps every one in
    ``SSHServerChannel._env`` (3,000 of 30 KB each grew the server by 167 MB), with no
    setting to choose."""
    channel._env = _KeptEnvironment(names, longest)


Handler = Callable[..., Any]


def explain_bad_user_names(connection: asyncssh.SSHServerConnection, explanation: str) -> None:
    """Ends ``connection`` with ``explanation`` when the client sends a user name asyncssh
    cannot take (not UTF-8, too long, or with characters SASLprep refuses, such as emoji),
    rather than with asyncssh's own words ("Unassigned character"). asyncssh refuses it in
    the handler of its userauth requests, before any method of the server is called."""
    handlers: dict[int, Handler] = dict(connection._packet_handlers)
    take_request = handlers[MSG_USERAUTH_REQUEST]

    def explaining(*arguments: Any) -> Any:
        try:
            return take_request(*arguments)
        except asyncssh.IllegalUserName:
            raise asyncssh.IllegalUserName(explanation) from None

    handlers[MSG_USERAUTH_REQUEST] = explaining
    connection._packet_handlers = handlers


class _Gate(asyncio.Protocol):
    """A new connection's first protocol: asks whether its address may come in, and
    either closes it or hands it to the protocol asyncssh makes for it."""

    def __init__(
        self, make: Callable[[str, int], asyncio.BaseProtocol], admit: Callable[[str], bool]
    ) -> None:
        self._make = make
        self._admit = admit

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        host, port, *_ = transport.get_extra_info("peername") or ("?", 0)
        if not self._admit(str(host)):
            transport.abort()
            return
        protocol = self._make(str(host), port)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)


class GatedListener:
    """Listens for asyncssh (given as ``asyncssh.create_server``'s ``tunnel``), asking
    ``admit`` about the address of each new connection before asyncssh builds anything
    for it, and closing at once those it refuses.

    asyncssh makes a whole connection (some 20 objects in cycles, which only the garbage
    collector frees, and its version line sent) before the server's first method is
    called: a client connecting in a loop left that much garbage 300 times a second, and
    the collections that freed it paused every player for 15 to 60 ms. Its listener
    offers no hook before that, but it listens through any object with the
    ``create_server`` of its tunnel listeners (``_TunnelListenerProtocol``): this one
    listens on TCP itself.
    """

    def __init__(self, admit: Callable[[str], bool], reuse_port: bool = False) -> None:
        self._admit = admit
        self._reuse_port = reuse_port  # several server processes share the port

    async def create_server(
        self, session_factory: Callable[[str, int], Any], listen_host: str, listen_port: int
    ) -> asyncio.Server:
        """What asyncssh calls to listen: ``session_factory(host, port)`` makes the
        connection from that address."""
        return await asyncio.get_running_loop().create_server(
            lambda: _Gate(session_factory, self._admit),
            listen_host,
            listen_port,
            reuse_port=self._reuse_port or None,
        )
