"""asyncssh's private names that the server relies on (server/asyncssh_internals.py) still
do what it needs of them. When an asyncssh release changes one, the test that fails says
which and what for."""

import asyncssh
from asyncssh.constants import MSG_USERAUTH_REQUEST
from asyncssh.packet import SSHPacket, String

from sixtui.server.asyncssh_internals import explain_bad_user_names, keep_environment


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
