"""asyncssh's private names that the server relies on (server/asyncssh_internals.py) still
do what it needs of them. When an asyncssh release changes one, the test that fails says
which and what for."""

import asyncio
import contextlib

import asyncssh
from asyncssh.constants import MSG_USERAUTH_REQUEST
from asyncssh.packet import SSHPacket, String

from sixtui.server.asyncssh_internals import (
    GatedListener,
    explain_bad_user_names,
    keep_environment,
)


def changed(what: str, needed_for: str) -> str:
    return (
        f"asyncssh {asyncssh.__version__} changed {what}, which the server needs {needed_for}: "
        "update server/asyncssh_internals.py and the list in docs/operations.md"
    )


def test_a_server_channel_keeps_only_the_environment_it_is_told_to():
    why = "to keep only the environment variables it uses"
    channel = object.__new__(asyncssh.SSHServerChannel)
    channel._logger = asyncssh.logging.logger
    keep_environment(channel, ["COLORTERM"], longest=9)
    for name, value in ((b"COLORTERM", b"truecolor"), (b"LANG", b"C"), (b"COLORTERM", b"x" * 10)):
        channel._process_env_request(SSHPacket(String(name) + String(value)))
    assert dict(channel.get_environment_bytes()) == {b"COLORTERM": b"truecolor"}, changed(
        "SSHServerChannel._env or _process_env_request", why
    )


def test_userauth_requests_go_through_the_connections_packet_handlers():
    why = "to explain a user name asyncssh cannot take"
    handlers = asyncssh.SSHServerConnection._packet_handlers
    assert MSG_USERAUTH_REQUEST in handlers, changed("SSHServerConnection._packet_handlers", why)

    class Connection:
        _packet_handlers = handlers

    connection = Connection()
    explain_bad_user_names(connection, "explained")
    assert connection._packet_handlers is not handlers  # the class's own stay as they were
    assert set(connection._packet_handlers) == set(handlers)


async def first_bytes(port: int) -> bytes:
    """What a raw TCP client hears first from the server on ``port``: nothing, if closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    heard = b""
    with contextlib.suppress(ConnectionError):
        async with asyncio.timeout(10):
            heard = await reader.readline()
    writer.close()
    return heard


async def test_asyncssh_listens_through_the_gated_listener_it_is_given():
    why = "to close a connection over the rate before asyncssh builds anything for it"
    asked: list[str] = []

    def admit(peer: str) -> bool:
        asked.append(peer)
        return len(asked) > 1  # the first is turned away

    acceptor = await asyncssh.create_server(
        asyncssh.SSHServer,
        "127.0.0.1",
        0,
        server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")],
        tunnel=GatedListener(admit),
    )
    try:
        port = acceptor.sockets[0].getsockname()[1]
        assert await first_bytes(port) == b""
        assert (await first_bytes(port)).startswith(b"SSH-2.0-"), changed(
            "how create_server listens through a tunnel (_TunnelListenerProtocol)", why
        )
        assert asked == ["127.0.0.1", "127.0.0.1"]
    finally:
        acceptor.close()
        await acceptor.wait_closed()
