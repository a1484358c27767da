"""A real ``sixtui serve`` stopped in the middle of a game, by SIGTERM or by SIGKILL, and
started again on the same data folder: both players log in again with their keys and are
back at their table, every confirmed turn there, the clock as it stood, and play on."""

import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.real_server import KEYS, Server, ann_challenges_bob, in_lobby, session
from support.redis_server import own_redis
from support.ssh_client import connect

SIGNALS = [signal.SIGTERM, signal.SIGKILL]


async def stop_mid_game(data: Path, signum: int, settings: dict[str, str]) -> tuple[str, str]:
    """Ann challenges Bob to Connect6 on 9×9 with a clock; two turns are played and a stone
    of the third is staged on Black's board, not sent; then the server gets ``signum``.
    Returns who plays Black and what Black's session was told as it ended."""
    async with (
        Server(data, settings) as server,
        connect(server.port, username="ann", client_keys=[KEYS["ann"]]) as first,
        connect(server.port, username="bob", client_keys=[KEYS["bob"]]) as second,
    ):
        ann, bob = await in_lobby(first), await in_lobby(second)
        black, white = await ann_challenges_bob(ann, bob, "--clock 5+5")
        black.process.stdin.write("/E5\r")
        await white.shows("1. E5")
        white.process.stdin.write("/A1 A2\r")
        await black.shows("2. A1 A2")
        black.process.stdin.write("\x1b[B\r")  # a stone staged a point down from E5
        await black.shows("E4 goes to the table")
        server.stop(signum)
        status = await server.stopped()
        farewell = await black.process.stdout.read() if signum == signal.SIGTERM else ""
    assert "Traceback" not in server.said, server.said
    if signum == signal.SIGTERM:
        assert status == 0, server.said
    return ("ann" if black is ann else "bob"), farewell


@contextlib.contextmanager
def hub_settings(hub: str) -> Iterator[dict[str, str]]:
    """The settings of a server whose hub is kept on disk (the default) or in a Redis of
    the test's own."""
    if hub == "memory":
        yield {}
        return
    with own_redis() as redis:
        yield {"hub": redis.url}


@pytest.mark.parametrize("hub", ["memory", "redis"])
@pytest.mark.parametrize("signum", SIGNALS, ids=["SIGTERM", "SIGKILL"])
async def test_players_are_back_at_their_table_after_the_server_restarts(tmp_path, signum, hub):
    with hub_settings(hub) as settings:
        await play_on_after_a_restart(tmp_path, signum, settings)


async def play_on_after_a_restart(tmp_path: Path, signum: int, settings: dict[str, str]) -> None:
    black_name, farewell = await stop_mid_game(tmp_path, signum, settings)
    if signum == signal.SIGTERM:
        assert "your game is kept" in farewell
    async with Server(tmp_path, settings) as server:
        assert "games in progress, waiting for their players: 1" in server.said
        async with (
            connect(server.port, username="ann", client_keys=[KEYS["ann"]]) as first,
            connect(server.port, username="bob", client_keys=[KEYS["bob"]]) as second,
        ):
            screens = {"ann": await session(first), "bob": await session(second)}
            for screen in screens.values():
                await screen.shows("2. A1 A2")  # straight back at the table, both turns there
            black = screens[black_name]
            white = screens["bob" if black_name == "ann" else "ann"]
            assert "3." not in black.text and "E4 goes" not in black.text  # never a turn
            seat = f"● {black_name}"
            black_clock = next(line for line in black.text.splitlines() if seat in line)
            assert " 4:5" in black_clock or " 5:00" in black_clock  # the outage not counted
            black.process.stdin.write("/F5 G5\r")
            await white.shows("3. F5 G5")
    assert "Traceback" not in server.said, server.said


async def test_a_data_folder_with_damaged_hub_files_still_starts(tmp_path):
    (tmp_path / "hub.snapshot").write_bytes(b"\x00\x00\x00\x09not msgpack at all")
    (tmp_path / "hub.journal").write_bytes(b"\xff" * 40)
    async with (
        Server(tmp_path) as server,
        connect(server.port, username="ann", client_keys=[KEYS["ann"]]) as first,
    ):
        await in_lobby(first)
    assert "Traceback" not in server.said, server.said
    assert "[conn=" not in server.said  # asyncssh's own lines, eight a connection, left out
    assert "auth peer=127.0.0.1 method=publickey user=ann" in server.said
    assert "hub.snapshot.damaged-" in server.said and "hub.journal.damaged-" in server.said
    aside = sorted(path.name.split(".damaged-")[0] for path in tmp_path.glob("*.damaged-*"))
    assert aside == ["hub.journal", "hub.snapshot"]
