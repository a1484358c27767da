"""``sixtui serve --workers N``: server processes sharing one port and one Redis, one
that dies started again, all stopped together; and refused without a hub they can share."""

import asyncio
import os
import re
import signal

from sixtui.server import cli
from support.real_server import KEYS, Server, free_port, in_lobby
from support.redis_server import own_redis
from support.ssh_client import connect


async def said(server: Server, pattern: str, seconds: float = 20.0) -> re.Match:
    """The first line of the server's log that matches ``pattern``, once it is there."""
    async with asyncio.timeout(seconds):
        while True:
            found = re.search(pattern, server.said)
            if found:
                return found
            await asyncio.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_two_workers_share_the_port_and_the_lobby_and_one_that_dies_starts_again(
    tmp_path,
):
    with own_redis() as redis:
        settings = {"hub": redis.url, "workers": "2"}
        async with Server(tmp_path, settings) as server:
            for number in (1, 2):
                await said(server, rf"worker={number} listening on 127\.0\.0\.1")
            pids = {
                int(n): int(pid)
                for n, pid in re.findall(r"worker (\d) started: pid (\d+)", server.said)
            }
            assert set(pids) == {1, 2} and all(alive(pid) for pid in pids.values())
            async with (
                connect(server.port, username="ann", client_keys=[KEYS["ann"]]) as first,
                connect(server.port, username="bob", client_keys=[KEYS["bob"]]) as second,
            ):
                ann, bob = await in_lobby(first), await in_lobby(second)
                for screen in (ann, bob):
                    await screen.shows("2 here")  # wherever each landed, one lobby
            os.kill(pids[1], signal.SIGKILL)
            await said(server, r"worker 1 stopped \(status -9\): starting it again")
            again = await said(server, r"worker 1 started[\s\S]*worker 1 started: pid (\d+)")
            assert int(again[1]) != pids[1] and alive(int(again[1]))
            await said(server, r"worker=1 listening[\s\S]*worker=1 listening")
            async with connect(server.port, username="cy", client_keys=[KEYS["cy"]]) as third:
                await in_lobby(third)
            server.stop(signal.SIGTERM)
            assert await server.stopped() == 0
            assert not any(alive(pid) for pid in (int(again[1]), pids[2]))
            assert "stopped: worker 1 status 0, worker 2 status 0" in server.said
            assert "Traceback" not in server.said, server.said


def test_several_workers_without_a_hub_in_redis_are_refused_in_one_line(tmp_path, capsys):
    argv = ["serve", "--port", str(free_port()), "--data-dir", str(tmp_path), "--workers", "3"]
    assert cli.main(argv) == 2
    said_last = capsys.readouterr().err.strip().splitlines()[-1]
    assert said_last == (
        "sixtui server: workers: 3 server processes need the hub in Redis (set hub to a Redis "
        "URL): the memory hub lives in one process"
    )
