"""Sessions on one connection: each runs a whole game interface, so they are limited per
connection and count against every limit on connections; a connection with no session
left is let go; the client's environment is kept only where it is used."""

import asyncio
import logging

import asyncssh
import pytest

from sixtui.server import session as sessions_module
from sixtui.server.session import LARGEST_TERMINAL, NO_COMMANDS, NO_TERMINAL
from support.ssh_client import LOBBY, TIMEOUT, Screen, connect, read_until


async def in_lobby(connection, **options):
    """A terminal session on ``connection``, once it shows the lobby."""
    process = await connection.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding="utf-8", **options
    )
    await read_until(process, LOBBY)
    return process


async def quit_session(process) -> None:
    process.stdin.write("q")
    async with asyncio.timeout(TIMEOUT):
        await process.wait_closed()


async def still_open(connection, seconds: float) -> bool:
    """Whether ``connection`` is still open ``seconds`` from now."""
    try:
        async with asyncio.timeout(seconds):
            await connection.wait_closed()
    except TimeoutError:
        return True
    return False


async def closed_by_the_server(connection) -> None:
    async with asyncio.timeout(TIMEOUT):
        await connection.wait_closed()


# -- sessions per connection, and in every limit -------------------------------------------


async def test_the_sessions_of_one_connection_are_limited_and_a_place_frees_up(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(max_per_connection=2)
    async with connect(port) as connection:
        first, second = await in_lobby(connection), await in_lobby(connection)
        with pytest.raises(asyncssh.ChannelOpenError, match="at most 2 sessions on one connection"):
            await in_lobby(connection)
        assert "why=at most 2 sessions on one connection" in caplog.text
        await quit_session(first)
        third = await in_lobby(connection)  # the first one's place is free again
        for process in (second, third):
            await quit_session(process)


async def test_many_sessions_at_once_on_one_connection_get_no_more_than_the_limit(serve):
    port = await serve(max_per_connection=3)
    async with connect(port) as connection:

        async def one():
            try:
                return await in_lobby(connection)
            except asyncssh.ChannelOpenError:
                return None

        opened = [
            process for process in await asyncio.gather(*(one() for _ in range(30))) if process
        ]
        assert len(opened) == 3
        assert len(sessions_module.live_apps()) == 3


async def test_sessions_count_against_the_limit_per_address(serve):
    port = await serve(max_per_ip=3, max_per_connection=10)
    async with connect(port) as connection:
        for _ in range(3):
            await in_lobby(connection)
        with pytest.raises(asyncssh.ChannelOpenError, match=r"too many sessions from 127\.0\.0\.1"):
            await in_lobby(connection)
        with pytest.raises(
            asyncssh.DisconnectError, match=r"too many connections from 127\.0\.0\.1"
        ):
            async with connect(port):
                pass


async def test_sessions_count_against_the_limit_per_key_and_other_keys_still_come_in(serve):
    port = await serve(max_per_key=2, max_per_connection=10)
    key, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    async with connect(port, client_keys=[key]) as connection:
        for _ in range(2):
            await in_lobby(connection)
        with pytest.raises(asyncssh.ChannelOpenError, match="too many sessions with this key"):
            await in_lobby(connection)
        async with connect(port, client_keys=[other], username="bob") as another:
            await in_lobby(another)


async def test_sessions_count_against_the_limit_in_all(serve):
    port = await serve(max_connections=3, max_per_connection=10)
    async with connect(port) as connection:
        for _ in range(3):
            await in_lobby(connection)
        with pytest.raises(asyncssh.ChannelOpenError, match="the server is full"):
            await in_lobby(connection)
        with pytest.raises(asyncssh.DisconnectError, match="the server is full"):
            async with connect(port):
                pass


async def test_the_places_of_ended_sessions_and_connections_are_given_back(serve):
    port = await serve(max_connections=2, max_per_connection=2)
    for _ in range(3):  # each round needs every place the one before it took
        async with connect(port) as connection:
            for process in [await in_lobby(connection), await in_lobby(connection)]:
                await quit_session(process)
    async with connect(port), connect(port):
        pass


async def test_sessions_are_counted_as_they_open_and_end_and_bare_connections_not(serve):
    """What the collector watches: a connection that opens no session builds no game
    interface, and must not count as a player gone (it would call a reclaim, a pause of
    every player, for every few dozen connections of a scanner)."""
    port = await serve(max_per_connection=2)
    counts = serve.shared[port].counts
    async with connect(port):  # logged in, no session
        pass
    _, writer = await asyncio.open_connection("127.0.0.1", port)  # not even SSH
    writer.close()
    await writer.wait_closed()
    async with connect(port) as connection:
        first, second = await in_lobby(connection), await in_lobby(connection)
        assert (counts.sessions_opened, counts.sessions_ended) == (2, 0)
        await quit_session(first)
        await quit_session(second)
    async with asyncio.timeout(TIMEOUT):
        while counts.total:  # the connections' places given back, all of them
            await asyncio.sleep(0.01)
    assert (counts.sessions_opened, counts.sessions_ended) == (2, 2)


# -- a connection with no session left -----------------------------------------------------


async def test_a_connection_is_let_go_once_its_session_had_no_terminal(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(session_grace=0.5)
    async with connect(port) as connection:
        process = await connection.create_process(encoding="utf-8")
        assert await process.stderr.read() == NO_TERMINAL
        await closed_by_the_server(connection)
    assert "why=no session left" in caplog.text


async def test_a_connection_is_let_go_once_its_command_was_refused(serve):
    port = await serve(session_grace=0.5)
    async with connect(port) as connection:
        ran = await connection.run("ls", encoding="utf-8")
        assert ran.stderr == NO_COMMANDS.format(how=f"ssh -p {port} HOST")
        with pytest.raises(asyncssh.SFTPError):
            await connection.start_sftp_client()
        await closed_by_the_server(connection)


async def test_a_connection_is_let_go_once_its_player_was_dropped_for_idling(serve):
    port = await serve(idle_timeout=1.0, idle_warning=0.5, session_grace=0.5)
    async with connect(port) as connection:
        process = await in_lobby(connection)
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
        await closed_by_the_server(connection)


async def test_a_session_opened_within_the_grace_keeps_the_connection(serve):
    grace = 1.0
    port = await serve(session_grace=grace)
    async with connect(port) as connection:
        await quit_session(await in_lobby(connection))
        await asyncio.sleep(grace / 2)
        process = await in_lobby(connection)  # as a shared OpenSSH connection opens another
        assert await still_open(connection, 2 * grace)
        await quit_session(process)
        await closed_by_the_server(connection)


async def test_a_connection_that_opens_no_session_is_let_go_after_the_grace(serve):
    port = await serve(session_grace=0.5)
    async with connect(port) as connection:  # ssh -N: logged in, and nothing more
        await closed_by_the_server(connection)
    async with connect(port) as connection:  # a session opened in time stays
        process = await in_lobby(connection)
        assert await still_open(connection, 1.5)
        await quit_session(process)


# -- what the client sends about itself ----------------------------------------------------


async def test_only_the_variables_colors_are_chosen_from_are_kept(server):
    sent = {f"JUNK{number}": "x" * 10_000 for number in range(50)}
    sent |= {"COLORTERM": "truecolor", "NO_COLOR": "y" * 1000, "LANG": "C.UTF-8"}
    async with connect(server) as connection:
        process = await in_lobby(connection, env=sent)
        (terminal,) = sessions_module._LIVE
        assert dict(terminal._channel.get_environment()) == {"COLORTERM": "truecolor"}
        await quit_session(process)


async def test_a_huge_terminal_is_drawn_on_at_the_largest_size_and_kept(server):
    async with connect(server) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(2000, 2000), encoding="utf-8"
        )
        await read_until(process, LOBBY)  # not dropped as a reader that fell behind
        (app,) = sessions_module.live_apps()
        assert tuple(app.size) == LARGEST_TERMINAL
        process.change_terminal_size(3000, 100)
        async with asyncio.timeout(TIMEOUT):
            while tuple(app.size) != (LARGEST_TERMINAL[0], 100):
                await asyncio.sleep(0.02)
        await quit_session(process)


async def test_the_log_names_a_player_by_the_name_they_picked(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve()
    owner, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    async with connect(port, client_keys=[owner]) as connection:
        await quit_session(await in_lobby(connection))
    async with connect(port, client_keys=[other]) as connection:  # alice is taken
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
        )
        screen = Screen(process, (100, 30))
        await screen.shows("You cannot play as alice")
        process.stdin.write("carol\r")
        await screen.shows("lobby · you are carol")
        await quit_session(process)
    async with asyncio.timeout(TIMEOUT):
        while "disconnect peer=127.0.0.1 user=carol " not in caplog.text:
            await asyncio.sleep(0.02)


async def test_computer_turns_wait_in_the_line_of_the_players_address(server):
    async with connect(server) as connection:
        process = await in_lobby(connection)
        (app,) = sessions_module.live_apps()
        assert app.thinker.player == "127.0.0.1"
        await quit_session(process)
