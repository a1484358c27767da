import pytest

from sixtui.ai.worker import Thinker
from sixtui.rules import Game
from sixtui.server.listener import start_server
from sixtui.server.names import open_name_book
from sixtui.server.settings import Settings


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
async def serve(tmp_path):
    """Starts servers with the given settings; returns their ports."""
    started, books = [], []
    thinker = Thinker()

    async def start(**settings):
        settings = Settings(host="127.0.0.1", port=0, data_dir=tmp_path, **settings)
        books.append(open_name_book(settings.data_dir))
        acceptor = await start_server(settings, thinker, books[-1])
        started.append(acceptor)
        return acceptor.sockets[0].getsockname()[1]

    yield start
    for acceptor in started:
        acceptor.close()
        await acceptor.wait_closed()
    for book in books:
        book.close()
    await thinker.close()


@pytest.fixture
async def server(serve):
    return await serve()
