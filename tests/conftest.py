import pytest

from sixtui.ai.worker import Thinker
from sixtui.rules import Game
from sixtui.server.hub import MemoryHub
from sixtui.server.listener import start_server
from sixtui.server.names import open_name_book
from sixtui.server.settings import Settings
from sixtui.server.shared import Shared


def play_turns(game: Game, *turns: str) -> None:
    """Plays whole turns, each written as its points separated by spaces ("A1 B2")."""
    for turn in turns:
        seat = game.to_move
        for point in turn.split():
            assert game.to_move == seat, f"{point} was given after {seat}'s turn ended"
            game.play(point)
        assert game.result is not None or game.to_move != seat, f"turn {turn!r} is short"


@pytest.fixture
def turns():
    return play_turns


@pytest.fixture
async def hub():
    """A memory hub, closed after the test."""
    made = MemoryHub()
    yield made
    await made.close()


class Servers:
    """Starts servers in the test's event loop: ``await servers(**settings)`` returns the
    port of a new one; ``shared[port]`` is what its connections share (its hub...)."""

    def __init__(self, data_dir) -> None:
        self.data_dir = data_dir
        self.thinker = Thinker()
        self.shared: dict[int, Shared] = {}
        self._acceptors = []

    async def __call__(self, **settings) -> int:
        settings = Settings(host="127.0.0.1", port=0, data_dir=self.data_dir, **settings)
        shared = Shared(settings, self.thinker, open_name_book(settings.data_dir))
        acceptor = await start_server(shared)
        self._acceptors.append(acceptor)
        port = acceptor.sockets[0].getsockname()[1]
        self.shared[port] = shared
        return port

    async def close(self) -> None:
        for acceptor in self._acceptors:
            acceptor.close()
            await acceptor.wait_closed()
        for shared in self.shared.values():
            await shared.close()
            shared.names.close()
        await self.thinker.close()


@pytest.fixture
async def serve(tmp_path):
    """Starts servers with the given settings; returns their ports."""
    servers = Servers(tmp_path)
    yield servers
    await servers.close()


@pytest.fixture
async def server(serve):
    return await serve()
