"""Two ``sixtui serve`` processes on one Redis and one data folder, each on a port of its
own, so that the test chooses where each player lands: players on different processes
chat, pair, watch and finish a game that is archived and rated once; four make a partner
table; and a process killed mid-game leaves its players to log in to the other, back at
their table, their seats as they were."""

import re
import signal
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from sixtui.server.archive import Played, Standing, open_archive
from support.real_server import KEYS, Server, in_lobby, session
from support.redis_server import own_redis
from support.ssh_client import LOBBY, Screen, connect

RATINGS = re.compile(r"Rating +(\d{4}\?) +(\d{4}\?)")  # the players' after a game
SEAT = re.compile(r"([●○]) (\w+)  \d{4}")  # a seat at the table, as the panel lists it


@asynccontextmanager
async def two_servers(data: Path) -> AsyncIterator[tuple[Server, Server, AsyncExitStack]]:
    """Two servers on one Redis of the test's own and the data folder ``data``, and a stack
    for the players' connections, closed before the servers stop."""
    with own_redis() as redis:
        settings = {"hub": redis.url}
        async with (
            Server(data, settings) as first,
            Server(data, settings) as second,
            AsyncExitStack() as stack,
        ):
            yield first, second, stack
        for server in (first, second):
            assert "Traceback" not in server.said, server.said


async def player(stack: AsyncExitStack, server: Server, name: str) -> Screen:
    """``name``'s screen in the lobby of ``server``, logged in with their key."""
    connection = await stack.enter_async_context(
        connect(server.port, username=name, client_keys=[KEYS[name]])
    )
    return await in_lobby(connection)


async def back(stack: AsyncExitStack, server: Server, name: str) -> Screen:
    """``name``'s screen, logged in again with their key to ``server``, once something
    is drawn on it."""
    connection = await stack.enter_async_context(
        connect(server.port, username=name, client_keys=[KEYS[name]])
    )
    return await session(connection)


async def type_line(screen: Screen, line: str) -> None:
    screen.process.stdin.write(f"{line}\r")


def archived(data: Path, name: str) -> tuple[int, list[Played], list[Standing]]:
    """How many games the archive in ``data`` holds, and ``name``'s games and ratings."""
    archive = open_archive(data)
    try:
        found = archive.player(name)
        assert found is not None, f"no game of {name} archived"
        return archive.count(), archive.recent(found[0]), archive.standings(found[0])
    finally:
        archive.close()


async def test_players_on_two_processes_chat_pair_watch_and_play_a_game_archived_once(tmp_path):
    async with two_servers(tmp_path) as (first, second, stack):
        ann = await player(stack, first, "ann")
        bob, cy = [await player(stack, second, name) for name in ("bob", "cy")]
        for screen in (ann, bob, cy):
            await screen.shows("3 here")
        await type_line(ann, "/say hello from the first")
        await bob.shows("ann: hello from the first")
        for screen in (ann, bob):
            await type_line(screen, "/pair connect6")
        for screen in (ann, bob):
            await screen.shows("Game 1 · wins")
        black, white = (ann, bob) if "● ann" in ann.text else (bob, ann)
        await type_line(cy, "/watch ann")
        await cy.shows("Game 1 · wins")
        turns = [
            (black, "E5", "1. E5"),
            (white, "A1 A2", "2. A1 A2"),
            (black, "E4 E6", "3. E4 E6"),
            (white, "A3 A4", "4. A3 A4"),
            (black, "E3 E7", "5. E3 E7"),
            (white, "B1 B2", "6. B1 B2"),
            (black, "E2 E8", "six in a row"),
        ]
        for mover, turn, shown in turns:
            await type_line(mover, f"/{turn}")
            other = white if mover is black else black
            await other.shows(shown)
            await cy.shows(shown)
        for screen in (ann, bob):
            await screen.shows("Archived as game 1")
        found = RATINGS.search(black.text)  # as the result shows them
        assert found is not None and "1500?" not in found.groups()
        ratings = found.groups()
        for screen in (ann, bob, cy):
            screen.process.stdin.write("q")
        await ann.shows(LOBBY)
        await type_line(ann, "/pair connect6")  # her rating shown beside her as she waits
        rating = ratings[0 if black is ann else 1]
        for screen in (ann, bob, cy):  # whichever process wrote the game
            await screen.shows(f"ann          {rating}")
    count, (game,), (standing,) = archived(tmp_path, "ann")
    assert count == 1 and game.status == "finished" and game.rated
    assert game.outcome == ("won" if black is ann else "lost")
    assert standing.rating.games == 1  # rated once, though two processes archive


async def partners(first: Screen, second: Screen, first_name: str, second_name: str) -> None:
    await first.shows(second_name)
    await type_line(first, f"/partner {second_name}")
    await second.shows(f"{first_name} asks")
    await type_line(second, f"/partner {first_name}")
    for screen, partner in ((first, second_name), (second, first_name)):
        await screen.shows(f"partner {partner} ·")


async def test_four_on_two_processes_share_a_partner_table_and_a_killed_process_costs_no_seat(
    tmp_path,
):
    async with two_servers(tmp_path) as (first, second, stack):
        ann, cy = [await player(stack, first, name) for name in ("ann", "cy")]
        bob, dee = [await player(stack, second, name) for name in ("bob", "dee")]
        await partners(ann, bob, "ann", "bob")
        await partners(cy, dee, "cy", "dee")
        await type_line(ann, "/pair six --players 4")
        await type_line(cy, "/pair six --players 4")
        for screen in (ann, bob, cy, dee):
            await screen.shows("Game 1 · wins")
        seats = SEAT.findall(ann.text)
        players = {"ann": ann, "bob": bob, "cy": cy, "dee": dee}
        await type_line(players[seats[0][1]], "/0,0")
        for screen in (ann, bob, cy, dee):
            await screen.shows("1. 0,0")
        first.stop(signal.SIGKILL)
        await first.stopped()
        for screen in (bob, dee):  # the seats of ann and cy enter their window
            await screen.shows("ann  away")
            await screen.shows("cy  away")
        ann, cy = [await back(stack, second, name) for name in ("ann", "cy")]
        for screen in (ann, bob, cy, dee):
            await screen.shows("1. 0,0")
            await screen.no_longer_shows("away")
            assert SEAT.findall(screen.text) == seats
        players = {"ann": ann, "bob": bob, "cy": cy, "dee": dee}
        await type_line(players[seats[1][1]], "/1,0")
        for screen in players.values():
            await screen.shows("2. 1,0")
