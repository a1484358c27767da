"""A real ``sixtui serve`` stopped the moment a game ends, by SIGKILL or SIGTERM: the
archive then holds every game whole or not at all, and ratings count exactly the games
it holds; after SIGTERM, the game that ended is in it, and once the server has started
again, every game whose end a player saw, whatever stopped it."""

import asyncio
import random
import signal
import sqlite3
from pathlib import Path

import asyncssh
import pytest

from sixtui.rules.records import GameRecord
from sixtui.server.archive import FILE_NAME as ARCHIVE_FILE
from sixtui.server.archive import Archive
from support.real_server import Server, in_lobby
from support.ssh_client import connect


async def stop_as_a_game_ends(server: Server, signum: int, delay: float | None) -> int:
    """Two new players (a game of theirs that a stop left in progress would take the
    last ones back to it) meet: one challenges the other to Connect6 on 9×9; each side
    plays a turn (so the game is rated), then Black resigns, and ``delay`` seconds after
    the key (``None``: once the end shows on White's screen) the server gets ``signum``;
    its exit status."""
    names = [f"{name}{server.port}" for name in ("ann", "bob")]
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in names]
    async with (
        connect(server.port, username=names[0], client_keys=[keys[0]]) as first,
        connect(server.port, username=names[1], client_keys=[keys[1]]) as second,
    ):
        ann, bob = await in_lobby(first), await in_lobby(second)
        await ann.shows(names[1])
        ann.process.stdin.write(f"/challenge {names[1]} connect6 --size 9\r")
        await bob.shows("challenges you")
        bob.process.stdin.write(f"/accept {names[0]}\r")
        for screen in (ann, bob):
            await screen.shows("Game 1 · wins")
        black, white = (ann, bob) if f"● {names[0]}" in ann.text else (bob, ann)
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
        server.stop(signum)
        return await server.stopped()


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
    rated = dict(
        db.execute(
            "SELECT identity, count(*) FROM seats JOIN games ON games.id = game_id"
            " WHERE rated = 1 GROUP BY identity"
        ).fetchall()
    )
    counted = db.execute("SELECT identity, games, wins + losses + draws FROM ratings").fetchall()
    db.close()
    assert seats == 2 * games
    assert {who: count for who, count, _ in counted if count} == rated
    assert all(count == outcomes for _, count, outcomes in counted)
    return games


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
async def test_a_server_stopped_as_a_game_ends_keeps_it_whole_or_not_at_all(tmp_path, signum):
    rng = random.Random(signum)
    kept = 0
    seen_ended = 0  # games whose end a player saw
    for number, delay in enumerate((0.0, rng.uniform(0.0, 0.02), rng.uniform(0.02, 0.1), None)):
        async with Server(tmp_path) as server:
            status = await stop_as_a_game_ends(server, signum, delay)
        assert "Traceback" not in server.said, server.said
        seen_ended += delay is None
        games = check_whole(tmp_path)
        assert (
            kept <= games <= number + 1
        )  # a game ended before a kill is archived at the next start
        if signum == signal.SIGTERM:
            assert status == 0, server.said
            assert games >= seen_ended, server.said  # written before the server stopped
        kept = games
    async with Server(tmp_path):
        pass  # started again: what ended before the last stop is archived as it starts
    assert check_whole(tmp_path) >= seen_ended
