"""Online play over SSH with asyncssh's clients: every session's lobby lives in the server's
hub, and nothing of a session is left there once it has ended, however it ended; players
at a table are told when the server stops."""

import asyncio

import asyncssh
import msgpack
import pytest

from sixtui.server.challenges import CHALLENGES
from sixtui.server.lobby_copy import PEOPLE
from sixtui.server.lobby_news import NEWS
from sixtui.server.pairing import pool_queue
from sixtui.server.session import STOPPING_MID_GAME, stop_sessions
from sixtui.tui.lobby_commands import GameChoice
from support.ssh_client import LOBBY, TIMEOUT, Screen, connect

CONNECT6 = pool_queue(GameChoice("connect6").key)


async def in_lobby(connection) -> Screen:
    process = await connection.create_process(
        term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
    )
    screen = Screen(process)
    await screen.shows(LOBBY)
    return screen


async def nothing_left_of_sessions(hub) -> None:
    """Waits until the hub holds no one in the lobby, no one waiting to be paired and no
    subscription to the lobby's news."""
    async with asyncio.timeout(TIMEOUT):
        while (
            await hub.map_all(PEOPLE)
            or await hub.queue_list(CONNECT6)
            or await hub.publish(NEWS, b"") > 0
        ):
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("way", ["q", "closed", "dropped", "idle", "server stop"])
async def test_a_session_gone_leaves_nothing_in_the_hub_however_it_ended(serve, way):
    idle = {"idle_timeout": 1.5, "idle_warning": 1.0} if way == "idle" else {}
    port = await serve(**idle)
    hub = serve.shared[port].hub
    async with connect(port) as connection:
        screen = await in_lobby(connection)
        screen.process.stdin.write("/pair connect6\r")  # waiting in a pool, subscribed
        await screen.shows("you wait for Connect6")
        assert len(await hub.map_all(PEOPLE)) == 1 and len(await hub.queue_list(CONNECT6)) == 1
        if way == "q":
            screen.process.stdin.write("q")
            await screen.shows("You stop waiting to be paired.")
            screen.process.stdin.write("y")
        elif way == "closed":
            connection.close()
        elif way == "dropped":
            connection.abort()
        elif way == "server stop":
            await stop_sessions()
        await nothing_left_of_sessions(hub)  # idle: once the session is let go


async def test_stopping_the_server_tells_the_players_at_a_table(serve):
    port = await serve()
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    async with (
        connect(port, username="ann", client_keys=[keys[0]]) as first,
        connect(port, username="bob", client_keys=[keys[1]]) as second,
    ):
        screens = [await in_lobby(first), await in_lobby(second)]
        for screen in screens:
            screen.process.stdin.write("/pair connect6\r")
        for screen in screens:
            await screen.shows("Game 1 · wins")  # at the table
        await stop_sessions()
        for screen in screens:
            await screen.shows(STOPPING_MID_GAME.strip())
            async with asyncio.timeout(TIMEOUT):
                await screen.process.wait_closed()


async def test_a_player_whose_connection_drops_leaves_as_one_who_quits(serve):
    port = await serve()
    hub = serve.shared[port].hub
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    async with connect(port, username="ann", client_keys=[keys[0]]) as first:
        ann = await in_lobby(first)
        async with connect(port, username="bob", client_keys=[keys[1]]) as second:
            await in_lobby(second)
            await ann.shows("bob")
            ann.process.stdin.write("/challenge bob connect6\r")
            await ann.shows("you challenged bob")
            ann.process.stdin.write("/partner bob\r")
            await ann.shows("you asked bob to be your partner")
            second.abort()  # no goodbye: the connection is simply gone
            await ann.shows("bob has left: your invitation to partner them is withdrawn")
        assert await hub.queue_list(CHALLENGES) == []
        (entry,) = [msgpack.unpackb(value) for value in (await hub.map_all(PEOPLE)).values()]
        assert (entry["name"], entry["partner"]) == ("ann", None)
