"""A real ``sixtui serve`` stopped the moment a game ends, by SIGKILL or SIGTERM: the
archive then holds every game whole or not at all, and ratings count exactly the games
it holds; after SIGTERM, the game that ended is in it."""

import asyncio
import os
import random
import signal
import socket
import sqlite3
import sys
from pathlib import Path

import asyncssh
import pytest

from sixtui.rules.records import GameRecord
from sixtui.server.archive import FILE_NAME as ARCHIVE_FILE
from sixtui.server.archive import Archive
from support.ssh_client import LOBBY, TIMEOUT, Screen, connect

SIXTUI = str(Path(sys.executable).with_name("sixtui"))
KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def start_server(data: Path) -> tuple[asyncio.subprocess.Process, int]:
    port = free_port()
    argv = ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)]
    server = await asyncio.create_subprocess_exec(
        SIXTUI,
        *argv,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "SIXTUI_CONFIG": ""},
    )
    async with asyncio.timeout(TIMEOUT):
        while b"connect with ssh" not in await server.stderr.readline():
            pass
    return server, port


async def in_lobby(connection) -> Screen:
    process = await connection.create_process(
        term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
    )
    screen = Screen(process)
    await screen.shows(LOBBY)
    return screen


async def stop_as_a_game_ends(
    server: asyncio.subprocess.Process, port: int, signum: int, delay: float | None
) -> int:
    """Ann challenges Bob to Connect6 on 9×9; each side plays a turn (so the game is
    rated), then Black resigns, and ``delay`` seconds after the key (``None``: once the
    end shows on White's screen) the server gets ``signum``; its exit status."""
    async with (
        connect(port, username="ann", client_keys=[KEYS["ann"]]) as first,
        connect(port, username="bob", client_keys=[KEYS["bob"]]) as second,
    ):
        ann, bob = await in_lobby(first), await in_lobby(second)
        await ann.shows("bob")
        ann.process.stdin.write("/challenge bob connect6 --size 9\r")
        await bob.shows("challenges you")
        bob.process.stdin.write("/accept ann\r")
        for screen in (ann, bob):
            await screen.shows("Game 1 · wins")
        black, white = (ann, bob) if "● ann" in ann.text else (bob, ann)
        black.process.stdin.write("/E5\r")
        await white.shows("1. E5")
        white.process.stdin.write("/A1 A2\r")
        await black.shows("2. A1 A2")
        black.process.stdin.write("r")
        await black.shows("Resign (y)")
        black.process.stdin.write("y")
        if delay is None:
            await white.shows("resigned")
        else:
            await asyncio.sleep(delay)
        server.send_signal(signum)
        async with asyncio.timeout(TIMEOUT):
            return await server.wait()


def check_whole(data: Path) -> int:
    """The number of games the archive holds, once checked whole: each with its two
    seats and a record that replays, and each rating counting exactly the games rated."""
    path = data / ARCHIVE_FILE
    archive = Archive(path)
    games = archive.count()
    for number in range(1, games + 1):
        record = archive.record(number)
        assert record is not None
        assert GameRecord.parse(record).game.result is not None
    archive.close()
    db = sqlite3.connect(path)
    seats = db.execute("SELECT count(*) FROM seats").fetchone()[0]
    rated = db.execute("SELECT count(*) FROM games WHERE rated = 1").fetchone()[0]
    counted = db.execute("SELECT games, wins + losses + draws FROM ratings").fetchall()
    db.close()
    assert seats == 2 * games
    assert all(count == rated and outcomes == rated for count, outcomes in counted)
    return games


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
async def test_a_server_stopped_as_a_game_ends_keeps_it_whole_or_not_at_all(tmp_path, signum):
    rng = random.Random(signum)
    kept = 0
    for delay in (0.0, rng.uniform(0.0, 0.02), rng.uniform(0.02, 0.1), None):
        server, port = await start_server(tmp_path)
        log = asyncio.create_task(server.stderr.read())  # read on, so that it never blocks
        try:
            status = await stop_as_a_game_ends(server, port, signum, delay)
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()
        said = (await log).decode()
        assert "Traceback" not in said, said
        games = check_whole(tmp_path)
        assert games in (kept, kept + 1)
        if signum == signal.SIGTERM:
            assert status == 0, said
            if delay is None:  # the game had ended: it was written before the server stopped
                assert games == kept + 1, said
        kept = games
