"""The SSH server end to end with asyncssh's client: a session opens the lobby on the
client's terminal, keys work, quitting ends the session; refusals are clear."""

import asyncio
import contextlib
import logging

import asyncssh
import pytest

from sixtui.server.session import NO_COMMANDS, NO_FILE_TRANSFER, NO_TERMINAL
from support.ssh_client import LOBBY, TIMEOUT, Keyless, Screen, connect, read_until


async def test_a_guest_gets_the_lobby_and_q_ends_the_session(server):
    async with connect(server) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding="utf-8"
        )
        await read_until(process, LOBBY)
        process.stdin.write("q")
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
        assert process.exit_status == 0


async def test_a_terminal_too_small_from_the_start_is_told_so_until_it_grows(server):
    async with connect(server) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(60, 20), encoding="utf-8"
        )
        await read_until(process, "It is 60×20 now.")
        process.change_terminal_size(80, 24)
        await read_until(process, LOBBY)


async def test_a_game_against_the_computer_is_played_over_ssh(server):
    async with connect(server) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
        )
        screen = Screen(process)
        await screen.shows(LOBBY)
        process.stdin.write("/play connect6\r")  # against the normal computer, at once
        seen = await screen.shows(": place")  # the guest's turn (the computer may open)
        opens = "place a stone" in seen
        process.stdin.write("/A1\r" if opens else "/A1 A2\r")
        await screen.shows("1. A1" if opens else "2. A1 A2")
        await screen.shows("2. " if opens else "3. ")  # the computer's reply
        process.stdin.write("q")
        await screen.shows("Leave this game?")
        process.stdin.write("y")
        await screen.shows(LOBBY)  # back in the lobby, the game's seat waiting a while
        process.stdin.write("q")
        await screen.shows("Your game goes on")
        process.stdin.write("y")
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
        assert process.exit_status == 0


async def test_a_session_without_a_terminal_is_told_so_and_ends_with_status_1(server):
    async with connect(server) as connection:
        process = await connection.create_process(encoding="utf-8")
        async with asyncio.timeout(TIMEOUT):
            output, errors = await process.stdout.read(), await process.stderr.read()
            await process.wait_closed()
        assert (output, errors) == ("", NO_TERMINAL)  # on stderr, as a refusal goes
        assert process.exit_status == 1


async def test_commands_and_subsystems_are_refused_saying_how_to_connect(server):
    async with connect(server) as connection:
        ran = await connection.run("cat /etc/passwd", encoding="utf-8")
        assert (ran.exit_status, ran.stdout) == (1, "")
        assert ran.stderr == NO_COMMANDS.format(how=f"ssh -p {server} HOST")
        with pytest.raises(asyncssh.SFTPError):
            await connection.start_sftp_client()
        transfer = await connection.run("scp -t /tmp", encoding="utf-8")
        assert (transfer.exit_status, transfer.stdout) == (1, "")
        assert transfer.stderr == NO_FILE_TRANSFER.format(how=f"ssh -p {server} HOST")


async def test_a_key_login_is_known_by_its_fingerprint(server, caplog):
    key = asyncssh.generate_private_key("ssh-ed25519")
    caplog.set_level(logging.INFO, logger="sixtui.server")
    async with connect(server, client_keys=[key]) as connection:
        process = await connection.create_process(term_type="xterm", term_size=(80, 24))
        await read_until(process, LOBBY)
        process.stdin.write("q")
        await process.wait_closed()
    logged = caplog.text
    assert f"method=publickey user=alice key={key.get_fingerprint('sha256')}" in logged
    assert "method=guest" not in logged


async def test_sessions_that_overlap_and_end_out_of_order_leave_stdout_alone(server):
    import sys

    original = sys.stdout, sys.stderr
    async with connect(server) as first_connection, connect(server) as second_connection:
        first = await first_connection.create_process(term_type="xterm", term_size=(80, 24))
        await read_until(first, LOBBY)
        second = await second_connection.create_process(term_type="xterm", term_size=(80, 24))
        await read_until(second, LOBBY)
        first.stdin.write("q")  # the first to start ends first
        await first.wait_closed()
        second.stdin.write("q")
        await second.wait_closed()
    await asyncio.sleep(0.1)
    assert (sys.stdout, sys.stderr) == original


async def test_connections_beyond_the_limit_are_turned_away_saying_why(serve):
    port = await serve(max_connections=1)
    async with connect(port):
        with pytest.raises(asyncssh.DisconnectError, match="the server is full"):
            async with connect(port):
                pass
    async with connect(port):  # the first one gone, there is room again
        pass


async def test_connections_from_one_address_are_limited(serve):
    port = await serve(max_per_ip=2)
    async with connect(port), connect(port):
        with pytest.raises(
            asyncssh.DisconnectError, match=r"too many connections from 127\.0\.0\.1"
        ):
            async with connect(port):
                pass


async def test_an_address_connecting_too_fast_is_closed_before_the_key_exchange(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(max_per_ip=2, connect_rate=1)  # 4 at once, then one a minute
    for _ in range(4):
        async with connect(port):
            pass
    for _ in range(20):
        with pytest.raises((ConnectionError, asyncssh.Error, OSError)):
            async with connect(port):
                pass
    assert caplog.text.count("why=too many new connections from 127.0.0.1") == 1
    assert caplog.text.count(" connect peer=127.0.0.1") == 4  # the others never got so far
    # Closed as it is accepted: asyncssh built nothing for it, not even its version line.
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    with contextlib.suppress(ConnectionError):
        async with asyncio.timeout(TIMEOUT):
            assert await reader.read() == b""
    writer.close()
    async with connect(port, local_addr=("127.0.0.2", 0)):  # another address comes in
        pass


async def test_connections_with_one_key_are_limited_and_other_keys_still_come_in(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(max_per_key=1)
    key, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    async with connect(port, client_keys=[key]):
        with pytest.raises((asyncssh.DisconnectError, asyncssh.ChannelOpenError)):
            async with connect(port, client_keys=[key]) as second:
                await second.create_process(term_type="xterm", term_size=(80, 24))
        assert "why=too many connections with this key" in caplog.text
        async with connect(port, client_keys=[other]), connect(port):  # another key, a guest
            pass


async def test_without_guests_a_keyless_client_is_refused_and_told_why(serve):
    port = await serve(allow_guests=False)
    banners = []

    class Listening(Keyless):
        def auth_banner_received(self, msg, lang):
            banners.append(msg)

    with pytest.raises(asyncssh.PermissionDenied):
        async with connect(port, client_keys=None, client_factory=Listening):
            pass
    assert banners and "SSH keys only" in banners[0]
    async with connect(port, client_keys=[asyncssh.generate_private_key("ssh-ed25519")]):
        pass


async def test_a_client_that_stops_reading_is_dropped_once_its_output_passes_the_cap(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(output_cap=2048)
    async with connect(port) as connection:
        # A small window that this client never opens again: it reads nothing.
        await connection.create_process(term_type="xterm", term_size=(200, 60), window=1024)
        async with asyncio.timeout(TIMEOUT):
            while "the client stopped reading" not in caplog.text:
                await asyncio.sleep(0.05)
    async with connect(port) as connection:  # the server is fine for everyone else
        process = await connection.create_process(term_type="xterm", term_size=(80, 24))
        await read_until(process, LOBBY)


async def test_an_idle_player_is_warned_then_let_go_and_a_key_press_keeps_them(serve):
    port = await serve(idle_timeout=1.5, idle_warning=1.0)
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm", term_size=(80, 24), encoding="utf-8"
        )
        await read_until(process, "Still there?")
        process.stdin.write("j")  # a key: the warning is off, the session stays
        await asyncio.sleep(0.4)
        assert process.exit_status is None
        seen = await read_until(process, "Still there?")  # warned again, then...
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
        assert seen and process.exit_status == 0


async def test_input_beyond_the_rate_waits_its_turn(serve):
    port = await serve(input_rate=100, key_rate=1000)  # every key counted, none dropped
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm", term_size=(80, 24), encoding="utf-8"
        )
        await read_until(process, LOBBY)
        process.stdin.write("j" * 300 + "q")  # three seconds' worth at 100 bytes a second
        await asyncio.sleep(1)
        assert process.exit_status is None  # the q is still waiting behind the rest
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
        assert process.exit_status == 0


async def test_every_kind_of_forwarding_is_refused(server):
    async with connect(server) as connection:
        with pytest.raises(asyncssh.ChannelOpenError):
            await connection.open_connection("127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelOpenError):
            await connection.open_unix_connection("/run/x.sock")
        with pytest.raises(asyncssh.ChannelListenError):
            await connection.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelListenError):
            await connection.forward_remote_path("/tmp/sixtui-test.sock", "/tmp/x")


async def test_stopping_the_server_tells_every_session_and_ends_it_cleanly(server):
    from sixtui.server.session import STOPPING, stop_sessions

    async with connect(server) as first_connection, connect(server) as second_connection:
        processes = []
        for connection in (first_connection, second_connection):
            process = await connection.create_process(
                term_type="xterm", term_size=(80, 24), encoding="utf-8"
            )
            await read_until(process, LOBBY)
            processes.append(process)
        await stop_sessions()
        for process in processes:
            seen = await read_until(process, STOPPING)
            assert seen.rindex("\x1b[?1049l") < seen.rindex(STOPPING)  # the screen put back first
            async with asyncio.timeout(TIMEOUT):
                await process.wait_closed()
            assert process.exit_status == 0


async def test_sessions_leave_the_loops_task_factory_alone_and_logins_go_on(server, monkeypatch):
    # Textual installs asyncio.eager_task_factory as an app starts (Python 3.12 and later);
    # left on the shared loop, the next SSH login hung. A stand-in shows it on any Python.
    def eager_stand_in(loop, coro, **options):
        return asyncio.Task(coro, loop=loop, **options)

    monkeypatch.setattr(asyncio, "eager_task_factory", eager_stand_in, raising=False)
    loop = asyncio.get_running_loop()
    before = loop.get_task_factory()
    async with connect(server) as first_connection:
        first = await first_connection.create_process(term_type="xterm", term_size=(80, 24))
        await read_until(first, LOBBY)
        assert loop.get_task_factory() is before
        async with connect(server) as second_connection:
            second = await second_connection.create_process(term_type="xterm", term_size=(80, 24))
            await read_until(second, LOBBY)
            second.stdin.write("q")
            await second.wait_closed()
        first.stdin.write("q")
        await first.wait_closed()
    assert loop.get_task_factory() is before


async def test_a_client_gone_silent_is_let_go_after_unanswered_keepalives(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(keepalive_interval=0.2)
    silent = asyncio.Event()

    async def pipe(reader, writer):
        while chunk := await reader.read(65536):
            if not silent.is_set():  # once silent, nothing more gets through either way
                writer.write(chunk)

    async def relay(client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

    # The client's network goes away without a word: a relay that stops passing anything on.
    relay_server = await asyncio.start_server(relay, "127.0.0.1", 0)
    async with relay_server, connect(relay_server.sockets[0].getsockname()[1]) as connection:
        process = await connection.create_process(term_type="xterm", term_size=(80, 24))
        await read_until(process, LOBBY)
        silent.set()
        async with asyncio.timeout(TIMEOUT):
            while "not responding to keepalive" not in caplog.text:
                await asyncio.sleep(0.05)
        relay_server.close()
