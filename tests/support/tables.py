"""Shared tables in tests: seat holders, intents sent as a player would, and a clock the
tests move by hand."""

from sixtui.server.hub import Hub
from sixtui.server.intents import Intent
from sixtui.server.rooms import Outcome, open_table, read_table, submit
from sixtui.server.table_state import SeatHolder, TableState

ANN, BOB, CAT, DAN = (SeatHolder(name, f"key-{name}") for name in ("Ann", "Bob", "Cat", "Dan"))
# Black makes six in a row on 9×9, H5 last; in Game of 6 White's dots enclose nothing.
ROW_WIN = ["E5", "A1 A2", "F5 G5", "B1 B2", "C5 D5", "C1 C2", "H5"]
# Team 0 of four-player Six makes a row along r=0 while team 1 lines up beside it.
SIX_ROW_FOR_FOUR = [
    "0,0",
    "0,-1",
    "1,0",
    "1,-1",
    "2,0",
    "2,-1",
    "3,0",
    "3,-1",
    "4,0",
    "4,-1",
    "5,0",
]


class Clock:
    """Wall-clock time that moves only when a test says so."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def connect6(hub: Hub, **options) -> str:
    """A table of Connect6 on 9×9 where Ann opens against Bob."""
    return await open_table(hub, "connect6", {"size": 9}, [[ANN], [BOB]], opener=0, **options)


async def against_the_computer(hub: Hub, computers) -> str:
    """A Connect6 table (9×9) where Ann opens against Hal, an easy computer ``computers``
    keeps playing."""
    hal = SeatHolder("Hal", level="easy")
    sides = [[ANN], [hal]]
    return await open_table(hub, "connect6", {"size": 9}, sides, opener=0, computers=computers)


async def state_of(hub: Hub, table: str) -> TableState:
    state = await read_table(hub, table)
    assert state is not None
    return state


async def send(
    hub: Hub, table: str, who: SeatHolder | str, kind: str, *moves: str, version=None, clock=None
) -> Outcome:
    """Submits ``kind`` from ``who`` on the version the table is at (or ``version``)."""
    identity = who if isinstance(who, str) else who.identity
    if version is None:
        version = (await state_of(hub, table)).version
    data = Intent(kind, version, identity, tuple(moves)).to_bytes()
    return await submit(hub, table, data, *([clock] if clock else []))


async def both_ask_next(hub: Hub, table: str) -> Outcome:
    """A player of each side asks for the next game: the second asking begins it."""
    sides = (await state_of(hub, table)).sides
    await send(hub, table, sides[0][0], "next-game")
    return await send(hub, table, sides[1][0], "next-game")


async def play_turns(hub: Hub, table: str, turns, clock=None) -> None:
    """Plays whole turns, each written as its moves separated by spaces, from the seat to
    move (at the time ``clock`` gives, when given)."""
    for turn in turns:
        state = await state_of(hub, table)
        mover = state.holder_at(state.load().to_move)
        outcome = await send(hub, table, mover, "turn", *turn.split(), clock=clock)
        assert hasattr(outcome, "state"), outcome


class FirstMoves:
    """Stands in for the worker pool: the first legal moves of the turn, at once (only the
    first of them, ``short``)."""

    def __init__(self, short: bool = False) -> None:
        self.asked: list[tuple[str, int]] = []  # (the line it waited in, moves played)
        self.short = short

    def for_player(self, player):
        thinker = self

        class Line:
            async def think(self, game, level="normal", seconds=None, seed=None):
                thinker.asked.append((player, len(game.history)))
                trial, moves = game.copy(), []
                while not trial.is_over and (not moves or trial.to_move == game.to_move):
                    moves.append(trial.legal_moves()[0])
                    trial.play(moves[-1])
                return moves[:1] if thinker.short else moves

        return Line()
